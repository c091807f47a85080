// Package pgschema gives the tests of other packages a PostgreSQL
// database with Razzia's schema: pgtest's template, migrated by the
// store once and emptied between the tests that take it. Only tests
// import it.
package pgschema

import (
	"context"

	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// Migrated is a database with Razzia's schema; Migrated.DB(t) returns a
// fresh copy's URL.
var Migrated = &pgtest.Template{
	Prepare: func(ctx context.Context, url string) error {
		st, err := postgres.Open(ctx, url, postgres.Options{})
		if err != nil {
			return err
		}
		return st.Close()
	},
	Keep: []string{"razzia_schema_version"}, // goose's table, whose rows say the schema is Razzia's
}
