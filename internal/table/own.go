package table

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// errDraining is a lease this node may not take: it is handing its
// games over.
var errDraining = errors.New("the node takes no more games: it is shutting down")

// letGo forgets a lease and releases it, for the game it was taken for
// could not be run.
func (h *Hub) letGo(l store.Lease) {
	h.leases.unhold(l.Game, l.Fence)
	ctx, cancel := context.WithTimeout(context.Background(), commitTimeout)
	defer cancel()
	if err := h.store.ReleaseLease(ctx, l); err != nil && !errors.Is(err, store.ErrLeaseLost) {
		h.log.Warn("cannot release a lease; it lapses by itself", "game", l.Game, "err", err)
	}
}

// adopt takes game id over: it acquires the lease, reads the game as it
// is now and runs it as its owner, promoting its replica if there is one.
// It returns the game's loop, or nil and no error when the game is not
// live any more. ErrLeaseHeld: another node runs it; errDraining: this
// node takes no more games.
func (h *Hub) adopt(ctx context.Context, id string) (*loop, error) {
	if h.leases.isDraining() {
		return nil, errDraining
	}
	since := time.Now()
	lease, err := h.store.AcquireLease(ctx, id, h.node, h.opts.LeaseTTL)
	if err != nil {
		return nil, err
	}
	h.leases.hold(lease, since)
	// Read after the lease is ours: no other node writes the game now.
	g, err := h.store.Game(ctx, id)
	if err != nil {
		h.letGo(lease)
		return nil, err
	}
	return h.own(ctx, lease, g)
}

// own runs g, whose lease this node holds, as its owner.
func (h *Hub) own(ctx context.Context, lease store.Lease, g *store.Game) (*loop, error) {
	if g.Status == store.StatusOpen && !h.opts.Now().Before(g.Updated.Add(h.opts.Limits.OpenTTL)) {
		// It waited its time while no node ran it.
		h.leases.unhold(lease.Game, lease.Fence)
		if err := h.store.CloseTable(ctx, g.ID, lease.Fence, store.StatusExpired); err != nil && !errors.Is(err, store.ErrConflict) {
			return nil, err
		}
		h.log.Info("table expired", "game", g.ID)
		return nil, nil
	}
	if !g.Status.Live() {
		h.leases.unhold(lease.Game, lease.Fence)
		return nil, nil
	}
	for {
		l, _ := h.live.get(g.ID)
		if l == nil {
			nl, err := newLoop(h.env, g, lease)
			if err != nil {
				h.letGo(lease)
				return nil, err
			}
			got, ok := h.start(nl)
			if ok {
				h.tookOver(lease)
				return nl, nil
			}
			if got == nil {
				h.letGo(lease)
				return nil, reject(ErrClosed, "the server is shutting down")
			}
			l = got
		}
		err := l.call(ctx, func(l *loop) error { return l.promote(lease, g) })
		switch {
		case err == errOwned:
			return l, nil
		case err == errEnded:
			continue // it ended meanwhile (a replica nobody watched): start one
		case err != nil:
			h.letGo(lease)
			return nil, err
		}
		h.tookOver(lease)
		return l, nil
	}
}

// tookOver logs and counts a game this node took: a take-over when
// another node (or a past process) held it before.
func (h *Hub) tookOver(l store.Lease) {
	if l.Fence > 1 {
		h.metrics.takenOver.Inc()
		h.log.Info("game taken over", "game", l.Game, "fence", l.Fence)
	}
}

// renewLoop renews the leases every LeaseTTL/3, or at once when asked.
func (h *Hub) renewLoop() { every(h.ctx, h.opts.LeaseTTL/3, h.renewNow, h.renew) }

// renew renews every lease held in one call, and stops owning the games
// whose lease is lost: the store says so, or the deadline passed without
// a renewal that succeeded (the store cannot be reached).
func (h *Hub) renew() {
	leases, first := h.leases.toRenew()
	sent := time.Now()
	var lost []store.Lease
	if len(leases) > 0 {
		// A slow renewal that succeeds still keeps the games (their new
		// deadline counts from sent): wait for it while a lease lasts.
		ctx, cancel := context.WithTimeout(h.ctx, max(h.opts.LeaseTTL/3, first.Sub(sent)))
		renewed, err := h.store.RenewLeases(ctx, leases, h.opts.LeaseTTL)
		cancel()
		if err != nil {
			if h.ctx.Err() != nil {
				return
			}
			h.log.Warn("cannot renew the leases; the games stop here if this lasts", "leases", len(leases), "err", err)
		} else {
			h.leases.renewed(renewed, sent)
			kept := map[string]store.Fence{}
			for _, l := range renewed {
				kept[l.Game] = l.Fence
			}
			for _, l := range leases {
				if f, ok := kept[l.Game]; !ok || f != l.Fence {
					lost = append(lost, l)
				}
			}
		}
	}
	lost = append(lost, h.leases.lapsed(time.Now())...)
	for _, l := range lost {
		h.lose(l, "the lease could not be renewed")
	}
}

// lose stops owning the game of lease l, lost: its loop, if it still runs
// the game with that lease, serves it on as a replica.
func (h *Hub) lose(l store.Lease, why string) {
	if !h.leases.forget(l, why) {
		return
	}
	if lp, _ := h.live.get(l.Game); lp != nil {
		lp.post(func(lp *loop) { lp.stopOwning(l.Fence) })
	}
}

// scanLoop takes over the games nobody runs, every LeaseTTL/4 or at once
// when asked.
func (h *Hub) scanLoop() {
	every(h.ctx, h.opts.LeaseTTL/4, h.scanNow, func() {
		if _, err := h.scan(h.ctx); err != nil && h.ctx.Err() == nil {
			h.log.Warn("cannot look for games nobody runs", "err", err)
		}
	})
}

// scanBatch is how many unowned games one scan takes at most, and
// adoptAtOnce how many it takes at once.
const (
	scanBatch   = 512
	adoptAtOnce = 8
)

// scan takes over the live games no node runs, and returns how many it
// took. A game that cannot be run is logged and left alone.
func (h *Hub) scan(ctx context.Context) (int, error) {
	if h.leases.isDraining() {
		return 0, nil
	}
	ids, err := h.store.Unowned(ctx, scanBatch)
	if err != nil {
		return 0, fmt.Errorf("listing the games nobody runs: %w", err)
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		n    int
		sema = make(chan struct{}, adoptAtOnce)
	)
	for _, id := range ids {
		sema <- struct{}{}
		wg.Go(func() {
			defer func() { <-sema }()
			l, err := h.adopt(ctx, id)
			switch {
			case err == nil && l != nil:
				mu.Lock()
				n++
				mu.Unlock()
			case err == nil, errors.Is(err, store.ErrLeaseHeld), errors.Is(err, store.ErrConflict), errors.Is(err, errDraining):
			default:
				h.log.Error("cannot take the game over", "game", id, "err", err)
			}
		})
	}
	wg.Wait()
	return n, nil
}

// Drain hands every game this node runs over to the other nodes: it
// takes no more leases, lets the writes under way finish, and releases
// every lease, so that another node takes each game at once rather than
// after LeaseTTL. The games' watchers here are served on from the store
// until they leave. It returns when every lease is released or ctx ends.
func (h *Hub) Drain(ctx context.Context) error {
	first := h.leases.drain()
	var owned []*loop
	for _, l := range h.live.all() {
		if h.leases.holds(l.id) {
			owned = append(owned, l)
		}
	}
	if first {
		h.log.Info("handing the games over", "games", len(owned))
	}
	var (
		wg   sync.WaitGroup
		sema = make(chan struct{}, adoptAtOnce)
	)
	for _, l := range owned {
		sema <- struct{}{}
		wg.Go(func() {
			defer func() { <-sema }()
			l.call(ctx, func(l *loop) error { l.handOver(); return nil })
		})
	}
	wg.Wait()
	if left := h.leases.count(); left > 0 {
		return fmt.Errorf("%d games not handed over: their leases lapse by themselves", left)
	}
	return ctx.Err()
}

// createGame stores g with its lease, in one store operation so that no
// scanner (of another node or of this one) takes the new game first, and
// runs it as its owner, with held counted for client.
func (h *Hub) createGame(ctx context.Context, g *store.Game, client string, held hold) (*loop, error) {
	if h.leases.isDraining() {
		return nil, reject(ErrClosed, "the server is shutting down")
	}
	since := time.Now()
	lease, err := h.store.CreateOwnedGame(ctx, g, h.node, h.opts.LeaseTTL)
	if errors.Is(err, store.ErrConflict) && g.RematchOf != "" {
		// A rematch's id comes with its offer: whoever starts it second,
		// here or on another node, finds it created, which is no failure.
		return nil, err
	}
	if err != nil {
		return nil, h.failed("create game", g.ID, err)
	}
	h.leases.hold(lease, since)
	l, err := newLoop(h.env, g, lease)
	if err != nil {
		h.letGo(lease)
		return nil, h.failed("start game", g.ID, err)
	}
	l.client, l.held, l.counted = client, held, true
	if _, ok := h.start(l); ok {
		return l, nil
	}
	// Only a Hub that is closing refuses a new game's loop: nobody else
	// knows its id yet.
	l.bots.closeAll()
	h.letGo(lease)
	return nil, reject(ErrClosed, "the server is shutting down")
}

// start registers and runs a new loop, counting what an owner holds. It
// returns the loop, or the game's loop that was there first, or nil
// (and false) when the Hub is closing or the game ended meanwhile: then
// the caller looks again.
func (h *Hub) start(l *loop) (*loop, bool) {
	return h.live.add(l.id, l, func() {
		if l.owns() && !l.counted {
			h.holds.add(l.client, l.held, 1)
			l.counted = true
		}
		h.wg.Add(1)
		go l.run()
	})
}
