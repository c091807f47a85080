package table

import (
	"testing"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// TestOwnNoticeCostsNothing: the notice of a move the node committed
// itself, which every node hears too, costs its owner no allocation once
// decoded: it made the change already.
func TestOwnNoticeCostsNothing(t *testing.T) {
	h := newHub(t, memstore.New())
	id, _ := seatAnnAndBob(t, h)
	c := store.MoveChange(id, 0, "draw:lamp", store.StatusPlaying, []byte(`{"pace":"untimed"}`))
	if n := testing.AllocsPerRun(100, func() { h.changed(c) }); n != 0 {
		t.Errorf("an own move's notice allocates %v times, want 0", n)
	}
}

// TestCallCostsNothing: a call into a game's goroutine, which every
// move makes, allocates nothing of its own.
func TestCallCostsNothing(t *testing.T) {
	h := newHub(t, memstore.New())
	id, _ := seatAnnAndBob(t, h)
	l, _ := h.live.get(id)
	ctx := testContext(t)
	f := func(*loop) error { return nil }
	if n := testing.AllocsPerRun(100, func() { l.call(ctx, f) }); n != 0 {
		t.Errorf("a call allocates %v times, want 0", n)
	}
}
