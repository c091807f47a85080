package protocol

import "time"

// A PaceInfo is the pace a table is played at (internal/pace): one of the
// presets GET /api/paces lists.
type PaceInfo struct {
	ID         string `json:"id"`         // the preset: "rapid", "day1", "untimed", ...
	Kind       string `json:"kind"`       // "live", "correspondence" or "untimed"
	DecisionMs int64  `json:"decisionMs"` // the time a decision may take before the reserve is spent
	ReserveMs  int64  `json:"reserveMs"`  // live: the reserve; correspondence: the vacation allowance
	// GraceMs is the longest a new round's first clock is held while the
	// players read the round's scores; absent when untimed.
	GraceMs  int64  `json:"graceMs,omitempty"`
	Name     string `json:"name,omitempty"`
	Describe string `json:"describe,omitempty"` // what it means, in the reader's language
}

// A ClockView is a timed table's clocks as a state message shows them, to
// every player and spectator. Times are milliseconds since 1970 (UTC) by
// the server's clock; ServerTime is when the message was made, so that a
// client counts down with its own clock corrected by the difference.
type ClockView struct {
	// ReserveMs is each seat's reserve (in correspondence the vacation
	// allowance) as of the start of the running decision.
	ReserveMs []int64 `json:"reserveMs"`
	// Running is the seat whose decision runs, or -1 when none does
	// (the game is over, or a bot is to move).
	Running int `json:"running"`
	// DecisionEnds is when the running decision's free time ends and its
	// reserve starts to run; Deadline is when the decision times out.
	// Both are 0 when no decision runs.
	DecisionEnds int64 `json:"decisionEnds"`
	Deadline     int64 `json:"deadline"`
	ServerTime   int64 `json:"serverTime"`
	// HeldUntil is, while a new round's first clock is held for the
	// players to read the round's scores, when it starts at the latest:
	// earlier once every connected person has sent "continue". 0 when
	// the clock is not held. Running is -1 while it is.
	HeldUntil int64 `json:"heldUntil,omitempty"`
	// Continued lists, while the clock is held, the seats whose people
	// have continued.
	Continued []int `json:"continued,omitempty"`
}

// A TakeOver is a time a server bot played for a person who ran out of
// time or left: shown at the table, told in the log and kept in the record's
// metadata ("takeOvers").
type TakeOver struct {
	Seat   int       `json:"seat"`
	Bot    string    `json:"bot"`    // the level that plays for the seat
	Reason string    `json:"reason"` // ReasonTimeout, ReasonLeft or ReasonRemoved
	Move   int       `json:"move"`   // the moves played when the bot took the seat
	At     time.Time `json:"at"`
	// BackMove and BackAt are when the player took the seat back; nil
	// while the bot still plays for them.
	BackMove *int       `json:"backMove,omitempty"`
	BackAt   *time.Time `json:"backAt,omitempty"`
	// Text and BackText tell the take-over and the return in the
	// reader's language (state messages only).
	Text     string `json:"text,omitempty"`
	BackText string `json:"backText,omitempty"`
}

// The reasons of a take-over.
const (
	ReasonTimeout = "timeout" // the player's time ran out
	ReasonLeft    = "left"    // the player left the table ("leave")
	ReasonRemoved = "removed" // an operator removed the player (suspended or banned): for good
)

// Millis returns t in milliseconds since 1970, 0 for the zero time.
func Millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// RecordMeta is what the server adds to the records of its games, as
// optional top-level fields the record format lets readers ignore
// (docs/RECORD.md): the pace, and who was replaced by a bot when.
type RecordMeta struct {
	Pace      *PaceInfo  `json:"pace,omitempty"`
	TakeOvers []TakeOver `json:"takeOvers,omitempty"`
	// RematchOf and Rematch link a rematch and the game it follows
	// (GameInfo).
	RematchOf string `json:"rematchOf,omitempty"`
	Rematch   string `json:"rematch,omitempty"`
}

// Left returns what the seat has left at now, in milliseconds since 1970
// by the server's clock (a client adds to its own clock the difference it
// saw at ServerTime): the running decision's free time and the reserve,
// and whether the seat's decision runs. A seat not deciding has its
// reserve. The page's clock.js counts the same way.
func (c *ClockView) Left(seat int, now int64) (running bool, decision, reserve time.Duration) {
	if seat < 0 || seat >= len(c.ReserveMs) {
		return false, 0, 0
	}
	res := c.ReserveMs[seat]
	if c.Running != seat {
		return false, 0, time.Duration(res) * time.Millisecond
	}
	dec := max(0, c.DecisionEnds-now)
	res = max(0, min(res, c.Deadline-max(now, c.DecisionEnds)))
	return true, time.Duration(dec) * time.Millisecond, time.Duration(res) * time.Millisecond
}

// Forfeited returns, by seat of a table of players seats, whether the
// person timed out or left at least once: a rated game counts as a loss
// for them (rating.Forfeit takes this list).
func (m RecordMeta) Forfeited(players int) []bool {
	out := make([]bool, players)
	for _, to := range m.TakeOvers {
		if to.Seat >= 0 && to.Seat < players {
			out[to.Seat] = true
		}
	}
	return out
}
