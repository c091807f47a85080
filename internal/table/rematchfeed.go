package table

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// rematches are the rematch offers of finished games on this node: how
// they are answered and settled (rematch.go), with what they need of the
// node, their watchers here, and the timers of the offers these wait on.
type rematches struct {
	store      rematchStore
	log        *slog.Logger
	ctx        context.Context // the node's: done as it closes
	now        func() time.Time
	afterFunc  func(d time.Duration, f func()) (stop func() bool)
	rand       io.Reader     // the new games' ids
	openTTL    time.Duration // for the error of an expired table
	background func(func())  // runs a goroutine the node's Close waits for
	// seatToken is Options.SeatToken; create stores and runs a new game.
	seatToken func(ctx context.Context, account, game string) (string, error)
	create    func(ctx context.Context, g *store.Game) error

	known *knownOffers // the offers known without reading their games

	mu     sync.Mutex
	feeds  map[string]map[*RematchFeed]struct{} // by game
	timers map[string]func() bool               // by game: stops the timer
	// reads numbers the reads of tell as they begin; told is, by game,
	// the number of the read whose offer the feeds were given last: a
	// read begun before it may have read an older offer.
	reads uint64
	told  map[string]uint64
}

// rematchStore is what the rematches ask of the store.
type rematchStore interface {
	Game(ctx context.Context, id string) (*store.Game, error)
	SetRematch(ctx context.Context, id string, old, offer []byte) error
}

func (r *rematches) failed(what, id string, err error) error { return logFailed(r.log, what, id, err) }

func (r *rematches) storeError(what, id string, err error) error {
	return storeFailed(r.log, what, id, err)
}

// A RematchFeed receives the rematch offer of a finished game at every
// change. A slow reader gets the latest offer only.
type RematchFeed struct {
	r    *rematches
	id   string
	c    chan protocol.RematchOffer
	once sync.Once
}

// Offers returns the channel of the offers. It is never closed.
func (f *RematchFeed) Offers() <-chan protocol.RematchOffer { return f.c }

// Close ends the feed.
func (f *RematchFeed) Close() {
	f.once.Do(func() {
		r := f.r
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.feeds[f.id], f)
		if len(r.feeds[f.id]) == 0 {
			delete(r.feeds, f.id)
			delete(r.told, f.id)
		}
	})
}
