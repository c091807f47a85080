package sqlite

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// TestMoveWALFrames: a move of a game being played, among many games in
// play and many more finished, writes its game's row and its own row to
// the log and no index entry: about two pages a commit, where a move
// that rewrote the lists' index wrote four or five. The count is of
// pages, not time: the log grows by whole pages (frames), and no
// checkpoint starts it over during the test.
func TestMoveWALFrames(t *testing.T) {
	t.Parallel()
	const playing, finished, moves = 200, 1000, 400
	path := filepath.Join(t.TempDir(), "razzia.db")
	s, err := OpenOptions(t.Context(), path, Options{CheckpointEvery: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Made at once, so that the writer commits them in groups.
	var wg sync.WaitGroup
	errs := make(chan error, playing+finished)
	for i := range playing + finished {
		wg.Go(func() {
			g := &store.Game{ID: fmt.Sprintf("frames%05d", i), Status: store.StatusFinished, Seats: make([]store.Seat, 4),
				Moves: []string{"draw", "bid 9"}}
			if i < playing {
				g.Status = store.StatusPlaying
			}
			errs <- s.CreateGame(t.Context(), g)
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	walSize := func() int64 {
		t.Helper()
		fi, err := os.Stat(path + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	var pageSize int64
	if err := s.wc.QueryRowContext(t.Context(), "PRAGMA page_size").Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	before := walSize()
	for m := range moves {
		id, index := fmt.Sprintf("frames%05d", m%playing), 2+m/playing
		if err := s.AppendMove(t.Context(), id, store.NoFence, index, "pass", store.StatusPlaying); err != nil {
			t.Fatal(err)
		}
	}
	frames := float64(walSize()-before) / float64(pageSize+24) // a frame: its header and a page
	perMove := frames / moves
	t.Logf("%.0f log frames for %d moves: %.2f a move", frames, moves, perMove)
	if perMove > 2.5 {
		t.Errorf("a move writes %.2f pages to the log, want at most 2.5: its game's row and its own, and no index entry", perMove)
	}
}
