package match

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/premove"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// ResumeClock starts the decision of a person to move whose clock does
// not run: the game started and the server stopped before it stored the
// clock, so the decision started when the game last changed, as stored.
// The result is empty when the clock needs nothing.
func (m *Match) ResumeClock() Result {
	if !m.playing() {
		return Result{}
	}
	seat := m.Game.ToMove()
	if _, _, running := m.Timing.Clock.Running(); running || !m.Timing.Clock.Pace().Timed() || !m.PersonPlays(seat) ||
		m.Timing.Hold != nil {
		return Result{}
	}
	next := m.Timing.clone()
	if next.Clock.Start(seat, m.Updated) != nil {
		return Result{}
	}
	return m.timed(next, nil)
}

// Ring is what the clock's alarm does at now: the held clock starts once
// its grace is over; else the timeout once the time is up, else the
// reminder when due; then the next alarm.
func (m *Match) Ring(now time.Time) Result {
	if !m.playing() {
		return Result{}
	}
	if h := m.Timing.Hold; h != nil {
		if now.Before(h.Until) {
			return Result{Effects: Effects{Clock: true}} // the timer fired early
		}
		return m.Release(nil, now)
	}
	if m.Timing.Clock.Expired(now) {
		return m.timeout(now)
	}
	next := m.Timing.clone()
	if !next.Clock.Remind(now) {
		return Result{Effects: Effects{Clock: true}}
	}
	// Stored as sent first, so that a restart or a take-over never sends
	// it twice (and a crash in between sends none).
	r := m.timed(next, nil)
	seat, _, _ := next.Clock.Running()
	deadline, _ := next.Clock.Deadline()
	r.Reminder = &Reminder{Seat: seat, Left: deadline.Sub(now)}
	r.Clock = true
	r.note("half the decision's time has passed", "seat", seat)
	return r
}

// timeout ends the running decision if its time is up at now: the seat's
// reserve is gone and a bot stands in for it until the player comes back.
func (m *Match) timeout(now time.Time) Result {
	if !m.playing() {
		return Result{}
	}
	if !m.Timing.Clock.Expired(now) {
		return Result{Effects: Effects{Clock: true}} // a move came first, or the timer fired early
	}
	next := m.Timing.clone()
	spent := next.Clock.Stop(now)
	next.TakeOvers = append(next.TakeOvers, protocol.TakeOver{Seat: spent.Seat, Bot: StandInLevel,
		Reason: protocol.ReasonTimeout, Move: m.Game.Len(), At: spent.At.UTC()})
	next.PreMoves = withoutPreMove(next.PreMoves, spent.Seat)
	r := m.timed(next, nil)
	r.StandIn = []int{spent.Seat}
	r.Broadcast, r.Clock, r.Bots = true, true, true
	r.note("time ran out; a bot plays for the seat", "seat", spent.Seat, "bot", StandInLevel)
	return r
}

// takeBack gives a person their seat back from the bot that stood in:
// the seat's decisions are timed again, with what is left of its reserve.
// The result is empty for a seat no bot stands in for.
func (m *Match) takeBack(seat int, now time.Time) (Result, error) {
	if seat < 0 || !m.Timing.StandingIn(seat) || m.Status != store.StatusPlaying {
		return Result{}, nil
	}
	next := m.Timing.clone()
	back, at := m.Game.Len(), now.UTC()
	last := len(next.TakeOvers) - 1
	for next.TakeOvers[last].Seat != seat {
		last--
	}
	next.TakeOvers[last].BackMove, next.TakeOvers[last].BackAt = &back, &at
	if m.Game.ToMove() == seat && next.Hold == nil {
		if err := next.Clock.Start(seat, now); err != nil && !errors.Is(err, pace.ErrRunning) {
			return Result{}, &Refusal{Kind: ErrInternal, Msg: "internal error: please try again", Err: err}
		}
	}
	r := m.timed(next, refuse(ErrInternal, "could not give your seat back: please try again"))
	r.Released = []int{seat}
	r.Broadcast, r.Clock = true, true
	r.note("player took the seat back", "seat", seat)
	return r, nil
}

// leave lets a bot stand in for the seat for the rest of the game, or
// until its player comes back.
func (m *Match) leave(seat int, now time.Time) (Result, error) {
	if err := m.seatPlaying(seat); err != nil {
		return Result{}, err
	}
	if m.Timing.StandingIn(seat) {
		return Result{}, nil
	}
	next := m.Timing.clone()
	if running, _, ok := next.Clock.Running(); ok && running == seat {
		next.Clock.Stop(now)
	}
	next.TakeOvers = append(next.TakeOvers, protocol.TakeOver{Seat: seat, Bot: StandInLevel,
		Reason: protocol.ReasonLeft, Move: m.Game.Len(), At: now.UTC()})
	next.PreMoves = withoutPreMove(next.PreMoves, seat)
	r := m.timed(next, refuse(ErrInternal, "could not hand your seat to a bot: please try again"))
	r.StandIn = []int{seat}
	r.Broadcast, r.Clock, r.Bots = true, true, true
	r.note("player left; a bot plays for the seat", "seat", seat, "bot", StandInLevel)
	return r, nil
}

// enterPreMove stores the pre-move tok of the seat whose token hashes to
// hash, replacing its last one; an empty tok withdraws it. Only the
// seat's watchers are told.
func (m *Match) enterPreMove(hash []byte, tok string, now time.Time) (Result, error) {
	seat := SeatOf(m.Seats, hash)
	if err := m.seatPlaying(seat); err != nil {
		return Result{}, err
	}
	if tok != "" && m.Timing.StandingIn(seat) && m.Status == store.StatusPlaying {
		// Deciding is coming back.
		r, err := m.takeBack(seat, now)
		r.Again = true
		return r, err
	}
	next := m.Timing.clone()
	next.PreMoves = withoutPreMove(next.PreMoves, seat)
	if tok != "" {
		mv, err := razzia.ParseMove(tok)
		if err != nil {
			return Result{}, &Refusal{Kind: ErrIllegalMove, Msg: "a pre-move is \"pass\" or \"bid N\": " + err.Error(), Err: err}
		}
		s := m.Game.State()
		pm, err := premove.Enter(&s, seat, mv)
		if err != nil {
			return Result{}, &Refusal{Kind: ErrIllegalMove, Msg: "this pre-move cannot be entered: " + err.Error(), Err: err}
		}
		next.PreMoves = append(next.PreMoves, StoredPreMove{Seat: seat, Move: pm.Move.String(), Auction: pm.Auction})
	}
	r := m.timed(next, refuse(ErrInternal, "could not store your pre-move: please try again"))
	r.Tell = []int{seat}
	return r, nil
}

// PreMoveDue decides the pre-move of the seat to move at now, if it has
// one: played if it is still legal, else dropped, its owner told why.
// The result is empty when no pre-move is due.
func (m *Match) PreMoveDue(now time.Time) Result {
	if !m.playing() {
		return Result{}
	}
	seat := m.Game.ToMove()
	i := slices.IndexFunc(m.Timing.PreMoves, func(p StoredPreMove) bool { return p.Seat == seat && p.Dropped == "" })
	if i < 0 || !m.PersonPlays(seat) {
		return Result{}
	}
	pm, err := m.Timing.PreMoves[i].preMove()
	var v premove.Verdict
	if err == nil {
		s := m.Game.State()
		v, err = pm.Resolve(&s)
	}
	if v == premove.Play && err == nil {
		if r, err := m.Move(pm.Move, now); err == nil {
			r.note("pre-move played", "seat", seat)
			return r
		}
	}
	next := m.Timing.clone()
	if err != nil {
		next.PreMoves[i].Dropped = err.Error()
	} else {
		next.PreMoves = slices.Delete(next.PreMoves, i, i+1)
	}
	r := m.timed(next, nil)
	r.Tell = []int{seat}
	return r
}

// Follow brings a replica's match up to what the store holds, at now:
// the moves after move number from and, if not nil, the clock as stored
// with them. tell lists the seats to tell when only pre-moves changed (a
// pre-move is its owner's news only); changed reports any other change.
// After an error (the stored game does not read) the host loads the
// game again.
func (m *Match) Follow(from int, moves []string, clock []byte, now time.Time) (changed bool, tell []int, err error) {
	next, clocked := m.Timing, false
	if clock != nil && !bytes.Equal(clock, m.Stored) {
		t, err := DecodeTiming(clock, len(m.Seats))
		if err != nil {
			return false, nil, err
		}
		next, clocked = t, true
	}
	played := false
	for i, tok := range moves {
		if from+i < m.Game.Len() {
			continue // read twice
		}
		if err := m.Game.PlayToken(tok); err != nil {
			return false, nil, fmt.Errorf("move %d: %w", from+i, err)
		}
		played = true
	}
	if !played && !clocked {
		return false, nil, nil
	}
	prev := m.Timing
	m.Timing = next
	if clocked {
		m.Stored = clock
	}
	if !played && OnlyPreMoves(prev, next) {
		for seat := range m.Seats {
			if prev.PreMoveOf(seat) != next.PreMoveOf(seat) {
				tell = append(tell, seat)
			}
		}
		return false, tell, nil
	}
	if m.Game.Over() {
		m.Status = store.StatusFinished
	}
	m.Updated = now
	return true, nil, nil
}
