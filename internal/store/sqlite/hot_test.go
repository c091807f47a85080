package sqlite

import (
	"path/filepath"
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
	// 23 with Go 1.25 and modernc.org/sqlite 1.60 (35 through
	// database/sql with parameters by name).
	const most = 26
	if allocs > most {
		t.Errorf("a move allocates %.1f times, want at most %d", allocs, most)
	}
}
