package table

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// announced is what a notice carried: a move or a clock of the game after
// its first from moves (a move's with its clock; "" for a clock alone, nil
// for the clock kept), heard at at.
type announced struct {
	from  int
	move  string
	clock []byte
	at    time.Time
}

// announcements keeps what notices carried to a replica in the order
// they were heard, until its goroutine applies them: a post alone may
// reach a busy loop out of order.
type announcements struct {
	clocks  atomic.Uint64 // clocks heard: a read begun before one may not replace it
	mu      sync.Mutex
	pending []announced
	spare   []announced // the last pending, emptied: a replica hears a notice each move
	move    [1]string   // the move applied, as a Delta's: its goroutine's own
}

// delta returns what a carried: its move in the goroutine's own slice,
// so that a move heard costs no slice.
func (h *announcements) delta(a announced) store.Delta {
	d := store.Delta{Clock: a.clock}
	if a.move != "" {
		h.move[0] = a.move
		d.Moves = h.move[:]
	}
	return d
}
