// Package loadgen puts running Razzia servers under load and measures how
// long a move takes to reach the players: it creates tables, seats their
// players as WebSocket clients spread over the servers (so that with
// several nodes the players of one table sit on different nodes), plays
// random legal moves at a given rate per table, and reports the moves
// made, the errors by code, the connections and the move-to-broadcast
// latency: from the moment a client sends a move to the moment each
// client of its table receives the state that contains it, for clients
// on the sender's node and on other nodes apart. With Echo it measures,
// in the same run and from the same clients, the round trip of a bare
// WebSocket echo with the same message sizes, the floor the server's
// figures are compared with. "razzia load" runs it.
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
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/client"
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
	// Echo measures the round trip of a bare WebSocket echo too.
	Echo bool
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
	case len(c.Servers) == 0:
		return bad("server: name at least one server, such as http://localhost:8080")
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
	echo    *echoServer      // nil without Echo
	period  time.Duration    // between two moves of a table; 0 for none
	start   time.Time        // when the tables may move
	stopAt  time.Time        // when they stop; zero for Moves alone

	dialled, drops, echoes atomic.Int64
	open, peak             atomic.Int64
}

// Run sets up the tables, plays, and reports. It returns an error when a
// server cannot be reached or the first tables cannot be set up; errors
// during the run are counted in the report.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	cfg.defaults()
	r := &runner{cfg: cfg, ctx: ctx}
	if cfg.Rate > 0 {
		r.period = time.Duration(float64(time.Second) / cfg.Rate)
	}
	if err := r.reach(ctx); err != nil {
		return nil, err
	}
	rep := &Report{Servers: cfg.Servers, Tables: cfg.Tables, Seats: cfg.Seats, BotLevel: cfg.Bots,
		Clients: cfg.Tables * (cfg.Seats - cfg.BotSeats), Bots: cfg.Tables * cfg.BotSeats,
		Rate: cfg.Rate, CPUs: runtime.NumCPU(), Errors: map[string]int{}, Latency: map[string]*Summary{}}
	files := rep.Clients + 64
	if cfg.Echo {
		files += 2 * rep.Clients // each client's echo connection, both ends
	}
	if warn := raiseFileLimit(files); warn != "" {
		rep.Warnings = append(rep.Warnings, warn)
		cfg.Progress("warning: %s", warn)
	}
	if cfg.Echo {
		e, err := startEcho()
		if err != nil {
			return nil, err
		}
		defer e.close()
		r.echo = e
	}
	load0, haveLoad := loadAverage()
	tables, err := r.setUpAll(ctx)
	if err != nil {
		return nil, err
	}
	r.play(ctx, tables, rep)
	if load1, ok := loadAverage(); haveLoad && ok {
		rep.LoadAverage = []float64{load0, load1}
	}
	r.report(rep, tables)
	return rep, ctx.Err()
}

// defaults fills in the fields left zero.
func (c *Config) defaults() {
	if c.Grace <= 0 {
		c.Grace = 10 * time.Second
	}
	if c.Setup <= 0 {
		c.Setup = 32
	}
	if c.HTTP == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = c.Setup
		c.HTTP = &http.Client{Transport: tr}
	}
	if c.Progress == nil {
		c.Progress = func(string, ...any) {}
	}
}

// reach makes a client of each server, and checks that it answers.
func (r *runner) reach(ctx context.Context) error {
	for _, s := range r.cfg.Servers {
		c, _ := client.New(s) // checked
		c.HTTP = r.cfg.HTTP
		// Whole states would cost the load several times what they cost
		// the server, on the same machine.
		c.Brief = true
		if err := reach(ctx, c); err != nil {
			return err
		}
		r.clients = append(r.clients, c)
	}
	return nil
}

// setUpAll sets up every table, or closes those it did and returns why
// it could not.
func (r *runner) setUpAll(ctx context.Context) ([]*table, error) {
	cfg := r.cfg
	cfg.Progress("setting up %d tables of %d seats on %d %s", cfg.Tables, cfg.Seats, len(cfg.Servers), plural(len(cfg.Servers), "server"))
	set := time.Now()
	tables := make([]*table, cfg.Tables)
	if err := r.setUp(ctx, tables); err != nil {
		for _, t := range tables {
			if t != nil {
				t.close()
			}
		}
		return nil, err
	}
	cfg.Progress("set up in %.1fs; playing", time.Since(set).Seconds())
	return tables, nil
}

// play plays the tables until they stop, and records in rep how long
// they played.
func (r *runner) play(ctx context.Context, tables []*table, rep *Report) {
	r.start = time.Now().Add(50 * time.Millisecond)
	if r.cfg.Duration > 0 {
		r.stopAt = r.start.Add(r.cfg.Duration)
	}
	var wg sync.WaitGroup
	for _, t := range tables {
		wg.Go(func() { t.run(ctx) })
	}
	wg.Wait()
	// The end is when the last table stopped moving, or now if one never did.
	end, stopped := time.Time{}, true
	for _, t := range tables {
		at := t.stopped.Load()
		stopped = stopped && at != 0
		end = later(end, time.Unix(0, at))
	}
	if !stopped {
		end = time.Now()
	}
	rep.Seconds = end.Sub(r.start).Seconds()
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

// setUp sets up the first game of every table, Setup at a time.
func (r *runner) setUp(ctx context.Context, tables []*table) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	sem := make(chan struct{}, r.cfg.Setup)
	var wg sync.WaitGroup
	for i := range tables {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			t, err := newTable(ctx, r, i)
			if err != nil {
				cancel(fmt.Errorf("table %d: %w", i, err))
				return
			}
			tables[i] = t
		})
	}
	wg.Wait()
	return context.Cause(ctx)
}

// report fills rep from the tables' counts and samples.
func (r *runner) report(rep *Report, tables []*table) {
	var samples [kinds][]time.Duration
	for _, t := range tables {
		for k := range kinds {
			samples[k] = append(samples[k], t.samples[k]...)
		}
		rep.Moves.Clients += t.clientMoves
		rep.Moves.Bots += t.botMoves
		rep.Moves.Unconfirmed += t.unconfirmed
		rep.Games.Started += t.started
		rep.Games.Finished += t.finished
		for code, n := range t.errs {
			rep.Errors[code] += n
		}
	}
	rep.Moves.Total = rep.Moves.Clients + rep.Moves.Bots
	if rep.Seconds > 0 {
		rep.Moves.PerSecond = float64(rep.Moves.Total) / rep.Seconds
	}
	rep.Connections = Connections{Servers: int(r.dialled.Load()), Peak: int(r.peak.Load()),
		Drops: int(r.drops.Load()), Echo: int(r.echoes.Load())}
	for k := range kinds {
		if s := summarize(samples[k]); s != nil {
			rep.Latency[kindInfo[k].key] = s
		}
	}
	if echo := rep.Latency[kindInfo[echoTrip].key]; echo != nil && echo.P99 > 0 {
		for k, s := range rep.Latency {
			if k != kindInfo[echoTrip].key {
				s.EchoP99 = s.P99 / echo.P99
			}
		}
	}
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
