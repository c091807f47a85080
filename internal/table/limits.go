package table

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limits bound what the Hub holds for its clients, so that no client, and
// no number of them, can take the server's memory or CPU. The zero value
// of a field is its default (DefaultLimits).
type Limits struct {
	// MaxOpen is the most tables waiting for players at once, from all
	// clients together.
	MaxOpen int
	// MaxPerClient is the most tables one client (an address, as the
	// caller of Create names it) may hold at once: its tables waiting for
	// players and its games of bots only under way. Tables a restarted
	// Hub found in the store count for nobody.
	MaxPerClient int
	// MaxBotGames is the most games of bots only under way at once.
	MaxBotGames int
	// OpenTTL is how long a table waits for players: when no seat has been
	// taken (or freed) for that long, it closes with status expired.
	OpenTTL time.Duration
	// BotWorkers is how many bots think at once, in all games together:
	// the CPU the bots may take. Bots of games where a person plays go
	// first, stand-ins for the others included.
	BotWorkers int
	// MaxSpectators is the most spectators (watchers without a seat) of
	// one game at once.
	MaxSpectators int
	// SeatMoveRate and SeatMoveBurst bound the moves one seat may send,
	// over all its connections together: a burst of SeatMoveBurst, then
	// SeatMoveRate a second.
	SeatMoveRate  float64
	SeatMoveBurst int
	// FinishedCache is how many finished games the Hub keeps ready to
	// show new spectators, instead of replaying them for each.
	FinishedCache int
}

// DefaultLimits returns the limits a club server can live with: the
// values a zero field of Limits takes.
func DefaultLimits() Limits {
	return Limits{
		MaxOpen:       500,
		MaxPerClient:  5,
		MaxBotGames:   8,
		OpenTTL:       24 * time.Hour,
		BotWorkers:    max(1, runtime.NumCPU()-1),
		MaxSpectators: 200,
		SeatMoveRate:  5,
		SeatMoveBurst: 10,
		FinishedCache: 64,
	}
}

// withDefaults fills the zero fields of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	fill := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	fill(&l.MaxOpen, d.MaxOpen)
	fill(&l.MaxPerClient, d.MaxPerClient)
	fill(&l.MaxBotGames, d.MaxBotGames)
	fill(&l.BotWorkers, d.BotWorkers)
	fill(&l.MaxSpectators, d.MaxSpectators)
	fill(&l.SeatMoveBurst, d.SeatMoveBurst)
	fill(&l.FinishedCache, d.FinishedCache)
	if l.OpenTTL <= 0 {
		l.OpenTTL = d.OpenTTL
	}
	if l.SeatMoveRate <= 0 {
		l.SeatMoveRate = d.SeatMoveRate
	}
	return l
}

// A hold is what a live game takes of the Hub's limits.
type hold int

const (
	holdNone hold = iota // a game with people under way
	holdOpen             // a table waiting for players
	holdBots             // a game of bots only under way
)

// holds counts the live games by hold and by the client who created them.
// Its own mutex guards it: a game's goroutine changes what it holds
// without touching the rest of the Hub.
type holds struct {
	mu         sync.Mutex
	open, bots int
	clients    map[string]int
}

func newHolds() *holds { return &holds{clients: map[string]int{}} }

// add counts n more games of client that hold k.
func (c *holds) add(client string, k hold, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.addLocked(client, k, n)
}

// move counts a game of client that held from as holding to.
func (c *holds) move(client string, from, to hold) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.addLocked(client, from, -1)
	c.addLocked(client, to, 1)
}

func (c *holds) addLocked(client string, k hold, n int) {
	switch k {
	case holdOpen:
		c.open += n
	case holdBots:
		c.bots += n
	default:
		return
	}
	if client == "" {
		return
	}
	if c.clients[client] += n; c.clients[client] <= 0 {
		delete(c.clients, client)
	}
}

// reserve counts a new game of client that holds k, unless a limit is
// reached.
func (c *holds) reserve(lim Limits, client string, k hold) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case k == holdNone:
		return nil
	case client != "" && c.clients[client] >= lim.MaxPerClient:
		return reject(ErrTooManyGames, "you have %d tables waiting for players or games of bots under way, the most one client may have: wait until one of them starts, ends or expires", lim.MaxPerClient)
	case k == holdOpen && c.open >= lim.MaxOpen:
		return reject(ErrTooManyGames, "the server has %d tables waiting for players, the most it keeps: join one of them, or try again later", lim.MaxOpen)
	case k == holdBots && c.bots >= lim.MaxBotGames:
		return reject(ErrTooManyGames, "%d games of bots only are under way, the most this server runs at once: give a seat to a person, or try again later", lim.MaxBotGames)
	}
	c.addLocked(client, k, 1)
	return nil
}

// holdOf says what a game with the status and seats holds.
func holdOf(open bool, botsOnly bool) hold {
	switch {
	case open:
		return holdOpen
	case botsOnly:
		return holdBots
	}
	return holdNone
}

// workers is the pool of bot decisions: at most n bots think at once, and
// a bot of a game where a person plays goes before the bots of games
// nobody waits for: games of bots, and games whose people all left or ran
// out of time (stand-ins play every person's seat).
type workers struct {
	mu      sync.Mutex
	free    int
	waiting [2][]chan struct{} // by priority: 0 a person plays, 1 nobody does
	onWait  func(prio int)     // called as a bot starts waiting; for tests
	spare   chan struct{}      // closed while a worker is free (analysis.go)
}

func newWorkers(n int) *workers { return &workers{free: n, spare: closed()} }

// acquire waits for a worker; it returns false if stop or done closed
// first.
func (w *workers) acquire(prio int, stop, done <-chan struct{}) bool {
	w.mu.Lock()
	if w.free > 0 {
		w.free--
		w.taken()
		w.mu.Unlock()
		return true
	}
	ch := make(chan struct{})
	w.waiting[prio] = append(w.waiting[prio], ch)
	w.mu.Unlock()
	if w.onWait != nil {
		w.onWait(prio)
	}
	select {
	case <-ch:
		return true
	case <-stop:
	case <-done:
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, c := range w.waiting[prio] {
		if c == ch {
			w.waiting[prio] = append(w.waiting[prio][:i], w.waiting[prio][i+1:]...)
			return false
		}
	}
	// Granted as we stopped: pass the worker on.
	w.releaseLocked()
	return false
}

// release gives a worker back.
func (w *workers) release() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.releaseLocked()
}

func (w *workers) releaseLocked() {
	for p := range w.waiting {
		if q := w.waiting[p]; len(q) > 0 {
			w.waiting[p] = q[1:]
			close(q[0])
			return
		}
	}
	w.free++
	w.freed()
}

// seatLimiter is the move rate limit of one seat over all its connections.
type seatLimiter struct{ *rate.Limiter }

func newSeatLimiter(lim Limits) seatLimiter {
	return seatLimiter{rate.NewLimiter(rate.Limit(lim.SeatMoveRate), lim.SeatMoveBurst)}
}

// allow takes a move from the seat's budget at now, or says how long to
// wait for one.
func (s seatLimiter) allow(now time.Time, lim Limits) error {
	if s.AllowN(now, 1) {
		return nil
	}
	wait := time.Duration(math.Ceil((1 - s.TokensAt(now)) / lim.SeatMoveRate * float64(time.Second)))
	e := reject(ErrRateLimited, "too many moves from your seat: at most %d at once and %s a second over all your connections; this one was dropped",
		lim.SeatMoveBurst, fmt.Sprint(lim.SeatMoveRate))
	e.RetryAfter = wait
	return e
}

// closed returns a closed channel.
func closed() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

// taken notes that a worker was taken; w.mu is held.
func (w *workers) taken() {
	if w.free == 0 {
		w.spare = make(chan struct{})
	}
}

// freed notes that a worker was given back; w.mu is held.
func (w *workers) freed() {
	if w.free == 1 {
		close(w.spare)
	}
}

// commitTimeout bounds one store write, so a stuck database cannot stall a
// game forever.
const commitTimeout = 10 * time.Second
