package sqlite

import (
	"context"

	"github.com/razziagame/razzia/internal/store"
)

// Hear implements store.Hearer, within the process: f hears a change on
// the goroutine of a write of the group that made it, once the write is
// told its outcome, never while a group is committed (see committed);
// other notices on the goroutine of their Publish. It may publish or
// write (store.Broker), though a write holds up every notice after its
// own.
func (s *Store) Hear(ctx context.Context, f func(store.Notice), channels ...string) (<-chan struct{}, error) {
	return s.broker.Hear(ctx, f, channels...)
}
