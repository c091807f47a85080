package postgres

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"testing"

	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// TestMissingMigrationApplied: a database migrated before a migration of a
// lower number existed (the tournaments', merged after later ones landed)
// opens, the missing migration applied, rather than refused as out of
// order.
func TestMissingMigrationApplied(t *testing.T) {
	t.Parallel()
	files, err := fs.Glob(migrations, "migrations/*_tournaments.sql")
	if err != nil || len(files) != 1 {
		t.Fatalf("the tournaments' migration: %v %v", files, err)
	}
	version, err := strconv.Atoi(strings.SplitN(strings.TrimPrefix(files[0], "migrations/"), "_", 2)[0])
	if err != nil {
		t.Fatal(err)
	}
	url := pgtest.DB(t)
	s := open(t, url)
	if version >= int(s.schema) {
		t.Skipf("the tournaments' migration %d is the newest: none is missing below another", version)
	}
	s.Close()
	exec(t, url, fmt.Sprintf(`DROP TABLE tournament_tables; DROP TABLE tournament_players; DROP TABLE tournaments;
		DELETE FROM %s WHERE version_id = %d`, versionTable, version))
	s = open(t, url)
	defer s.Close()
	if _, err := s.ListTournaments(t.Context(), nil, 0); err != nil {
		t.Errorf("the tournaments after opening: %v", err)
	}
}
