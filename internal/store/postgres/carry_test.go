package postgres

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// TestMovesCarryMigrated: the moves of a game in play carry its time
// updated and clock (migration 00015); undone, the migration leaves the
// game's row with its last move's count, clock and time, and done again,
// the game reads the same. (That the latest change wins, a move's or the
// game's row's, the shared suite checks: testClock.)
func TestMovesCarryMigrated(t *testing.T) {
	t.Parallel()
	text, err := fs.ReadFile(migrations, "migrations/00015_moves_carry.sql")
	if err != nil {
		t.Fatal(err)
	}
	_, down, ok := strings.Cut(string(text), "-- +goose Down")
	if !ok {
		t.Fatal("migration 00015 has no Down section")
	}
	url := pgtest.DB(t)
	s := open(t, url)
	const id = "carry00001"
	if _, err := s.CreateOwnedGame(t.Context(), &store.Game{ID: id, Status: store.StatusPlaying, Seats: make([]store.Seat, 2),
		Clock: []byte("clock start")}, "node-a", time.Hour); err != nil {
		t.Fatal(err)
	}
	l, err := s.Lease(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	for i, clock := range [][]byte{[]byte("clock 0"), []byte("clock 1"), nil} {
		if err := s.AppendTimedMove(t.Context(), id, l.Fence, i, "draw", store.StatusPlaying, clock); err != nil {
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
	s.Close()
	exec(t, url, down+fmt.Sprintf(";\nDELETE FROM %s WHERE version_id = 15", versionTable))
	conn := session(t, url)
	var (
		moves, updated int64
		clock          []byte
	)
	if err := conn.QueryRow(t.Context(), "SELECT move_count, updated, clock FROM games WHERE id = $1", id).Scan(&moves, &updated, &clock); err != nil {
		t.Fatal(err)
	}
	if moves != 3 || updated != before.Updated.UnixNano() || !bytes.Equal(clock, before.Clock) {
		t.Errorf("undone, the game's row has %d moves, updated %d, the clock %q; want 3, %d, %q",
			moves, updated, clock, before.Updated.UnixNano(), before.Clock)
	}
	s = open(t, url)
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
