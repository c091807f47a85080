package postgres

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// BenchmarkDeltasSince measures a replica's read of the new move of 1, 4
// and 16 games at once (the notices of one batch), each game 30 moves
// long, among the 80,000 moves of 2,000 games played before: the read a
// node makes for every batch of moves other nodes commit.
func BenchmarkDeltasSince(b *testing.B) {
	c := pgtest.NewCluster(b)
	for _, games := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) {
			url := c.DB(b)
			s := open(b, url)
			defer s.Close()
			conn, err := pgx.Connect(b.Context(), url)
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close(b.Context())
			for _, q := range []string{
				`INSERT INTO games (id, status, cheques, created, updated) SELECT 'old' || i, 'finished', '', 0, 0 FROM generate_series(1, 2000) AS i`,
				"INSERT INTO moves (game_id, idx, token) SELECT id, i, 'draw' FROM games, generate_series(0, 39) AS i",
				"ANALYZE",
			} {
				if _, err := conn.Exec(b.Context(), q); err != nil {
					b.Fatalf("%s: %v", q, err)
				}
			}
			from := map[string]int{}
			for i := range games {
				id := fmt.Sprintf("delta%05d", i)
				g := &store.Game{ID: id, Status: store.StatusPlaying, Seats: make([]store.Seat, 4)}
				if err := s.CreateGame(b.Context(), g); err != nil {
					b.Fatal(err)
				}
				for m := range 30 {
					if err := s.AppendMove(b.Context(), id, store.NoFence, m, "bid 9", store.StatusPlaying); err != nil {
						b.Fatal(err)
					}
				}
				from[id] = 29
			}
			b.ResetTimer()
			for b.Loop() {
				d, err := s.DeltasSince(b.Context(), from)
				if err != nil || len(d) != games {
					b.Fatalf("DeltasSince = %d games, %v; want %d", len(d), err, games)
				}
			}
		})
	}
}

// clone is the statement that copies the rows of game prefix00000 in
// table (whose game column is key) to n more games, prefix00001 on, in
// one statement (not n transactions: a third of a CPU-second for 200).
// The columns PostgreSQL derives (games.listed) are left to it.
func clone(table, key, prefix string, n int) string {
	rows := fmt.Sprintf("SELECT (jsonb_populate_record(x, jsonb_build_object('%[2]s', format('%[3]s%%s', lpad(i::text, 5, '0'))))).* "+
		"FROM %[1]s x, generate_series(1, %[4]d) AS i WHERE x.%[2]s = '%[3]s00000'", table, key, prefix, n)
	return fmt.Sprintf(`DO $clone$ DECLARE cols text; BEGIN
	SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) INTO cols FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = '%[1]s' AND is_generated = 'NEVER';
	EXECUTE format('INSERT INTO %[1]s (%%1$s) SELECT %%1$s FROM (%[2]s) y', cols);
END $clone$`, table, strings.NewReplacer("'", "''", "%", "%%").Replace(rows))
}

// session returns a session on url, closed when t ends, that has run the
// statements.
func session(t testing.TB, url string, statements ...string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	for _, q := range statements {
		if _, err := conn.Exec(t.Context(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return conn
}

// cloned returns a store and a session on a new database that holds n
// games of the status, prefix00000 on, of four seats each; the session
// has then run the statements.
func cloned(t *testing.T, prefix string, status store.Status, n int, statements ...string) (*Store, *pgx.Conn) {
	t.Helper()
	url := migrated.DB(t)
	s := open(t, url)
	t.Cleanup(func() { s.Close() })
	g := &store.Game{ID: prefix + "00000", Status: status, Seats: make([]store.Seat, 4)}
	if err := s.CreateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	return s, session(t, url, append([]string{clone("games", "id", prefix, n-1), clone("seats", "game_id", prefix, n-1)}, statements...)...)
}

// explain returns the plan that the EXPLAIN statement q prints.
func explain(t testing.TB, conn *pgx.Conn, q string) string {
	t.Helper()
	rows, err := conn.Query(t.Context(), q, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(plan, "\n")
}

// TestDeltasSinceIndexed: the replicas' read finds a game's new moves by
// the index, in the generic plan of its prepared statement too (which
// PostgreSQL switches to after five runs): never by scanning every move
// of every game stored, which grows with each game played.
func TestDeltasSinceIndexed(t *testing.T) {
	t.Parallel()
	_, conn := cloned(t, "index", store.StatusPlaying, 200,
		"INSERT INTO moves (game_id, idx, token) SELECT id, i, 'draw' FROM games, generate_series(0, 39) AS i",
		"ANALYZE",
		"SET plan_cache_mode = force_generic_plan",
		"PREPARE deltas(text[], int[]) AS "+deltasSince)
	var n int
	if err := conn.QueryRow(t.Context(), "SELECT count(*) FROM moves JOIN seats USING (game_id) WHERE seats.idx = 0").Scan(&n); err != nil || n != 200*40 {
		t.Fatalf("%d moves of games with seats, %v; want %d", n, err, 200*40)
	}
	if p := explain(t, conn, "EXPLAIN EXECUTE deltas('{index00001,index00002}', '{39,39}')"); strings.Contains(p, "Seq Scan on moves") || !strings.Contains(p, "moves_pkey") {
		t.Errorf("the generic plan of deltasSince does not find the moves by their index:\n%s", p)
	}
}

// TestRenewLeasesLinear: a renewal of many leases matches each lease to
// its game once, by the index, in the generic plan of its prepared
// statement too: the work grows with the number of leases, not with its
// square (a node renews all of its hundreds of games in one statement).
func TestRenewLeasesLinear(t *testing.T) {
	t.Parallel()
	const games, stored = 300, 3000
	url := migrated.DB(t)
	s := open(t, url)
	defer s.Close()
	g := &store.Game{ID: "renew00000", Status: store.StatusPlaying, Seats: make([]store.Seat, 4)}
	if _, err := s.CreateOwnedGame(t.Context(), g, "node-a", time.Hour); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	for _, q := range []string{clone("games", "id", "renew", stored-1), "ANALYZE", "SET plan_cache_mode = force_generic_plan"} {
		if _, err := conn.Exec(t.Context(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var ids, nodes []string
	var fences []int64
	rows, err := conn.Query(t.Context(), "SELECT id, lease_node, lease_fence FROM games ORDER BY id LIMIT $1", games)
	if err != nil {
		t.Fatal(err)
	}
	var (
		id, node string
		fence    int64
	)
	if _, err := pgx.ForEachRow(rows, []any{&id, &node, &fence}, func() error {
		ids, nodes, fences = append(ids, id), append(nodes, node), append(fences, fence)
		return nil
	}); err != nil || len(ids) != games {
		t.Fatalf("%d leased games, %v; want %d", len(ids), err, games)
	}
	removed := regexp.MustCompile(`Rows Removed by Join Filter: (\d+)`)
	for n, q := range []struct{ name, sql string }{{"renewal", renewLeases}, {"check of those skipped", stillHeldLeases}} {
		i, query, name := q.name, q.sql, fmt.Sprintf("renew%d", n)
		if _, err := conn.Exec(t.Context(), "PREPARE "+name+"(text[], text[], bigint[], bigint) AS "+query); err != nil {
			t.Fatal(err)
		}
		tx, err := conn.Begin(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		rows, err := tx.Query(t.Context(), "EXPLAIN (ANALYZE, COSTS OFF) EXECUTE "+name+"($1, $2, $3, $4)", pgx.QueryExecModeSimpleProtocol, ids, nodes, fences, int64(time.Hour/time.Microsecond))
		if err != nil {
			t.Fatal(err)
		}
		var line string
		if _, err := pgx.ForEachRow(rows, []any{&line}, func() error { plan = append(plan, line); return nil }); err != nil {
			t.Fatal(err)
		}
		if err := tx.Rollback(t.Context()); err != nil {
			t.Fatal(err)
		}
		p := strings.Join(plan, "\n")
		if !strings.Contains(p, "rows="+strconv.Itoa(games)) {
			t.Errorf("%s: no step of the plan met the %d leases:\n%s", i, games, p)
		}
		for _, m := range removed.FindAllStringSubmatch(p, -1) {
			if n, _ := strconv.Atoi(m[1]); n > games {
				t.Errorf("%s of %d leases compared %d pairs in vain:\n%s", i, games, n, p)
			}
		}
	}
}
