package table

import (
	"reflect"
	"slices"
	"testing"

	"github.com/razziagame/razzia/internal/protocol"
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

// TestDescribeShares: a table's description at a move shares with the
// last what did not change, and describes anew what did; the moves it
// tells other goroutines cost nothing either.
func TestDescribeShares(t *testing.T) {
	h := newHub(t, memstore.New())
	id, _ := seatAnnAndBob(t, h)
	l, _ := h.live.get(id)
	l.call(testContext(t), func(l *loop) error {
		fresh := l.info()
		l.describe()
		if n := testing.AllocsPerRun(100, func() { l.describe() }); n != 0 {
			t.Errorf("describing an unchanged table allocates %v times, want 0", n)
		}
		if n := testing.AllocsPerRun(100, l.show); n != 0 {
			t.Errorf("showing the moves of a table whose status is the same allocates %v times, want 0", n)
		}
		changed := l.described
		changed.Seats = slices.Clone(changed.Seats)
		changed.Seats[1].Name = "Mallory"
		changed.Pace = &protocol.PaceInfo{ID: "blitz"}
		in := describeAfter(l.m, l.id, l.env.limits.OpenTTL, &changed)
		if !reflect.DeepEqual(in, fresh) {
			t.Errorf("described after a different description:\n%+v\nwant\n%+v", in, fresh)
		}
		if changed.Seats[1].Name != "Mallory" || changed.Pace.ID != "blitz" {
			t.Errorf("the last description was changed: %+v", changed)
		}
		return nil
	})
}
