package table

import (
	"context"
	"strings"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// listen subscribes to the store's changes and to this node's channel,
// and handles their notices until the Hub closes. The first subscription
// is made before listen returns, so that no answer to this node's first
// request is missed.
func (h *Hub) listen() {
	channels := []string{store.ChangesChannel, NodeChannel(h.node)}
	ended, err := h.subscribe(channels)
	if err != nil {
		h.log.Error("cannot hear the store's notices; retrying", "err", err)
	}
	h.background(func() {
		for {
			if ended != nil {
				select {
				case <-ended:
				case <-h.ctx.Done():
					<-ended // no notice is handled once the Hub's goroutines are done
					return
				}
			}
			if h.ctx.Err() != nil {
				return
			}
			// The subscription ended before the Hub: subscribe again, and
			// re-read what may have been missed meanwhile.
			if !pause(h.ctx, h.opts.RetryDelay) {
				return
			}
			if ended, err = h.subscribe(channels); err != nil {
				h.log.Warn("cannot hear the store's notices; retrying", "err", err)
				continue
			}
			h.notice(store.Notice{Missed: true})
		}
	})
}

// subscribe has notice handle the notices of the channels until the
// subscription ends, which closes the channel returned. A store that
// can (store.Hearer) calls notice on its own goroutine as it hears each
// one: a goroutine between them would wake at every notice, several a
// move on every node.
func (h *Hub) subscribe(channels []string) (<-chan struct{}, error) {
	if hr, ok := h.store.(store.Hearer); ok {
		return hr.Hear(h.ctx, h.notice, channels...)
	}
	notices, err := h.store.Subscribe(h.ctx, channels...)
	if err != nil {
		return nil, err
	}
	ended := make(chan struct{})
	h.background(func() {
		defer close(ended)
		for n := range notices {
			h.notice(n)
		}
	})
	return ended, nil
}

// notice handles one notice. It never waits for a game's goroutine, nor
// blocks: it runs on the store's goroutine that hears the notices.
func (h *Hub) notice(n store.Notice) {
	switch {
	case n.Missed:
		h.missed()
	case n.Channel == store.ChangesChannel:
		if h.passOver(n.Payload) {
			return
		}
		c, err := store.ParseChange(n.Payload)
		if err != nil {
			h.log.Warn("a change notice that is not one", "err", err)
			return
		}
		h.changed(c)
		if c.Asker == h.node && c.Ask != 0 {
			h.fwd.deliver(c.Ask, answer{}) // the move this node passed on is made
		}
	default:
		p := &passed{h: h, at: time.Now()} // the request's command decoded into it
		env, err := parseEnvelope(n.Payload, &p.request)
		if err != nil || (env.Req == nil) == (env.Re == nil) {
			h.log.Warn("a message to this node that is not one", "payload", n.Payload, "err", err)
			return
		}
		if env.Re != nil {
			h.fwd.deliver(env.ID, *env.Re)
			return
		}
		if env.Req.Game == "" {
			return
		}
		p.env = env
		h.serve(p)
	}
}

// passOver reports, without decoding the payload of a change notice,
// that it changes nothing here: a move or a clock of a game this node
// does not serve, or runs (it made the change), that answers no request
// of this node. A node hears every change of the cluster, its own
// included.
func (h *Hub) passOver(payload string) bool {
	game, kind, ok := store.PeekChange(payload)
	if !ok || kind != store.ChangeMove && kind != store.ChangeClock || strings.Contains(payload, h.asked) {
		return false
	}
	l, _ := h.live.get(game)
	if l == nil {
		return true
	}
	_, owner := l.snapshot()
	return owner
}

// changed brings this node's replica of a game up to date with a change
// another node committed. The owner made its changes itself.
func (h *Hub) changed(c store.Change) {
	if c.Kind == store.ChangeRematch {
		h.rematches.changed(c.Game)
		return
	}
	if c.Kind == store.ChangeChat {
		h.after.changed(c.Game) // after the game; nothing when nobody here follows it
	}
	l, _ := h.live.get(c.Game)
	draining := h.leases.isDraining()
	if c.Kind == store.ChangeLease && c.Node == "" && !draining {
		// Released by a node handing its games over: take it at once.
		game := c.Game // not c: a closure's c would go to the heap at every notice
		h.background(func() { h.adopt(h.ctx, game) })
	}
	if l == nil {
		return
	}
	if _, owner := l.snapshot(); owner {
		if c.Kind == store.ChangeLease && c.Node != h.node {
			kick(h.renewNow) // another node took a game run here: check the leases now
		}
		return
	}
	switch c.Kind {
	case store.ChangeMove, store.ChangeClock:
		if from, move, clock, ok := c.Carried(); ok {
			l.announce(announced{from: from, move: move, clock: clock, at: time.Now()})
			return
		}
		h.refresh.mark(c.Game, time.Now())
	case store.ChangeSeat, store.ChangeClosed:
		l.post(func(l *loop) { l.reload() })
	case store.ChangeChat:
		l.post(func(l *loop) { l.syncChat() })
	case store.ChangeLease:
		node := c.Node
		l.post(func(l *loop) {
			if !l.owns() {
				l.setHolder(node)
			}
		})
	}
}

// missed re-reads every replica and looks for games nobody runs: notices
// may have been lost.
func (h *Hub) missed() {
	h.log.Info("store notices may have been missed; re-reading the games served here")
	for _, l := range h.live.all() {
		if _, owner := l.snapshot(); !owner {
			l.post(func(l *loop) { l.reload() })
		}
	}
	h.rematches.all()
	h.after.all()
	kick(h.scanNow)
	kick(h.renewNow)
}

// refreshLoop reads the new moves and clocks of the replicas marked, all
// at once, and hands each replica its own; the marks made during a read
// wait for the next. Reads begin at least Options.ReplicaReadGap apart, so that a
// busy node reads the moves of many games in one statement (a read costs
// the database about as much for one game as for four) while a quiet one
// reads each notice's move at once.
func (h *Hub) refreshLoop() {
	var last time.Time // when the last read began
	for {
		select {
		case <-h.ctx.Done():
			return
		case <-h.refresh.wake:
		}
		if wait := h.opts.ReplicaReadGap - time.Since(last); wait > 0 && !pause(h.ctx, wait) {
			return
		}
		last = time.Now()
		dirty := h.refresh.take()
		from := make(map[string]int, len(dirty))
		clocks := make(map[string]uint64, len(dirty))
		loops := make(map[string]*loop, len(dirty))
		for id := range dirty {
			if l, _ := h.live.get(id); l != nil {
				loops[id] = l
			}
		}
		for id, l := range loops {
			if _, owner := l.snapshot(); !owner {
				from[id], clocks[id] = l.moves(), l.heard.clocks.Load()
			}
		}
		if len(from) == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(h.ctx, commitTimeout)
		deltas, err := h.store.DeltasSince(ctx, from)
		cancel()
		if err != nil {
			if h.ctx.Err() != nil {
				return
			}
			h.log.Warn("cannot read the new moves of the games served here; trying again", "games", len(from), "err", err)
			if !pause(h.ctx, h.opts.RetryDelay) {
				return
			}
			for id := range from {
				h.refresh.mark(id, dirty[id])
			}
			continue
		}
		for id, d := range deltas {
			start, at, heard := from[id], dirty[id], clocks[id]
			loops[id].post(func(l *loop) { l.catchUp(start, d, at, heard) })
		}
	}
}
