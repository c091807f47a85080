package table

import (
	"errors"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// TestForwardedMoveAnsweredByNotice: a move passed to the game's owner
// is answered by the notice of its commit, which names the request: the
// owner publishes no answer (one notice a move made through another
// node, not two). A refused move is answered as before. The forwarding's
// timeout is an hour: a move that waited for an answer that never comes
// would end the test.
func TestForwardedMoveAnsweredByNotice(t *testing.T) {
	onNodeStores(t, forwardedMoveAnsweredByNotice)
}

func forwardedMoveAnsweredByNotice(t *testing.T, open func(t *testing.T) store.Store) {
	ctx := testContext(t)
	keep := func(o *Options) { o.LeaseTTL, o.ForwardTimeout = time.Hour, time.Hour }
	onA, onB := &callStore{Store: open(t)}, &callStore{Store: open(t)}
	a, b := nodeHub(t, onA, keep), nodeHub(t, onB, keep)
	id, tokens := seatAnnAndBob(t, a)
	var seats [2]*Subscription
	for i, token := range tokens {
		var err error
		if seats[i], err = b.Watch(ctx, id, Watcher{Token: token}); err != nil {
			t.Fatal(err)
		}
		defer seats[i].Close()
	}
	before := func(n int) Update {
		t.Helper()
		u := await(t, seats[0], func(u Update) bool { return u.View.Moves == n })
		if u.View.ToMove == 0 {
			return u
		}
		return await(t, seats[u.View.ToMove], func(u Update) bool { return u.View.Moves == n })
	}
	const moves = 6
	beforeA, beforeB := onA.snapshot(), onB.snapshot()
	for n := range moves {
		u := before(n)
		if err := b.Play(ctx, id, tokens[u.View.ToMove], u.View.Legal[0], n); err != nil {
			t.Fatalf("move %d through the other node: %v", n+1, err)
		}
	}
	if got := onA.since(beforeA)["Publish"]; got != 0 {
		t.Errorf("the owner published %d answers to %d moves passed to it, want none: the moves' notices answer", got, moves)
	}
	if got := onB.since(beforeB)["Publish"]; got != moves {
		t.Errorf("the asking node published %d times for %d moves, want one each", got, moves)
	}
	u := before(moves)
	beforeA = onA.snapshot()
	if err := b.Play(ctx, id, tokens[u.View.ToMove], u.View.Legal[0], moves-1); !errors.Is(err, ErrStale) {
		t.Errorf("a stale move through the other node: %v, want %v", err, ErrStale)
	}
	if got := onA.since(beforeA)["Publish"]; got != 1 {
		t.Errorf("the owner published %d answers to a refused move, want 1", got)
	}
}
