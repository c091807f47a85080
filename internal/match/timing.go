package match

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/premove"
	"github.com/razziagame/razzia/internal/protocol"
)

// StandInLevel is the bot level that plays for a person whose time ran
// out or who left.
const StandInLevel = "hard"

// A Timing is what a table stores in store.Game.Clock: the pace.Clock,
// every take-over by a bot, the pre-moves, and the hold of a new round's
// first clock while the players read the round's scores. It is stored at every
// change, with the move that changed it when there is one, so that a
// restarted or taken-over table resumes the same deadlines and a timeout
// is stored, and so happens, once.
type Timing struct {
	Clock     pace.Clock          `json:"clock"`
	TakeOvers []protocol.TakeOver `json:"takeOvers,omitempty"`
	PreMoves  []StoredPreMove     `json:"preMoves,omitempty"`
	Hold      *Hold               `json:"hold,omitempty"`
	// Tournament marks a tournament's table: the tournament seats its
	// players' next game, so it has no rematch.
	Tournament bool `json:"tournament,omitempty"`
}

// DecodeTiming reads a stored timing; a game stored before clocks (nil)
// is untimed.
func DecodeTiming(b []byte, players int) (Timing, error) {
	if b == nil {
		c, err := pace.New(pace.Default(false), players)
		return Timing{Clock: c}, err
	}
	t, ok := decodeClockAlone(b)
	if !ok {
		var err error
		if t, err = unmarshalTiming(b); err != nil {
			return Timing{}, fmt.Errorf("the stored clock: %w", err)
		}
	}
	if t.Clock.Players() != players {
		return Timing{}, fmt.Errorf("the stored clock has %d seats, the table %d", t.Clock.Players(), players)
	}
	for _, to := range t.TakeOvers {
		if to.Seat < 0 || to.Seat >= players {
			return Timing{}, fmt.Errorf("the stored take-over of seat %d: no such seat", to.Seat)
		}
	}
	if h := t.Hold; h != nil {
		if h.Until.IsZero() {
			return Timing{}, fmt.Errorf("the stored hold of the clock has no end")
		}
		for _, seat := range h.Continued {
			if seat < 0 || seat >= players {
				return Timing{}, fmt.Errorf("the stored hold of the clock: seat %d continued; no such seat", seat)
			}
		}
	}
	return t, nil
}

// decodeClockAlone decodes, without reflection, a timing that encode
// wrote for a clock alone (most moves'): every node that follows a game
// decodes each move's. It reports false for any other, which
// encoding/json decodes (it never contradicts it: FuzzDecodeTiming).
func decodeClockAlone(b []byte) (Timing, bool) {
	const head = `{"clock":`
	if !bytes.HasPrefix(b, []byte(head)) {
		return Timing{}, false
	}
	c, n, ok := pace.ReadJSON(b[len(head):])
	if !ok {
		return Timing{}, false
	}
	switch string(b[len(head)+n:]) {
	case "}":
		return Timing{Clock: c}, true
	case `,"tournament":true}`:
		return Timing{Clock: c, Tournament: true}, true
	}
	return Timing{}, false
}

// unmarshalTiming decodes the timings decodeClockAlone leaves: a variable
// of its own, so that DecodeTiming's stays off the heap.
func unmarshalTiming(b []byte) (Timing, error) {
	var t Timing
	err := json.Unmarshal(b, &t)
	return t, err
}

// NewTiming returns the stored timing of a new table at pace p.
func NewTiming(p pace.Pace, players int) ([]byte, error) {
	c, err := pace.New(p, players)
	if err != nil {
		return nil, err
	}
	return Timing{Clock: c}.Encode(), nil
}

// clone returns a copy of t whose lists the caller may change.
func (t Timing) clone() Timing {
	t.TakeOvers = slices.Clone(t.TakeOvers)
	t.PreMoves = slices.Clone(t.PreMoves)
	if t.Hold != nil {
		h := *t.Hold
		h.Continued = slices.Clone(h.Continued)
		t.Hold = &h
	}
	return t
}

// Encode returns t as stored.
func (t Timing) Encode() []byte { return t.appendEncoded(make([]byte, 0, 256)) }

// appendEncoded appends Encode's bytes to b: a move's are made in the
// room of the move's result.
func (t Timing) appendEncoded(b []byte) []byte {
	b, err := t.encode(b)
	if err != nil {
		// Every field encodes: only a bug gets here.
		panic(fmt.Sprintf("match: encoding a clock: %v", err))
	}
	return b
}

// encode is json.Marshal(t), written by hand for a timing of a clock
// alone (no take-over, pre-move or hold), as it is at most moves.
func (t Timing) encode(b []byte) ([]byte, error) {
	if len(t.TakeOvers) > 0 || len(t.PreMoves) > 0 || t.Hold != nil {
		m, err := json.Marshal(t)
		return append(b, m...), err
	}
	b = append(b, `{"clock":`...)
	b, err := t.Clock.AppendJSON(b)
	if err != nil {
		return nil, err
	}
	if t.Tournament {
		b = append(b, `,"tournament":true`...)
	}
	return append(b, '}'), nil
}

// OnlyPreMoves reports whether a and b differ in their pre-moves only.
func OnlyPreMoves(a, b Timing) bool {
	a.PreMoves, b.PreMoves = nil, nil
	return bytes.Equal(a.Encode(), b.Encode())
}

// StandingIn reports whether a bot plays for the seat now.
func (t Timing) StandingIn(seat int) bool {
	for i := len(t.TakeOvers) - 1; i >= 0; i-- {
		if t.TakeOvers[i].Seat == seat {
			return t.TakeOvers[i].BackMove == nil
		}
	}
	return false
}

// A StoredPreMove is a pre-move as the table stores it: a player not yet
// to decide in the running auction enters "pass" or "bid N" ahead
// (internal/premove judges them). The table keeps at most one per seat,
// shows it to its owner only, and plays it when the seat comes to decide,
// unless it is no longer legal: then it is dropped, with the reason, and
// the player is asked as usual.
type StoredPreMove struct {
	Seat    int             `json:"seat"`
	Move    string          `json:"move"` // a record token: "pass" or "bid N"
	Auction premove.Auction `json:"auction"`
	// Dropped is why it was not played when due; it is kept, to tell its
	// owner, until the seat decides.
	Dropped string `json:"dropped,omitempty"`
}

// preMove returns the stored pre-move as internal/premove takes it.
func (p StoredPreMove) preMove() (premove.PreMove, error) {
	m, err := razzia.ParseMove(p.Move)
	return premove.PreMove{Seat: p.Seat, Move: m, Auction: p.Auction}, err
}

// PreMoveOf returns the seat's stored pre-move in t, or the zero one.
func (t Timing) PreMoveOf(seat int) StoredPreMove {
	for _, p := range t.PreMoves {
		if p.Seat == seat {
			return p
		}
	}
	return StoredPreMove{}
}

// livePreMoves returns the pre-moves that may still be played or told
// in state s: those of auctions that are over, or of seats that will not
// be asked, expire.
func livePreMoves(list []StoredPreMove, s *razzia.State) []StoredPreMove {
	return slices.DeleteFunc(list, func(p StoredPreMove) bool {
		if p.Dropped != "" {
			return false
		}
		pm, err := p.preMove()
		if err != nil {
			return true
		}
		v, err := pm.Resolve(s)
		return err == nil && v == premove.Expire
	})
}

// withoutPreMove drops the seat's pre-move from list.
func withoutPreMove(list []StoredPreMove, seat int) []StoredPreMove {
	return slices.DeleteFunc(list, func(p StoredPreMove) bool { return p.Seat == seat })
}

// A Hold is a new round's first clock held while the players read the
// round's scores: no person's decision is timed until every connected
// person has continued, or until Until, whichever comes first. Bots play
// on meanwhile: they read nothing.
type Hold struct {
	// Until is when the pace's grace runs out, to the millisecond.
	Until time.Time `json:"until"`
	// Continued lists the seats whose people have continued, in order.
	Continued []int `json:"continued,omitempty"`
}

// Removed reports whether an operator handed the seat to a bot for the
// rest of the game.
func (t Timing) Removed(seat int) bool {
	for i := len(t.TakeOvers) - 1; i >= 0; i-- {
		if t.TakeOvers[i].Seat == seat {
			return t.TakeOvers[i].Reason == protocol.ReasonRemoved && t.TakeOvers[i].BackMove == nil
		}
	}
	return false
}
