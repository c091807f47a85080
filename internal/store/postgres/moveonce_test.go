package postgres

import (
	"regexp"
	"strings"
	"testing"

	"github.com/razziagame/razzia/internal/store"
)

// TestMoveReadsItsRowOnce: a move written finds its game's row once, to
// lock it; the statement reads the row again only to explain a refusal,
// after the update of a move that changes its game's status has found it
// not.
// In both plans PostgreSQL uses for the prepared statement (it switches to
// the generic one after five runs).
func TestMoveReadsItsRowOnce(t *testing.T) {
	t.Parallel()
	_, conn := cloned(t, "once", store.StatusPlaying, 50, "ANALYZE",
		"PREPARE mv(text, bigint, int, text, text, text, text, bytea, bigint) AS "+appendMove)
	scans := regexp.MustCompile(`(?m)^.*Scan.* on games\b.*$`)
	for _, mode := range []string{"force_custom_plan", "force_generic_plan"} {
		if _, err := conn.Exec(t.Context(), "SET plan_cache_mode = "+mode); err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			name, index string
			reads       int // the scans of games run
		}{{"written", "0", 1}, {"refused", "5", 3}} {
			tx, err := conn.Begin(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			p := explain(t, conn, "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) EXECUTE mv('once00001', 0, "+tt.index+", 'bid 9', 'playing', 'razzia_test', 'x', NULL, 1)")
			if err := tx.Rollback(t.Context()); err != nil {
				t.Fatal(err)
			}
			run := 0
			for _, line := range scans.FindAllString(p, -1) {
				if !strings.Contains(line, "never executed") {
					run++
				}
			}
			if run != tt.reads {
				t.Errorf("%s, a move %s: %d scans of games, want %d:\n%s", mode, tt.name, run, tt.reads, p)
			}
		}
	}
}
