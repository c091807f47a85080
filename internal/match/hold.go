package match

import (
	"slices"
	"time"

	"github.com/razziagame/razzia"
)

// holds reports whether the move that leads from before to after starts
// a round whose first clock waits: a timed pace with a grace, a game
// going on into a new round, and a person at the table to read.
func (m *Match) holds(before, after *razzia.State) bool {
	if after.Over() || before.Round() == after.Round() || m.Timing.Clock.Pace().Grace <= 0 ||
		!m.Timing.Clock.Pace().Timed() {
		return false
	}
	for seat := range m.Seats {
		if m.PersonPlays(seat) {
			return true
		}
	}
	return false
}

// continueRound records that the person whose token hashes to hash has
// read the round's scores. A continue when no clock is held, or a second
// one, changes nothing; one from a token that holds no seat is refused.
func (m *Match) continueRound(hash []byte) (Result, error) {
	seat := SeatOf(m.Seats, hash)
	if err := m.seatPlaying(seat); err != nil {
		return Result{}, err
	}
	h := m.Timing.Hold
	if h == nil || slices.Contains(h.Continued, seat) {
		return Result{}, nil
	}
	next := m.Timing.clone()
	next.Hold.Continued = append(next.Hold.Continued, seat)
	r := m.timed(next, refuse(ErrInternal, "could not store that you continued: please try again"))
	r.Broadcast, r.Clock = true, true
	r.note("player continued", "seat", seat)
	return r, nil
}

// Release ends the held clock at now when its grace has run out, or when
// at least one of present (the seats whose people are connected) is a
// person's and every such person has continued: people not connected do
// not hold the clock, but with nobody connected (a restart, people on
// another node) it waits for the grace. The decision of the person to
// move, if a person is, starts then, or at the grace's end if that passed
// first (a late timer, a restart), so that the deadline is the one stored.
// The result is empty when the clock stays held or none is.
func (m *Match) Release(present []int, now time.Time) Result {
	h := m.Timing.Hold
	if !m.playing() || h == nil {
		return Result{}
	}
	if now.Before(h.Until) && !m.allContinued(present) {
		return Result{}
	}
	next := m.Timing.clone()
	next.Hold = nil
	start := now
	if start.After(h.Until) {
		start = h.Until
	}
	if seat := m.Game.ToMove(); m.PersonPlays(seat) {
		// No decision runs while the clock is held, and the seat is at
		// the table: Start cannot fail.
		_ = next.Clock.Start(seat, start)
	}
	r := m.timed(next, nil)
	r.Broadcast, r.Clock = true, true
	r.note("the round's first clock starts", "early", now.Before(h.Until))
	return r
}

// allContinued reports whether a seat in present is a person's and every
// such seat has continued.
func (m *Match) allContinued(present []int) bool {
	people := 0
	for _, seat := range present {
		if !m.PersonPlays(seat) {
			continue
		}
		if !slices.Contains(m.Timing.Hold.Continued, seat) {
			return false
		}
		people++
	}
	return people > 0
}

// Alarm returns when the match next needs the host's timer: the end of
// a held clock's grace, else the clock's alarm (pace.Clock.Alarm).
func (m *Match) Alarm() (time.Time, bool) {
	if m.Timing.Hold != nil {
		return m.Timing.Hold.Until, true
	}
	return m.Timing.Clock.Alarm()
}
