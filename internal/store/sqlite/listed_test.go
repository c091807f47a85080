package sqlite

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// TestMoveWALFrames: a move of a game being played, among many games in
// play and many more finished, writes its own row to the log, and
// neither its game's row nor an index entry: about one page a commit,
// where a move that rewrote its game's row wrote two (2.29 in this test),
// and one that rewrote the lists' index four or five. The count is of
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
	// Made in one write, in order, with their times, so that the pages
	// they fill are the same at every run, and so the count.
	err = s.write(t.Context(), "make the games", func(w *wtx) (*store.Change, error) {
		for i := range playing + finished {
			id, status := fmt.Sprintf("frames%05d", i), store.StatusFinished
			if i < playing {
				status = store.StatusPlaying
			}
			at := int64(1_764_000_000_000_000_000 + i)
			if _, err := w.exec(w.st.insertGame, id, string(status), "[]", nil, at, at, 2, nil, false, nil, nil, nil); err != nil {
				return nil, err
			}
			for seat := range 4 {
				if _, err := w.exec(w.st.insertSeat, id, seat, "", "", nil, nil); err != nil {
					return nil, err
				}
			}
			for m, tok := range []string{"draw", "bid 9"} {
				if _, err := w.exec(w.st.insertMove, id, m, tok); err != nil {
					return nil, err
				}
			}
		}
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	walSize := func() int64 { return fileSize(t, path+"-wal") }
	var pageSize int64
	if err := s.wc.QueryRowContext(t.Context(), "PRAGMA page_size").Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	before, pages := walSize(), s.pages.Load()
	for m := range moves {
		id, index := fmt.Sprintf("frames%05d", m%playing), 2+m/playing
		if err := s.AppendMove(t.Context(), id, store.NoFence, index, "pass", store.StatusPlaying); err != nil {
			t.Fatal(err)
		}
	}
	frames := float64(walSize()-before) / float64(pageSize+24) // a frame: its header and a page
	perMove := frames / moves
	t.Logf("%.0f log frames for %d moves: %.2f a move", frames, moves, perMove)
	if counted := s.pages.Load() - pages; float64(counted) != frames {
		t.Errorf("the writer counted %d pages written to the log (Store.pages), the log grew by %.0f", counted, frames)
	}
	if perMove < 1 { // a commit writes a page at least
		t.Fatalf("the log grew by %.0f frames for %d moves: it started over, and the count is void", frames, moves)
	}
	// Above one: the moves' leaves, made full in order, split as the
	// games' moves land among them.
	if perMove > 1.5 {
		t.Errorf("a move writes %.2f pages to the log, want at most 1.5: its own row, and neither its game's row nor an index entry", perMove)
	}
}

// TestMoveWritesNothingIndexed: the statements of a lease's renewal and
// of a clock in play write no entry of an index (no IdxInsert or
// IdxDelete in their programs), where the statement of a move that
// changes its game's status must (the check sees index writes where there
// are some); the statement of a move of a game in play writes one entry
// of one b-tree, the moves table's own (a table WITHOUT ROWID: its rows
// are entries), and opens no other for writing: not the games table.
func TestMoveWritesNothingIndexed(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "razzia.db"))
	defer s.Close()
	var movesRoot int64
	if err := s.r.QueryRowContext(t.Context(), "SELECT rootpage FROM sqlite_schema WHERE name = 'moves'").Scan(&movesRoot); err != nil {
		t.Fatal(err)
	}
	var roots []int64 // the b-trees the last statement explained opens for writing
	writes := func(q string, params int) []string {
		t.Helper()
		rows, err := s.r.QueryContext(t.Context(), "EXPLAIN "+q, make([]any, params)...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		var ops []string
		roots = nil
		written := map[int64]bool{} // the cursors on the b-trees opened for writing, not on a temporary table
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			switch op, cursor := fmt.Sprint(vals[1]), vals[2].(int64); op {
			case "IdxInsert", "IdxDelete":
				if written[cursor] {
					ops = append(ops, op)
				}
			case "OpenWrite":
				written[cursor] = true
				roots = append(roots, vals[3].(int64))
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return ops
	}
	for _, c := range []struct {
		name   string
		sql    string
		params int
	}{{"a clock in play", setClockPlaying, 3}, {"a lease's renewal", renewLeases, 3}} {
		if ops := writes(c.sql, c.params); len(ops) > 0 {
			t.Errorf("the statement of %s writes to an index (%v):\n%s", c.name, ops, c.sql)
		}
	}
	if ops := writes(moveRow, 11); !slices.Equal(ops, []string{"IdxInsert"}) || !slices.Equal(roots, []int64{movesRoot}) {
		t.Errorf("the statement of a move in play writes %v to the b-trees at %v, want one entry of the moves table's (at %d):\n%s",
			ops, roots, movesRoot, moveRow)
	}
	if ops := writes(moveStatus, 7); len(ops) == 0 {
		t.Errorf("the statement of a move that changes its game's status writes no index entry: the check sees none")
	}
}

// TestListedMigrated: a database of version 14, with games open, in play
// and finished, lists them in the same order once migrated (the time
// updated, newest first, then the id), goes on with their moves, and
// lists them so again after the migration is undone and done again.
func TestListedMigrated(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "old.db")
	db := atVersion(t, path, 14)
	for _, g := range []struct {
		id, status string
		updated    int64
		moves      int
	}{
		{"open000001", "open", 10, 0},
		{"playing001", "playing", 50, 2},
		{"playing002", "playing", 70, 1},
		{"finished01", "finished", 60, 3},
		{"finished02", "finished", 40, 3},
		{"finished03", "finished", 60, 3},
	} {
		if _, err := db.Exec(`INSERT INTO games (id, status, cheques, created, updated, move_count) VALUES (?, ?, '[[2,7],[3,6]]', 1, ?, ?)`,
			g.id, g.status, g.updated, g.moves); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO seats VALUES (?, 0, 'Ann', '', x'01', NULL), (?, 1, 'Bot', 'hard', NULL, NULL)`, g.id, g.id); err != nil {
			t.Fatal(err)
		}
		for i := range g.moves {
			if _, err := db.Exec(`INSERT INTO moves VALUES (?, ?, 'draw')`, g.id, i); err != nil {
				t.Fatal(err)
			}
		}
	}
	db.Close()
	check := func(s *Store, when string, want map[store.Status][]string) {
		t.Helper()
		for status, ids := range want {
			sums, err := s.List(t.Context(), status, 0)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, sum := range sums {
				got = append(got, sum.ID)
				if len(sum.Seats) != 2 || sum.Seats[1].Bot != "hard" {
					t.Errorf("%s: %s has the seats %+v", when, sum.ID, sum.Seats)
				}
			}
			if !slices.Equal(got, ids) {
				t.Errorf("%s: List(%s) = %q, want %q", when, status, got, ids)
			}
		}
	}
	s := open(t, path)
	check(s, "migrated", map[store.Status][]string{
		store.StatusOpen:     {"open000001"},
		store.StatusPlaying:  {"playing002", "playing001"},
		store.StatusFinished: {"finished01", "finished03", "finished02"},
	})
	if sums, err := s.List(t.Context(), store.StatusFinished, 1); err != nil || len(sums) != 1 || sums[0].Updated.UnixNano() != 60 {
		t.Errorf("List(finished, 1) = %+v, %v; want finished01, updated at 60", sums, err)
	}
	appendMove := func(id string, index int, status store.Status) {
		t.Helper()
		if err := s.AppendMove(t.Context(), id, store.NoFence, index, "pass", status); err != nil {
			t.Fatal(err)
		}
	}
	appendMove("playing001", 2, store.StatusPlaying)
	appendMove("playing002", 1, store.StatusFinished)
	after := map[store.Status][]string{
		store.StatusOpen:     {"open000001"},
		store.StatusPlaying:  {"playing001"},
		store.StatusFinished: {"playing002", "finished01", "finished03", "finished02"},
	}
	check(s, "after two moves", after)
	if rows, err := s.wc.QueryContext(t.Context(), "PRAGMA foreign_key_check"); err != nil || rows.Next() {
		t.Errorf("PRAGMA foreign_key_check finds a problem (%v)", err)
	} else {
		rows.Close()
	}
	p, err := besideWriter(t, s).provider()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.ApplyVersion(t.Context(), 15, false); err != nil {
		t.Fatalf("undoing version 15: %v", err)
	}
	s.Close()
	s = open(t, path)
	defer s.Close()
	check(s, "migrated again", after)
}

// TestListIndexed: a list of the games of a status reads them in the
// index's order and stops at its limit: it sorts only the games of one
// listed time (the games being played, or the ties of a time), never all
// the games of the status.
func TestListIndexed(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "razzia.db"))
	defer s.Close()
	rows, err := s.r.QueryContext(t.Context(), "EXPLAIN QUERY PLAN "+listGames, "finished", 100)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, notUsed int
		var detail string
		if err := rows.Scan(&id, &parent, &notUsed, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	p := strings.Join(plan, "\n")
	if !strings.Contains(p, "USING INDEX games_by_listed (status=?)") || strings.Contains(p, "TEMP B-TREE FOR ORDER BY") {
		t.Errorf("the list of a status does not read the games in the index's order:\n%s", p)
	}
}
