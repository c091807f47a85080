package postgres

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

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
	t.Parallel()
	storetest.Run(t, func(t *testing.T) store.Store { return open(t, migrated.DB(t)) })
}

func TestStamps(t *testing.T) {
	t.Parallel()
	storetest.RunStamps(t, func(t *testing.T, now func() time.Time) store.Store {
		s, err := Open(t.Context(), migrated.DB(t), Options{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// TestPausedTransaction: a session of the store left in a transaction
// holding a game's row (its node paused mid-transaction) is ended by
// PostgreSQL after Options.IdleInTransaction, so another node takes the
// game over instead of waiting on the lock for as long as the pause.
func TestPausedTransaction(t *testing.T) {
	t.Parallel()
	url := migrated.DB(t)
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

// TestPushKeysKept: the VAPID keys the first start stored are every
// later start's.
func TestPushKeysKept(t *testing.T) {
	t.Parallel()
	url := migrated.DB(t)
	storetest.PushKeysKept(t, func(t *testing.T) store.Store { return open(t, url) })
}

// ownedGames creates games being played with the ids, each leased to
// node-a for a minute, and returns their leases.
func ownedGames(t *testing.T, s *Store, ids ...string) []store.Lease {
	t.Helper()
	var leases []store.Lease
	for _, id := range ids {
		g := &store.Game{ID: id, Status: store.StatusPlaying, Seats: make([]store.Seat, 2),
			Cheques: [][]int{{1}, {2}}, Seed: []byte{1}, Moves: []string{}}
		l, err := s.CreateOwnedGame(t.Context(), g, "node-a", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		leases = append(leases, l)
	}
	return leases
}

// A renewal is what RenewLeases returned.
type renewal struct {
	renewed []store.Lease
	err     error
}

// renewing renews the leases for two minutes in a goroutine of its own,
// and returns where its result will come.
func renewing(t *testing.T, s *Store, leases []store.Lease) <-chan renewal {
	done := make(chan renewal, 1)
	go func() {
		r, err := s.RenewLeases(t.Context(), leases, 2*time.Minute)
		done <- renewal{r, err}
	}()
	return done
}

// TestRenewPastLockedRows: while a write holds one game's row locked (a
// move group committing), RenewLeases renews the node's other leases at
// once, on its own connection, and that one when the lock is let go.
func TestRenewPastLockedRows(t *testing.T) {
	t.Parallel()
	s := open(t, migrated.DB(t))
	defer s.Close()
	ctx := t.Context()
	leases := ownedGames(t, s, "renewlock1", "renewlock2", "renewlock3")
	// The write: the first game's row locked, with every connection of
	// the pool but this one busy too.
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "SELECT 1 FROM games WHERE id = 'renewlock1' FOR UPDATE"); err != nil {
		t.Fatal(err)
	}
	var busy []*pgxpool.Conn
	for range s.pool.Config().MaxConns - 1 {
		c, err := s.pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Release()
		busy = append(busy, c)
	}
	done := renewing(t, s, leases)
	// Only time can show that the others were renewed while the lock is
	// held: poll their expiry, as another node would read it (before
	// PostgreSQL ends the idle transaction, after 5 s).
	deadline := time.Now().Add(3 * time.Second)
	for _, l := range leases[1:] {
		for {
			var expires time.Time
			if err := busy[0].QueryRow(ctx, "SELECT lease_expires FROM games WHERE id = $1", l.Game).Scan(&expires); err != nil {
				t.Fatal(err)
			}
			if expires.After(l.Expires.Add(30 * time.Second)) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the lease of %s was not renewed while another game's row was locked", l.Game)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	select {
	case r := <-done:
		t.Fatalf("RenewLeases returned %+v, %v before the locked game could be renewed", r.renewed, r.err)
	default:
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || len(r.renewed) != 3 {
		t.Fatalf("RenewLeases = %+v, %v; want all 3 renewed", r.renewed, r.err)
	}
}

// TestRenewalHoldsNoMove: a renewal never makes a move wait. Two games'
// rows are locked by writes (move groups committing) as it starts; the
// first write commits while the second still holds its row, and a move of
// the first game then commits at once: a renewal that waited for the
// second row held the first one's lock meanwhile, and the move waited
// behind it for the other game's commit.
func TestRenewalHoldsNoMove(t *testing.T) {
	t.Parallel()
	s := open(t, migrated.DB(t))
	defer s.Close()
	ctx := t.Context()
	leases := ownedGames(t, s, "renewhold1", "renewhold2")
	lock := func(id string) pgx.Tx {
		tx, err := s.pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(ctx, "SELECT 1 FROM games WHERE id = $1 FOR UPDATE", id); err != nil {
			t.Fatal(err)
		}
		return tx
	}
	first, second := lock("renewhold1"), lock("renewhold2")
	// Before the Store's Close, which waits for their connections.
	defer first.Rollback(context.Background())
	defer second.Rollback(context.Background())
	done := renewing(t, s, leases)
	watch, err := s.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Release()
	// Once the renewal has found both rows locked (it waits for a lock,
	// or it checked that the leases it skipped are still held), the first
	// write commits; then the renewal either renews the first game's lease
	// or waits for the second row, the first one's locked.
	waiting := func() (n int) {
		if err := watch.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND (wait_event_type = 'Lock' OR query LIKE '%lease_fence = w.fence AND g.lease_expires > clock_timestamp()')`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	renewed := func(id string) bool {
		var expires time.Time
		if err := watch.QueryRow(ctx, "SELECT lease_expires FROM games WHERE id = $1", id).Scan(&expires); err != nil {
			t.Fatal(err)
		}
		return expires.After(leases[0].Expires.Add(30 * time.Second))
	}
	poll := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("20 s and %s", what)
			}
		}
	}
	poll("the renewal did not reach the locked rows", func() bool { return waiting() > 0 })
	if err := first.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	poll("the renewal neither renewed the first lease nor waited for the second row", func() bool {
		return renewed("renewhold1") || waiting() > 0 && !renewed("renewhold1")
	})
	move, cancel := context.WithTimeout(ctx, 2*time.Second) // before PostgreSQL ends the idle writes, after 5 s
	defer cancel()
	if _, err := watch.Exec(move, "UPDATE games SET updated = updated WHERE id = 'renewhold1'"); err != nil {
		t.Fatalf("a move of the first game while the renewal ran: %v (it waited behind the renewal)", err)
	}
	select {
	case r := <-done:
		t.Fatalf("RenewLeases returned %+v, %v while the second game's row was locked", r.renewed, r.err)
	default:
	}
	if err := second.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if r := <-done; r.err != nil || len(r.renewed) != 2 {
		t.Fatalf("RenewLeases = %+v, %v; want both renewed", r.renewed, r.err)
	}
}
