package loadgen

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/razziagame/razzia/internal/client"
)

// A table plays one game after another until the run stops.
type table struct {
	r    *runner
	idx  int
	home int // the server that creates its games
	rng  *rand.Rand
	g    *game     // the game being played
	next time.Time // when its clients may move next (the table goroutine's)

	stop     chan struct{} // closed when the table must stop sending moves
	stopOnce sync.Once
	stopped  atomic.Int64 // when stop was closed, in Unix nanoseconds

	mu          sync.Mutex // guards what follows and the games' shared fields
	samples     [kinds][]time.Duration
	errs        map[string]int
	made        int // moves made since the start, for Config.Moves
	clientMoves int
	botMoves    int
	unconfirmed int
	started     int
	finished    int
	sizes       []int // a sample of the sizes of the states the clients received in the window
	states      int   // states received in the window
	bytes       int64 // their bytes
}

// keepSizes is how many sizes of states a table keeps for the echo.
const keepSizes = 256

// newTable sets up table idx and its first game.
func newTable(ctx context.Context, r *runner, idx int) (*table, error) {
	t := &table{r: r, idx: idx, home: idx % len(r.clients), rng: rand.New(rand.NewPCG(uint64(idx), 0x10ad)),
		stop: make(chan struct{}), errs: map[string]int{}}
	g, err := t.newGame(ctx)
	if err != nil {
		t.close()
		return nil, err
	}
	t.g = g
	return t, nil
}

// isBot reports whether seat s is a bot's: BotSeats seats spread over
// the table, so that bots' and clients' moves alternate.
func (t *table) isBot(s int) bool {
	c := t.r.cfg
	return c.BotSeats > 0 && (s*c.BotSeats)%c.Seats < c.BotSeats
}

// run plays games until the table stops, then closes it.
func (t *table) run(ctx context.Context) {
	r := t.r
	defer t.close()
	if r.period > 0 {
		// The tables' first moves spread over one period.
		t.next = r.start.Add(time.Duration(int64(r.period) * int64(t.idx) / int64(r.cfg.Tables)))
	} else {
		t.next = r.start
	}
	if !r.stopAt.IsZero() {
		stop := time.AfterFunc(time.Until(r.stopAt), t.halt)
		defer stop.Stop()
	}
	for {
		over := t.g.play(ctx)
		t.g.end()
		t.g = nil
		if !over || t.halted() || ctx.Err() != nil {
			return
		}
		for t.g == nil {
			g, err := t.newGame(ctx)
			if err == nil {
				t.g = g
				break
			}
			t.countErr(err)
			select {
			case <-time.After(time.Second): // then try again
			case <-t.stop:
				return
			case <-ctx.Done():
				return
			}
		}
	}
}

// halt stops the table's moves.
func (t *table) halt() {
	t.stopOnce.Do(func() {
		t.stopped.Store(time.Now().UnixNano())
		close(t.stop)
	})
}

func (t *table) halted() bool {
	select {
	case <-t.stop:
		return true
	default:
		return false
	}
}

// close ends the table's game.
func (t *table) close() {
	if t.g != nil {
		t.g.end()
		t.g = nil
	}
}

// countErr counts an error by its protocol code, or as a transport error.
func (t *table) countErr(err error) {
	code := "transport"
	var e *client.Error
	if errors.As(err, &e) {
		code = string(e.Code)
	}
	t.mu.Lock()
	t.errs[code]++
	t.mu.Unlock()
}

// A game is one game of a table.
type game struct {
	t       *table
	id      string
	players []*player     // the clients' seats
	turns   chan turn     // a client to move, for the table goroutine
	done    chan struct{} // closed when every client saw the end, or every sent move once halted
	quit    chan struct{} // closed as the game's clients are closed (end)
	wg      sync.WaitGroup

	// Guarded by t.mu:
	sent      map[int]sentMove // the clients' moves by index
	lastSent  int              // the index of the last move sent; -1 for none
	confirmed int              // moves some client has seen
	ends      int              // clients that saw the end
	halting   bool             // the table sends no more moves
	closed    bool             // done is closed
}

// A sentMove is when a client sent a move: its seat, and the server it
// plays through.
type sentMove struct {
	at         time.Time
	seat, node int
}

// A turn tells the table goroutine that a client is to move; it answers
// on reply with the move to send, or "" for none (the table stopped).
type turn struct {
	p     *player
	seq   int // the moves of the state
	legal []string
	reply chan string
}

// A player is one client's seat in a game.
type player struct {
	g    *game
	seat int
	node int // the server it plays through
	sess *client.Session

	closing   atomic.Bool // the game is ending: drops are expected
	connected bool        // the reader's: a connection is open
	seen      int         // moves seen; guarded by t.mu
	ended     bool        // it saw the end; guarded by t.mu
	updated   time.Time   // the last state's game.updated; the reader's
	lastSeq   int         // the position of the move it sent last; the reader's
}

// newGame creates a game at the table, seats its clients and waits until
// each has its first state.
func (t *table) newGame(ctx context.Context) (*game, error) {
	r := t.r
	seats := make([]string, r.cfg.Seats)
	for s := range seats {
		if t.isBot(s) {
			seats[s] = r.cfg.Bots
		}
	}
	info, _, err := r.clients[t.home].Create(ctx, seats)
	if err != nil {
		return nil, fmt.Errorf("create a table on %s: %w", r.clients[t.home].URL(), err)
	}
	g := &game{t: t, id: info.ID, turns: make(chan turn, 2*len(seats)), done: make(chan struct{}), quit: make(chan struct{}),
		sent: map[int]sentMove{}, lastSent: -1}
	for s, bot := range seats {
		if bot != "" {
			continue
		}
		node := (t.idx + s) % len(r.clients)
		c := r.clients[node]
		if _, token, err := c.Join(ctx, info.ID, fmt.Sprintf("Load %d.%d", t.idx, s), s); err != nil {
			return nil, fmt.Errorf("join game %s at seat %d on %s: %w", info.ID, s, c.URL(), err)
		} else {
			p := &player{g: g, seat: s, node: node, sess: c.Session(info.ID, token)}
			p.sess.Backoff = p.backoff
			p.sess.OnDrop = p.dropped
			g.players = append(g.players, p)
		}
	}
	ready := make(chan error, len(g.players))
	for _, p := range g.players {
		// The run's context: ctx may be the setup's, which ends first.
		g.wg.Go(func() { p.read(r.ctx, ready) })
	}
	for range g.players {
		if err := <-ready; err != nil {
			g.end()
			return nil, fmt.Errorf("connect to game %s: %w", info.ID, err)
		}
	}
	t.mu.Lock()
	t.started++
	t.mu.Unlock()
	return g, nil
}

// play sends the clients' moves at the table's pace until the game is
// over (true) or the table stops (false).
func (g *game) play(ctx context.Context) bool {
	t := g.t
	var (
		pending *turn
		timer   = time.NewTimer(time.Hour)
		stop    = t.stop
		grace   <-chan time.Time
	)
	timer.Stop()
	defer timer.Stop()
	defer func() {
		if pending != nil {
			pending.reply <- ""
		}
	}()
	for {
		var wake <-chan time.Time
		if pending != nil {
			if d := time.Until(t.next); d > 0 {
				timer.Reset(d)
				wake = timer.C
			} else {
				g.grant(*pending)
				pending = nil
				continue
			}
		}
		select {
		case tr := <-g.turns:
			// g.lastSent is written by this goroutine only.
			if stop != nil && tr.seq > g.lastSent {
				if pending != nil {
					pending.reply <- ""
				}
				pending = &tr
			} else {
				tr.reply <- ""
			}
		case <-wake:
			g.grant(*pending)
			pending = nil
		case <-stop:
			if pending != nil {
				pending.reply <- ""
			}
			stop, pending = nil, nil
			grace = time.After(t.r.cfg.Grace)
			t.mu.Lock()
			g.halting = true
			g.checkDone()
			t.mu.Unlock()
		case <-g.done:
			t.mu.Lock()
			over := !g.halting
			t.mu.Unlock()
			return over
		case <-grace:
			return false
		case <-ctx.Done():
			return false
		}
		timer.Stop()
	}
}

// grant answers the turn with a random legal move, for its client to
// send now, at the table's pace; with none once the table halted.
func (g *game) grant(tr turn) {
	t := g.t
	if t.halted() {
		tr.reply <- ""
		return
	}
	move := tr.legal[t.rng.IntN(len(tr.legal))]
	now := time.Now()
	t.mu.Lock()
	g.sent[tr.seq] = sentMove{at: now, seat: tr.p.seat, node: tr.p.node}
	g.lastSent = tr.seq
	t.mu.Unlock()
	t.next = now.Add(t.r.period)
	tr.reply <- move
}

// end closes the game's connections and counts the moves whose state
// did not reach every client.
func (g *game) end() {
	close(g.quit)
	for _, p := range g.players {
		p.closing.Store(true)
		p.sess.Close()
	}
	g.wg.Wait()
	t := g.t
	for _, p := range g.players {
		if p.connected {
			t.r.closed()
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for k := range g.sent {
		for _, p := range g.players {
			if p.seen <= k {
				t.unconfirmed++
				break
			}
		}
	}
}

// checkDone closes done when the game is over for every client, or the
// table has stopped and every move sent has reached every client. The
// caller holds t.mu.
func (g *game) checkDone() {
	if g.closed {
		return
	}
	all := g.ends == len(g.players)
	if _, pending := g.sent[g.lastSent]; g.halting && !all {
		all = true
		for _, p := range g.players {
			if pending && p.seen <= g.lastSent {
				all = false
			}
		}
	}
	if all {
		g.closed = true
		close(g.done)
	}
}

// read plays the client's seat (client.Player: the seat loop of every
// Go client) until the game ends: it measures the states, and asks the
// table for each move. It sends on ready once, when the first state came
// or the client could not connect.
func (p *player) read(ctx context.Context, ready chan<- error) {
	g, t := p.g, p.g.t
	first := true
	pl := &client.Player{
		Session: p.sess,
		Wait:    t.r.cfg.Wait,
		Decide:  p.decide,
		OnState: func(st *client.State) {
			if st.First {
				p.connected = true
				t.r.opened()
			}
			g.observe(p, st, time.Now())
			if first {
				first = false
				ready <- nil
			}
		},
		OnSent: func(_ string, seq int) {
			// Timed from now: the move granted, or sent again.
			p.lastSeq = seq
			t.mu.Lock()
			g.sent[seq] = sentMove{at: time.Now(), seat: p.seat, node: p.node}
			t.mu.Unlock()
		},
		OnSendError: func(_ string, err error) {
			// Not sent: the reconnected client's first state sends it again.
			t.mu.Lock()
			delete(g.sent, p.lastSeq)
			t.mu.Unlock()
			t.countErr(err)
		},
		OnRefused: func(e *client.Error, _ string) {
			t.countErr(e)
			t.mu.Lock()
			if s, ok := g.sent[g.lastSent]; ok && s.seat == p.seat && g.lastSent >= g.confirmed {
				delete(g.sent, g.lastSent) // refused: never to be confirmed
				g.checkDone()
			}
			t.mu.Unlock()
		},
	}
	_, err := pl.Play(ctx)
	if first {
		if err == nil {
			err = errors.New("the game ended before its first state")
		}
		ready <- err
	}
}

// decide asks the table goroutine for the move of the state, and waits
// for it at the table's pace: "" (nothing sent) once the table stopped.
func (p *player) decide(st *client.State) string {
	reply := make(chan string, 1)
	select {
	case p.g.turns <- turn{p: p, seq: st.View.Moves, legal: st.View.Legal, reply: reply}:
	case <-p.g.done:
		return ""
	case <-p.g.quit:
		return ""
	}
	select {
	case move := <-reply:
		return move
	case <-p.g.done:
		return ""
	case <-p.g.quit:
		return ""
	}
}

// backoff is the wait before reconnecting: none once the game ends.
func (p *player) backoff(n int) time.Duration {
	if p.closing.Load() {
		return 0
	}
	return client.DefaultBackoff(n)
}

// dropped counts a lost connection or a failed attempt, unless the game
// is ending. It runs in the reader's goroutine.
func (p *player) dropped(error, time.Duration) {
	if p.connected {
		p.connected = false
		p.g.t.r.closed()
	}
	if !p.closing.Load() {
		p.g.t.r.drops.Add(1)
	}
}

// observe measures a state the client received at now: the latency of
// each move it carries that the client had not seen.
func (g *game) observe(p *player, st *client.State, now time.Time) {
	t, r := g.t, g.t.r
	t.mu.Lock()
	defer t.mu.Unlock()
	defer func() { p.updated = st.Game.Updated }()
	if st.View == nil {
		return
	}
	window := r.inWindow(now) && !g.halting
	if window && !st.First {
		t.keepSize(st.Size)
	}
	moves := st.View.Moves
	for k := p.seen; k < moves; k++ {
		s, byClient := g.sent[k]
		if k >= g.confirmed {
			g.confirmed = k + 1
			switch {
			case byClient:
				t.made++
				if r.inWindow(s.at) {
					t.clientMoves++
				}
			case window:
				t.botMoves++
				t.made++
			}
		}
		switch {
		case byClient && !r.inWindow(s.at):
		case byClient:
			kind := otherNode
			if p.node == s.node {
				kind = sameNode
			}
			t.samples[kind] = append(t.samples[kind], now.Sub(s.at))
		case window && k == p.seen && moves == k+1 && !p.updated.IsZero():
			// One bot move: from the previous state's change, when the
			// server asked the bot, and from its own commit.
			kind := botOtherNode
			if p.node == t.home {
				kind = botSameNode
			}
			t.samples[kind] = append(t.samples[kind], now.Sub(p.updated))
			t.samples[botCommit] = append(t.samples[botCommit], now.Sub(st.Game.Updated))
		}
	}
	p.seen = max(p.seen, moves)
	if st.Over() && !p.ended {
		p.ended = true
		if g.ends == 0 {
			t.finished++
		}
		g.ends++
	}
	if r.cfg.Moves > 0 && t.made >= r.cfg.Moves {
		t.halt()
	}
	g.checkDone()
}

// keepSize counts a state of size bytes received in the window, and
// keeps a uniform sample of the sizes for the echo. The caller holds
// t.mu.
func (t *table) keepSize(size int) {
	t.states++
	t.bytes += int64(size)
	if len(t.sizes) < keepSizes {
		t.sizes = append(t.sizes, size)
	} else if i := rand.IntN(t.states); i < keepSizes {
		t.sizes[i] = size
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
