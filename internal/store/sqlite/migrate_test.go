package sqlite

import (
	"database/sql"
	"path/filepath"
	"testing"
)

// TestMissingMigrationApplied: a database migrated before a migration of a
// lower number existed (one merged after a later one landed) opens, the
// missing migration applied, rather than refused as out of order.
func TestMissingMigrationApplied(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "razzia.db")
	s := open(t, path)
	p, err := besideWriter(t, s).provider()
	if err != nil {
		t.Fatal(err)
	}
	src := p.ListSources()
	missing := src[len(src)-2].Version
	if _, err := p.ApplyVersion(ctx, missing, false); err != nil {
		t.Fatalf("rolling back version %d: %v", missing, err)
	}
	s.Close()
	s = open(t, path)
	defer s.Close()
	p, err = besideWriter(t, s).provider()
	if err != nil {
		t.Fatal(err)
	}
	status, err := p.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range status {
		if st.State != "applied" {
			t.Errorf("migration %d: %s after opening", st.Source.Version, st.State)
		}
	}
}

// besideWriter returns a store of s's file whose writer database is a
// connection of its own: s's writer holds its one connection.
func besideWriter(t *testing.T, s *Store) *Store {
	t.Helper()
	db, err := s.open(writePragmas)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &Store{path: s.path, w: db}
}

// atVersion makes a database at path migrated up to version, and returns
// the connection that migrated it: the database of an older razzia.
func atVersion(t *testing.T, path string, version int64) *sql.DB {
	t.Helper()
	s := &Store{path: path}
	db, err := s.open(writePragmas)
	if err != nil {
		t.Fatal(err)
	}
	s.w = db
	p, err := s.provider()
	if err != nil {
		db.Close()
		t.Fatal(err)
	}
	if _, err := p.UpTo(t.Context(), version); err != nil {
		db.Close()
		t.Fatal(err)
	}
	return db
}
