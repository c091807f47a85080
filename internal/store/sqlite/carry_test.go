package sqlite

import (
	"bytes"
	"path/filepath"
	"slices"
	"testing"

	"github.com/razziagame/razzia/internal/store"
)

// TestMovesCarryMigrated: the moves of a game in play carry its time
// updated and clock (migration 00016); undone, the migration leaves the
// game's row with its last move's count, clock and time, and done again,
// the game reads the same. (That the latest change wins, a move's or the
// game's row's, the shared suite checks: testClock.)
func TestMovesCarryMigrated(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "razzia.db")
	s := open(t, path)
	const id = "carry00001"
	if err := s.CreateGame(t.Context(), &store.Game{ID: id, Status: store.StatusPlaying, Seats: make([]store.Seat, 2),
		Clock: []byte("clock start")}); err != nil {
		t.Fatal(err)
	}
	for i, clock := range [][]byte{[]byte("clock 0"), []byte("clock 1"), nil} {
		if err := s.AppendTimedMove(t.Context(), id, store.NoFence, i, "draw", store.StatusPlaying, clock); err != nil {
			t.Fatal(err)
		}
	}
	before, err := s.Game(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if string(before.Clock) != "clock 1" || len(before.Moves) != 3 {
		t.Fatalf("the game reads %d moves and the clock %q, want 3 and the last given, %q", len(before.Moves), before.Clock, "clock 1")
	}
	p, err := besideWriter(t, s).provider()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.ApplyVersion(t.Context(), 16, false); err != nil {
		t.Fatalf("undoing version 16: %v", err)
	}
	var (
		moves, updated int64
		clock          []byte
	)
	if err := s.wc.QueryRowContext(t.Context(), "SELECT move_count, updated, clock FROM games WHERE id = ?", id).Scan(&moves, &updated, &clock); err != nil {
		t.Fatal(err)
	}
	if moves != 3 || updated != before.Updated.UnixNano() || !bytes.Equal(clock, before.Clock) {
		t.Errorf("undone, the game's row has %d moves, updated %d, the clock %q; want 3, %d, %q",
			moves, updated, clock, before.Updated.UnixNano(), before.Clock)
	}
	s.Close()
	s = open(t, path)
	defer s.Close()
	after, err := s.Game(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(after.Moves, before.Moves) || !bytes.Equal(after.Clock, before.Clock) || !after.Updated.Equal(before.Updated) {
		t.Errorf("migrated again, the game reads %q, %q, %v; want %q, %q, %v",
			after.Moves, after.Clock, after.Updated, before.Moves, before.Clock, before.Updated)
	}
}
