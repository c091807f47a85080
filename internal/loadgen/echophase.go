package loadgen

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"
)

// The echo's run plays the server's run again against the echo, alone:
// the same tables and client seats, the same pace, one move at a time per
// table, each seat receiving a message of a size the server's clients
// received (drawn from the sizes the server's run saw, or Config.EchoSize).

// An echoTable is one table's clients at the echo.
type echoTable struct {
	r     *runner
	idx   int
	rng   *rand.Rand
	sizes []int // the sizes to draw from
	conns []*echoConn
	got   chan struct{} // a seat received a message

	mu      sync.Mutex
	sent    []time.Time // by move; zero for a move sent before the window
	seen    []int       // moves each seat received
	samples []time.Duration
	moves   int // sent in the window
	errs    int
}

// echoRun runs the tables against the echo and returns what it measured.
func (r *runner) echoRun(ctx context.Context, e *Echo, sizes []int) (*EchoReport, error) {
	clients := r.cfg.Seats - r.cfg.BotSeats
	rep := &EchoReport{URL: e.URL, Clients: r.cfg.Tables * clients}
	if len(sizes) == 0 {
		sizes = []int{r.cfg.EchoSize}
	}
	for i, n := range sizes {
		sizes[i] = max(n, 16) // room for the move's number
	}
	tables := make([]*echoTable, r.cfg.Tables)
	defer closeEchoTables(tables)
	if err := r.echoSetUp(ctx, e, tables, sizes); err != nil {
		return nil, err
	}
	r.cfg.Progress("echo: playing")
	r.begin()
	w := r.window(Proc{Name: "echo", PID: e.PID})
	var wg sync.WaitGroup
	for _, t := range tables {
		for s := range t.conns {
			wg.Go(func() { t.read(ctx, s) })
		}
	}
	var play sync.WaitGroup
	for _, t := range tables {
		play.Go(func() { t.play(ctx) })
	}
	play.Wait()
	moves := 0
	for _, t := range tables {
		moves += t.moves
	}
	rep.CPU = w.end(moves)
	for _, t := range tables {
		for _, c := range t.conns {
			c.CloseNow()
		}
	}
	wg.Wait()
	var samples []time.Duration
	for _, t := range tables {
		samples = append(samples, t.samples...)
		rep.Errors += t.errs
	}
	rep.Moves, rep.Seconds = moves, w.seconds()
	if rep.Seconds > 0 {
		rep.PerSecond = float64(moves) / rep.Seconds
	}
	rep.Latency = summarize(samples)
	return rep, ctx.Err()
}

// play sends the table's moves at its pace, each from a random client
// once it has received the move before, until the run stops; then it
// waits, for Grace at most, for the last move to reach every client.
func (t *echoTable) play(ctx context.Context) {
	r := t.r
	next := r.start
	if r.period > 0 {
		next = r.start.Add(time.Duration(int64(r.period) * int64(t.idx) / int64(r.cfg.Tables)))
	}
	sizes := make([]int, len(t.conns))
	for seq := 0; ; seq++ {
		seat := t.rng.IntN(len(t.conns))
		if !t.wait(ctx, next, t.giveUp(), func() bool { return t.seen[seat] >= seq }) {
			break
		}
		now := time.Now()
		if r.over(now, seq) {
			break
		}
		for s := range sizes {
			sizes[s] = t.sizes[t.rng.IntN(len(t.sizes))]
		}
		t.mu.Lock()
		if r.inWindow(now) {
			t.sent = append(t.sent, now)
			t.moves++
		} else {
			t.sent = append(t.sent, time.Time{})
		}
		t.mu.Unlock()
		if err := t.conns[seat].ask(ctx, seq, sizes); err != nil {
			t.mu.Lock()
			t.errs++
			t.mu.Unlock()
			return
		}
		next = now.Add(r.period)
	}
	t.mu.Lock()
	last := len(t.sent)
	t.mu.Unlock()
	t.wait(ctx, time.Time{}, time.After(r.cfg.Grace), func() bool { return t.all(last) })
}

// giveUp is when a table waiting for a client stops waiting: the grace
// after the run's end; never for a run bounded by moves alone.
func (t *echoTable) giveUp() <-chan time.Time {
	if t.r.stopAt.IsZero() {
		return nil
	}
	return time.After(time.Until(t.r.stopAt.Add(t.r.cfg.Grace)))
}

// wait waits until cond holds (under t.mu) and until is past; false when
// ctx ends, or giveUp comes first.
func (t *echoTable) wait(ctx context.Context, until time.Time, giveUp <-chan time.Time, cond func() bool) bool {
	timer := time.NewTimer(time.Until(until))
	defer timer.Stop()
	due := false
	for {
		t.mu.Lock()
		ok := cond()
		t.mu.Unlock()
		if ok && due {
			return true
		}
		select {
		case <-timer.C:
			due = true
		case <-t.got:
		case <-giveUp:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// all reports whether every client received the first n moves.
func (t *echoTable) all(n int) bool {
	for _, s := range t.seen {
		if s < n {
			return false
		}
	}
	return true
}

// read measures each message seat receives until its connection closes.
func (t *echoTable) read(ctx context.Context, seat int) {
	for {
		seq, err := t.conns[seat].next(ctx)
		now := time.Now()
		if err != nil {
			return
		}
		t.mu.Lock()
		if seq >= 0 && seq < len(t.sent) {
			if at := t.sent[seq]; !at.IsZero() {
				t.samples = append(t.samples, now.Sub(at))
			}
			t.seen[seat] = max(t.seen[seat], seq+1)
		}
		t.mu.Unlock()
		select {
		case t.got <- struct{}{}:
		default:
		}
	}
}

// An EchoReport is what the echo's run measured.
type EchoReport struct {
	URL     string  `json:"url"`
	Clients int     `json:"clients"`
	Moves   int     `json:"moves"`   // sent in the measured window
	Seconds float64 `json:"seconds"` // the measured window
	// PerSecond is Moves over Seconds.
	PerSecond float64 `json:"perSecond"`
	// Latency is from a move sent to each client of its table receiving
	// its message, the mover included.
	Latency *Summary `json:"latency"`
	CPU     []CPU    `json:"cpu,omitempty"`
	Errors  int      `json:"errors"` // moves that could not be sent
}

// describe names the echo's process for the report.
func (e *Echo) describe() string {
	if e.PID == 0 {
		return e.URL
	}
	return fmt.Sprintf("%s (process %d)", e.URL, e.PID)
}

// closeEchoTables closes every connection of the tables set up.
func closeEchoTables(tables []*echoTable) {
	for _, t := range tables {
		if t != nil {
			for _, c := range t.conns {
				c.CloseNow()
			}
		}
	}
}

// echoSetUp connects every table's clients to the echo.
func (r *runner) echoSetUp(ctx context.Context, e *Echo, tables []*echoTable, sizes []int) error {
	clients := r.cfg.Seats - r.cfg.BotSeats
	r.cfg.Progress("echo: setting up %d tables of %d clients at %s", r.cfg.Tables, clients, e.URL)
	return r.each(ctx, r.cfg.Tables, func(ctx context.Context, i int) error {
		t := &echoTable{r: r, idx: i, rng: rand.New(rand.NewPCG(uint64(i), 0xec40)), sizes: sizes,
			got: make(chan struct{}, 1), seen: make([]int, clients)}
		for s := range clients {
			c, err := dialEcho(ctx, e.URL, r.cfg.HTTP, i, s, clients)
			if err != nil {
				return err
			}
			t.conns = append(t.conns, c)
		}
		tables[i] = t
		return nil
	})
}
