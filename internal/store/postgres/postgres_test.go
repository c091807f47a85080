package postgres

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
	"github.com/razziagame/razzia/internal/store/storetest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func open(t testing.TB, url string) *Store {
	t.Helper()
	s, err := Open(t.Context(), url, Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

// migrated is a database with the migrations applied, which the suite's
// hundred tests share, emptied between them, instead of each making its
// own.
var migrated = &pgtest.Template{
	Prepare: func(ctx context.Context, url string) error {
		s, err := Open(ctx, url, Options{})
		if err == nil {
			s.Close()
		}
		return err
	},
	Keep: []string{versionTable},
}

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return open(t, migrated.DB(t)) })
}

// TestPausedTransaction: a session of the store left in a transaction
// holding a game's row (its node paused mid-transaction) is ended by
// PostgreSQL after Options.IdleInTransaction, so another node takes the
// game over instead of waiting on the lock for as long as the pause.
func TestPausedTransaction(t *testing.T) {
	url := pgtest.DB(t)
	paused, err := Open(t.Context(), url, Options{IdleInTransaction: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer paused.Close()
	other := open(t, url)
	defer other.Close()
	g := &store.Game{ID: "paused0001", Status: store.StatusPlaying, Seats: make([]store.Seat, 2),
		Cheques: [][]int{{1}, {2}}, Seed: []byte{1}, Moves: []string{}}
	if err := other.CreateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	if _, err := paused.AcquireLease(t.Context(), g.ID, "node-a", 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	// The paused node's transaction: the row locked, then nothing.
	conn, err := paused.pool.Acquire(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(t.Context(), "BEGIN; SELECT 1 FROM games WHERE id = 'paused0001' FOR UPDATE"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	for {
		_, err := other.AcquireLease(ctx, g.ID, "node-b", time.Minute)
		if err == nil {
			break
		}
		if !errors.Is(err, store.ErrLeaseHeld) {
			t.Fatalf("AcquireLease by another node while the row is locked: %v", err)
		}
	}
	if _, err := conn.Exec(t.Context(), "COMMIT"); err == nil {
		t.Error("the paused transaction committed: its session should have ended")
	}
}
