package table

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// staleGame is a store whose reads miss one game, as a caller that
// looked before another created it does.
type staleGame struct {
	Store
	missing string
}

func (s staleGame) Game(ctx context.Context, id string) (*store.Game, error) {
	if id == s.missing {
		return nil, store.ErrNotFound
	}
	return s.Store.Game(ctx, id)
}

// lockedBuffer is a log several goroutines write.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRematchStartedTwice: the player who accepts and the watchers of the
// offer (on this node or another) may each start the rematch; whoever
// comes second finds it created, which is no failure and logs none.
func TestRematchStartedTwice(t *testing.T) {
	st := memstore.New()
	var log lockedBuffer
	opts := testOptions(t)
	opts.Logger = slog.New(slog.NewTextHandler(&log, nil))
	h := New(st, opts)
	t.Cleanup(func() { h.Close() })
	ctx := testContext(t)
	finishedGame(t, st, "oldgame333", "rapid", "bot:easy", "Ann")
	offer, err := h.Rematch(ctx, "oldgame333", "Ann-token", true)
	if err != nil || offer.State != protocol.RematchStarted {
		t.Fatalf("Rematch = %+v, %v; want it started", offer, err)
	}
	// A second caller that looked before the game was there.
	late := New(staleGame{st, offer.Game}, opts)
	t.Cleanup(func() { late.Close() })
	if err := late.rematches.start(ctx, storedGame(t, st, "oldgame333"), offer); err != nil {
		t.Errorf("starting the rematch a second time: %v", err)
	}
	if strings.Contains(log.String(), "level=ERROR") {
		t.Errorf("starting the rematch twice logged an error:\n%s", log.String())
	}
	if g := storedGame(t, st, offer.Game); g.RematchOf != "oldgame333" {
		t.Errorf("the rematch is %+v", g)
	}
}
