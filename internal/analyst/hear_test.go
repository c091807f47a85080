package analyst

import (
	"context"
	"errors"
	"testing"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// hearing hands notices to a function (store.Hearer), as PostgreSQL's
// listener does; it has no Subscribe.
type hearing struct {
	store.Store
	broker store.Broker
}

func (s *hearing) Subscribe(context.Context, ...string) (<-chan store.Notice, error) {
	return nil, errors.New("Subscribe on a store that hears")
}

func (s *hearing) Hear(ctx context.Context, f func(store.Notice), channels ...string) (<-chan struct{}, error) {
	return s.broker.Hear(ctx, f, channels...)
}

// TestHearsAGameFinish: on a store that hands it the notices, the analyst
// hears there that a game finished, with no goroutine of its own reading
// every move, and analyses it.
func TestHearsAGameFinish(t *testing.T) {
	st := &hearing{Store: memstore.New()}
	analysesAsItFinishes(t, st, func(id string, index int, tok string, status store.Status) {
		st.broker.Publish(store.ChangesChannel, store.MoveChange(id, index, tok, status, nil).Payload())
	})
}
