package protocol

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/razziagame/razzia"
)

// Version 2's state is lean: it leaves out what a client derives from the
// rest of it, which a whole state of version 1 repeats (docs/protocol.md,
// "What version 2 leaves out"). Expand puts it back, so that a client
// reads the very state version 1 sends, but for the game's "updated",
// absent while the game is played (it changes at every move, and a
// client that wants it keeps the time the patch came). A member the rest
// of the state could contradict is left out only when the rule gives
// exactly what the whole state holds, else kept; the typed moves and the
// totals always follow (a test checks every rule over random games).
//
//   - game.moves is the view's moves; game.toMove the view's toMove,
//     none (-1) when the view says none;
//   - view.phase is "over" once nobody is to move, else "auction" while
//     an auction runs, else "turn";
//   - a stake's bid is the seat's lowest face-up cheque above the
//     auction's high bid (above 0 outside an auction), 0 for none;
//   - view.raid follows from police, policeLimit, remaining and deckLeft;
//   - view.legalMoves from the tokens of view.legal, a bid's gain being
//     the seat's stake's unless view.gains (by token) says otherwise;
//   - an auction's bidding, highBid and highBidder from its bids; its
//     mustBid is false when absent;
//   - a score's (or gain's) total is the sum of its categories;
//   - a roundend event's scores are the seats' scores of its round
//     (LeanEvents, ExpandEvents).

// AppendState appends the document that patches change: the state
// message without its events and version, lean.
func (m *StateMessage) AppendState(b []byte) ([]byte, error) {
	return m.appendState(b, nil)
}

// appendState is AppendState, logging the members it writes in l (nil:
// none).
func (m *StateMessage) appendState(b []byte, l *memberLog) ([]byte, error) {
	d := *m
	d.Events, d.Version = nil, 0
	return d.appendJSON(b, true, l)
}

// AppendLean appends the whole state message of version 2: its state
// lean, with its events and version.
func (m *StateMessage) AppendLean(b []byte) ([]byte, error) { return m.appendJSON(b, true, nil) }

// leanToMove is the game's toMove the view says: nil without a view or
// once nobody is to move.
func leanToMove(v *View) *int {
	if v == nil || v.ToMove < 0 {
		return nil
	}
	to := v.ToMove
	return &to
}

// leanPhase is the phase the view's toMove and auction say.
func (v *View) leanPhase() string {
	switch {
	case v.ToMove < 0:
		return "over"
	case v.Auction != nil:
		return "auction"
	}
	return "turn"
}

// leanBid is the lowest bid of the seat the view says (a stake's).
func (v *View) leanBid(seat int) int {
	high := 0
	if v.Auction != nil {
		high = v.Auction.HighBid
	}
	if seat < 0 || seat >= len(v.Seats) {
		return 0
	}
	for _, c := range v.Seats[seat].FaceUp { // in increasing order
		if c > high {
			return c
		}
	}
	return 0
}

// leanRaid is the raid the rest of the view says.
func (v *View) leanRaid() razzia.RaidRisk {
	return razzia.RaidRisk{Police: v.Police, Limit: v.PoliceLimit, PoliceLeft: v.Remaining[razzia.Police.String()], CardsLeft: v.DeckLeft}
}

// bidCheque returns the cheque of a bid's token ("bid 9"), 0 for a pass.
func bidCheque(part string) (int, bool) {
	n, ok := strings.CutPrefix(part, "bid ")
	if !ok {
		return 0, part == "undecided" || part == "pass" || part == "passed over"
	}
	c, err := strconv.Atoi(n)
	return c, err == nil && c > 0
}

// leanHighBid is the high bid and its bidder the bids say (0 and -1 for
// none); not ok for a part it does not know.
func leanHighBid(bids []string) (high, bidder int, ok bool) {
	bidder = -1
	for seat, part := range bids {
		c, known := bidCheque(part)
		if !known {
			return 0, -1, false
		}
		if c > high {
			high, bidder = c, seat
		}
	}
	return high, bidder, true
}

// leanBidding is the typed form of the bids.
func leanBidding(bids []string) []Bid {
	out := make([]Bid, len(bids))
	for i, part := range bids {
		out[i] = leanBid(part)
	}
	return out
}

// isLeanBidding reports whether bidding is leanBidding(bids), without
// making it: a running auction's view is encoded at every change.
func isLeanBidding(bidding []Bid, bids []string) bool {
	if len(bidding) != len(bids) {
		return false
	}
	for i, part := range bids {
		if bidding[i] != leanBid(part) {
			return false
		}
	}
	return true
}

// leanBid is the typed form of a seat's part in an auction.
func leanBid(part string) Bid {
	switch c, _ := bidCheque(part); {
	case c > 0:
		return Bid{State: "bid", Cheque: c}
	case part == "passed over":
		return Bid{State: "passedOver"}
	}
	return Bid{State: part}
}

// appendGain appends a score, lean without its total.
func appendGain(b []byte, s razzia.Score, lean bool) []byte {
	b = appendCategories(b, s)
	if !lean {
		b = append(b, `,"total":`...)
		b = strconv.AppendInt(b, int64(s.Total()), 10)
	}
	return append(b, '}')
}

// stakeOf returns the gain of the seat's stake, false when the view has
// none for it.
func (v *View) stakeOf(seat int) (razzia.Score, bool) {
	for _, s := range v.Stakes {
		if s.Seat == seat {
			return s.Gain, true
		}
	}
	return razzia.Score{}, false
}

// appendGains appends view.gains: the legal bids' gains that are not the
// seat's stake's, by token.
func (v *View) appendGains(b []byte) []byte {
	b = append(b, '{')
	stake, ok := v.stakeOf(v.Seat)
	n := 0
	for _, m := range v.LegalMoves {
		if m.Gain == nil || (ok && *m.Gain == stake) {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = appendString(b, m.Token)
		b = append(b, ':')
		b = appendGain(b, *m.Gain, true)
	}
	return append(b, '}')
}

// leanPresence is what Expand reads of a lean state besides the Message:
// the members it left out and view.gains.
type leanPresence struct {
	Game struct {
		Moves  *int `json:"moves"`
		ToMove *int `json:"toMove"`
	} `json:"game"`
	View *struct {
		Phase      *string                 `json:"phase"`
		Stakes     []struct{ Bid *int }    `json:"stakes"`
		Raid       json.RawMessage         `json:"raid"`
		LegalMoves json.RawMessage         `json:"legalMoves"`
		Gains      map[string]razzia.Score `json:"gains"`
		Auction    *struct {
			HighBid *int            `json:"highBid"`
			Bidding json.RawMessage `json:"bidding"`
		} `json:"auction"`
	} `json:"view"`
}

// Expand puts back into m, a message of version 2 (a whole state, or a
// state patched) decoded from data, what version 2 leaves out; Go reads
// scores without their totals. A token of view.legal that is no move is
// an error.
func Expand(m *Message, data []byte) error {
	var p leanPresence
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	v := m.View
	if p.Game.Moves == nil && v != nil {
		m.Game.Moves = v.Moves
	}
	switch {
	case p.Game.ToMove == nil:
		m.Game.ToMove = leanToMove(v)
	case *p.Game.ToMove == -1:
		m.Game.ToMove = nil
	}
	if v == nil || p.View == nil {
		return nil
	}
	if p.View.Raid == nil {
		v.Raid = v.leanRaid()
	}
	if p.View.Phase == nil {
		v.Phase = v.leanPhase()
	}
	if a := v.Auction; a != nil && p.View.Auction != nil {
		if p.View.Auction.HighBid == nil {
			a.HighBid, a.HighBidder, _ = leanHighBid(a.Bids)
		}
		if p.View.Auction.Bidding == nil {
			a.Bidding = leanBidding(a.Bids)
		}
	}
	for i, s := range p.View.Stakes {
		if s.Bid == nil && i < len(v.Stakes) {
			v.Stakes[i].Bid = v.leanBid(v.Stakes[i].Seat)
		}
	}
	if p.View.LegalMoves == nil {
		moves, err := v.legalMoves(p.View.Gains)
		if err != nil {
			return err
		}
		v.LegalMoves = moves
	}
	return nil
}

// LeanEvents leaves out of events, version 2's (untold), what the view
// says: a roundend event's scores, when they are the seats' scores of its
// round. It changes events, not the engine's events they hold.
func LeanEvents(events []Event, v *View) {
	for i, e := range events {
		if e.Kind == razzia.EventRoundEnd && v.areRoundScores(e.Scores, e.Round) {
			events[i].Scores = nil
		}
	}
}

// AppendLeanEvents appends events as a message of version 2 carries
// them, untold and lean for the view v (LeanEvents), as AppendEvents
// appends Events(events, nil, nil) (a list, never null); a change's few
// events are made on the stack.
func AppendLeanEvents(b []byte, events []razzia.Event, v *View) ([]byte, error) {
	var buf [8]Event
	out := buf[:0]
	if len(events) > len(buf) {
		out = make([]Event, 0, len(events))
	}
	for _, e := range events {
		out = append(out, Event{Event: e})
	}
	LeanEvents(out, v)
	return appendEvents(b, out)
}

// ExpandEvents puts back into m's events what LeanEvents left out.
func ExpandEvents(m *Message) {
	for i, e := range m.Events {
		if e.Kind == razzia.EventRoundEnd && e.Scores == nil {
			m.Events[i].Scores = m.View.roundScores(e.Round)
		}
	}
}

// areRoundScores reports whether scores are roundScores(round), without
// making them.
func (v *View) areRoundScores(scores []razzia.Score, round int) bool {
	if v == nil || round < 1 || len(v.Seats) == 0 {
		return len(scores) == 0
	}
	for _, s := range v.Seats {
		if round > len(s.Scores) {
			return len(scores) == 0 // roundScores is nil
		}
	}
	if len(scores) != len(v.Seats) {
		return false
	}
	for i, s := range v.Seats {
		if s.Scores[round-1] != scores[i] {
			return false
		}
	}
	return true
}

// roundScores returns the seats' scores of the round, nil when the view
// has not all of them.
func (v *View) roundScores(round int) []razzia.Score {
	if v == nil || round < 1 || len(v.Seats) == 0 {
		return nil
	}
	out := make([]razzia.Score, len(v.Seats))
	for i, s := range v.Seats {
		if round > len(s.Scores) {
			return nil
		}
		out[i] = s.Scores[round-1]
	}
	return out
}

// ExpandBrief is Expand for a message decoded brief (DecodeBrief): it
// puts back game.moves, game.toMove and view.phase, unless the message
// has them.
func ExpandBrief(m *Message) {
	if m.View == nil {
		return
	}
	if m.View.Phase == "" {
		m.View.Phase = m.View.leanPhase()
	}
	if m.Game.Moves == 0 {
		m.Game.Moves = m.View.Moves
	}
	if m.Game.ToMove == nil {
		m.Game.ToMove = leanToMove(m.View)
	} else if *m.Game.ToMove < 0 {
		m.Game.ToMove = nil
	}
}

// legalMoves returns the typed moves of view.legal, a bid's gain the
// seat's stake's unless gains says otherwise.
func (v *View) legalMoves(gains map[string]razzia.Score) ([]Move, error) {
	out := make([]Move, 0, len(v.Legal))
	for _, tok := range v.Legal {
		m, err := razzia.ParseMove(tok)
		if err != nil {
			return nil, fmt.Errorf("view.legal: %v", err)
		}
		mv := MoveOf(m)
		if m.Action == razzia.ActionBid {
			gain, ok := gains[tok]
			if !ok {
				gain, _ = v.stakeOf(v.Seat)
			}
			mv.Gain = &gain
		}
		out = append(out, mv)
	}
	return out, nil
}
