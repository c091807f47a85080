package sqlite

import (
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
	p, err := s.provider()
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
	p, err = s.provider()
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
