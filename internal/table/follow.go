package table

// announce has the replica apply what a notice carried, without reading
// the game, in the order heard.
func (l *loop) announce(a announced) {
	if a.clock != nil {
		l.heard.clocks.Add(1)
	}
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
	l.heard.pending, l.heard.spare = l.heard.spare, nil
	l.heard.mu.Unlock()
	defer func() {
		clear(pending)
		l.heard.mu.Lock()
		l.heard.spare = pending[:0]
		l.heard.mu.Unlock()
	}()
	for _, a := range pending {
		if l.owns() {
			return
		}
		switch {
		case l.m.Game == nil || a.from > l.m.Game.Len():
			l.env.replicas.mark(l.id, a.at)
			return
		case a.from == l.m.Game.Len():
			l.catchUp(a.from, l.heard.delta(a), a.at, l.heard.clocks.Load())
		}
	}
}
