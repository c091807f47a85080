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
	spare   []announced // the last pending, emptied: a replica hears a notice each move
}
