package table

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/razziagame/razzia/internal/store"
)

// leases are the leases this node holds, by game, as the renewer keeps
// them, and whether the node is handing its games over. Their own mutex
// guards them: a game's goroutine that lets its lease go or loses it
// tells them without touching the rest of the Hub.
type leases struct {
	ttl  time.Duration
	log  *slog.Logger
	lost prometheus.Counter // set once the metrics exist

	mu       sync.Mutex
	draining bool // no more leases: the node is handing its games over
	held     map[string]*heldLease
}

// A heldLease is a lease this node holds, as the renewer keeps it.
type heldLease struct {
	lease store.Lease
	// deadline is when the lease lapses at the soonest, by this node's
	// clock: LeaseTTL after the renewal that succeeded was sent. Past it,
	// the node stops owning the game, whatever the store says later.
	deadline time.Time
}

func newLeases(ttl time.Duration, log *slog.Logger) *leases {
	return &leases{ttl: ttl, log: log, held: map[string]*heldLease{}}
}

func (ls *leases) isDraining() bool {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return ls.draining
}

// drain takes no lease more, and reports whether it was the first call.
func (ls *leases) drain() bool {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	first := !ls.draining
	ls.draining = true
	return first
}

// hold records a lease just acquired (the request sent at since).
func (ls *leases) hold(l store.Lease, since time.Time) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.held[l.Game] = &heldLease{lease: l, deadline: since.Add(ls.ttl)}
}

// unhold forgets the lease of game id with the fence, if it is held.
func (ls *leases) unhold(id string, fence store.Fence) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if hl := ls.held[id]; hl != nil && hl.lease.Fence == fence {
		delete(ls.held, id)
	}
}

// holds reports whether a lease of game id is held.
func (ls *leases) holds(id string) bool {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return ls.held[id] != nil
}

// count returns how many leases are held.
func (ls *leases) count() int {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return len(ls.held)
}

// toRenew returns the leases held and the soonest of their deadlines.
func (ls *leases) toRenew() ([]store.Lease, time.Time) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	leases := make([]store.Lease, 0, len(ls.held))
	var first time.Time
	for _, hl := range ls.held {
		leases = append(leases, hl.lease)
		if first.IsZero() || hl.deadline.Before(first) {
			first = hl.deadline
		}
	}
	return leases, first
}

// renewed moves the deadlines of the leases renewed by a call sent at
// sent.
func (ls *leases) renewed(renewed []store.Lease, sent time.Time) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for _, l := range renewed {
		if hl := ls.held[l.Game]; hl != nil && hl.lease.Fence == l.Fence {
			hl.lease.Expires, hl.deadline = l.Expires, sent.Add(ls.ttl)
		}
	}
}

// lapsed returns the leases whose deadline passed by now.
func (ls *leases) lapsed(now time.Time) []store.Lease {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	var out []store.Lease
	for _, hl := range ls.held {
		if now.After(hl.deadline) {
			out = append(out, hl.lease)
		}
	}
	return out
}

// forget drops lease l, lost, from the leases held; it logs and counts the
// loss once, and reports whether l was held.
func (ls *leases) forget(l store.Lease, why string) bool {
	ls.mu.Lock()
	hl := ls.held[l.Game]
	held := hl != nil && hl.lease.Fence == l.Fence
	if held {
		delete(ls.held, l.Game)
	}
	ls.mu.Unlock()
	if held {
		ls.lost.Inc()
		ls.log.Warn("lease lost: the game is not run here any more", "game", l.Game, "fence", l.Fence, "why", why)
	}
	return held
}

// FencedWrites are the writes of a game its owner makes with the lease's
// fence (part of Store; the game's goroutine makes them in loop.commit).
type FencedWrites interface {
	TakeSeat(ctx context.Context, id string, fence store.Fence, seat int, s store.Seat, status store.Status) error
	FreeSeat(ctx context.Context, id string, fence store.Fence, seat int) error
	SetSeatBot(ctx context.Context, id string, fence store.Fence, seat int, s store.Seat) error
	CloseTable(ctx context.Context, id string, fence store.Fence, status store.Status) error
	AppendTimedMove(ctx context.Context, id string, fence store.Fence, index int, token string, status store.Status, clock []byte) error
	SetClock(ctx context.Context, id string, fence store.Fence, moves int, clock []byte) error
}

// moderationWrites is what the operators' commands write.
type moderationWrites interface {
	StrikeChat(ctx context.Context, id string, fence store.Fence, seq int) error
}
