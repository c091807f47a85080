package table

import (
	"bytes"
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// replicaWatch seats Ann and Bob at a table of node a on st, and watches it
// as a spectator through node b on replica, which follows it as a replica.
func replicaWatch(t *testing.T, st, replica store.Store) (a, b *Hub, id string, tokens [2]string, sub *Subscription) {
	t.Helper()
	// Hour-long leases: a replica that took a game over (its owner's short
	// lease lapsing on a busy machine) would not follow it any more.
	keep := func(o *Options) { o.LeaseTTL = time.Hour }
	a = nodeHub(t, st, keep)
	id, tokens = seatAnnAndBob(t, a)
	// Node b starts after: a notice of the seating that came late would
	// have it read the game again.
	b = nodeHub(t, replica, keep)
	sub, err := b.Watch(testContext(t), id, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sub.Close)
	return a, b, id, tokens, sub
}

// TestReplicaKeepsNewerClock: a read of the store made before a move that
// a notice carried since comes late to the replica; the clock it holds is
// older than the replica's and is not taken.
func TestReplicaKeepsNewerClock(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	a, b, id, tokens, sub := replicaWatch(t, st, st)
	first := await(t, sub, func(u Update) bool { return u.View != nil })
	before, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Play(ctx, id, tokens[first.View.ToMove], "draw", 0); err != nil {
		t.Fatal(err)
	}
	await(t, sub, func(u Update) bool { return u.View != nil && u.View.Moves == 1 })
	after, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(before.Clock, after.Clock) {
		t.Fatalf("the move kept the clock %s: nothing to tell apart", after.Clock)
	}
	l, _ := b.live.get(id)
	err = l.call(ctx, func(l *loop) error {
		l.catchUp(0, store.Delta{Clock: before.Clock}, time.Now(), l.heard.clocks.Load()) // read before the move
		if !bytes.Equal(l.m.Stored, after.Clock) {
			return fmt.Errorf("the replica's clock is %s, want the move's %s", l.m.Stored, after.Clock)
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
}

// TestReplicaKeepsHeardClock: a read of the store that began before a
// clock without a move was heard comes late to the replica with the
// moves it holds; the clock it read may be the older and is not taken.
func TestReplicaKeepsHeardClock(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	_, b, id, _, sub := replicaWatch(t, st, st)
	await(t, sub, func(u Update) bool { return u.View != nil })
	g, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := b.live.get(id)
	clock := heldClock(t, g)
	err = l.call(ctx, func(l *loop) error {
		began := l.heard.clocks.Load() // the read begins
		b.changed(store.ClockChange(id, len(g.Moves), g.Status, clock))
		l.applyAnnounced() // as the loop will, in its own goroutine
		if !bytes.Equal(l.m.Stored, clock) {
			return fmt.Errorf("the notice's clock was not applied: %s", l.m.Stored)
		}
		l.catchUp(len(g.Moves), store.Delta{Clock: g.Clock}, time.Now(), began) // the read ends
		if !bytes.Equal(l.m.Stored, clock) {
			return fmt.Errorf("the replica's clock is %s, want the one heard, %s", l.m.Stored, clock)
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
}

// heldClock returns g's clock with a hold of a minute added.
func heldClock(t *testing.T, g *store.Game) []byte {
	t.Helper()
	timing, err := match.DecodeTiming(g.Clock, len(g.Seats))
	if err != nil {
		t.Fatal(err)
	}
	timing.Hold = &match.Hold{Until: time.UnixMilli(g.Updated.UnixMilli()).Add(time.Minute)}
	return timing.Encode()
}

// TestReplicaFollowsClock: a clock stored without a move (a pre-move, a
// hold, a take-over) reaches a replica with its notice, which it applies
// and broadcasts without reading the store.
func TestReplicaFollowsClock(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	reads := &readLog{Store: st, read: make(chan []string, 100)}
	kept := &announcedClock{readLog: reads}
	_, b, id, _, sub := replicaWatch(t, st, kept)
	u := await(t, sub, func(u Update) bool { return u.View != nil })
	select {
	case <-reads.read: // the replica's first read, as it starts following
	case <-ctx.Done():
		t.Fatal("the replica never read the game it follows")
	}
	g, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	clock := heldClock(t, g)
	kept.clock.Store(&clock)
	// As the owner's store announces it (the store itself keeps its clock:
	// a read would find nothing new).
	b.changed(store.ClockChange(id, len(g.Moves), g.Status, clock))
	// Another broadcast may come first: wait for the one after which the
	// replica holds the clock (await fails the test at its deadline).
	l, _ := b.live.get(id)
	holds := func() error {
		return l.call(ctx, func(l *loop) error {
			if !bytes.Equal(l.m.Stored, clock) {
				return fmt.Errorf("the replica's clock is %s, want %s", l.m.Stored, clock)
			}
			return nil
		})
	}
	for holds() != nil {
		u = await(t, sub, func(v Update) bool { return v.Version > u.Version })
	}
	if n := len(reads.read); n != 0 {
		t.Errorf("the replica read the store %d times for a clock its notice carried", n)
	}
	err = holds()
	if err != nil {
		t.Error(err)
	}
}

// announcedClock answers the replica's reads with the clock the test
// announced, once it did, as a store that had stored it would: the test
// announces a clock without writing it, and a read that a late notice
// (a seat taken) makes, of the moves or the whole game, would otherwise
// bring the old one back.
type announcedClock struct {
	*readLog
	clock atomic.Pointer[[]byte]
}

func (s *announcedClock) DeltasSince(ctx context.Context, from map[string]int) (map[string]store.Delta, error) {
	d, err := s.readLog.DeltasSince(ctx, from)
	if c := s.clock.Load(); c != nil {
		for id, delta := range d {
			delta.Clock = *c
			d[id] = delta
		}
	}
	return d, err
}

// Game is read whole by a replica that heard a seat taken.
func (s *announcedClock) Game(ctx context.Context, id string) (*store.Game, error) {
	g, err := s.readLog.Game(ctx, id)
	if c := s.clock.Load(); c != nil && err == nil {
		g.Clock = *c
	}
	return g, err
}
