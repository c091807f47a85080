package pace

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/razziagame/razzia"
)

// ErrRunning is returned by Start while a decision is running: the table
// ends one decision (Stop) before it starts the next.
var ErrRunning = errors.New("pace: a decision is already running")

// A Clock is the clocks of one table: its pace, each seat's reserve, and
// the decision running now, if any. It is a small comparable value that
// the store keeps as JSON (MarshalJSON) after every change; all it holds
// is exact in milliseconds, so a stored Clock reads back equal.
//
// The zero Clock is untimed with no seats; use New. A Clock is not safe
// for concurrent use: one table goroutine owns it.
type Clock struct {
	pace    Pace
	players uint8
	reserve [razzia.MaxPlayers]time.Duration // left, as of the running decision's start
	seat    int8                             // the seat deciding, or -1
	started int64                            // when the running decision started, Unix milliseconds
	// reminded records that the running decision's reminder was sent, so
	// that a restart never sends it twice.
	reminded bool
}

// New returns the clock of a table of players seats at pace p, every seat
// with the pace's full reserve and no decision running.
func New(p Pace, players int) (Clock, error) {
	if err := p.check(); err != nil {
		return Clock{}, err
	}
	if players < razzia.MinPlayers || players > razzia.MaxPlayers {
		return Clock{}, fmt.Errorf("pace: %d players; a table has %d to %d", players, razzia.MinPlayers, razzia.MaxPlayers)
	}
	c := Clock{pace: p, players: uint8(players), seat: -1}
	for i := range players {
		c.reserve[i] = p.Reserve
	}
	return c, nil
}

// Pace returns the clock's pace.
func (c Clock) Pace() Pace { return c.pace }

// Players returns the number of seats.
func (c Clock) Players() int { return int(c.players) }

// Reserve returns what is left of the seat's reserve (the vacation
// allowance in correspondence play) as of the start of the running
// decision; Left tells what is left now.
func (c Clock) Reserve(seat int) time.Duration {
	if seat < 0 || seat >= int(c.players) {
		return 0
	}
	return c.reserve[seat]
}

// Running returns the seat whose decision is running and when it started,
// or ok false when none is.
func (c Clock) Running() (seat int, started time.Time, ok bool) {
	if c.seat < 0 {
		return -1, time.Time{}, false
	}
	return int(c.seat), time.UnixMilli(c.started).UTC(), true
}

// Start starts the seat's decision at now (kept to the millisecond). Start
// it only for a seat a person plays: a bot playing for a seat is not timed.
// It returns ErrRunning while another decision runs, and an error for a
// seat that is not at the table; the clock is then unchanged.
func (c *Clock) Start(seat int, now time.Time) error {
	switch {
	case seat < 0 || seat >= int(c.players):
		return fmt.Errorf("pace: no seat %d at a table of %d", seat, c.players)
	case c.seat >= 0:
		return ErrRunning
	}
	c.seat = int8(seat)
	c.started = now.UnixMilli()
	c.reminded = false
	return nil
}

// Deadline returns when the running decision times out: its start, plus
// the decision time, plus the seat's reserve. ok is false when untimed or
// when no decision is running.
func (c Clock) Deadline() (deadline time.Time, ok bool) {
	if c.seat < 0 || !c.pace.Timed() {
		return time.Time{}, false
	}
	_, start, _ := c.Running()
	return start.Add(c.pace.Decision + c.reserve[c.seat]), true
}

// Expired reports whether the running decision has timed out at now: now
// is at or after its deadline.
func (c Clock) Expired(now time.Time) bool {
	d, ok := c.Deadline()
	return ok && !now.Before(d)
}

// Left returns, for the running decision at now, what is left of its
// decision time and what the seat's reserve would be if it moved at now:
// what the page and the terminal show. Both are 0 once it has timed out,
// when untimed and when no decision runs. In correspondence the reserve is
// the whole vacation days the seat would keep; the time to the deadline is
// Deadline minus now.
func (c Clock) Left(now time.Time) (decision, reserve time.Duration) {
	if c.seat < 0 || !c.pace.Timed() {
		return 0, 0
	}
	took := c.took(now)
	if took <= c.pace.Decision {
		return c.pace.Decision - took, c.reserve[c.seat]
	}
	return 0, max(0, c.reserve[c.seat]-c.spend(took-c.pace.Decision))
}

// took returns how long the running decision has taken at now; never
// negative, so a clock that stepped back costs nothing.
func (c Clock) took(now time.Time) time.Duration {
	_, start, _ := c.Running()
	return max(0, now.Sub(start))
}

// spend rounds time beyond the decision time up to whole steps: what it
// costs the reserve.
func (c Clock) spend(over time.Duration) time.Duration {
	step := c.pace.Step()
	return (over + step - 1) / step * step
}

// Spent tells how a decision ended.
type Spent struct {
	Seat     int           // the seat that decided
	Took     time.Duration // how long it took (until the deadline, if it timed out)
	Reserve  time.Duration // what it took from the seat's reserve
	TimedOut bool          // whether it ran out of time
	At       time.Time     // when it ended: the move's time, or the deadline if it timed out
}

// Stop ends the running decision at now: the seat moved, or the table
// checks a timeout (Expired). Time beyond the decision time is taken from
// the seat's reserve, in whole steps; at or after the deadline the decision
// has timed out, at the deadline, whatever now is, and the seat's reserve
// is gone. Stop with no decision running returns the zero Spent and
// changes nothing.
func (c *Clock) Stop(now time.Time) Spent {
	if c.seat < 0 {
		return Spent{Seat: -1}
	}
	seat := int(c.seat)
	_, start, _ := c.Running()
	sp := Spent{Seat: seat, Took: c.took(now), At: now}
	if d, ok := c.Deadline(); ok && !now.Before(d) {
		sp = Spent{Seat: seat, Took: d.Sub(start), Reserve: c.reserve[seat], TimedOut: true, At: d}
	} else if c.pace.Timed() && sp.Took > c.pace.Decision {
		sp.Reserve = c.spend(sp.Took - c.pace.Decision)
	}
	c.reserve[seat] -= sp.Reserve
	c.seat, c.started, c.reminded = -1, 0, false
	return sp
}

// ReminderAt returns when the running correspondence decision's reminder
// is due: once half its decision time has passed. ok is false for live and
// untimed paces, with no decision running, and once the reminder is sent.
func (c Clock) ReminderAt() (at time.Time, ok bool) {
	if c.seat < 0 || c.pace.Kind != Correspondence || c.reminded {
		return time.Time{}, false
	}
	_, start, _ := c.Running()
	return start.Add(c.pace.Decision / 2), true
}

// Remind reports whether the running decision's reminder is due at now
// and not yet sent, and records it as sent: it returns true once per
// decision, so the caller sends the reminder when it does (after storing
// the clock, so that a restart never sends it twice).
func (c *Clock) Remind(now time.Time) bool {
	at, ok := c.ReminderAt()
	if !ok || now.Before(at) {
		return false
	}
	c.reminded = true
	return true
}

// Alarm returns the next instant at which the clock needs the table: the
// reminder if one is pending, else the deadline. ok is false when nothing
// is pending. The table sets one timer for it and, when it fires, calls
// Remind and Expired with the time.
func (c Clock) Alarm() (at time.Time, ok bool) {
	if r, ok := c.ReminderAt(); ok {
		return r, true
	}
	return c.Deadline()
}

// clockJSON is the stored form of a Clock.
type clockJSON struct {
	Pace      Pace    `json:"pace"`
	ReserveMs []int64 `json:"reserveMs"`
	Seat      *int    `json:"seat,omitempty"`      // the seat deciding; absent when none
	StartedMs int64   `json:"startedMs,omitempty"` // Unix milliseconds
	Reminded  bool    `json:"reminded,omitempty"`
}

// MarshalJSON encodes the clock as the store keeps it:
// {"pace": {...}, "reserveMs": [...], "seat": 1, "startedMs": ..., "reminded": true}.
func (c Clock) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil) }

// AppendJSON appends MarshalJSON's encoding of c to b, as encoding/json
// would write clockJSON, without its allocations: a table stores its
// clock at every move.
func (c Clock) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"pace":`...)
	b, err := c.pace.AppendJSON(b)
	if err != nil {
		return b, err
	}
	b = append(b, `,"reserveMs":[`...)
	for i := range int(c.players) {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, c.reserve[i].Milliseconds(), 10)
	}
	b = append(b, ']')
	if c.seat >= 0 {
		b = append(b, `,"seat":`...)
		b = strconv.AppendInt(b, int64(c.seat), 10)
		if c.started != 0 {
			b = append(b, `,"startedMs":`...)
			b = strconv.AppendInt(b, c.started, 10)
		}
	}
	if c.reminded {
		b = append(b, `,"reminded":true`...)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON decodes a stored clock, refusing one that is not
// consistent (a reserve beyond the pace's, a seat not at the table, ...);
// the clock is then unchanged.
func (c *Clock) UnmarshalJSON(b []byte) error {
	var w clockJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("pace: stored clock: %w", err)
	}
	v, err := w.clock()
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// clock returns the clock w describes, or why it is not consistent.
func (w *clockJSON) clock() (Clock, error) {
	return clockOf(w.Pace, w.ReserveMs, w.Seat, w.StartedMs, w.Reminded)
}

// clockOf is clockJSON.clock of the fields, apart: none of them is kept.
func clockOf(p Pace, reserveMs []int64, seat *int, startedMs int64, reminded bool) (Clock, error) {
	v, err := New(p, len(reserveMs))
	if err != nil {
		return Clock{}, fmt.Errorf("pace: stored clock: %w", err)
	}
	for i, ms := range reserveMs {
		r := time.Duration(ms) * time.Millisecond
		if ms < 0 || r > p.Reserve || r%p.Step() != 0 {
			return Clock{}, fmt.Errorf("pace: stored clock: seat %d has a reserve of %dms; the pace allows whole %v up to %v", i, ms, p.Step(), p.Reserve)
		}
		v.reserve[i] = r
	}
	switch {
	case seat == nil && (startedMs != 0 || reminded):
		return Clock{}, errors.New("pace: stored clock: a start time but no seat deciding")
	case seat != nil && (*seat < 0 || *seat >= len(reserveMs)):
		return Clock{}, fmt.Errorf("pace: stored clock: seat %d is not at a table of %d", *seat, len(reserveMs))
	case seat != nil && startedMs <= 0:
		return Clock{}, errors.New("pace: stored clock: a decision running without a start time")
	case seat != nil:
		v.seat, v.started, v.reminded = int8(*seat), startedMs, reminded
	}
	return v, nil
}
