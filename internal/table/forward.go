package table

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/store"
)

// write makes the command r of its game: in the game's goroutine if this
// node runs it, else by passing it to the node that does (forward). A
// game that is over answers as match.Closed decides, or, for the chat,
// with the chat after the game. It returns the seat of a join.
func (h *Hub) write(ctx context.Context, r match.Command) (int, error) {
	static := func(g *store.Game) error {
		if afterGame(r.Kind) {
			return h.chatAfter(ctx, g, r)
		}
		return refused(match.Closed(r, g))
	}
	at := time.Now() // for the latency metric
	// Every try either makes the write or learns something new of the
	// owner; a bound keeps two nodes from passing a request back and forth.
	hint := ""    // the owner, as the store said since the replica learnt it
	lost := false // a try passed r to an owner that never answered: it may have made r
	for try := 0; try < 8; try++ {
		l, g, err := h.find(ctx, r.Game)
		if err != nil {
			return 0, err
		}
		if l == nil {
			return 0, static(g)
		}
		seat, holder, err := 0, l.elsewhere(), errNotOwner
		if holder == "" {
			seat, holder, err = applyIn(ctx, l, r, at)
		}
		switch {
		case err == errEnded:
			continue // the game ended meanwhile: look again
		case !errors.Is(err, errNotOwner):
			return h.madeAnyway(ctx, r, lost, seat, err)
		}
		if hint != "" {
			holder = hint
		}
		var unanswered bool
		seat, hint, unanswered, err = h.forward(ctx, r, holder)
		lost = lost || unanswered
		if !errors.Is(err, errNotOwner) {
			return h.madeAnyway(ctx, r, lost, seat, err)
		}
	}
	h.metrics.forwarded.WithLabelValues("unavailable").Inc()
	h.log.Warn("the write found no node to make it after 8 tries; it is refused for now", "game", r.Game, "op", r.Kind, "holder", hint)
	return 0, unavailable()
}

// applyIn applies r, received at at, in l's goroutine if l runs its game,
// and returns the seat of a join; errNotOwner and the owner as l knows
// it if l does not.
func applyIn(ctx context.Context, l *loop, r match.Command, at time.Time) (seat int, holder string, err error) {
	a := applieds.Get().(*applied)
	a.r, a.at = r, at
	err = l.call(ctx, a.run)
	seat, holder = a.seat, a.holder
	*a = applied{run: a.run}
	applieds.Put(a)
	return seat, holder, err
}

// An applied is a command applied in its game's goroutine and what that
// answers, reused: each move is one, and its values and function cost
// allocations.
type applied struct {
	r      match.Command
	at     time.Time
	seat   int
	holder string
	run    func(*loop) error // a.apply, made once
}

var applieds = sync.Pool{New: func() any {
	a := new(applied)
	a.run = a.apply
	return a
}}

// apply applies a.r if l runs its game; errNotOwner if not.
func (a *applied) apply(l *loop) error {
	if !l.owns() {
		a.holder = l.holder
		if l.hint.Load() == nil {
			holder := l.holder
			l.hint.Store(&holder)
		}
		return errNotOwner
	}
	var err error
	a.seat, err = l.apply(a.r, a.at)
	return err
}

// madeAnyway returns the outcome of r, seat and err, unless r was lost
// before (passed to an owner that never answered) and err refuses r as
// made already (the seat is the token's, the move's turn taken): the
// owner made it, and r is answered as made.
func (h *Hub) madeAnyway(ctx context.Context, r match.Command, lost bool, seat int, err error) (int, error) {
	if err != nil && lost {
		if seat, ok := h.settled(ctx, r); ok {
			return seat, nil
		}
	}
	return seat, err
}

// forward passes r to holder, the node believed to run its game, and
// returns its answer; unanswered when r was passed and no answer came. errNotOwner means: look again, this node may run
// the game now (it took it over), or the store names another owner
// (next).
func (h *Hub) forward(ctx context.Context, r match.Command, holder string) (seat int, next string, unanswered bool, err error) {
	deadline := time.Now().Add(h.opts.ForwardTimeout + h.opts.LeaseTTL)
	if holder != "" && holder != h.node {
		seat, err, answered := h.ask(ctx, holder, r)
		switch {
		case errors.Is(err, errNotOwner):
			lease, lerr := h.store.Lease(ctx, r.Game)
			if lerr != nil {
				return 0, "", unanswered, h.storeError("read the lease of game", r.Game, lerr)
			}
			h.tellHolder(r.Game, lease.Node)
			return 0, lease.Node, unanswered, errNotOwner
		case answered:
			return seat, "", unanswered, err
		case ctx.Err() != nil:
			return 0, "", unanswered, ctx.Err()
		}
		// No answer: the owner is dead, paused or cut off, or busy. If
		// the write went through all the same, say so.
		unanswered = true
		if seat, ok := h.settled(ctx, r); ok {
			return seat, "", unanswered, nil
		}
	}
	// Wait for the lease to lapse, and take the game over.
	for {
		lease, err := h.store.Lease(ctx, r.Game)
		if err != nil {
			return 0, "", unanswered, h.storeError("read the lease of game", r.Game, err)
		}
		switch {
		case lease.Node == "" || lease.Node == h.node:
			_, err := h.adopt(ctx, r.Game)
			if err == nil || errors.Is(err, store.ErrLeaseHeld) || errors.Is(err, store.ErrConflict) {
				return 0, "", unanswered, errNotOwner // taken (or ended, or another node was quicker): look again
			}
			if !errors.Is(err, errDraining) {
				return 0, "", unanswered, h.storeError("take game", r.Game, err)
			}
		case lease.Node != holder:
			h.tellHolder(r.Game, lease.Node)
			return 0, lease.Node, unanswered, errNotOwner // another node runs it now: ask it
		}
		if !time.Now().Before(deadline) {
			if seat, ok := h.settled(ctx, r); ok {
				return seat, "", unanswered, nil // the owner made it, late
			}
			h.metrics.forwarded.WithLabelValues("unavailable").Inc()
			h.log.Warn("no node runs the game in time; the write is refused for now", "game", r.Game, "op", r.Kind, "holder", holder)
			return 0, "", unanswered, unavailable()
		}
		t := time.NewTimer(min(h.opts.LeaseTTL/4, time.Until(deadline)))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return 0, "", unanswered, ctx.Err()
		case <-h.ctx.Done():
			t.Stop()
			return 0, "", unanswered, reject(ErrClosed, "the server is shutting down")
		}
	}
}

// ask sends r to node and waits for its answer, at most ForwardTimeout.
func (h *Hub) ask(ctx context.Context, node string, r match.Command) (seat int, err error, answered bool) {
	id, ch := h.fwd.add()
	received := false
	defer func() { h.fwd.remove(id, ch, received) }()
	payload, err := encodeRequest(envelope{ID: id, From: h.node, Req: &r, Notice: true})
	if err != nil {
		return 0, internal(err), true
	}
	if len(payload) > store.MaxPayload {
		// Refused now: the channel would drop it, and the asker would wait
		// for an answer that cannot come, then call it unavailable.
		return 0, reject(ErrTooLarge, "the request is too large to pass to the server that runs the game"), true
	}
	start := time.Now()
	if err := h.store.Publish(ctx, h.fwd.channel(node), payload); err != nil {
		h.log.Warn("cannot pass a write to the game's node", "game", r.Game, "to", node, "err", err)
		return 0, nil, false
	}
	t := askTimers.Get().(*time.Timer)
	t.Reset(h.opts.ForwardTimeout)
	defer func() {
		t.Stop() // no time is received from t after Stop or Reset
		askTimers.Put(t)
	}()
	select {
	case a := <-ch:
		received = true
		h.metrics.forwarded.WithLabelValues("answered").Inc()
		h.metrics.forwardWait.Observe(time.Since(start).Seconds())
		seat, err := a.result()
		return seat, err, true
	case <-t.C:
		h.metrics.forwarded.WithLabelValues("timeout").Inc()
		h.log.Warn("the game's node did not answer a write in time", "game", r.Game, "op", r.Kind, "to", node, "waited", h.opts.ForwardTimeout)
		return 0, nil, false
	case <-ctx.Done():
		return 0, ctx.Err(), true
	case <-h.ctx.Done():
		return 0, reject(ErrClosed, "the server is shutting down"), true
	}
}

// askTimers are the timers of ask, reused: a move passed to its owner
// would cost three allocations for one.
var askTimers = sync.Pool{New: func() any {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return t
}}

// settled reports whether the store shows that r was made although its
// answer was lost (the owner answered too late, or its answer was lost):
// a join whose seat holds the new token's hash, or a move with a seq
// whose turn was the asker's seat and is stored: only that seat could
// make the move at that index (this request, or the seat's other
// connection: its turn was taken either way).
func (h *Hub) settled(ctx context.Context, r match.Command) (int, bool) {
	g, err := h.store.Game(ctx, r.Game)
	if err != nil {
		return 0, false
	}
	seat := match.SeatOf(g.Seats, r.Hash)
	switch {
	case r.Kind == match.Join:
		return seat, seat >= 0
	case r.Kind != match.Play || seat < 0 || r.Seq < 0 || len(g.Moves) <= r.Seq:
		return 0, false
	}
	upTo := *g
	upTo.Moves = g.Moves[:r.Seq]
	game, err := match.Replay(&upTo)
	return 0, err == nil && game.ToMove() == seat
}

// tellHolder tells the game's replica, if any, which node runs it.
func (h *Hub) tellHolder(id, node string) {
	l, _ := h.live.get(id)
	if l != nil {
		l.post(func(l *loop) {
			if !l.owns() {
				l.setHolder(node)
			}
		})
	}
}

// serve makes a write another node passed to this one, in its game's
// goroutine, and answers it. It never waits: a move's notice is heard on
// the store's goroutine, and the move's own notice mostly answers it.
func (h *Hub) serve(p *passed) {
	if l, _ := h.live.get(p.env.Req.Game); l != nil {
		h.pass(l, p)
		return
	}
	p.answer(0, errNotOwner)
}

// A passed is a write another node passed to this one: one value, as
// each move passed is one.
type passed struct {
	h   *Hub
	env envelope
	request
	at  time.Time // when it was heard
	ask store.Ask // a move's, whose notice the asker takes for the answer
}

// make makes the write in l's goroutine, and answers it unless its
// notice does.
func (p *passed) make(l *loop) {
	r := p.env.Req
	var ask *store.Ask
	if p.env.Notice && r.Kind == match.Play {
		p.ask = store.Ask{Node: p.env.From, ID: p.env.ID}
		ask = &p.ask
	}
	seat, err := 0, error(errNotOwner)
	switch {
	case !l.owns():
	case time.Since(p.at) > p.h.opts.ForwardTimeout:
		err = context.DeadlineExceeded // the asker gave up waiting
	default:
		l.ask = ask
		seat, err = l.apply(*r, p.at)
		l.ask = nil
	}
	if err == errEnded {
		err = errNotOwner
	}
	if err != nil || ask == nil || !ask.Told {
		p.answer(seat, err)
	}
}

// answer answers the write in a goroutine of the Hub.
func (p *passed) answer(seat int, err error) {
	p.h.background(func() { p.h.answer(p.env, seat, err) })
}

// pass has l's goroutine make p without waiting for it, or answers p
// if l ends first.
func (h *Hub) pass(l *loop, p *passed) {
	select {
	case l.reqs <- p.make: // a loop mostly waits
		return
	default:
	}
	h.background(func() {
		select {
		case l.reqs <- p.make:
		case <-l.done:
			p.answer(0, errNotOwner)
		}
	})
}

// answer sends the owner's answer to a write env passed to this node:
// the seat of a join, or the write's error.
func (h *Hub) answer(env envelope, seat int, err error) {
	r := *env.Req
	ctx, cancel := context.WithTimeout(h.ctx, h.opts.ForwardTimeout)
	defer cancel()
	if errors.Is(err, errNotOwner) && afterGame(r.Kind) {
		// Passed here as the game ended: the chat after it is anyone's.
		if g, gerr := h.store.Game(ctx, r.Game); gerr == nil && g.Status == store.StatusFinished {
			err = h.chatAfter(ctx, g, r)
		}
	}
	a := answerOf(seat, err)
	payload, merr := json.Marshal(envelope{ID: env.ID, From: h.node, Re: &a})
	if merr != nil {
		h.log.Error("cannot encode an answer", "game", r.Game, "err", merr)
		return
	}
	if err := h.store.Publish(ctx, NodeChannel(env.From), string(payload)); err != nil {
		h.log.Warn("cannot answer a write passed to this node", "game", r.Game, "to", env.From, "err", err)
	}
}

// afterGame reports whether a command of kind k is answered, once the
// game is over, by the chat after the game rather than the match.
func afterGame(k match.Kind) bool {
	return k == match.Chat || k == match.Mute || k == match.Strike
}
