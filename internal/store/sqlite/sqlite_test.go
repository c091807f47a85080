package sqlite

import (
	"testing"

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

func TestStore(t *testing.T) {
	storetest.RunDurable(t, func(t *testing.T, path string) store.Store { return open(t, path) })
}
