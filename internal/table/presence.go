package table

// Presence across nodes: a new round's held first clock waits for the
// people connected to the table on any node (Options.Present), and is
// looked at again when they come or go (SeatsChanged).

// SeatsChanged tells the game's goroutine, if this node runs the game,
// that the people connected to its seats may have changed (on any node):
// a held clock that waited for someone who left starts now. It returns at
// once; the goroutine looks when it can.
func (h *Hub) SeatsChanged(id string) {
	l, _ := h.live.get(id)
	if l == nil {
		return
	}
	l.post(func(l *loop) {
		if l.owns() && l.m.Timing.Hold != nil {
			l.armClock()
		}
	})
}
