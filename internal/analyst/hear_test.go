package analyst

import (
	"context"
	"errors"
	"testing"
	"time"

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
	g := played(t, "live000002", 2, store.StatusPlaying)
	moves := g.Moves
	g.Moves = nil
	if err := st.CreateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	done := run(t, st, Options{Rescan: time.Hour})
	for i, tok := range moves {
		status := store.StatusPlaying
		if i == len(moves)-1 {
			status = store.StatusFinished
		}
		if err := st.AppendMove(t.Context(), g.ID, store.NoFence, i, tok, status); err != nil {
			t.Fatal(err)
		}
		st.broker.Publish(store.ChangesChannel, store.MoveChange(g.ID, i, tok, status, nil).Payload())
	}
	if id := wait(t, done); id != g.ID {
		t.Fatalf("analysed %s, want %s", id, g.ID)
	}
}
