package sqlite

import (
	"errors"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

func openSole(t *testing.T, path string) (*Store, error) {
	t.Helper()
	return OpenOptions(t.Context(), path, Options{Sole: true})
}

// A database opened with Options.Sole is refused to a second such store
// (another razzia serve on the same file) with ErrInUse, and is free again
// once the first is closed.
func TestSoleInUse(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock")
	}
	path := filepath.Join(t.TempDir(), "razzia.db")
	first, err := openSole(t, path)
	if err != nil {
		t.Fatal(err)
	}
	if second, err := openSole(t, path); !errors.Is(err, ErrInUse) {
		if second != nil {
			second.Close()
		}
		t.Fatalf("a second store on the file: %v; want ErrInUse", err)
	}
	// The first store was not disturbed by the refusal.
	if err := first.CreateGame(t.Context(), &store.Game{ID: "inuse00001", Status: store.StatusOpen, Seats: make([]store.Seat, 2)}); err != nil {
		t.Fatalf("the first store after a refused second: %v", err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := openSole(t, path)
	if err != nil {
		t.Fatalf("after the first store closed: %v", err)
	}
	defer again.Close()
	if _, err := again.Game(t.Context(), "inuse00001"); err != nil {
		t.Fatal(err)
	}
}

// The leases an earlier process held are void when a store opens the
// database with Options.Sole: no process can be running those games, so
// they are taken at once, with a new fence, not after the lease time.
func TestSoleReleasesLeases(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock")
	}
	path := filepath.Join(t.TempDir(), "razzia.db")
	dead := open(t, path)
	g := &store.Game{ID: "lease00001", Status: store.StatusPlaying, Seats: make([]store.Seat, 2), Cheques: [][]int{{1}, {2}}, Seed: []byte{1}}
	if err := dead.CreateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	held, err := dead.AcquireLease(t.Context(), g.ID, "dead-node", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	dead.Close() // as a killed process would leave it: the lease recorded

	s, err := openSole(t, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if l, err := s.Lease(t.Context(), g.ID); err != nil || l.Live(time.Now()) {
		t.Fatalf("the lease of the ended process after a sole open: %+v, %v; want none live", l, err)
	}
	l, err := s.AcquireLease(t.Context(), g.ID, "new-node", time.Hour)
	if err != nil {
		t.Fatalf("taking the game: %v", err)
	}
	if l.Fence <= held.Fence {
		t.Errorf("the new lease's fence is %d, the old one's %d: want a larger one", l.Fence, held.Fence)
	}

	// Without Options.Sole, the lease stands until its time.
	plain := filepath.Join(t.TempDir(), "plain.db")
	a := open(t, plain)
	if err := a.CreateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	if _, err := a.AcquireLease(t.Context(), g.ID, "dead-node", time.Hour); err != nil {
		t.Fatal(err)
	}
	a.Close()
	b := open(t, plain)
	defer b.Close()
	if _, err := b.AcquireLease(t.Context(), g.ID, "new-node", time.Hour); !errors.Is(err, store.ErrLeaseHeld) {
		t.Errorf("without Sole the lease was taken: %v", err)
	}
}
