package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/razziagame/razzia/internal/loadgen"
)

const loadSynopsis = `
usage: razzia load --server URL[,URL...] [flags]
       razzia load --echo-only --echo-size BYTES [flags]
       razzia load --serve-echo ADDRESS
       razzia load --summary REPORT.json...

Load puts running Razzia servers under the load of many games at once and
measures how long a move takes to reach the players and what it costs. It
creates --tables tables of --seats seats, seats their players as WebSocket
clients spread over the servers (table t is created on server t, its seat s
plays through server t+s, counting round the list, so that with several
nodes the players of one table sit on different nodes), plays random legal
moves at --rate per table for --warmup, then measures for --duration, and
reports for that window:

  - the moves made, the games, the connections, the errors by code, and
    the state messages the clients received (their mean size);
  - the move-to-broadcast latency (p50, p90, p99, max): from the moment a
    client sends a move to the moment each client of its table receives
    the state that contains it, for clients on the sender's node and on
    other nodes apart;
  - the CPU each process used, in all and a move: the load itself, the
    servers (found by their port when they run on this machine as the
    same user; else name them with --pid server=PID), and the processes
    --pid names, such as PostgreSQL with its backends
    (--pid postgres=PID+, the PID the first line of postmaster.pid);
  - with --echo, the same run again against a bare WebSocket echo alone,
    after the servers' run: a process of its own, the same clients, rate,
    warm-up and window, each move sent by one client and broadcast to
    every client of its table, each message the size of a state the
    servers' clients received; and each latency's p99 over the echo's.

The echo never runs beside the servers: its figures are the floor the
servers' are compared with, on the same machine. --echo-only runs it
alone (with states of --echo-size bytes), and --serve-echo serves it for
a run on another machine (--echo-url).

With --bots, server bots take --bot-seats seats of each table (run the
server with --bot-delay 0 to see bots play with no delay): their moves are
measured from the previous state's game.updated (when the server asked
the bot) and from their own commit, by the servers' clocks, so these
figures hold when the servers run on the load's machine.

A table whose game ends starts another. The load raises its own limit of
open files; the servers need theirs raised as well (about one file per
client). Per-address limits of the servers (message rates, connections)
apply to the load too: refused messages are counted by code.
deploy/measure runs the whole comparison (one node, three nodes on
PostgreSQL, each followed by the echo alone), and --summary puts the JSON
reports of runs in one table.

Examples:
  razzia load --server http://localhost:8080 --tables 1000 --warmup 10s --duration 20s --echo
  razzia load --server http://a:8080,http://b:8080 --tables 100 --bots hard --json
  razzia load --server http://localhost:8080 --pid postgres=4242+ --tables 500 --echo
  razzia load --echo-only --echo-size 300 --tables 1000

Exit status: 0 after a run, 1 when a server cannot be reached or the tables
cannot be set up, 2 for a usage error, 130 or 143 when the run is
interrupted by SIGINT (Ctrl-C) or SIGTERM (the report is still printed).
`

// runLoad is the load command; SIGINT or SIGTERM ends the run early.
func runLoad(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signalContext(nil)
	defer stop()
	status := loadContext(ctx, args, stdin, stdout, stderr)
	if status == 1 && ctx.Err() != nil {
		return ctx.status()
	}
	return status
}

func loadContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("load")
	var cfg loadgen.Config
	o := defineLoadFlags(fs, &cfg)
	positional, status, done := parseFlags(fs, loadSynopsis, args, stdout, stderr)
	if done {
		return status
	}
	if *o.summary {
		return summarize(positional, stdout, stderr)
	}
	if len(positional) > 0 {
		return usageError(stderr, fs, loadSynopsis, "unexpected argument %q", positional[0])
	}
	if *o.serve != "" {
		return serveEcho(ctx, *o.serve, stdin, stdout, stderr)
	}
	for _, s := range strings.Split(*o.servers, ",") {
		if s = strings.TrimSpace(s); s != "" {
			cfg.Servers = append(cfg.Servers, s)
		}
	}
	if cfg.Bots != "" && cfg.BotSeats == 0 {
		cfg.BotSeats = cfg.Seats / 2
	}
	var err error
	if cfg.Rate, err = loadgen.ParseRate(*o.rate); err == nil {
		err = cfg.Check()
	}
	if err != nil {
		return usageError(stderr, fs, loadSynopsis, "%s", strings.TrimPrefix(err.Error(), loadgen.ErrConfig.Error()+": "))
	}
	return playLoad(ctx, cfg, *o.asJSON, stdout, stderr)
}

// loadFlags are the flags of razzia load that are not the Config's own.
type loadFlags struct {
	servers, rate, serve *string
	asJSON, summary      *bool
}

// defineLoadFlags defines razzia load's flags on fs, the Config's into cfg.
func defineLoadFlags(fs *flag.FlagSet, cfg *loadgen.Config) loadFlags {
	o := loadFlags{
		servers: fs.String("server", "", "the servers' `URLs`, comma-separated, such as http://localhost:8080"),
		rate:    fs.String("rate", "1/s", "the `rate` of each table's moves: 1/s, 30/m, 0.5 (a second), or max (0) for as fast as the game allows"),
		asJSON:  fs.Bool("json", false, "print the report as JSON"),
		serve:   fs.String("serve-echo", "", "serve the echo on `ADDRESS` (such as 127.0.0.1:0), print its URL, and run until stopped"),
		summary: fs.Bool("summary", false, "print the JSON reports named as arguments as one Markdown table, a row a run"),
	}
	fs.IntVar(&cfg.Tables, "tables", 100, "how many tables play at once")
	fs.IntVar(&cfg.Seats, "seats", 4, "the seats at each table, 2 to 5")
	fs.StringVar(&cfg.Bots, "bots", "", "the `level` of server bots at some seats of each table (see --bot-seats); none by default")
	fs.IntVar(&cfg.BotSeats, "bot-seats", 0, "how many seats of each table are bots' (default half the seats, with --bots)")
	fs.DurationVar(&cfg.Warmup, "warmup", 10*time.Second, "how long the tables play before the measured window")
	fs.DurationVar(&cfg.Duration, "duration", 20*time.Second, "how long the measured window lasts")
	fs.IntVar(&cfg.Moves, "moves", 0, "stop each table after so many moves (0: no limit; with --duration 0, the only limit)")
	fs.BoolVar(&cfg.Echo, "echo", false, "after the servers' run, run the same load against a bare WebSocket echo alone")
	fs.BoolVar(&cfg.EchoOnly, "echo-only", false, "run the load against the echo alone, with no servers (see --echo-size)")
	fs.IntVar(&cfg.EchoSize, "echo-size", 0, "with --echo-only, the `bytes` of each message the echo sends a client (the mean state a servers' run reports)")
	fs.StringVar(&cfg.EchoURL, "echo-url", "", "use the echo running at `URL` (razzia load --serve-echo) instead of starting one")
	fs.Func("pid", "`NAME=PID`: measure that process's CPU too (NAME=PID+ with its children, as PostgreSQL's backends); repeatable", func(v string) error {
		p, err := loadgen.ParseProc(v)
		if err != nil {
			return errors.New(strings.TrimPrefix(err.Error(), loadgen.ErrConfig.Error()+": "))
		}
		cfg.Procs = append(cfg.Procs, p)
		return nil
	})
	return o
}

// playLoad runs the load of cfg and prints its report.
func playLoad(ctx context.Context, cfg loadgen.Config, asJSON bool, stdout, stderr io.Writer) int {
	if os.Getenv("GOGC") == "" {
		// Collect a quarter as often: the load's own collections, every few
		// seconds at thousands of connections, would show in its p99.
		debug.SetGCPercent(400)
	}
	cfg.Progress = func(format string, args ...any) {
		fmt.Fprintf(stderr, "razzia load: "+format+"\n", args...)
	}
	cfg.StartEcho = startEchoProcess
	rep, err := loadgen.Run(ctx, cfg)
	if rep == nil {
		return runFailed(stderr, "load", netError(err), 1)
	}
	if asJSON {
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

// summarize prints the reports in files as one table.
func summarize(files []string, stdout, stderr io.Writer) int {
	if len(files) == 0 {
		fmt.Fprintln(stderr, "razzia load: --summary: name the JSON reports (razzia load --json) to summarize")
		return 2
	}
	reps := make([]*loadgen.Report, len(files))
	names := make([]string, len(files))
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err == nil {
			err = json.Unmarshal(data, &reps[i])
		}
		if err != nil || reps[i] == nil {
			fmt.Fprintf(stderr, "razzia load: %s: not a report of razzia load --json: %v\n", f, err)
			return 1
		}
		names[i] = strings.TrimSuffix(filepath.Base(f), ".json")
	}
	loadgen.WriteSummary(stdout, names, reps)
	return 0
}

// echoListening begins the line razzia load --serve-echo prints once it
// listens, followed by the echo's URL.
const echoListening = "echo listening on "

// serveEcho serves the echo until ctx ends or, when its input is a pipe
// (razzia load started it), the pipe closes: the load ended, even killed.
func serveEcho(ctx context.Context, addr string, stdin io.Reader, stdout, stderr io.Writer) int {
	if f, ok := stdin.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeNamedPipe != 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithCancel(ctx)
			defer cancel()
			go func() {
				io.Copy(io.Discard, f)
				cancel()
			}()
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(stderr, "razzia load: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%sws://%s/\n", echoListening, ln.Addr())
	if err := loadgen.ServeEcho(ctx, ln); err != nil {
		fmt.Fprintf(stderr, "razzia load: %v\n", err)
		return 1
	}
	return 0
}

// startEchoProcess starts the echo as a process of its own (this program,
// razzia load --serve-echo), so that it shares nothing with the load but
// the machine and its CPU is measured apart.
func startEchoProcess(ctx context.Context) (*loadgen.Echo, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("echo: %w", err)
	}
	cmd := exec.Command(self, "load", "--serve-echo", "127.0.0.1:0")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("echo: %w", err)
	}
	// The echo ends when this pipe closes: when the load ends, even killed.
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("echo: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("echo: %w", err)
	}
	stop := func() error {
		in.Close()
		return cmd.Wait()
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), echoListening)
	if err != nil || !ok {
		stop()
		return nil, fmt.Errorf("echo: the process did not say where it listens (%q)", line)
	}
	return &loadgen.Echo{URL: url, PID: cmd.Process.Pid, Stop: stop}, nil
}
