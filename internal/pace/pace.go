// Package pace defines how fast a game is played and keeps its clocks.
//
// A Pace is chosen when a table is created, from a fixed list of presets
// (Presets): live paces with a time per decision and a reserve, for
// players at their screens; correspondence paces with days per decision
// and a vacation allowance, for players who come back once a day; and
// untimed, for casual tables only. The list is the one source for the
// server, the page and the terminal client; Name and Describe give its
// texts in each language.
//
// A Clock counts a table's time: each seat's remaining reserve and the
// decision running now. It is a small value with no timers and no I/O:
// every method that depends on time takes the time as an argument, so the
// table goroutine passes its clock's now and the tests pass any instant.
// Deadlines are derived from what the Clock stores (when the decision
// started and the reserve left then), so a Clock restored from the store
// after a restart or on another node times out at the same instant,
// exactly once.
//
// # The rules of the clock
//
//   - A decision may take the pace's Decision time for free. Time beyond it
//     is taken from the seat's reserve; unused decision time is not saved.
//   - A live reserve is spent to the millisecond. A correspondence reserve,
//     the vacation allowance, is spent in whole days: a decision that takes
//     one day and one hour with one day per decision spends one vacation
//     day. A day is 24 hours, whatever the time zone or daylight saving.
//   - A decision times out when its time and the whole reserve are used
//     up: at Deadline. A move arriving at or after the deadline is too
//     late, however the timer and the move raced; the seat then has no
//     reserve left, and a bot plays for it.
//   - A correspondence decision sends one reminder when half of its
//     decision time has passed (ReminderAt), before any vacation is spent.
//   - Untimed decisions never time out and spend nothing.
//   - A new round's first decision waits for the players to read the
//     round's scores: its clock is held until every connected person has
//     continued, or for the pace's Grace at most (the table keeps the
//     hold; the Clock only keeps the pace's Grace).
//
// Ratings: a rated game in which a player timed out or left counts as a
// loss for that player, and the others are rated by their finishing order
// as usual; rating.Forfeit turns the finishing order into the ranks to
// rate.
package pace

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/razziagame/razzia/internal/i18n"
)

// Day is a correspondence day: 24 hours, in every time zone.
const Day = 24 * time.Hour

// A Kind is the family of a pace.
type Kind uint8

// The kinds of pace.
const (
	Untimed        Kind = iota // no clock; casual tables only
	Live                       // seconds per decision and a reserve of minutes
	Correspondence             // days per decision and a vacation allowance
)

var kindNames = [...]string{"untimed", "live", "correspondence"}

// String returns the kind's protocol name: "untimed", "live" or "correspondence".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// MarshalText encodes the kind as its name.
func (k Kind) MarshalText() ([]byte, error) {
	if int(k) >= len(kindNames) {
		return nil, fmt.Errorf("pace: cannot encode %v", k)
	}
	return []byte(k.String()), nil
}

// UnmarshalText decodes a kind's name.
func (k *Kind) UnmarshalText(b []byte) error {
	for i, name := range kindNames {
		if name == string(b) {
			*k = Kind(i)
			return nil
		}
	}
	return fmt.Errorf("pace: unknown kind %q", b)
}

// A Pace is how fast a table plays. Paces are comparable values; the
// presets are the only ones a client can choose.
type Pace struct {
	ID       string        // the preset's id, stable once released: "rapid", "day1", ...
	Kind     Kind          // live, correspondence or untimed
	Decision time.Duration // the time a decision may take before the reserve is spent; 0 when untimed
	Reserve  time.Duration // live: the reserve; correspondence: the vacation allowance; 0 when untimed
	// Grace is the longest a new round's first decision waits, unclocked,
	// while the players read the round's scores; 0 when untimed.
	Grace time.Duration
}

// DefaultGrace is the Grace of every timed preset, and of a stored pace
// from before graces: long enough to read a round's scores.
const DefaultGrace = 15 * time.Second

// MaxGrace bounds a pace's Grace: a hold is a pause to read, not a break.
const MaxGrace = 5 * time.Minute

// presets lists the paces a table can be created with, fastest first.
// Ids are stable: a released preset is never changed, only added to, since
// running games keep their pace by value but clients choose by id.
var presets = []Pace{
	{ID: "blitz", Kind: Live, Decision: 10 * time.Second, Reserve: time.Minute, Grace: DefaultGrace},
	{ID: "rapid", Kind: Live, Decision: 20 * time.Second, Reserve: 3 * time.Minute, Grace: DefaultGrace},
	{ID: "standard", Kind: Live, Decision: time.Minute, Reserve: 10 * time.Minute, Grace: DefaultGrace},
	{ID: "slow", Kind: Live, Decision: 2 * time.Minute, Reserve: 20 * time.Minute, Grace: DefaultGrace},
	// A week of vacation per day per decision: enough for a holiday in a
	// game that lasts weeks.
	{ID: "day1", Kind: Correspondence, Decision: Day, Reserve: 7 * Day, Grace: DefaultGrace},
	{ID: "day2", Kind: Correspondence, Decision: 2 * Day, Reserve: 14 * Day, Grace: DefaultGrace},
	{ID: "day3", Kind: Correspondence, Decision: 3 * Day, Reserve: 21 * Day, Grace: DefaultGrace},
	{ID: "untimed", Kind: Untimed},
}

// Presets returns the paces a table can be created with, live ones first
// (fastest first), then correspondence, then untimed.
func Presets() []Pace { return append([]Pace(nil), presets...) }

// Lookup returns the preset with the id, and whether there is one.
func Lookup(id string) (Pace, bool) {
	for _, p := range presets {
		if p.ID == id {
			return p, true
		}
	}
	return Pace{}, false
}

// Default returns the pace of a table created without one: untimed at a
// casual table (as tables played before paces existed), "standard" at a
// rated one.
func Default(rated bool) Pace {
	id := "untimed"
	if rated {
		id = "standard"
	}
	p, _ := Lookup(id)
	return p
}

// Errors of Choose, wrapped in a *ChoiceError.
var (
	ErrUnknown      = errors.New("unknown pace")
	ErrUntimedRated = errors.New("an untimed game cannot be rated")
)

// A ChoiceError reports a pace a client may not choose.
type ChoiceError struct {
	ID  string // the id asked for
	Err error  // ErrUnknown or ErrUntimedRated
}

func (e *ChoiceError) Error() string {
	if errors.Is(e.Err, ErrUnknown) {
		return fmt.Sprintf("unknown pace %q: choose one of %s", e.ID, strings.Join(ids(), ", "))
	}
	return fmt.Sprintf("pace %q: %v; choose a live or correspondence pace", e.ID, e.Err)
}

func (e *ChoiceError) Unwrap() error { return e.Err }

func ids() []string {
	out := make([]string, len(presets))
	for i, p := range presets {
		out[i] = p.ID
	}
	return out
}

// Choose returns the preset a client asks for by id at a rated or casual
// table; the empty id stands for Default. It returns a *ChoiceError for an
// id that is not a preset and for an untimed pace at a rated table.
func Choose(id string, rated bool) (Pace, error) {
	if id == "" {
		return Default(rated), nil
	}
	p, ok := Lookup(id)
	if !ok {
		return Pace{}, &ChoiceError{ID: id, Err: ErrUnknown}
	}
	if rated && p.Kind == Untimed {
		return Pace{}, &ChoiceError{ID: id, Err: ErrUntimedRated}
	}
	return p, nil
}

// Timed reports whether the pace has a clock.
func (p Pace) Timed() bool { return p.Kind != Untimed }

// Step returns the unit in which the reserve is spent: a day for
// correspondence, a millisecond otherwise.
func (p Pace) Step() time.Duration {
	if p.Kind == Correspondence {
		return Day
	}
	return time.Millisecond
}

// check reports whether p is a pace the clock can keep: a known kind,
// durations that fit it, and a reserve counted in whole steps. Presets
// pass; a stored pace is checked when it is read back.
func (p Pace) check() error {
	switch {
	case int(p.Kind) >= len(kindNames):
		return fmt.Errorf("pace %q: unknown kind %d", p.ID, p.Kind)
	case p.ID == "":
		return errors.New("pace: no id")
	case p.Kind == Untimed && (p.Decision != 0 || p.Reserve != 0 || p.Grace != 0):
		return fmt.Errorf("pace %q: untimed but with a clock", p.ID)
	case p.Kind != Untimed && p.Decision <= 0:
		return fmt.Errorf("pace %q: the time per decision must be positive", p.ID)
	case p.Reserve < 0 || p.Reserve%p.Step() != 0 || p.Decision%time.Millisecond != 0:
		return fmt.Errorf("pace %q: the reserve must be whole %v and the decision time whole milliseconds", p.ID, p.Step())
	case p.Grace < 0 || p.Grace > MaxGrace || p.Grace%time.Millisecond != 0:
		return fmt.Errorf("pace %q: the grace must be whole milliseconds from 0 to %v", p.ID, MaxGrace)
	case p.Decision > 30*Day || p.Reserve > 365*Day:
		return fmt.Errorf("pace %q: longer than any game", p.ID)
	}
	return nil
}

// paceJSON is the wire form of a Pace: durations in milliseconds, what
// JavaScript's Date counts in.
type paceJSON struct {
	ID         string `json:"id"`
	Kind       Kind   `json:"kind"`
	DecisionMs int64  `json:"decisionMs"`
	ReserveMs  int64  `json:"reserveMs"`
	// GraceMs is absent in paces stored before graces: DefaultGrace then.
	GraceMs *int64 `json:"graceMs,omitempty"`
}

// MarshalJSON encodes p as {"id", "kind", "decisionMs", "reserveMs",
// "graceMs"}; an untimed pace has no "graceMs".
func (p Pace) MarshalJSON() ([]byte, error) { return p.AppendJSON(nil) }

// AppendJSON appends MarshalJSON's encoding of p to b: a table stores
// its clock, pace included, at every move.
func (p Pace) AppendJSON(b []byte) ([]byte, error) {
	if err := p.check(); err != nil {
		return b, err
	}
	b = append(b, `{"id":`...)
	b = appendString(b, p.ID)
	b = append(b, `,"kind":`...)
	b = appendString(b, p.Kind.String())
	b = append(b, `,"decisionMs":`...)
	b = strconv.AppendInt(b, p.Decision.Milliseconds(), 10)
	b = append(b, `,"reserveMs":`...)
	b = strconv.AppendInt(b, p.Reserve.Milliseconds(), 10)
	if p.Timed() {
		b = append(b, `,"graceMs":`...)
		b = strconv.AppendInt(b, p.Grace.Milliseconds(), 10)
	}
	return append(b, '}'), nil
}

// appendString appends s as encoding/json writes it: quoted as it is
// when it is printable ASCII that needs no escape, else by json.Marshal.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// UnmarshalJSON decodes what MarshalJSON encodes, refusing a pace the
// clock cannot keep. It accepts paces that are not presets: a stored game
// keeps its pace even if the presets change.
func (p *Pace) UnmarshalJSON(b []byte) error {
	var w paceJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("pace: %w", err)
	}
	v, err := w.pace()
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// pace returns the pace w describes, or why it is not one.
func (w *paceJSON) pace() (Pace, error) {
	return paceOf(w.ID, w.Kind, w.DecisionMs, w.ReserveMs, w.GraceMs)
}

// paceOf is paceJSON.pace of the fields, apart: none of them is kept but
// the id.
func paceOf(id string, kind Kind, decisionMs, reserveMs int64, graceMs *int64) (Pace, error) {
	const most = int64(366 * Day / time.Millisecond)
	if decisionMs < 0 || decisionMs > most || reserveMs < 0 || reserveMs > most ||
		graceMs != nil && (*graceMs < 0 || *graceMs > most) {
		return Pace{}, fmt.Errorf("pace %q: durations out of range", id)
	}
	v := Pace{ID: id, Kind: kind, Decision: time.Duration(decisionMs) * time.Millisecond, Reserve: time.Duration(reserveMs) * time.Millisecond}
	switch {
	case graceMs != nil:
		v.Grace = time.Duration(*graceMs) * time.Millisecond
	case v.Timed():
		v.Grace = DefaultGrace
	}
	if err := v.check(); err != nil {
		return Pace{}, err
	}
	return v, nil
}

// Name returns the preset's name in the catalogue's language, such as
// "Rapid" (key pace.<id>).
func (p Pace) Name(c *i18n.Catalogue) string { return c.T("pace." + p.ID) }

// Describe returns what the pace means in the catalogue's language, such
// as "20 s per decision + 3 min reserve" or "1 day per decision, 7 days of
// vacation".
func (p Pace) Describe(c *i18n.Catalogue) string {
	switch p.Kind {
	case Live:
		return c.T("pace.live.desc", "decision", Duration(c, p.Decision), "reserve", Duration(c, p.Reserve))
	case Correspondence:
		return c.T("pace.correspondence.desc", "decision", Duration(c, p.Decision), "vacation", Duration(c, p.Reserve))
	}
	return c.T("pace.untimed.desc")
}

// Duration writes d in the catalogue's language in the largest unit that
// divides it, rounded down to the second: "3 min", "90 s", "2 days", as
// pace descriptions and clocks show time.
func Duration(c *i18n.Catalogue, d time.Duration) string {
	switch {
	case d >= Day && d%Day == 0:
		if d == Day {
			return c.T("pace.day")
		}
		return c.T("pace.days", "n", int(d/Day))
	case d >= time.Hour && d%time.Hour == 0:
		return c.T("pace.hours", "n", int(d/time.Hour))
	case d >= time.Minute && d%time.Minute == 0:
		return c.T("pace.minutes", "n", int(d/time.Minute))
	}
	return c.T("pace.seconds", "n", int(d/time.Second))
}
