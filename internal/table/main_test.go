package table

import (
	"context"
	"testing"

	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// TestMain stops the PostgreSQL test cluster, if a test started one.
func TestMain(m *testing.M) { pgtest.Main(m) }

// migrated is a database with Razzia's schema, which the tests of nodes
// on PostgreSQL take in turn, emptied between them: a new database and
// its migration for each cost PostgreSQL more than the test.
var migrated = &pgtest.Template{
	Prepare: func(ctx context.Context, url string) error {
		st, err := postgres.Open(ctx, url, postgres.Options{})
		if err != nil {
			return err
		}
		return st.Close()
	},
	Keep: []string{"razzia_schema_version"}, // goose's table, whose rows say the schema is Razzia's
}
