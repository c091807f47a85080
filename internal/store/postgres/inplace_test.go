package postgres

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// TestMovesWriteNoGameRow: a move of a game in play writes its own row
// and no new version of its game's (it locks it), which PostgreSQL would
// have to log, prune and make room for (at best in place, a HOT update,
// which an update of the row by a move was). On a cluster of its own, as
// the moves are counted by the session's statistics.
func TestMovesWriteNoGameRow(t *testing.T) {
	t.Parallel()
	const games = 200
	url := pgtest.NewCluster(t).DB(t)
	s := open(t, url)
	defer s.Close()
	clock := []byte(`{"pace":"rapid","left":[180000000000,180000000000,180000000000,180000000000],"since":1764000000000000000}`)
	g := &store.Game{ID: "inplace00000", Status: store.StatusPlaying, Seats: make([]store.Seat, 4), Cheques: [][]int{{2, 5}, {3, 6}, {4, 7}, {8, 9}}, Clock: clock}
	l, err := s.CreateOwnedGame(t.Context(), g, "node-a", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	conn := session(t, url, clone("games", "id", "inplace", games-1))
	var ids []string
	for i := range games {
		ids = append(ids, fmt.Sprintf("inplace%05d", i))
	}
	// Each move is a transaction of its own, as on a node, so that the
	// versions the moves before it left are dead and PostgreSQL may
	// prune them to make room.
	var updated, hot int
	for move := range 3 {
		for _, id := range ids {
			tx, err := conn.Begin(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			counts := func() (upd, inPlace int) {
				t.Helper()
				// The counts of the session's transactions not yet reported.
				if err := tx.QueryRow(t.Context(), "SELECT pg_stat_get_xact_tuples_updated('games'::regclass), pg_stat_get_xact_tuples_hot_updated('games'::regclass)").
					Scan(&upd, &inPlace); err != nil {
					t.Fatal(err)
				}
				return upd, inPlace
			}
			upd0, hot0 := counts()
			change := store.MoveChange(id, move, "bid 9", store.StatusPlaying, clock)
			var (
				st            string
				next, written int
				fenced        bool
			)
			if err := tx.QueryRow(t.Context(), appendMove, id, int64(l.Fence), move, "bid 9", string(store.StatusPlaying), store.ChangesChannel, change.Payload(), clock, time.Now().UnixNano()).
				Scan(&st, &next, &fenced, &written); err != nil || written != 1 {
				t.Fatalf("game %s move %d: written %d, fenced %v, next %d: %v", id, move, written, fenced, next, err)
			}
			upd, inPlace := counts()
			updated, hot = updated+upd-upd0, hot+inPlace-hot0
			if err := tx.Commit(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
	}
	if updated != 0 {
		t.Errorf("%d of %d moves in play updated their game's row (%d in place), want none", updated, 3*games, hot)
	}
}

// TestMovesWriteNothingIndexed: no index of games holds a column that a
// move or a lease's renewal writes.
func TestMovesWriteNothingIndexed(t *testing.T) {
	t.Parallel()
	conn := session(t, migrated.DB(t))
	rows, err := conn.Query(t.Context(), "SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid = 'games'::regclass")
	if err != nil {
		t.Fatal(err)
	}
	var name, def string
	n := 0
	written := regexp.MustCompile(`\b(updated|move_count|clock|lease_node|lease_fence|lease_expires)\b`)
	if _, err := pgx.ForEachRow(rows, []any{&name, &def}, func() error {
		n++
		if w := written.FindString(def); w != "" {
			t.Errorf("index %s holds %s, which a move or a renewal writes: %s", name, w, def)
		}
		return nil
	}); err != nil || n < 2 {
		t.Fatalf("%d indexes of games, %v; want the primary key and the lists'", n, err)
	}
}

// TestMoveInsertRunsNoTrigger: inserting a move runs no trigger (a
// foreign key's check is one): the statement that inserts it holds its
// game's row.
func TestMoveInsertRunsNoTrigger(t *testing.T) {
	t.Parallel()
	conn := session(t, migrated.DB(t))
	rows, err := conn.Query(t.Context(), "SELECT tgname FROM pg_trigger WHERE tgrelid = 'moves'::regclass")
	if err != nil {
		t.Fatal(err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(names) > 0 {
		t.Errorf("the triggers of moves: %q, %v; want none", names, err)
	}
}

// TestListIndexed: a list of finished games reads its page of them in
// the index's order, in the generic plan of its prepared statement too,
// never sorting every finished game; the games being played (listed 0)
// are sorted by the time updated.
func TestListIndexed(t *testing.T) {
	t.Parallel()
	s, conn := cloned(t, "listed", store.StatusFinished, 2000,
		"UPDATE games SET updated = updated + (random() * 1e12)::bigint",
		"ANALYZE",
		"SET plan_cache_mode = force_generic_plan",
		"PREPARE list(text, int) AS "+listGames)
	p := explain(t, conn, "EXPLAIN (ANALYZE, COSTS OFF) EXECUTE list('finished', 100)")
	if !strings.Contains(p, "games_by_listed") || strings.Contains(p, "Seq Scan on games") || regexp.MustCompile(`(?m)^\s*->\s+Sort\b[\s\S]*rows=2000`).MatchString(p) {
		t.Errorf("the list of finished games does not read them in the index's order:\n%s", p)
	}
	sums, err := s.List(t.Context(), store.StatusFinished, 100)
	if err != nil || len(sums) != 100 {
		t.Fatalf("List = %d games, %v; want 100", len(sums), err)
	}
	for i := 1; i < len(sums); i++ {
		if sums[i].Updated.After(sums[i-1].Updated) {
			t.Fatalf("List: %s (updated %v) after %s (updated %v)", sums[i].ID, sums[i].Updated, sums[i-1].ID, sums[i-1].Updated)
		}
	}
}

// TestMoveRefusedAsTheUpdateSawIt: a move whose game's lease another
// node took while the move waited for the row is refused as ErrLeaseLost,
// as the update found the row, not as the row was when the move's
// statement began (a conflict, which has the node read the game again
// instead of letting it go).
func TestMoveRefusedAsTheUpdateSawIt(t *testing.T) {
	t.Parallel()
	url := migrated.DB(t)
	s := open(t, url)
	defer s.Close()
	g := &store.Game{ID: "refused001", Status: store.StatusPlaying, Seats: make([]store.Seat, 2)}
	l, err := s.CreateOwnedGame(t.Context(), g, "node-a", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	taker := session(t, url, "BEGIN", "UPDATE games SET lease_node = 'node-b', lease_fence = lease_fence + 1 WHERE id = 'refused001'")
	done := make(chan error, 1)
	go func() { done <- s.AppendMove(t.Context(), g.ID, l.Fence, 0, "draw", store.StatusPlaying) }()
	watch := session(t, url)
	for waiting := 0; waiting == 0; {
		if err := watch.QueryRow(t.Context(), "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'").
			Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			t.Fatalf("the move did not wait for the row: %v", err)
		case <-time.After(time.Millisecond):
		}
	}
	if _, err := taker.Exec(t.Context(), "COMMIT"); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("a move whose lease was taken while it waited: %v, want %v", err, store.ErrLeaseLost)
	}
}
