package storetest

import (
	"errors"
	"slices"
	"testing"

	"github.com/razziagame/razzia/internal/store"
)

// The checks of a timed table's clock: kept with the game,
// replaced with a move in one transaction, or alone at a given move.

func testClock(t *testing.T, s store.Store) {
	g := newGame("clock00001", store.StatusPlaying, 0)
	g.Seats[0] = store.Seat{Name: "Bea", TokenHash: hash(0xb0)}
	g.Clock = []byte(`{"at":0}`)
	create(t, s, g)
	checkGame(t, s, g)

	// A move without a clock keeps the stored one.
	appendMove(t, s, g.ID, 0, "draw 3", store.StatusPlaying)
	got := get(t, s, g.ID)
	if string(got.Clock) != `{"at":0}` {
		t.Errorf("after AppendMove: Clock = %q, want it kept", got.Clock)
	}
	if err := s.AppendTimedMove(ctx(t), g.ID, store.NoFence, 1, "pass", store.StatusPlaying, []byte(`{"at":2}`)); err != nil {
		t.Fatalf("AppendTimedMove: %v", err)
	}
	got = get(t, s, g.ID)
	if string(got.Clock) != `{"at":2}` || len(got.Moves) != 2 {
		t.Errorf("after AppendTimedMove: Clock = %q, %d moves; want {\"at\":2}, 2 moves", got.Clock, len(got.Moves))
	}
	before := got.Updated
	if err := s.SetClock(ctx(t), g.ID, store.NoFence, 2, []byte(`{"at":3}`)); err != nil {
		t.Fatalf("SetClock: %v", err)
	}
	got = get(t, s, g.ID)
	if string(got.Clock) != `{"at":3}` {
		t.Errorf("after SetClock: Clock = %q, want {\"at\":3}", got.Clock)
	}
	if !got.Updated.After(before) {
		t.Errorf("SetClock left Updated at %v, want after %v", got.Updated, before)
	}

	// A move without a clock after SetClock keeps SetClock's (a store
	// may keep a game's clock and time with its last move: the latest
	// change wins, a move's or the game's), and the lists agree.
	before = got.Updated
	appendMove(t, s, g.ID, 2, "draw 4", store.StatusPlaying)
	got = get(t, s, g.ID)
	if string(got.Clock) != `{"at":3}` || len(got.Moves) != 3 || !got.Updated.After(before) {
		t.Errorf("after SetClock and AppendMove: Clock = %q, %d moves, Updated %v; want {\"at\":3}, 3 moves, after %v",
			got.Clock, len(got.Moves), got.Updated, before)
	}
	sums, err := s.List(ctx(t), store.StatusPlaying, 0)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(sums, func(sum store.Summary) bool { return sum.ID == g.ID })
	if i < 0 || sums[i].Moves != 3 || !sums[i].Updated.Equal(got.Updated) {
		t.Errorf("List(playing) = %+v, want %s with 3 moves, updated %v", sums, g.ID, got.Updated)
	}
}

func testClockRejected(t *testing.T, s store.Store) {
	g := newGame("clock00002", store.StatusPlaying, 0)
	g.Clock = []byte(`{"at":0}`)
	g.Moves = []string{"draw 3"}
	create(t, s, g)
	done := newGame("clock00003", store.StatusFinished, 0)
	create(t, s, done)
	for _, c := range []struct {
		name  string
		id    string
		moves int
		want  error
	}{
		{"stale move count", g.ID, 0, store.ErrConflict},
		{"future move count", g.ID, 2, store.ErrConflict},
		{"finished game", done.ID, 0, store.ErrConflict},
		{"unknown game", "nosuchgame", 0, store.ErrNotFound},
	} {
		if err := s.SetClock(ctx(t), c.id, store.NoFence, c.moves, []byte(`{"at":9}`)); !errors.Is(err, c.want) {
			t.Errorf("%s: SetClock = %v, want %v", c.name, err, c.want)
		}
	}
	if err := s.AppendTimedMove(ctx(t), g.ID, store.NoFence, 0, "pass", store.StatusPlaying, []byte(`{"at":9}`)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("AppendTimedMove at a taken index = %v, want ErrConflict", err)
	}
	checkGame(t, s, g)
}

func testCancelled(t *testing.T, s store.Store) {
	g := newGame("cancel0001", store.StatusOpen, 0)
	create(t, s, g)
	if err := s.CloseTable(ctx(t), g.ID, store.NoFence, store.StatusCancelled); err != nil {
		t.Fatalf("CloseTable(cancelled): %v", err)
	}
	if got := get(t, s, g.ID); got.Status != store.StatusCancelled {
		t.Errorf("status = %q, want cancelled", got.Status)
	}
	list, err := s.List(ctx(t), store.StatusCancelled, 0)
	if err != nil || len(list) != 1 || list[0].ID != g.ID {
		t.Errorf("List(cancelled) = %v, %v; want the table", list, err)
	}
}

// testDeltasSince: the new moves of many games with each one's clock, as
// one snapshot holds them; a game with no new moves still tells its clock.
func testDeltasSince(t *testing.T, s store.Store) {
	timed, untimed := newGame("delta00001", store.StatusPlaying, 0), newGame("delta00002", store.StatusPlaying, 0)
	timed.Clock = []byte(`{"at":0}`)
	create(t, s, timed)
	create(t, s, untimed)
	if err := s.AppendTimedMove(ctx(t), timed.ID, store.NoFence, 0, "draw", store.StatusPlaying, []byte(`{"at":1}`)); err != nil {
		t.Fatal(err)
	}
	got, err := s.DeltasSince(ctx(t), map[string]int{timed.ID: 0, untimed.ID: 0, "absent0001": 0})
	if err != nil {
		t.Fatal(err)
	}
	if d := got[timed.ID]; !slices.Equal(d.Moves, []string{"draw"}) || string(d.Clock) != `{"at":1}` {
		t.Errorf("the timed game's delta = %q, %q; want [draw], {\"at\":1}", d.Moves, d.Clock)
	}
	if d, ok := got[untimed.ID]; !ok || len(d.Moves) != 0 || d.Clock != nil {
		t.Errorf("the untimed game's delta = %+v (there: %t); want no moves, no clock", d, ok)
	}
	if _, ok := got["absent0001"]; ok || len(got) != 2 {
		t.Errorf("DeltasSince = %v, want the two stored games", got)
	}
	// A timeout: the clock changes without a move.
	if err := s.SetClock(ctx(t), timed.ID, store.NoFence, 1, []byte(`{"at":2}`)); err != nil {
		t.Fatal(err)
	}
	got, err = s.DeltasSince(ctx(t), map[string]int{timed.ID: 1})
	if d := got[timed.ID]; err != nil || len(d.Moves) != 0 || string(d.Clock) != `{"at":2}` {
		t.Errorf("after SetClock: %q, %q, %v; want no moves, {\"at\":2}", d.Moves, d.Clock, err)
	}
}
