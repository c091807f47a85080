package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/botexec"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
)

const botSynopsis = `
usage: razzia bot (--invite LINK | --server URL --game ID) --exec COMMAND [flags]

Bot plays a seat of a game on a Razzia server with a program in any
language: the same program, speaking the same line protocol
(docs/bots.md), that "razzia arena" accepts as an exec: seat. Razzia joins
the game under --name (or rejoins a seat with --token), follows it over the
server's WebSocket, asks the program for a move whenever the seat is to
move and sends it; it reconnects by itself when the connection drops, and
stops when the game is over, printing the result.

The invite is the table's link (http://host:8080/g/k3x7q2m5ab), which also
names the server, or its path or game id together with --server.

Before anything is asked of the server, the program is asked one question
(the first move of a game): one that cannot be run, ends or does not
answer within --bot-timeout is reported in one line, with exit status 2.
Then the program runs for the whole game. One that crashes, takes longer
than --bot-timeout or answers with a malformed or illegal move loses that
decision only: a safe move is sent for it (pass in an auction, or the
lowest bid where it must bid; otherwise draw) and a line on standard error
says so; a crashed or hung program is started afresh for its next
decision. The program's standard error, and the lines of its standard
output that answer nothing, are passed through, prefixed.

Examples:
  razzia bot --invite http://localhost:8080/g/k3x7q2m5ab --exec "python3 examples/bot.py"
  razzia bot --server http://localhost:8080 --game k3x7q2m5ab --exec ./mybot --name Ada --seat 2

Exit status: 0 when the game is over, 1 when the server cannot be reached
or refuses the seat, 2 for a usage error or a program that cannot play,
130 or 143 when ctrl+c (SIGINT) or SIGTERM stops it.
`

// runBot is the bot command; it stops at the end of the game or on
// SIGINT or SIGTERM.
func runBot(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signalContext(nil)
	defer stop()
	status := botContext(ctx, args, stdout, stderr)
	if ctx.Err() != nil && status == 1 {
		return ctx.status() // 130 after ctrl+c, as a shell expects
	}
	return status
}

// botConfig is what the flags say.
type botConfig struct {
	server, id, token, name string
	seat                    int
	timeout                 time.Duration
	backoff                 func(int) time.Duration // nil: the protocol's
}

// botContext is runBot until ctx is done, so tests can stop it.
func botContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("bot")
	server := fs.String("server", "", "the server's `URL`, such as http://localhost:8080 (not needed with a full invite link)")
	invite := fs.String("invite", "", "the table's invite `LINK` (http://host/g/ID), its path or the game id")
	game := fs.String("game", "", "the game `ID` (instead of --invite)")
	command := fs.String("exec", "", "the bot program and its arguments, split like a shell would: `COMMAND`")
	name := fs.String("name", "", "the seat's display `name` (default: the program's name)")
	seat := fs.Int("seat", 0, "the seat to take, from 1; 0 takes the first open one")
	token := fs.String("token", "", "rejoin the seat this `token` holds instead of joining")
	timeout := fs.Duration("bot-timeout", botexec.DefaultTimeout, "the time the program has for one decision")
	seed := fs.Uint64("seed", 0, "the seed the program is given (default: random)")
	rest, status, done := parseFlags(fs, botSynopsis, args, stdout, stderr)
	if done {
		return status
	}
	fail := func(format string, args ...any) int {
		return usageError(stderr, fs, botSynopsis, format, args...)
	}
	stderr = newConsole(stderr) // the program's standard error comes from another goroutine
	cfg := botConfig{server: *server, token: *token, name: *name, seat: *seat - 1, timeout: *timeout}
	switch {
	case len(rest) > 0:
		return fail("unexpected argument %q", rest[0])
	case strings.TrimSpace(*command) == "":
		return fail("give the bot program with --exec, such as --exec \"python3 examples/bot.py\"")
	case *invite != "" && *game != "":
		return fail("give --invite or --game, not both")
	case *invite == "" && *game == "":
		return fail("give the game with --invite LINK or --game ID")
	case *timeout <= 0 || *timeout > bot.MaxTime:
		return fail("--bot-timeout %v: want a duration from 1ms to %v, such as 5s", *timeout, bot.MaxTime)
	case *seat < 0:
		return fail("--seat %d: seats count from 1 (0: the first open one)", *seat)
	case *token != "" && (*name != "" || *seat > 0):
		return fail("--token rejoins a seat that has its name: leave out --name and --seat")
	}
	if err := cfg.findGame(*invite + *game); err != nil {
		return fail("%v", err)
	}
	c, err := client.New(cfg.server)
	if err != nil {
		return fail("--server: %v", err)
	}
	if cfg.name == "" {
		cfg.name = programName(*command)
	}
	if *seed == 0 {
		*seed = rand.Uint64()
	}
	// The program is tried before anything is asked of the server.
	opts := botexec.Options{Timeout: *timeout, Stderr: stderr}
	if err := botexec.Check(*command, razzia.MinPlayers, opts); err != nil {
		fmt.Fprintf(stderr, "razzia bot: --exec %s: %v\n", *command, err)
		return 2
	}
	opts.Game = cfg.id
	b, err := botexec.New(*command, *seed, opts)
	if err != nil {
		return fail("--exec: %v", err) // not reached: Check found the program
	}
	defer b.Close()
	return playServer(ctx, c, cfg, b, stdout, stderr)
}

// programName names a seat after the program: the last word that looks
// like a file (with a directory or an extension), else the first word,
// without directory and extension: "python3 bots/ada.py" is "ada".
func programName(command string) string {
	words := strings.Fields(strings.NewReplacer(`"`, " ", `'`, " ").Replace(command))
	pick := ""
	for _, w := range words {
		if !strings.HasPrefix(w, "-") && (pick == "" || strings.ContainsAny(w, `/\.`)) {
			pick = w
		}
	}
	base := filepath.Base(pick)
	if n := strings.TrimSuffix(base, filepath.Ext(base)); pick != "" && n != "" && len(n) <= 64 {
		return n
	}
	return "Bot"
}

// playServer plays the seat until the game is over.
func playServer(ctx context.Context, c *client.Client, cfg botConfig, b *botexec.Bot, stdout, stderr io.Writer) int {
	logf := func(format string, args ...any) {
		fmt.Fprintf(stderr, "razzia bot: "+format+"\n", args...)
	}
	token, err := joinServer(ctx, c, cfg, logf)
	if err != nil {
		logf("cannot join game %s: %v", cfg.id, connectError(err, c.URL()))
		return 1
	}
	s := c.Session(cfg.id, token)
	defer s.Close()
	s.Backoff = cfg.backoff
	s.OnDrop = func(err error, wait time.Duration) {
		logf("%v; trying again in %.1fs", err, wait.Seconds())
	}
	st, err := botPlayer(s, b, logf).Play(ctx)
	switch {
	case errors.Is(err, client.ErrNoSeat):
		logf("the token holds no seat in game %s: only watching is possible", cfg.id)
		return 1
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		logf("interrupted")
		return 1
	case err != nil:
		logf("game %s: %v", cfg.id, err)
		return 1
	}
	printResult(stdout, st)
	return 0
}

// findGame sets the game's id, and its server unless --server gave it,
// from link: an invite link, its path or the game's id.
func (cfg *botConfig) findGame(link string) error {
	linkServer, id, err := client.ParseInvite(link)
	if err != nil {
		return err
	}
	cfg.id = id
	if cfg.server == "" {
		cfg.server = linkServer
	}
	if cfg.server == "" {
		return errors.New("give the server with --server URL, or a full invite link")
	}
	return nil
}

// joinServer returns the bot's token: --token's, or a seat's joined now.
func joinServer(ctx context.Context, c *client.Client, cfg botConfig, logf func(string, ...any)) (string, error) {
	if cfg.token != "" {
		return cfg.token, nil
	}
	// A server that accepts and never answers is given up on.
	setup, setupDone := context.WithTimeout(ctx, connectTimeout)
	defer setupDone()
	seat, token, err := c.Join(setup, cfg.id, cfg.name, cfg.seat)
	if err == nil {
		logf("joined game %s as %s in seat %d; to rejoin it later: --token %s", cfg.id, cfg.name, seat+1, token)
	}
	return token, err
}

// botPlayer is the seat loop of the bot b through s, which logs the
// seats taken while the table waits, the refusals and the moves that did
// not leave.
func botPlayer(s *client.Session, b *botexec.Bot, logf func(string, ...any)) *client.Player {
	waiting := ""
	return &client.Player{
		Session: s,
		Decide: func(st *client.State) string {
			move, err := b.Decide(*st.View)
			if err != nil {
				logf("%v", err)
			}
			return move
		},
		OnState: func(st *client.State) {
			if st.View != nil || st.Seat < 0 {
				return
			}
			taken := 0
			for _, seat := range st.Game.Seats {
				if !seat.Open {
					taken++
				}
			}
			if w := fmt.Sprintf("waiting for players: %d of %d seats taken", taken, st.Game.Players); w != waiting {
				waiting = w
				logf("%s", w)
			}
		},
		OnRefused: func(e *client.Error, move string) {
			if e.MoveMatters() && e.Code != protocol.RateLimited { // rate: expected against bots that do not wait
				logf("the server refused %s: %v", move, e)
			}
		},
		OnSendError: func(move string, err error) {
			logf("sending %s: %v", move, err) // the next state tells whether it arrived
		},
	}
}

// printResult prints the final scores and the winners.
func printResult(w io.Writer, st *client.State) {
	if st.View == nil {
		fmt.Fprintf(w, "game %s is %s\n", st.Game.ID, st.Game.Status)
		return
	}
	v := st.View
	fmt.Fprintf(w, "game %s is over after %d moves\n", st.Game.ID, v.Moves)
	for i, seat := range v.Seats {
		mark := ""
		if i == st.Seat {
			mark = "  (this bot)"
		}
		fmt.Fprintf(w, "  seat %d  %-20s %4d%s\n", i+1, seat.Name, seat.Total, mark)
	}
	var names []string
	for _, i := range v.Winners {
		if i >= 0 && i < len(v.Players) {
			names = append(names, v.Players[i])
		}
	}
	fmt.Fprintf(w, "winner: %s\n", strings.Join(names, ", "))
}
