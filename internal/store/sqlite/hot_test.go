package sqlite

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// TestMoveAllocs: a move's append, a group of its own, allocates no more
// than its arguments, its change and SQLite's own need: its statements
// run on the driver's connection itself, where database/sql would copy
// and convert every argument and wrap every result, and their parameters
// are bound by position, not by a name SQLite hands back as a new string.
func TestMoveAllocs(t *testing.T) {
	// Not parallel: AllocsPerRun counts every goroutine's allocations.
	path := filepath.Join(t.TempDir(), "razzia.db")
	s, err := OpenOptions(t.Context(), path, Options{CheckpointEvery: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const id = "allocs0001"
	if err := s.CreateGame(t.Context(), &store.Game{ID: id, Status: store.StatusPlaying, Seats: make([]store.Seat, 4)}); err != nil {
		t.Fatal(err)
	}
	clock := []byte(`{"left":[60000,60000,60000,60000]}`)
	index := 0
	allocs := testing.AllocsPerRun(200, func() {
		if err := s.AppendTimedMove(t.Context(), id, store.NoFence, index, "bid 9", store.StatusPlaying, clock); err != nil {
			t.Fatal(err)
		}
		index++
	})
	t.Logf("%.1f allocations a move", allocs)
	// 18 with Go 1.26 and modernc.org/sqlite 1.60, in one statement (21
	// in two, an update of the game's row and an insert; 35 through
	// database/sql with parameters by name and a payload by reflection).
	const most = 20
	if allocs > most {
		t.Errorf("a move allocates %.1f times, want at most %d", allocs, most)
	}
}

// TestCheckpointPages: the checkpointer copies the log into the database
// once it grew by Options.CheckpointPages, not at every tick that saw a
// commit: a copy syncs twice and writes every page it copies, so the
// rarer the copies, the less a move costs, at any rate of moves. (That
// the count of pages the writer wrote is the log's growth,
// TestMoveWALFrames checks.)
func TestCheckpointPages(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "razzia.db")
	// The ticker never fires: the test calls checkpoint itself.
	s, err := OpenOptions(t.Context(), path, Options{CheckpointEvery: time.Hour, CheckpointPages: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const id = "pages00001"
	if err := s.CreateGame(t.Context(), &store.Game{ID: id, Status: store.StatusPlaying, Seats: make([]store.Seat, 4)}); err != nil {
		t.Fatal(err)
	}
	copied := s.pages.Load() // as if copied after the game's creation
	index := 0
	moves := func(n int) {
		t.Helper()
		for range n {
			if err := s.AppendMove(t.Context(), id, store.NoFence, index, "bid 9", store.StatusPlaying); err != nil {
				t.Fatal(err)
			}
			index++
		}
	}
	pages0, db0 := s.pages.Load(), fileSize(t, path)
	copies0 := s.copies.Load()
	moves(20)
	s.checkpoint(&copied)
	if n := s.copies.Load() - copies0; n != 0 || fileSize(t, path) != db0 {
		t.Fatalf("%d copies after %d pages, fewer than 100", n, s.pages.Load()-pages0)
	}
	for s.pages.Load()-pages0 < 100 {
		moves(1)
	}
	s.checkpoint(&copied)
	if n := s.copies.Load() - copies0; n != 1 {
		t.Fatalf("%d copies after %d pages, want 1", n, s.pages.Load()-pages0)
	}
	s.checkpoint(&copied)
	if n := s.copies.Load() - copies0; n != 1 {
		t.Fatalf("%d copies with no page written since the last, want 1 in all", n)
	}
	if fileSize(t, path) == db0 {
		t.Errorf("the database file did not change: nothing was copied")
	}
}

// TestGroupStatements: a group of moves runs its BEGIN, its COMMIT and
// each move's statements, and no savepoint: a move changes nothing before
// it fails alone, so the moves that fail (a second move at one index, a
// wrong index, an unknown game) leave nothing to undo, and the others
// commit. The group is committed as the writer does, with no clock.
func TestGroupStatements(t *testing.T) {
	t.Parallel()
	s, err := OpenOptions(t.Context(), filepath.Join(t.TempDir(), "razzia.db"), Options{CheckpointEvery: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, id := range []string{"stmts00001", "stmts00002", "stmts00003"} {
		if err := s.CreateGame(t.Context(), &store.Game{ID: id, Status: store.StatusPlaying, Seats: make([]store.Seat, 2)}); err != nil {
			t.Fatal(err)
		}
	}
	moves := []struct {
		id    string
		index int
		token string
		want  error
	}{
		{"stmts00001", 0, "draw", nil},
		{"stmts00001", 0, "pass", store.ErrConflict}, // the same index again
		{"stmts00002", 0, "bid 9", nil},
		{"stmts00002", 5, "call", store.ErrConflict}, // a wrong index
		{"absent0001", 0, "draw", store.ErrNotFound},
		{"stmts00003", 0, "pass", nil},
	}
	batch := make([]*op, len(moves))
	for i, m := range moves {
		batch[i] = s.appendOp(t.Context(), m.id, store.NoFence, m.index, m.token, store.StatusPlaying, nil)
	}
	// The writer waits for a write: nothing else runs in its transaction.
	s.commitMore(batch, func(b []*op) []*op { return b })
	for i, m := range moves {
		if err := <-batch[i].done; !errors.Is(err, m.want) || (err == nil) != (m.want == nil) {
			t.Errorf("move %d of %s: %v, want %v", m.index, m.id, err, m.want)
		}
	}
	// BEGIN, COMMIT, a move's insert, a failed move's insert.
	if want := 2 + 3 + 3; s.wtx.execs != want {
		t.Errorf("the group ran %d statements, want %d (no savepoint)", s.wtx.execs, want)
	}
	for id, want := range map[string][]string{"stmts00001": {"draw"}, "stmts00002": {"bid 9"}, "stmts00003": {"pass"}} {
		g, err := s.Game(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(g.Moves, want) {
			t.Errorf("game %s has moves %q, want %q", id, g.Moves, want)
		}
		sums, err := s.List(t.Context(), store.StatusPlaying, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, sum := range sums {
			if sum.ID == id && sum.Moves != len(want) {
				t.Errorf("game %s counts %d moves, want %d", id, sum.Moves, len(want))
			}
		}
	}
}

// fileSize returns the size of the file name.
func fileSize(t *testing.T, name string) int64 {
	t.Helper()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestGroupMoveRowDisagrees: a move that changes its game's status (the
// first of an open game) and whose game's row took it but whose own row
// cannot be written (here a trigger refuses it) has no savepoint to go
// back to, so it fails its whole group, which changes nothing, rather
// than leave its game's row counting a move that is not stored.
func TestGroupMoveRowDisagrees(t *testing.T) {
	t.Parallel()
	s, err := OpenOptions(t.Context(), filepath.Join(t.TempDir(), "razzia.db"), Options{CheckpointEvery: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, id := range []string{"rows000001", "rows000002"} {
		if err := s.CreateGame(t.Context(), &store.Game{ID: id, Status: store.StatusOpen, Seats: make([]store.Seat, 2)}); err != nil {
			t.Fatal(err)
		}
	}
	// A move's row that cannot be written once its game's row took it.
	err = s.write(t.Context(), "refuse a move", func(w *wtx) (*store.Change, error) {
		_, err := w.execSQL(`CREATE TRIGGER refuse BEFORE INSERT ON moves WHEN NEW.token = 'pass'
			BEGIN SELECT RAISE(ABORT, 'refused'); END`)
		return nil, err
	})
	if err != nil {
		t.Fatal(err)
	}
	batch := []*op{
		s.appendOp(t.Context(), "rows000001", store.NoFence, 0, "bid 9", store.StatusPlaying, nil),
		s.appendOp(t.Context(), "rows000002", store.NoFence, 0, "pass", store.StatusPlaying, nil),
	}
	s.commitMore(batch, func(b []*op) []*op { return b })
	for _, o := range batch {
		if err := <-o.done; err == nil || errors.Is(err, store.ErrConflict) {
			t.Errorf("move of %s: %v, want the group's failure", o.game, err)
		}
	}
	sums, err := s.List(t.Context(), store.StatusOpen, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(sums) != 2 {
		t.Errorf("%d games open after a failed group, want 2", len(sums))
	}
	for _, sum := range sums {
		if sum.Moves != 0 {
			t.Errorf("game %s counts %d moves after a failed group, want 0", sum.ID, sum.Moves)
		}
	}
	if g, err := s.Game(t.Context(), "rows000001"); err != nil || len(g.Moves) != 0 {
		t.Errorf("game rows000001: %v, %v; want no move", g, err)
	}
}
