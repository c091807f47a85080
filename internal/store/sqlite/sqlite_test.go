package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/storetest"
)

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	return s
}

// migrated is a database with every migration applied, made once, that
// the suite's new stores start from: a copy costs a file copy, where
// migrating costs each of its hundred tests nine transactions and their
// syncs. The migrations themselves are tested from an empty file by the
// tests that open one (TestUpgradeFromVersion1 and the others here).
var migrated = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "razzia-sqlite-migrated-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "store")
	s, err := Open(context.Background(), path)
	if err != nil {
		return nil, err
	}
	if err := s.Close(); err != nil { // checkpoints the log into the file
		return nil, err
	}
	return os.ReadFile(path)
})

func TestStore(t *testing.T) {
	t.Parallel()
	storetest.RunDurable(t, func(t *testing.T, path string) store.Store {
		if _, err := os.Stat(path); os.IsNotExist(err) {
			b, err := migrated()
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return open(t, path)
	})
}

func TestStamps(t *testing.T) {
	t.Parallel()
	storetest.RunStamps(t, func(t *testing.T, now func() time.Time) store.Store {
		s, err := OpenOptions(t.Context(), filepath.Join(t.TempDir(), "store"), Options{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
