package table

import (
	"sync"

	"github.com/razziagame/razzia"
)

// An Update is the state of a game as one watcher may see it.
type Update struct {
	Game   Info
	Seat   int              // the watcher's seat, or -1 for a spectator
	View   *razzia.Snapshot // nil while the table is open
	Events []razzia.Event   // what happened since the previous Update of this subscription

	from int // the move whose events Events starts with
}

// A Subscription receives a game's updates. A slow subscriber never holds
// up the game: when it has not taken an update before the next one, the
// two are merged, so it always gets the latest state and every event.
type Subscription struct {
	Seat int // the watcher's seat, or -1 for a spectator

	c    chan Update
	l    *loop // nil for a game that is over
	sent int   // moves whose events the updates sent carry; owned by l's goroutine
	once sync.Once
}

func newSubscription(l *loop, seat int) *Subscription {
	return &Subscription{Seat: seat, c: make(chan Update, 1), l: l}
}

// Updates returns the channel of updates. It is closed when no more will
// come: the game is over, the subscription or the Hub was closed.
func (s *Subscription) Updates() <-chan Update { return s.c }

// Close ends the subscription.
func (s *Subscription) Close() {
	s.once.Do(func() {
		if s.l == nil {
			return
		}
		select {
		case s.l.reqs <- func(l *loop) { l.unwatch(s) }:
		case <-s.l.done:
		}
	})
}
