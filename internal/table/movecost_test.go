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
