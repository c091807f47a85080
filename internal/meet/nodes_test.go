package meet_test

import (
	"testing"

	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// TestMain stops the PostgreSQL test cluster, if a test started one.
func TestMain(m *testing.M) { pgtest.Main(m) }

// TestPairingNodesPostgres: two nodes, each with its own connections to
// one PostgreSQL database, pair the same requests at once: each request
// and each person is seated once, at a table that plays.
func TestPairingNodesPostgres(t *testing.T) {
	db := pgtest.DB(t)
	var nodes []*world
	c := newWorld(t).clock
	for range 2 {
		st, err := postgres.Open(t.Context(), db, postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		nodes = append(nodes, newNode(t, st, c))
	}
	pairNodes(t, nodes[0], nodes[1])
}
