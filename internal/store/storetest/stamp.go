package storetest

import (
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// RunStamps checks that a store stamps a game's Created and Updated times
// from the clock it was opened with (now), not from its own: a hub's
// clock resumes a decision from the game's Updated time, so a store on
// another clock would start it days off. open returns a fresh, empty
// store; the suite closes it.
func RunStamps(t *testing.T, open func(t *testing.T, now func() time.Time) store.Store) {
	var (
		mu  sync.Mutex
		at  = time.Now().Add(-48 * time.Hour).Truncate(time.Millisecond)
		now = func() time.Time { mu.Lock(); defer mu.Unlock(); return at }
	)
	tick := func() time.Time { mu.Lock(); defer mu.Unlock(); at = at.Add(time.Second); return at }
	s := open(t, now)
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	g := newGame("stamps0001", store.StatusOpen, 0)
	g.Created, g.Updated = time.Time{}, time.Time{}
	create(t, s, g)
	check := func(what string, want time.Time) {
		t.Helper()
		// A store may step Updated on by a nanosecond per statement.
		if got := get(t, s, g.ID); got.Updated.Before(want) || got.Updated.Sub(want) > time.Microsecond {
			t.Errorf("after %s: Updated %v, want the store's clock's %v", what, got.Updated, want)
		}
	}
	if got := get(t, s, g.ID); !got.Created.Equal(now()) {
		t.Errorf("CreateGame: Created %v, want the store's clock's %v", got.Created, now())
	}
	check("CreateGame", now())
	want := tick()
	if err := s.TakeSeat(ctx(t), g.ID, store.NoFence, 0, store.Seat{Name: "Bo", TokenHash: hash(1)}, store.StatusPlaying); err != nil {
		t.Fatalf("TakeSeat: %v", err)
	}
	check("TakeSeat", want)
	want = tick()
	appendMove(t, s, g.ID, 0, "D", store.StatusPlaying)
	check("AppendMove", want)
	want = tick()
	if err := s.AppendTimedMove(ctx(t), g.ID, store.NoFence, 1, "D", store.StatusPlaying, []byte("clock")); err != nil {
		t.Fatalf("AppendTimedMove: %v", err)
	}
	check("AppendTimedMove", want)
	want = tick()
	if err := s.SetClock(ctx(t), g.ID, store.NoFence, 2, []byte("clock 2")); err != nil {
		t.Fatalf("SetClock: %v", err)
	}
	check("SetClock", want)
}
