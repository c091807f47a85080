package table

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/razziagame/razzia/internal/store/memstore"
)

// A directWatcher is a subscription whose Direct the test answers: take
// says whether Direct takes the update it is offered; offered receives
// every update offered, taken or not.
type directWatcher struct {
	sub     *Subscription
	take    atomic.Bool
	offered chan Update
}

func watchDirect(t *testing.T, h *Hub, id, token string) *directWatcher {
	t.Helper()
	d := &directWatcher{offered: make(chan Update, 16)}
	sub, err := h.Watch(testContext(t), id, Watcher{Token: token, Direct: func(u Update) bool {
		d.offered <- u
		return d.take.Load()
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sub.Close)
	d.sub = sub
	return d
}

// directTable is a game of Ann and Bob, each watching it plainly (to know
// whose turn it is and their moves), and play plays the next move.
type directTable struct {
	h      *Hub
	id     string
	tokens [2]string
	plain  [2]*Subscription
}

func newDirectTable(t *testing.T) *directTable {
	h := newHub(t, memstore.New())
	id, tokens := seatAnnAndBob(t, h)
	d := &directTable{h: h, id: id, tokens: tokens}
	for i, token := range tokens {
		sub, err := h.Watch(testContext(t), id, Watcher{Token: token})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(sub.Close)
		d.plain[i] = sub
	}
	return d
}

// play plays the first legal move of the seat to move; when it returns,
// every watcher was sent the change.
func (d *directTable) play(t *testing.T, ctx context.Context) {
	t.Helper()
	var views [2]Update
	for i, s := range d.plain {
		views[i], _ = next(t, ctx, s)
	}
	v := views[0].View
	mover := views[v.ToMove].View
	if err := d.h.Play(ctx, d.id, d.tokens[v.ToMove], mover.Legal[0], v.Moves); err != nil {
		t.Fatal(err)
	}
}

// next returns the next update offered to Direct, failing after the
// deadline.
func (w *directWatcher) next(t *testing.T, ctx context.Context) Update {
	t.Helper()
	select {
	case u := <-w.offered:
		return u
	case <-ctx.Done():
		t.Fatal("Direct was offered no update before the deadline")
		return Update{}
	}
}

// noOffer fails if Direct was offered an update.
func (w *directWatcher) noOffer(t *testing.T, why string) {
	t.Helper()
	select {
	case u := <-w.offered:
		t.Fatalf("%s, Direct was offered version %d", why, u.Version)
	default:
	}
}

// TestDirectTakesUpdates: a watcher whose Direct takes every update gets
// them all there, in order, with their events, and none on its channel.
func TestDirectTakesUpdates(t *testing.T) {
	ctx := testContext(t)
	d := newDirectTable(t)
	w := watchDirect(t, d.h, d.id, d.tokens[1])
	first, _ := next(t, ctx, w.sub) // offered while not taken: on the channel
	w.next(t, ctx)
	w.sub.Handled()
	w.take.Store(true)
	last, moves := first.Version, first.View.Moves
	for range 5 {
		d.play(t, ctx)
		u := w.next(t, ctx)
		if u.Version <= last || u.View.Moves != moves+1 || len(u.Events) == 0 {
			t.Fatalf("offered version %d after %d, at move %d after %d, with %d events", u.Version, last, u.View.Moves, moves, len(u.Events))
		}
		last, moves = u.Version, u.View.Moves
		w.noOffer(t, "after one move")
	}
	select {
	case u := <-w.sub.Updates():
		t.Fatalf("an update taken by Direct came on the channel too: version %d", u.Version)
	default:
	}
}

// TestDirectAfterHandled: an update Direct did not take goes to the
// channel, and the next are merged with it there, never offered to
// Direct, until the receiver handled it: so they arrive in order.
func TestDirectAfterHandled(t *testing.T) {
	ctx := testContext(t)
	d := newDirectTable(t)
	w := watchDirect(t, d.h, d.id, d.tokens[1])
	first, _ := next(t, ctx, w.sub)
	w.next(t, ctx)
	w.sub.Handled()
	d.play(t, ctx) // offered, not taken: to the channel
	w.next(t, ctx)
	d.play(t, ctx)
	w.noOffer(t, "with an update on the channel not handled")
	u, _ := next(t, ctx, w.sub) // both moves, merged
	if u.View.Moves != first.View.Moves+2 {
		t.Fatalf("the channel's update is at move %d, want %d", u.View.Moves, first.View.Moves+2)
	}
	d.play(t, ctx)
	w.noOffer(t, "with the update taken but not handled yet")
	w.sub.Handled()
	v, _ := next(t, ctx, w.sub)
	w.sub.Handled()
	w.take.Store(true)
	d.play(t, ctx)
	o := w.next(t, ctx)
	if v.Version <= u.Version || o.Version <= v.Version || o.View.Moves != v.View.Moves+1 {
		t.Errorf("versions %d, %d, then offered %d at move %d after %d: want them in order", u.Version, v.Version, o.Version, o.View.Moves, v.View.Moves)
	}
}
