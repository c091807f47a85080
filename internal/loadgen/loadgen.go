// Package loadgen puts running Razzia servers under load and measures how
// long a move takes to reach the players and what it costs: it creates
// tables, seats their players as WebSocket clients spread over the
// servers (so that with several nodes the players of one table sit on
// different nodes), plays random legal moves at a given rate per table,
// and reports the moves made, the errors by code, the connections, the
// move-to-broadcast latency (from the moment a client sends a move to the
// moment each client of its table receives the state that contains it,
// for clients on the sender's node and on other nodes apart), and the CPU
// each process involved used a move (the servers, PostgreSQL when named,
// the load itself), read from /proc over the window measured after a
// warm-up.
//
// With Echo it then runs the same clients, pacing, message sizes and
// fan-out against a bare WebSocket echo alone (ServeEcho, which razzia
// load starts as a process of its own), never at the same time as the
// servers: the floor the servers' figures are compared with. "razzia
// load" runs it.
//
// Server bots' moves are measured from the state before them (game.updated
// of the previous move: the moment the server asked the bot) and from their
// own commit (this state's game.updated), both against the load's clock:
// the figures hold when the servers' clocks are the load's, as on one
// machine.
package loadgen

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/cputime"
	"github.com/razziagame/razzia/internal/protocol"
)

// Config says what load to make.
type Config struct {
	// Servers are the servers' URLs, such as http://localhost:8080.
	// Table t is created on server t mod len(Servers), and its seat s
	// plays through server (t+s) mod len(Servers).
	Servers []string
	Tables  int // tables played at once
	Seats   int // seats at each table
	// Bots is the level of the server bots at BotSeats seats of each
	// table; empty for none.
	Bots     string
	BotSeats int
	// Rate is the moves a second the clients of each table make, paced
	// from the previous move; 0 for as fast as the game allows. Bots move
	// when the server lets them.
	Rate float64
	// Duration is how long the tables play; 0 to stop by Moves alone.
	Duration time.Duration
	// Moves stops each table after it has made so many moves; 0 for no
	// limit.
	Moves int
	// Warmup is how long the tables play before the measured window,
	// whose length is Duration: the latencies, moves and CPU reported are
	// the window's.
	Warmup time.Duration
	// Echo runs the same load against the echo after the servers' run,
	// alone: the same tables, clients, pace, and the sizes of the states
	// the servers' clients received. EchoOnly runs the echo alone, with
	// states of EchoSize bytes, and no servers.
	Echo, EchoOnly bool
	EchoSize       int
	// StartEcho starts the echo and returns it; by default it runs in the
	// load's own process (razzia load starts a process of its own).
	// EchoURL names an echo already running instead (ws://host:port/),
	// whose process, if on this machine, Procs may name "echo".
	StartEcho func(ctx context.Context) (*Echo, error)
	EchoURL   string
	// Procs are processes whose CPU is measured beside the load's own and
	// the servers' (found by their port when they run on this machine and
	// belong to the same user): PostgreSQL's postmaster with its backends,
	// a server the load cannot find.
	Procs []Proc
	// Grace is how long the run waits, after the last moves were sent,
	// for their states; default 10s.
	Grace time.Duration
	// Setup is how many tables are set up at once; default 32.
	Setup int
	// HTTP makes the requests and the WebSocket connections; default one
	// that keeps enough idle connections for Setup.
	HTTP *http.Client
	// Wait, when set, waits before a move refused for a while is sent
	// again, as every seat loop does (client.Player.Wait): tests pass one
	// that does not sleep.
	Wait func(ctx context.Context, d time.Duration) bool
	// Progress, when set, hears what the run is doing (setting up, playing).
	Progress func(format string, args ...any)
}

// ErrConfig is wrapped by the errors of a Config that cannot run.
var ErrConfig = errors.New("bad load configuration")

// Check reports what is wrong with the configuration, naming the field
// as the command's flags do.
func (c *Config) Check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, args...))
	}
	switch {
	case len(c.Servers) == 0 && !c.EchoOnly:
		return bad("server: name at least one server, such as http://localhost:8080")
	case c.EchoOnly && len(c.Servers) > 0:
		return bad("echo-only: runs no servers; drop --server, or --echo-only for --echo")
	case c.EchoOnly && c.EchoSize <= 0:
		return bad("echo-size %d: the echo alone needs the bytes of a state, such as the mean a server's run reports", c.EchoSize)
	case c.EchoSize < 0 || c.EchoSize > maxEcho:
		return bad("echo-size %d: want 1 to %d bytes", c.EchoSize, maxEcho)
	case c.Warmup < 0:
		return bad("warmup %v: want 0 or more", c.Warmup)
	case c.Tables < 1:
		return bad("tables %d: want 1 or more", c.Tables)
	case c.Seats < razzia.MinPlayers || c.Seats > razzia.MaxPlayers:
		return bad("seats %d: a table has %d to %d seats", c.Seats, razzia.MinPlayers, razzia.MaxPlayers)
	case c.Rate < 0:
		return bad("rate %g: want 0 (as fast as possible) or more", c.Rate)
	case c.Duration < 0 || c.Moves < 0:
		return bad("duration %v and moves %d: want 0 or more", c.Duration, c.Moves)
	case c.Duration == 0 && c.Moves == 0:
		return bad("duration: give how long to play (or moves: how many moves a table makes)")
	case c.BotSeats < 0 || (c.Bots == "" && c.BotSeats > 0):
		return bad("bot-seats %d: want 0, or some seats with bots", c.BotSeats)
	case c.Bots != "" && (c.BotSeats < 1 || c.BotSeats >= c.Seats):
		return bad("bot-seats %d: a table of %d seats needs at least one bot and one client", c.BotSeats, c.Seats)
	}
	if c.EchoURL != "" && !strings.HasPrefix(c.EchoURL, "ws://") && !strings.HasPrefix(c.EchoURL, "wss://") {
		return bad("echo-url %q: want a ws:// URL, as razzia load --serve-echo prints", c.EchoURL)
	}
	if c.Bots != "" {
		if _, ok := bot.LookupLevel(c.Bots); !ok {
			return bad("bots %q: not a bot level (want %s)", c.Bots, strings.Join(bot.LevelNames(), ", "))
		}
	}
	for _, s := range c.Servers {
		if _, err := client.New(s); err != nil {
			return fmt.Errorf("%w: %v", ErrConfig, err)
		}
	}
	return nil
}

// ParseRate reads a rate of moves: "1/s", "30/m", "0.5" (a second), or
// "0" or "max" for as fast as the game allows.
func ParseRate(s string) (float64, error) {
	num, unit, _ := strings.Cut(strings.TrimSpace(s), "/")
	if num == "max" && unit == "" {
		return 0, nil
	}
	per := map[string]float64{"": 1, "s": 1, "m": 60, "min": 60, "h": 3600}[unit]
	v, err := strconv.ParseFloat(num, 64)
	if per == 0 || err != nil || v < 0 || v > 1e6 {
		return 0, fmt.Errorf("%w: rate %q: want moves a second such as 1/s, 30/m, 0.5, or max (0) for as fast as the game allows", ErrConfig, s)
	}
	return v / per, nil
}

// A runner is one run: its configuration, clients and counters.
type runner struct {
	cfg     Config
	ctx     context.Context  // the run's
	clients []*client.Client // by server
	period  time.Duration    // between two moves of a table; 0 for none
	// The phase under way (the servers', then the echo's): when the
	// tables may move, when the measured window begins and when they
	// stop (zero for Moves alone).
	start, from, stopAt time.Time

	dialled, drops atomic.Int64
	open, peak     atomic.Int64
}

// Run sets up the tables, plays, and reports. It returns an error when a
// server cannot be reached or the first tables cannot be set up; errors
// during the run are counted in the report.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if cfg.Grace <= 0 {
		cfg.Grace = 10 * time.Second
	}
	if cfg.Setup <= 0 {
		cfg.Setup = 32
	}
	if cfg.HTTP == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = cfg.Setup
		cfg.HTTP = &http.Client{Transport: tr}
	}
	if cfg.Progress == nil {
		cfg.Progress = func(string, ...any) {}
	}
	if cfg.StartEcho == nil {
		cfg.StartEcho = startEcho
	}
	r := &runner{cfg: cfg, ctx: ctx}
	if cfg.Rate > 0 {
		r.period = time.Duration(float64(time.Second) / cfg.Rate)
	}
	if err := r.dial(ctx); err != nil {
		return nil, err
	}
	rep := &Report{Servers: cfg.Servers, Tables: cfg.Tables, Seats: cfg.Seats, BotLevel: cfg.Bots,
		Clients: cfg.Tables * (cfg.Seats - cfg.BotSeats), Bots: cfg.Tables * cfg.BotSeats,
		Rate: cfg.Rate, Warmup: cfg.Warmup.Seconds(), CPUs: runtime.NumCPU(), Errors: map[string]int{}, Latency: map[string]*Summary{}}
	if warn := raiseFileLimit(rep.Clients + 64); warn != "" {
		rep.warn(cfg.Progress, warn)
	}
	load0, haveLoad := loadAverage()
	var sizes []int
	if !cfg.EchoOnly {
		var err error
		if sizes, err = r.serversRun(ctx, rep); err != nil {
			return nil, err
		}
	}
	if cfg.Echo || cfg.EchoOnly {
		if err := r.echoPhase(ctx, rep, sizes); err != nil {
			if !cfg.EchoOnly {
				rep.warn(cfg.Progress, fmt.Sprintf("the echo's run failed: %v", err))
				return rep, err
			}
			return nil, err
		}
	}
	if load1, ok := loadAverage(); haveLoad && ok {
		rep.LoadAverage = []float64{load0, load1}
	}
	return rep, ctx.Err()
}

// dial makes a client for each server and checks it answers.
func (r *runner) dial(ctx context.Context) error {
	for _, s := range r.cfg.Servers {
		c, _ := client.New(s) // checked
		c.HTTP = r.cfg.HTTP
		// Whole states would cost the load several times what they cost
		// the server, on the same machine.
		c.Brief = true
		if r.cfg.BotSeats > 0 {
			// Bots' moves are measured from when the game changed, which
			// version 2's states leave out while it is played.
			c.Protocol = protocol.Version1
		}
		if err := reach(ctx, c); err != nil {
			return err
		}
		r.clients = append(r.clients, c)
	}
	return nil
}

// begin starts a phase: the tables move from a moment from now, the
// window opens after the warm-up, and they stop after it when the run is
// timed.
func (r *runner) begin() {
	r.start = time.Now().Add(50 * time.Millisecond)
	r.from = r.start.Add(r.cfg.Warmup)
	r.stopAt = time.Time{}
	if r.cfg.Duration > 0 {
		r.stopAt = r.from.Add(r.cfg.Duration)
	}
}

// inWindow reports whether a moment is in the phase's measured window.
func (r *runner) inWindow(at time.Time) bool {
	return !at.Before(r.from) && (r.stopAt.IsZero() || at.Before(r.stopAt))
}

// over reports whether a table that made moves moves stops at now.
func (r *runner) over(now time.Time, moves int) bool {
	return (!r.stopAt.IsZero() && !now.Before(r.stopAt)) || (r.cfg.Moves > 0 && moves >= r.cfg.Moves)
}

// serversRun plays the tables against the servers and fills rep; it
// returns a sample of the sizes of the states the clients received.
func (r *runner) serversRun(ctx context.Context, rep *Report) ([]int, error) {
	cfg := r.cfg
	cfg.Progress("setting up %d tables of %d seats on %d %s", cfg.Tables, cfg.Seats, len(cfg.Servers), plural(len(cfg.Servers), "server"))
	set := time.Now()
	tables := make([]*table, cfg.Tables)
	err := r.each(ctx, cfg.Tables, func(ctx context.Context, i int) error {
		t, err := newTable(ctx, r, i)
		tables[i] = t
		return err
	})
	if err != nil {
		for _, t := range tables {
			if t != nil {
				t.close()
			}
		}
		return nil, err
	}
	cfg.Progress("set up in %.1fs; playing", time.Since(set).Seconds())
	procs := append(r.serverProcs(rep), cfg.Procs...)
	r.begin()
	w := r.window(procs...)
	var wg sync.WaitGroup
	for _, t := range tables {
		wg.Go(func() { t.run(ctx) })
	}
	wg.Wait()
	sizes := r.report(rep, tables)
	rep.CPU = w.end(rep.Moves.Total)
	rep.Seconds = w.seconds()
	if rep.Seconds > 0 {
		rep.Moves.PerSecond = float64(rep.Moves.Total) / rep.Seconds
	}
	return sizes, nil
}

// serverProcs finds the servers' processes on this machine, and warns of
// those it cannot find.
func (r *runner) serverProcs(rep *Report) []Proc {
	var procs []Proc
	for _, s := range r.cfg.Servers {
		if named(r.cfg.Procs, "server") {
			break // the command names them
		}
		pid, err := findServer(s)
		if err != nil {
			rep.warn(r.cfg.Progress, fmt.Sprintf("no CPU figure for server %s: %v (name it: --pid server=PID)", s, err))
			continue
		}
		if !slices.ContainsFunc(procs, func(p Proc) bool { return p.PID == pid }) {
			procs = append(procs, Proc{Name: "server", PID: pid})
		}
	}
	return procs
}

func named(procs []Proc, name string) bool {
	return slices.ContainsFunc(procs, func(p Proc) bool { return p.Name == name })
}

// echoPhase runs the tables against the echo alone and adds its report.
func (r *runner) echoPhase(ctx context.Context, rep *Report, sizes []int) error {
	e := &Echo{URL: r.cfg.EchoURL}
	if e.URL == "" {
		var err error
		if e, err = r.cfg.StartEcho(ctx); err != nil {
			return err
		}
		defer e.Stop()
	} else if p := slices.IndexFunc(r.cfg.Procs, func(p Proc) bool { return p.Name == "echo" }); p >= 0 {
		e.PID = r.cfg.Procs[p].PID
	}
	r.cfg.Progress("echo: %s", e.describe())
	er, err := r.echoRun(ctx, e, sizes)
	if er != nil {
		rep.Echo = er
		rep.ratios()
		if r.cfg.EchoOnly {
			rep.Seconds = er.Seconds
		}
	}
	return err
}

// each runs set for the indices 0 to n-1, Setup at a time, and returns
// the first error, which stops those not started yet.
func (r *runner) each(ctx context.Context, n int, set func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	sem := make(chan struct{}, r.cfg.Setup)
	var wg sync.WaitGroup
	for i := range n {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			if err := set(ctx, i); err != nil {
				cancel(fmt.Errorf("table %d: %w", i, err))
			}
		})
	}
	wg.Wait()
	return context.Cause(ctx)
}

// A window measures the CPU of processes over the phase's window: from
// its start to its end, or to the phase's end when untimed.
type window struct {
	r           *runner
	procs       []Proc
	mu          sync.Mutex
	first, last []int64 // ticks by procs' index, -1 when unread; nil until read
	to          time.Time
	timers      []*time.Timer
}

// window starts measuring the load's own process and procs (those with
// no PID are left out) over the phase's window.
func (r *runner) window(procs ...Proc) *window {
	w := &window{r: r, procs: []Proc{{Name: "load", PID: os.Getpid()}}}
	for _, p := range procs {
		if p.PID > 0 && p.PID != os.Getpid() {
			w.procs = append(w.procs, p)
		}
	}
	if r.cfg.Warmup <= 0 {
		// Read now, a moment before the tables start: a timer at their
		// start could fire after a short run ended, leaving no window.
		w.read(&w.first)
	} else {
		w.timers = append(w.timers, time.AfterFunc(time.Until(r.from), func() { w.read(&w.first) }))
	}
	if !r.stopAt.IsZero() {
		w.timers = append(w.timers, time.AfterFunc(time.Until(r.stopAt), func() { w.read(&w.last) }))
	}
	return w
}

// read reads the processes' ticks into *at, once.
func (w *window) read(at *[]int64) {
	all := cputime.ReadProcs()
	ticks := make([]int64, len(w.procs))
	for i, p := range w.procs {
		ticks[i] = -1
		if t, ok := all.Ticks(p.PID, p.Tree); ok {
			ticks[i] = t
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if *at == nil {
		*at = ticks
		if at == &w.last {
			w.to = time.Now()
		}
	}
}

// end ends the window (now, if it has not ended) and returns each
// process's CPU over the moves made in it; nil if it never began.
func (w *window) end(moves int) []CPU {
	for _, t := range w.timers {
		t.Stop()
	}
	w.read(&w.last)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.first == nil || runtime.GOOS != "linux" {
		return nil
	}
	out := make([]CPU, 0, len(w.procs))
	for i, p := range w.procs {
		c := CPU{Name: p.Name, PIDs: []int{p.PID}}
		if w.first[i] < 0 || w.last[i] < 0 {
			c.Missing = true
		} else {
			c.Seconds = float64(w.last[i]-w.first[i]) / cputime.ClockTicks
		}
		out = append(out, c)
	}
	return withTotals(out, moves)
}

// seconds returns the window's length: as set for a timed run (the
// moves counted are those sent in it, however late the reading of the
// processes at its end), else to its end, or to now.
func (w *window) seconds() float64 {
	if !w.r.stopAt.IsZero() {
		return w.r.stopAt.Sub(w.r.from).Seconds()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	to := w.to
	if to.IsZero() {
		to = time.Now()
	}
	return max(0, to.Sub(w.r.from).Seconds())
}

// reach checks that the server answers as a Razzia server.
func reach(ctx context.Context, c *client.Client) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, err := c.List(ctx, "open")
	var refused *client.Error
	switch {
	case errors.As(err, &refused):
		return fmt.Errorf("server %s refuses to list its games: %w", c.URL(), err)
	case err != nil:
		return fmt.Errorf("server %s cannot be reached: %w", c.URL(), err)
	}
	return nil
}

// report fills rep from the tables' counts and samples, and returns the
// sizes of states they kept.
func (r *runner) report(rep *Report, tables []*table) []int {
	var samples [kinds][]time.Duration
	var sizes []int
	for _, t := range tables {
		for k := range kinds {
			samples[k] = append(samples[k], t.samples[k]...)
		}
		rep.Moves.Clients += t.clientMoves
		rep.Moves.Bots += t.botMoves
		rep.Moves.Unconfirmed += t.unconfirmed
		rep.Games.Started += t.started
		rep.Games.Finished += t.finished
		rep.States.Count += t.states
		rep.States.Bytes += t.bytes
		sizes = append(sizes, t.sizes...)
		for code, n := range t.errs {
			rep.Errors[code] += n
		}
	}
	rep.Moves.Total = rep.Moves.Clients + rep.Moves.Bots
	if rep.States.Count > 0 {
		rep.States.Mean = float64(rep.States.Bytes) / float64(rep.States.Count)
	}
	rep.Connections = Connections{Servers: int(r.dialled.Load()), Peak: int(r.peak.Load()), Drops: int(r.drops.Load())}
	for k := range kinds {
		if s := summarize(samples[k]); s != nil {
			rep.Latency[kindInfo[k].key] = s
		}
	}
	return sizes
}

// opened and closed count a connection to a server.
func (r *runner) opened() {
	r.dialled.Add(1)
	n := r.open.Add(1)
	for {
		p := r.peak.Load()
		if n <= p || r.peak.CompareAndSwap(p, n) {
			return
		}
	}
}

func (r *runner) closed() { r.open.Add(-1) }
