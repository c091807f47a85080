package table

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/store"
)

// The loop hosts its table's match: a command is decided by the match,
// written with the lease's fence, applied, broadcast, and then the
// timers and bots it asks for are armed (make).

// refused returns the Hub's error for a refusal of the match, whose kind
// is already one of the catalogue's sentinels (the Hub's own, re-exported
// from internal/match, or internal/chat's); another error is returned as
// it is.
func refused(err error) error {
	var r *match.Refusal
	if !errors.As(err, &r) {
		return err
	}
	kind := r.Kind
	if kind == nil {
		kind = ErrInternal
	}
	return &Error{Kind: kind, Msg: r.Msg, Err: r.Err, RetryAfter: r.RetryAfter}
}

// refusal returns the Hub's error for the match's refusal of a command
// of this game, logging a failure that is not the player's doing.
func (l *loop) refusal(err error) error {
	var r *match.Refusal
	if errors.As(err, &r) && r.Kind == ErrInternal {
		l.env.log.Error("the match failed", "game", l.id, "err", r.Err)
	}
	return refused(err)
}

// do decides the command c, received at at, and makes it. It returns the
// seat of a join.
func (l *loop) do(c match.Command, at time.Time) (int, error) {
	// A command is decided at most twice: once more after a seat was
	// given back to its player (match.Result.Again).
	for try := 0; ; try++ {
		now := l.env.now()
		r, err := l.m.Decide(c, now)
		if err != nil {
			return 0, l.refusal(err)
		}
		if err := l.make(r, now, at); err != nil {
			return 0, err
		}
		switch {
		case r.Then != nil:
			return 0, refused(r.Then)
		case !r.Again || try > 0:
			return r.Seat, nil
		}
	}
}

// make commits the result r, decided at now, with the lease's fence,
// applies it and does what it asks; at is when its command was received
// (zero for the loop's own). On error nothing changed.
func (l *loop) make(r match.Result, now, at time.Time) error {
	if r.Write.Kind != match.NoWrite {
		if err := l.commit(r.Write); err != nil {
			return err
		}
	}
	l.m.Apply(r, now)
	l.effects(r, at)
	return nil
}

// commit makes the write w in the store, as the owner. A conflict (the
// table changed meanwhile) reloads the table; a clock or an expiry that
// could not be stored is tried again after RetryDelay.
func (l *loop) commit(w match.Write) error {
	ctx, cancel := context.WithTimeout(l.env.ctx, commitTimeout)
	defer cancel()
	st, fence, start := l.env.store, l.lease.Fence, time.Now()
	var err error
	switch w.Kind {
	case match.TakeSeat:
		err = st.TakeSeat(ctx, l.id, fence, w.Seat, w.Taken, w.Status)
	case match.FreeSeat:
		err = st.FreeSeat(ctx, l.id, fence, w.Seat)
	case match.SetBot:
		err = st.SetSeatBot(ctx, l.id, fence, w.Seat, w.Taken)
	case match.CloseTable:
		err = st.CloseTable(ctx, l.id, fence, w.Status)
	case match.AppendMove:
		err = st.AppendTimedMove(ctx, l.id, fence, w.Index, w.Move, w.Status, w.Clock)
	case match.SetClock:
		err = st.SetClock(ctx, l.id, fence, w.Index, w.Clock)
	case match.AddChat:
		err = st.AddChat(ctx, l.id, fence, w.Line)
	case match.SetMute:
		err = st.SetMute(ctx, l.id, fence, w.Mute, w.On)
	default:
		return internal(fmt.Errorf("unknown write %v", w.Kind))
	}
	switch {
	case err == nil:
		if w.Kind == match.AppendMove {
			l.env.metrics.commit.Observe(time.Since(start).Seconds())
			l.env.metrics.committed.Inc()
		}
		return nil
	case errors.Is(err, store.ErrLeaseLost):
		return l.lostLease(err)
	case errors.Is(err, store.ErrConflict):
		l.reload()
		if w.Conflict != nil {
			return refused(w.Conflict)
		}
	case w.Kind == match.SetClock:
		l.env.log.Error("cannot store the clock; trying again later", "game", l.id, "err", err)
		l.alarm = l.env.afterFunc(l.env.retryDelay, func() {
			select {
			case l.reqs <- func(l *loop) { l.armClock() }:
			case <-l.done:
			}
		})
	case w.Kind == match.CloseTable && w.Status == store.StatusExpired:
		l.env.log.Error("cannot expire table; trying again later", "game", l.id, "err", err)
		l.expiry = time.AfterFunc(l.env.retryDelay, func() {
			select {
			case l.reqs <- func(l *loop) { l.expire() }:
			case <-l.done:
			}
		})
	}
	if w.Failed != nil {
		return refused(w.Failed)
	}
	return l.env.failed(w.Kind.String(), l.id, err)
}

// effects does what an applied result asks of the host; at is when its
// command was received (zero for the loop's own).
func (l *loop) effects(r match.Result, at time.Time) {
	for _, n := range r.Notes {
		l.env.log.Info(n.Msg, append([]any{"game", l.id}, n.Args...)...)
	}
	if r.StartGame {
		l.setHold(holdNone) // a game with a person
		l.startBots()
	}
	for _, seat := range r.StandIn {
		l.standIn(seat)
	}
	for _, seat := range r.Released {
		l.release(seat)
	}
	for _, seat := range r.Spectate {
		l.spectate(seat)
	}
	if r.Finished {
		l.finished()
	}
	if r.Expiry {
		l.armExpiry()
	}
	if r.Clock {
		// Before the state is sent: a game that starts starts its clock.
		l.armClock()
	}
	if r.Broadcast {
		l.broadcast()
		if r.Write.Kind == match.AppendMove && !at.IsZero() {
			since(l.env.metrics.broadcast.WithLabelValues("owner"), at)
		}
	}
	for _, seat := range r.Tell {
		l.tellSeat(seat)
	}
	if r.Bots {
		l.schedule(l.env.botDelay)
	}
	if r.PreMove {
		l.playPreMove()
	}
	if r.Finished {
		l.alertOver()
	}
	if r.Turn != nil {
		l.alertTurn(r.Turn.Moves, r.Turn.Mover)
	}
	if r.Reminder != nil {
		l.alert(AlertReminder, r.Reminder.Seat, r.Reminder.Left)
	}
	for s := range l.subs {
		if len(r.Said) > 0 || r.Muter != "" && s.reader().ID == r.Muter {
			l.chatTo(s, r.Said)
		}
	}
}

// apply makes the command c, received at at, in the game's goroutine,
// which owns the game. It returns the seat of a join.
func (l *loop) apply(c match.Command, at time.Time) (int, error) {
	switch c.Kind {
	case match.Chat, match.Mute:
		if !l.m.Status.Live() {
			return 0, errEnded // the game is over: the chat after it is the Hub's
		}
	case match.Play:
		if err := l.limit(match.SeatOf(l.m.Seats, c.Hash)); err != nil {
			return 0, err
		}
	}
	return l.do(c, at)
}

// limit takes a move from the seat's rate limit, over all its
// connections; a token without a seat has none.
func (l *loop) limit(seat int) error {
	if seat < 0 {
		return nil
	}
	lim, ok := l.limits[seat]
	if !ok {
		lim = newSeatLimiter(l.env.limits)
		if l.limits == nil {
			l.limits = map[int]seatLimiter{}
		}
		l.limits[seat] = lim
	}
	return lim.allow(l.env.now(), l.env.limits)
}

// release closes the bot that stood in for a seat its player took back.
func (l *loop) release(seat int) {
	if l.bots == nil || l.bots[seat] == nil {
		return
	}
	if b := l.bots[seat]; l.thinking && l.orphan == nil && l.thinkSeat == seat {
		l.orphan = b // botMove closes it and drops its choice
	} else {
		b.Close()
	}
	l.bots[seat] = nil
}

// spectate makes the connections of a freed seat watch on as spectators.
func (l *loop) spectate(seat int) {
	delete(l.limits, seat)
	for s := range l.subs {
		if s.seat == seat {
			s.seat = -1
			l.watched++
		}
	}
}

// expire closes the table if it is still open and its time has come: it
// is stored as expired, every watcher is told, and the loop ends.
func (l *loop) expire() {
	now := l.env.now()
	l.make(l.m.Expire(now, l.env.limits.OpenTTL), now, time.Time{})
}

// playPreMove plays the pre-move of the seat to move, if it has one and
// it is still legal, or drops it and tells its owner why.
func (l *loop) playPreMove() {
	now := l.env.now()
	l.make(l.m.PreMoveDue(now), now, time.Now())
}

// play makes mv, a bot's move received at at, for the seat to move.
func (l *loop) play(mv razzia.Move, at time.Time) error {
	now := l.env.now()
	r, err := l.m.Move(mv, now)
	if err != nil {
		return l.refusal(err)
	}
	return l.make(r, now, at)
}
