package sqlite

import (
	"path/filepath"
	"testing"

	"github.com/razziagame/razzia/internal/store/storetest"
)

// openTemp opens a store in a temporary directory, closed as the test ends.
func openTemp(t *testing.T) *Store {
	s := open(t, filepath.Join(t.TempDir(), "razzia.db"))
	t.Cleanup(func() { s.Close() })
	return s
}

// TestHearerWrites: the writer never calls a hearer (committed), so one
// that writes does not wait for itself.
func TestHearerWrites(t *testing.T) {
	t.Parallel()
	storetest.HearerWrites(t, openTemp(t))
}

// TestHearerHoldsNoWrite: a hearer held up holds up the write whose
// goroutine delivers to it, never the writer: the next group commits.
func TestHearerHoldsNoWrite(t *testing.T) {
	t.Parallel()
	storetest.HearerHoldsNoWrite(t, openTemp(t))
}
