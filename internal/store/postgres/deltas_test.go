package postgres

import (
	"fmt"
	"strings"
	"testing"

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

// TestDeltasSinceIndexed: the replicas' read finds a game's new moves by
// the index, in the generic plan of its prepared statement too (which
// PostgreSQL switches to after five runs): never by scanning every move
// of every game stored, which grows with each game played.
func TestDeltasSinceIndexed(t *testing.T) {
	t.Parallel()
	url := migrated.DB(t)
	s := open(t, url)
	defer s.Close()
	g := &store.Game{ID: "index00000", Status: store.StatusPlaying, Seats: make([]store.Seat, 4)}
	if err := s.CreateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	// 199 more games like it, in one statement each for games and seats
	// (not 199 transactions: a third of a CPU-second).
	clone := func(table, key string) string {
		return fmt.Sprintf("INSERT INTO %[1]s SELECT (jsonb_populate_record(x, jsonb_build_object('%[2]s', format('index%%s', lpad(i::text, 5, '0'))))).* "+
			"FROM %[1]s x, generate_series(1, 199) AS i WHERE x.%[2]s = 'index00000'", table, key)
	}
	for _, q := range []string{
		clone("games", "id"),
		clone("seats", "game_id"),
		"INSERT INTO moves (game_id, idx, token) SELECT id, i, 'draw' FROM games, generate_series(0, 39) AS i",
		"ANALYZE",
		"SET plan_cache_mode = force_generic_plan",
		"PREPARE deltas(text[], int[]) AS " + deltasSince,
	} {
		if _, err := conn.Exec(t.Context(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var n int
	if err := conn.QueryRow(t.Context(), "SELECT count(*) FROM moves JOIN seats USING (game_id) WHERE seats.idx = 0").Scan(&n); err != nil || n != 200*40 {
		t.Fatalf("%d moves of games with seats, %v; want %d", n, err, 200*40)
	}
	var plan []string
	rows, err := conn.Query(t.Context(), "EXPLAIN EXECUTE deltas('{index00001,index00002}', '{39,39}')", pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		t.Fatal(err)
	}
	var line string
	if _, err := pgx.ForEachRow(rows, []any{&line}, func() error { plan = append(plan, line); return nil }); err != nil {
		t.Fatal(err)
	}
	if p := strings.Join(plan, "\n"); strings.Contains(p, "Seq Scan on moves") || !strings.Contains(p, "moves_pkey") {
		t.Errorf("the generic plan of deltasSince does not find the moves by their index:\n%s", p)
	}
}
