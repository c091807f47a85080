package table

import (
	"sync"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// announced is what a notice carried: a move or a clock of the game after
// its first from moves (a move's with its clock), heard at at.
type announced struct {
	from  int
	delta store.Delta
	at    time.Time
}

// announcements keeps what notices carried to a replica in the order
// they were heard, until its goroutine applies them: a post alone may
// reach a busy loop out of order.
type announcements struct {
	mu      sync.Mutex
	pending []announced
}

// announce has the replica apply what a notice carried, without reading
// the game, in the order heard.
func (l *loop) announce(a announced) {
	l.heard.mu.Lock()
	l.heard.pending = append(l.heard.pending, a)
	first := len(l.heard.pending) == 1
	l.heard.mu.Unlock()
	if first {
		l.post((*loop).applyAnnounced)
	}
}

// applyAnnounced applies what was heard since it last ran. A move the
// replica holds already, or a clock a later move replaced, is passed over;
// one beyond the moves it holds (notices lost, or the game read before it
// started) has the replica read what it lacks from the store.
func (l *loop) applyAnnounced() {
	l.heard.mu.Lock()
	pending := l.heard.pending
	l.heard.pending = nil
	l.heard.mu.Unlock()
	for _, a := range pending {
		if l.owns() {
			return
		}
		switch {
		case l.m.Game == nil || a.from > l.m.Game.Len():
			l.env.replicas.mark(l.id, a.at)
			return
		case a.from == l.m.Game.Len():
			l.catchUp(a.from, a.delta, a.at)
		}
	}
}
