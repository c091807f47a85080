package table

import (
	"sync"

	"github.com/razziagame/razzia/internal/protocol"
)

// rematches are the watchers of finished games' rematch offers on this
// node, and the timers of the offers they wait on.
type rematches struct {
	mu     sync.Mutex
	feeds  map[string]map[*RematchFeed]struct{} // by game
	timers map[string]func() bool               // by game: stops the timer
}

func (r *rematches) init() {
	r.feeds = map[string]map[*RematchFeed]struct{}{}
	r.timers = map[string]func() bool{}
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
		}
	})
}
