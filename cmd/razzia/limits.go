package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/razziagame/razzia/internal/analysis"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/table"
)

// limitSet holds the limit flags of razzia serve while they are parsed:
// each has its default from httpapi.DefaultOptions or table.DefaultLimits
// (one source for each), taken from the environment when set there
// (RAZZIA_ and the flag's name in capitals, - as _).
type limitSet struct {
	createRate, joinRate       float64 // a minute, as the flags say
	registerRate, ceremonyRate float64 // a minute
	envErrs                    []error
}

// envName is the variable of the environment for a flag.
func envName(flagName string) string {
	return "RAZZIA_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// fromEnv returns the environment's value for the flag parsed by parse,
// or def when it is unset.
func fromEnv[T any](l *limitSet, name string, def T, parse func(string) (T, error)) T {
	v, ok := os.LookupEnv(envName(name))
	if !ok || v == "" {
		return def
	}
	x, err := parse(v)
	if err != nil {
		l.envErrs = append(l.envErrs, fmt.Errorf("%s=%s: %v", envName(name), v, err))
		return def
	}
	return x
}

func parseFloat(s string) (float64, error) { return strconv.ParseFloat(s, 64) }

// limitFlags registers the flags of the server's limits on fs.
func limitFlags(fs *flag.FlagSet, cfg *serveConfig) *limitSet {
	l := &limitSet{}
	api, lim := httpapi.DefaultOptions(), table.DefaultLimits()
	dur := func(p *time.Duration, name string, def time.Duration, usage string) {
		fs.DurationVar(p, name, fromEnv(l, name, def, time.ParseDuration), usage)
	}
	num := func(p *int, name string, def int, usage string) {
		fs.IntVar(p, name, fromEnv(l, name, def, strconv.Atoi), usage)
	}
	frac := func(p *float64, name string, def float64, usage string) {
		fs.Float64Var(p, name, fromEnv(l, name, def, parseFloat), usage)
	}
	a, t := &cfg.api, &cfg.limits
	frac(&l.createRate, "create-rate", api.CreateRate*60, "tables one client address may create a minute, after a burst of --create-burst")
	num(&a.CreateBurst, "create-burst", api.CreateBurst, "tables one client address may create at once")
	frac(&l.joinRate, "join-rate", api.JoinRate*60, "seats one client address may take a minute, after a burst of --join-burst")
	num(&a.JoinBurst, "join-burst", api.JoinBurst, "seats one client address may take at once")
	frac(&l.registerRate, "register-rate", api.RegisterRate*60, "accounts one client address may register a minute, after a burst of --register-burst")
	num(&a.RegisterBurst, "register-burst", api.RegisterBurst, "accounts one client address may register at once")
	frac(&l.ceremonyRate, "passkey-rate", api.CeremonyRate*60, "passkey ceremonies (registering or signing in with a passkey) one client address may start a minute, after a burst of --passkey-burst")
	num(&a.CeremonyBurst, "passkey-burst", api.CeremonyBurst, "passkey ceremonies one client address may start at once")
	num(&t.MaxPerClient, "max-tables-per-client", lim.MaxPerClient, "tables one client address may hold at once: waiting for players, or games of bots under way")
	num(&t.MaxOpen, "max-open-tables", lim.MaxOpen, "tables waiting for players at once, from all clients")
	num(&t.MaxBotGames, "max-bot-games", lim.MaxBotGames, "games of bots only under way at once")
	dur(&t.OpenTTL, "open-ttl", lim.OpenTTL, "how long a table waits for players after its last seat taken before it expires")
	num(&t.BotWorkers, "bot-workers", lim.BotWorkers, "bots thinking at once over all games: the cores the bots may take (the default is the cores less one)")
	num(&cfg.analyst.Workers, "analysis-workers", 1, "finished games analysed at once in the background, while the bots leave a --bot-workers worker free (0: none)")
	num(&cfg.analyst.Iterations, "analysis-iterations", analysis.DefaultIterations, "search iterations per decision of a game's analysis")
	num(&cfg.puzzleWorkers, "puzzle-workers", 1, "analysed games searched for puzzles at once in the background, at expert's budget, while the bots leave a --bot-workers worker free (0: none)")
	num(&a.MaxConns, "max-conns-per-client", api.MaxConns, "WebSockets one client address may hold at once")
	num(&t.MaxSpectators, "max-spectators", lim.MaxSpectators, "spectators of one game at once")
	frac(&t.SeatMoveRate, "seat-move-rate", lim.SeatMoveRate, "moves one seat may send a second over all its connections, after a burst of --seat-move-burst")
	num(&t.SeatMoveBurst, "seat-move-burst", lim.SeatMoveBurst, "moves one seat may send at once")
	frac(&a.MessageRate, "message-rate", api.MessageRate, "messages one WebSocket may send a second, after a burst of --message-burst")
	num(&a.MessageBurst, "message-burst", api.MessageBurst, "messages one WebSocket may send at once")
	dur(&a.PingInterval, "ws-ping", api.PingInterval, "how often a WebSocket is pinged")
	dur(&a.PongTimeout, "ws-pong-timeout", api.PongTimeout, "how long a ping may go unanswered before the connection is cut")
	dur(&a.IdleTimeout, "ws-idle", api.IdleTimeout, "how long a WebSocket may pass nothing but pings before it is closed")
	dur(&a.ReadTimeout, "read-timeout", api.ReadTimeout, "how long reading a request may take, body included")
	dur(&a.WriteTimeout, "write-timeout", api.WriteTimeout, "how long writing an answer may take")
	dur(&a.KeepAlive, "keep-alive", api.KeepAlive, "how long an idle keep-alive HTTP connection is kept")
	return l
}

// finish checks the limits once the flags are parsed: every one positive.
func (l *limitSet) finish(cfg *serveConfig) error {
	if len(l.envErrs) > 0 {
		return errors.Join(l.envErrs...)
	}
	a, t := &cfg.api, &cfg.limits
	a.CreateRate, a.JoinRate = l.createRate/60, l.joinRate/60
	a.RegisterRate, a.CeremonyRate = l.registerRate/60, l.ceremonyRate/60
	for name, v := range map[string]float64{
		"--create-rate": l.createRate, "--join-rate": l.joinRate, "--seat-move-rate": t.SeatMoveRate, "--message-rate": a.MessageRate,
		"--register-rate": l.registerRate, "--passkey-rate": l.ceremonyRate,
	} {
		if v <= 0 {
			return fmt.Errorf("%s %g: want a rate above 0", name, v)
		}
	}
	for name, v := range map[string]int{
		"--create-burst": a.CreateBurst, "--join-burst": a.JoinBurst, "--max-tables-per-client": t.MaxPerClient,
		"--max-open-tables": t.MaxOpen, "--max-bot-games": t.MaxBotGames, "--bot-workers": t.BotWorkers,
		"--max-conns-per-client": a.MaxConns, "--max-spectators": t.MaxSpectators, "--seat-move-burst": t.SeatMoveBurst,
		"--message-burst": a.MessageBurst, "--register-burst": a.RegisterBurst, "--passkey-burst": a.CeremonyBurst,
	} {
		if v <= 0 {
			return fmt.Errorf("%s %d: want 1 or more", name, v)
		}
	}
	if w := cfg.analyst.Workers; w < 0 {
		return fmt.Errorf("--analysis-workers %d: want 0 or more", w)
	}
	if w := cfg.puzzleWorkers; w < 0 {
		return fmt.Errorf("--puzzle-workers %d: want 0 or more", w)
	}
	if it := cfg.analyst.Iterations; it < 1 || it > analysis.MaxIterations {
		return fmt.Errorf("--analysis-iterations %d: want 1 to %d", it, analysis.MaxIterations)
	}
	for name, v := range map[string]time.Duration{
		"--open-ttl": t.OpenTTL, "--ws-ping": a.PingInterval, "--ws-pong-timeout": a.PongTimeout, "--ws-idle": a.IdleTimeout,
		"--read-timeout": a.ReadTimeout, "--write-timeout": a.WriteTimeout, "--keep-alive": a.KeepAlive,
	} {
		if v <= 0 {
			return fmt.Errorf("%s %v: want a duration above 0", name, v)
		}
	}
	return nil
}
