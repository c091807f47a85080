package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// The loop hosts its table's match: a command is decided by the match,
// written with the lease's fence, applied, broadcast, and then the
// timers and bots it asks for are armed (make). The clocks are the
// match's too (internal/match); the loop sets one timer, for the clock's
// alarm, and the open table's expiry.

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
	if r.Then != nil {
		l.ask = nil // refused once written: the owner's answer says so, not the write's notice
	}
	if r.Write.Kind != match.NoWrite {
		var ending *knownOffer
		if r.Finished {
			// Begun before the commit, after which an offer can be made:
			// its notice drops what is known.
			ending = l.env.offers.begin(l.id)
		}
		if err := l.commit(r.Write); err != nil {
			return err
		}
		l.env.offers.fill(l.id, ending, nil) // no offer yet: its players watch for one without reading the game
	}
	l.m.Apply(r, now)
	l.effects(r, at)
	return nil
}

// commit makes the write w in the store, as the owner. A conflict (the
// table changed meanwhile) reloads the table; a clock or an expiry that
// could not be stored is tried again after RetryDelay.
func (l *loop) commit(w match.Write) error {
	ctx := l.writeContext()
	if w.Kind == match.AppendMove && l.ask != nil {
		ctx = store.WithAsk(ctx, l.ask)
		l.ask = nil
	}
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
	case match.StrikeChat:
		err = st.StrikeChat(ctx, l.id, fence, w.Index)
	default:
		return internal(fmt.Errorf("unknown write %v", w.Kind))
	}
	if err == nil {
		if w.Kind == match.AppendMove {
			l.env.metrics.commit.Observe(time.Since(start).Seconds())
			l.env.metrics.committed.Inc()
		}
		return nil
	}
	return l.commitFailed(w, err)
}

// writeContext returns the context of a store write of the loop: the
// Hub's, with commitTimeout at most and half of it at least left. It is
// made again only when less is left, so that a move makes no context and
// no timer of its own.
func (l *loop) writeContext() context.Context {
	if now := time.Now(); l.writeCtx == nil || l.writeBy.Sub(now) < commitTimeout/2 {
		if l.writeCancel != nil {
			l.writeCancel() // no write uses it: the loop's goroutine makes them one at a time
		}
		l.writeBy = now.Add(commitTimeout)
		l.writeCtx, l.writeCancel = context.WithDeadline(l.env.ctx, l.writeBy)
	}
	return l.writeCtx
}

// commitFailed handles the store's refusal of the write w: a lost lease
// makes the loop a replica, a conflict reloads the table, and a clock
// or an expiry that could not be stored is tried again after RetryDelay.
func (l *loop) commitFailed(w match.Write, err error) error {
	switch {
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
		l.expiry = l.env.afterFunc(l.env.retryDelay, func() {
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
		l.bots.release(seat)
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
		if seat, ok := l.m.TurnAlert(*r.Turn); ok {
			l.alert(AlertTurn, seat, 0)
		}
	}
	if r.Reminder != nil {
		l.alert(AlertReminder, r.Reminder.Seat, r.Reminder.Left)
	}
	for s := range l.subs {
		if len(r.Said) > 0 || r.Muter != "" && s.reader().ID == r.Muter {
			l.chatTo(s, r.Said)
		}
	}
	l.struck(r.Struck)
}

// apply makes the command c, received at at, in the game's goroutine,
// which owns the game. It returns the seat of a join.
func (l *loop) apply(c match.Command, at time.Time) (int, error) {
	switch c.Kind {
	case match.Chat, match.Mute, match.Strike:
		if !l.m.Status.Live() {
			return 0, errEnded // the game is over: the chat after it is the Hub's
		}
		if err := silenced(l.env.silenced, l.m.Seats, c); err != nil {
			return 0, err
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

// finished hands the game that just ended to the OnFinish hook.
func (l *loop) finished() {
	hook := l.env.onFinish
	if hook == nil {
		return
	}
	f := Finished{Game: l.id, Rated: l.m.Rated, Seats: slices.Clone(l.m.Seats), At: l.m.Updated,
		Forfeited: protocol.RecordMeta{TakeOvers: l.m.Timing.TakeOvers}.Forfeited(len(l.m.Seats))}
	for i := range f.Seats {
		f.Seats[i].TokenHash = nil
	}
	st := l.m.Game.State()
	for r := 1; r <= razzia.Rounds; r++ {
		for i, sc := range st.Scores(r) {
			if f.Scores == nil {
				f.Scores = make([]razzia.Score, len(f.Seats))
			}
			for c := range sc {
				f.Scores[i][c] += sc[c]
			}
		}
	}
	// Before the last state is broadcast, so that whoever sees the game
	// over sees its result stored; not cancelled by Close, which waits.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(l.env.ctx), finishTimeout)
	defer cancel()
	hook(ctx, f)
}

// armClock sets the timer for the clock's next alarm (the end of a held
// clock's grace, a reminder or the deadline), after releasing a held clock
// every person connected here has continued (match.Release) and starting
// the decision of a person to move whose clock does not run
// (match.ResumeClock).
func (l *loop) armClock() {
	l.stopClock()
	if !l.owns() || l.m.Game == nil || l.m.Status != store.StatusPlaying {
		return
	}
	now := l.env.now()
	// Only a held clock asks who is present (Release): the question reads
	// every node's presence.
	if l.m.Timing.Hold != nil {
		if r := l.m.Release(l.present(), now); r.Write.Kind != match.NoWrite {
			l.make(r, now, time.Time{}) // its effects arm the clock, or commit retries
			return
		}
	}
	if r := l.m.ResumeClock(); r.Write.Kind != match.NoWrite && l.make(r, now, time.Time{}) != nil {
		return // reloaded, or retried by commit
	}
	at, ok := l.m.Alarm()
	if !ok {
		return
	}
	l.alarm = l.env.afterFunc(max(at.Sub(l.env.now()), 0), func() {
		select {
		case l.reqs <- func(l *loop) { l.ring() }:
		case <-l.done:
		}
	})
}

// present returns the seats whose people watch the table, here or (with
// Options.Present) through any node: a held clock waits for them only.
func (l *loop) present() []int {
	var seats []int
	for s := range l.subs {
		if s.seat >= 0 && !slices.Contains(seats, s.seat) {
			seats = append(seats, s.seat)
		}
	}
	return l.presentElsewhere(seats)
}

// presentElsewhere adds to seats those whose people are connected to the
// game through any node, as Options.Present says.
func (l *loop) presentElsewhere(seats []int) []int {
	if l.env.present == nil {
		return seats
	}
	for _, s := range l.env.present(l.id) {
		if !slices.Contains(seats, s) {
			seats = append(seats, s)
		}
	}
	return seats
}

// ring is what the clock's alarm does: the timeout once the time is up,
// else the reminder when due, and the next alarm.
func (l *loop) ring() {
	now := l.env.now()
	l.make(l.m.Ring(now), now, time.Time{})
}

// stopClock stops the timer of the clock's alarm, if set.
func (l *loop) stopClock() {
	if l.alarm != nil {
		l.alarm()
		l.alarm = nil
	}
}

// comeBack gives a player who connects their seat back from the bot that
// stands in for them: here if this node runs the game, else by passing the
// write to the node that does, without holding up the connection.
func (l *loop) comeBack(seat int, hash []byte) {
	if seat < 0 || !l.m.Timing.StandingIn(seat) || l.m.Timing.Removed(seat) {
		return
	}
	c := match.Command{Kind: match.TakeBack, Game: l.id, Hash: hash}
	if l.owns() {
		if _, err := l.do(c, time.Now()); err != nil {
			l.env.log.Error("cannot give the seat back", "game", l.id, "seat", seat, "err", err)
		}
		return
	}
	h := l.env
	h.background(func() {
		ctx, cancel := context.WithTimeout(h.ctx, commitTimeout)
		defer cancel()
		if _, err := h.write(ctx, c); err != nil {
			h.log.Warn("cannot give the seat back", "game", c.Game, "err", err)
		}
	})
}

// alert hands the hook an alert for the seat, if a signed-in person holds
// it (match.Alerted). It runs on the game's path: the hook returns at once.
func (l *loop) alert(kind AlertKind, seat int, left time.Duration) {
	hook := l.env.onAlert
	if hook == nil || !l.m.Alerted(seat) {
		return
	}
	watching := false
	for s := range l.subs {
		if s.seat == seat {
			watching = true
			break
		}
	}
	hook(Alert{Kind: kind, Game: l.id, Seat: seat, Account: l.m.Seats[seat].Account,
		Pace: l.m.Timing.Clock.Pace().Kind, Watching: watching, Left: left})
}

// alertOver tells every signed-in person at the table that the game is over.
func (l *loop) alertOver() {
	for seat := range l.m.Seats {
		l.alert(AlertGameOver, seat, 0)
	}
}

// setHold changes what the game holds of the Hub's limits.
func (l *loop) setHold(k hold) {
	if l.counted {
		l.env.holds.move(l.client, l.held, k)
	}
	l.held = k
}

// armExpiry (re)starts the clock of an open table: it closes OpenTTL
// after its last change.
func (l *loop) armExpiry() {
	l.expiry.stop()
	if l.m.Status != store.StatusOpen {
		return
	}
	wait := l.m.Updated.Add(l.env.limits.OpenTTL).Sub(l.env.now())
	l.expiry = l.env.afterFunc(max(wait, 0), func() {
		select {
		case l.reqs <- func(l *loop) { l.expire() }:
		case <-l.done:
		}
	})
}

// botMove plays a bot's choice, if the game is still where the bot saw it.
func (l *loop) botMove(bm botMove) {
	l.bots.answered()
	if !l.owns() {
		return // the game is run elsewhere now
	}
	if l.m.Game == nil || bm.moves != l.m.Game.Len() {
		l.schedule(l.env.botDelay)
		return
	}
	if seat := l.m.Game.ToMove(); seat < 0 || l.bots.at(seat) == nil {
		return // the player took the seat back
	}
	err := l.play(bm.move, bm.at)
	var e *Error
	switch {
	case err == nil:
	case errors.As(err, &e) && e.Kind == ErrIllegalMove:
		// A bot's bug: play the default rather than stall.
		seat := l.m.Game.ToMove()
		m := bot.Default(l.m.Game.LegalMoves())
		l.env.log.Error("bot chose an illegal move; playing the default move", "game", l.id, "seat", seat, "move", bm.move, "err", err, "default", m)
		if err := l.play(m, bm.at); err != nil {
			l.retryLater()
		}
	case errors.Is(err, errNotOwner):
	default:
		l.retryLater()
	}
}

// load sets the loop's game from its stored form. On error nothing changes.
func (l *loop) load(g *store.Game) error {
	m, err := match.Load(g)
	if err != nil {
		return err
	}
	l.bots.drop()
	if l.m != nil {
		m.Room, m.Chat = l.m.Room, l.m.Chat // the chat is read apart (syncChat)
	}
	l.m = m
	if m.Game != nil && l.owns() {
		l.startBots()
	}
	l.show()
	return nil
}

// stopOwning makes the owner a replica: its lease with fence is lost. It
// commits nothing more; its bots and timers stop, and it reads the game
// from the store, where another node may have moved on.
func (l *loop) stopOwning(fence store.Fence) {
	if !l.owns() || l.lease.Fence != fence {
		return
	}
	l.disown()
	l.reload()
}

// disown stops what the owner runs and forgets its lease.
func (l *loop) disown() {
	l.env.leases.unhold(l.id, l.lease.Fence)
	l.lease = store.Lease{}
	l.setHolder("")
	l.retry.stop()
	l.expiry.stop()
	l.stopClock()
	l.bots.drop()
	l.limits = nil
	if l.counted {
		l.env.holds.add(l.client, l.held, -1)
		l.counted = false
	}
	l.show()
}

// lostLease handles a write the store refused for the lease: another
// node runs the game now.
func (l *loop) lostLease(err error) error {
	l.env.leases.forget(l.lease, err.Error())
	l.stopOwning(l.lease.Fence)
	return errNotOwner
}

// reload reads the game from the store again, after the store said it
// changed under us: the store is the truth.
func (l *loop) reload() {
	ctx, cancel := context.WithTimeout(l.env.ctx, commitTimeout)
	defer cancel()
	g, err := l.env.store.Game(ctx, l.id)
	if err != nil {
		l.env.log.Error("cannot reload game", "game", l.id, "err", err)
		return
	}
	l.update(g)
	l.schedule(l.env.botDelay)
	l.armClock()
	if !l.owns() {
		l.syncChat() // notices of the chat may have been missed too
	}
}

// update loads g, the game as stored, and broadcasts it if it differs
// from what the watchers saw: a state sent twice would look like a new
// turn to a client.
func (l *loop) update(g *store.Game) error {
	moves := 0
	if l.m.Game != nil {
		moves = l.m.Game.Len()
	}
	same := g.Status == l.m.Status && len(g.Moves) == moves &&
		slices.EqualFunc(g.Seats, l.m.Seats, func(a, b store.Seat) bool { return a.Name == b.Name && a.Bot == b.Bot })
	if err := l.load(g); err != nil {
		l.env.log.Error("cannot load game", "game", l.id, "err", err)
		return err
	}
	if !same {
		l.broadcast()
	}
	return nil
}
