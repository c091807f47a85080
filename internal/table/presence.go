package table

import (
	"context"
	"slices"
	"time"
)

// Presence across nodes: a new round's held first clock waits for the
// people connected to the table on any node (Options.Present), and is
// looked at again when they come or go (SeatsChanged).

// seatsChangedWait bounds the wait to tell a game's goroutine that the
// presence at its seats changed.
const seatsChangedWait = 5 * time.Second

// SeatsChanged tells the game's goroutine, if this node runs the game,
// that the people connected to its seats may have changed (on any node):
// a held clock that waited for someone who left starts now. It returns at
// once; the goroutine looks when it can.
func (h *Hub) SeatsChanged(id string) {
	h.mu.Lock()
	l := h.games[id]
	h.mu.Unlock()
	if l == nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(h.ctx, seatsChangedWait)
		defer cancel()
		h.send(ctx, l, func(l *loop) error {
			if l.owns() && l.m.Timing.Hold != nil {
				l.armClock()
			}
			return nil
		})
	}()
}

// presentElsewhere adds to seats those whose people are connected to the
// game through any node, as Options.Present says.
func (l *loop) presentElsewhere(seats []int) []int {
	if l.h.opts.Present == nil {
		return seats
	}
	for _, s := range l.h.opts.Present(l.id) {
		if !slices.Contains(seats, s) {
			seats = append(seats, s)
		}
	}
	return seats
}
