package table

import (
	"testing"

	"github.com/razziagame/razzia/internal/store/memstore"
)

// TestResyncWithUpdatePending: a whole state asked for again while the
// watcher has not taken an update carries every event of the game, not
// those since the update pending.
func TestResyncWithUpdatePending(t *testing.T) {
	ctx := testContext(t)
	h := newHub(t, memstore.New())
	id, tokens := seatAnnAndBob(t, h)
	var subs [2]*Subscription
	var last [2]Update
	for i, token := range tokens {
		s, err := h.Watch(ctx, id, Watcher{Token: token})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		subs[i] = s
		last[i], _ = next(t, ctx, s)
	}
	// Three moves, Ann taking the updates of the first two only.
	for move := range 3 {
		mover := last[0].View.ToMove
		v := last[mover].View
		if err := h.Play(ctx, id, tokens[mover], v.Legal[0], v.Moves); err != nil {
			t.Fatal(err)
		}
		last[1], _ = next(t, ctx, subs[1])
		if move < 2 {
			last[0], _ = next(t, ctx, subs[0])
		}
	}
	subs[0].Resync()
	// A spectator's first update comes after the game's goroutine handled
	// the request: the requests are handled in order.
	spectator, err := h.Watch(ctx, id, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	defer spectator.Close()
	next(t, ctx, spectator)
	u, _ := next(t, ctx, subs[0])
	if !u.Full {
		t.Fatalf("the update after the request is not whole: from move %d", u.from)
	}
	if len(u.Events) < 3 || u.from != 0 {
		t.Errorf("the whole state asked for carries %d events from move %d, want every one of 3 moves", len(u.Events), u.from)
	}
}
