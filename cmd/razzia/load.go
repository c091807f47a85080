package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/razziagame/razzia/internal/loadgen"
)

const loadSynopsis = `
usage: razzia load --server URL[,URL...] [flags]

Load puts running Razzia servers under the load of many games at once and
measures how long a move takes to reach the players. It creates --tables
tables of --seats seats, seats their players as WebSocket clients spread
over the servers (table t is created on server t, its seat s plays through
server t+s, counting round the list, so that with several nodes the players
of one table sit on different nodes), plays random legal moves at --rate
per table for --duration, and reports:

  - the moves made, the games, the connections and the errors by code;
  - the move-to-broadcast latency (p50, p90, p99, max): from the moment a
    client sends a move to the moment each client of its table receives
    the state that contains it, for clients on the sender's node and on
    other nodes apart;
  - with --echo, the round trip of a bare WebSocket echo that the load
    runs itself (same library, same message sizes, the same clients at the
    same rate), and each latency's p99 over the echo's.

With --bots, server bots take --bot-seats seats of each table (run the
server with --bot-delay 0 to see bots play with no delay): their moves are
measured from the previous state's game.updated (when the server asked
the bot) and from their own commit, by the servers' clocks, so these
figures hold when the servers run on the load's machine.

A table whose game ends starts another. The load raises its own limit of
open files; the servers need theirs raised as well (about one file per
client). Per-address limits of the servers (message rates, connections)
apply to the load too: refused messages are counted by code.

Examples:
  razzia load --server http://localhost:8080 --tables 1000 --rate 1/s --duration 1m --echo
  razzia load --server http://a:8080,http://b:8080 --tables 100 --bots hard --json
  razzia load --server http://localhost:8080 --tables 1000 --rate max --duration 30s

Exit status: 0 after a run, 1 when a server cannot be reached or the tables
cannot be set up, 2 for a usage error, 130 or 143 when the run is
interrupted by SIGINT (Ctrl-C) or SIGTERM (the report is still printed).
`

// runLoad is the load command; SIGINT or SIGTERM ends the run early.
func runLoad(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signalContext(nil)
	defer stop()
	status := loadContext(ctx, args, stdout, stderr)
	if status == 1 && ctx.Err() != nil {
		return ctx.status()
	}
	return status
}

func loadContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("load")
	var (
		cfg     loadgen.Config
		servers = fs.String("server", "", "the servers' `URLs`, comma-separated, such as http://localhost:8080")
		rate    = fs.String("rate", "1/s", "the `rate` of each table's moves: 1/s, 30/m, 0.5 (a second), or max (0) for as fast as the game allows")
		asJSON  = fs.Bool("json", false, "print the report as JSON")
	)
	fs.IntVar(&cfg.Tables, "tables", 100, "how many tables play at once")
	fs.IntVar(&cfg.Seats, "seats", 4, "the seats at each table, 2 to 5")
	fs.StringVar(&cfg.Bots, "bots", "", "the `level` of server bots at some seats of each table (see --bot-seats); none by default")
	fs.IntVar(&cfg.BotSeats, "bot-seats", 0, "how many seats of each table are bots' (default half the seats, with --bots)")
	fs.DurationVar(&cfg.Duration, "duration", 30*time.Second, "how long the tables play")
	fs.IntVar(&cfg.Moves, "moves", 0, "stop each table after so many moves (0: no limit; with --duration 0, the only limit)")
	fs.BoolVar(&cfg.Echo, "echo", false, "also measure a bare WebSocket echo in the same run")
	positional, status, done := parseFlags(fs, loadSynopsis, args, stdout, stderr)
	if done {
		return status
	}
	if len(positional) > 0 {
		return usageError(stderr, fs, loadSynopsis, "unexpected argument %q", positional[0])
	}
	for _, s := range strings.Split(*servers, ",") {
		if s = strings.TrimSpace(s); s != "" {
			cfg.Servers = append(cfg.Servers, s)
		}
	}
	if cfg.Bots != "" && cfg.BotSeats == 0 {
		cfg.BotSeats = cfg.Seats / 2
	}
	var err error
	if cfg.Rate, err = loadgen.ParseRate(*rate); err == nil {
		err = cfg.Check()
	}
	if err != nil {
		return usageError(stderr, fs, loadSynopsis, "%s", strings.TrimPrefix(err.Error(), loadgen.ErrConfig.Error()+": "))
	}
	if os.Getenv("GOGC") == "" {
		// Collect a quarter as often: the load's own collections, every few
		// seconds at thousands of connections, would show in its p99.
		debug.SetGCPercent(400)
	}
	cfg.Progress = func(format string, args ...any) {
		fmt.Fprintf(stderr, "razzia load: "+format+"\n", args...)
	}
	rep, err := loadgen.Run(ctx, cfg)
	if rep == nil {
		return runFailed(stderr, "load", netError(err), 1)
	}
	if *asJSON {
		rep.WriteJSON(stdout)
	} else {
		rep.WriteText(stdout)
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			err = errors.New("interrupted: the report covers the run until then")
		}
		fmt.Fprintf(stderr, "razzia load: %v\n", netError(err))
		return 1
	}
	return 0
}
