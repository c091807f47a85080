package match

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/store"
)

// ParseMove reads a player's move (a record token); the error is why it
// is not one. A draw names no card: the server draws it.
func ParseMove(move string) (razzia.Move, error) {
	m, err := razzia.ParseMove(move)
	if err == nil && m.Action == razzia.ActionDraw && m.Card != razzia.NoKind {
		err = errors.New("the server draws the card: send draw")
	}
	return m, err
}

// Move decides mv, the move of the seat to move, at now: checked once,
// the card of a draw named; the result stores it with the clock as it is
// after it, and Apply plays it as checked.
func (m *Match) Move(mv razzia.Move, now time.Time) (Result, error) {
	if m.Game == nil || m.Status != store.StatusPlaying {
		return Result{}, refuse(ErrNotStarted, "the game is not being played")
	}
	checked, err := m.Game.CheckMove(mv)
	if err != nil {
		return Result{}, &Refusal{Kind: ErrIllegalMove, Msg: err.Error(), Err: err}
	}
	index, mover, after := m.Game.Len(), m.Game.ToMove(), checked.After
	status := store.StatusPlaying
	if after.Over() {
		status = store.StatusFinished
	}
	next, err := m.nextTiming(mover, &after, now)
	if err != nil {
		return Result{}, &Refusal{Kind: ErrInternal, Msg: "internal error: please try again", Err: err}
	}
	// What the result points to, in one allocation, the stored timing
	// in it where it fits.
	a := &struct {
		change  change
		checked razzia.Checked
		timing  Timing
		turn    Turn
		stored  [256]byte // TestStoredTimingsFit
	}{checked: checked, timing: next, turn: Turn{Moves: index + 1, Mover: mover}}
	stored := next.appendEncoded(a.stored[:0])
	a.change = change{status: status, played: &a.checked, timing: &a.timing, stored: stored}
	r := Result{Write: Write{Kind: AppendMove, Index: index, Move: checked.Move.String(), Status: status, Clock: stored},
		next: &a.change}
	r.Broadcast, r.Bots, r.Clock, r.PreMove = true, true, true, true
	r.Turn = &a.turn
	if status == store.StatusFinished {
		r.Finished = true
		r.note("game over", "moves", index+1, "winners", after.Winners())
	}
	return r, nil
}

// nextTiming returns the timing after the move that leads to state after,
// made at now: the mover's decision ends, the next person's starts unless
// the clock is held (a new round's first clock waits while the round's
// scores are read), and the pre-moves of auctions that are over expire.
func (m *Match) nextTiming(mover int, after *razzia.State, now time.Time) (Timing, error) {
	next := m.Timing.clone()
	next.Clock.Stop(now)
	next.PreMoves = withoutPreMove(next.PreMoves, mover)
	if h := next.Hold; h != nil && m.PersonPlays(mover) && !slices.Contains(h.Continued, mover) {
		h.Continued = append(h.Continued, mover) // moving is continuing
	}
	if before := m.Game.State(); next.Hold == nil && m.holds(&before, after) {
		next.Hold = &Hold{Until: time.UnixMilli(now.Add(next.Clock.Pace().Grace).UnixMilli()).UTC()}
	}
	if seat := after.ToMove(); !after.Over() && m.PersonPlays(seat) && next.Hold == nil {
		if err := next.Clock.Start(seat, now); err != nil {
			return Timing{}, fmt.Errorf("starting the clock of seat %d: %w", seat, err)
		}
	}
	next.PreMoves = livePreMoves(next.PreMoves, after)
	return next, nil
}
