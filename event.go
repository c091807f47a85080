package razzia

import (
	"encoding/json"
	"fmt"
)

// An EventKind says what happened.
type EventKind uint8

// The kinds of event.
const (
	EventDraw     EventKind = iota + 1 // Seat drew Card: loot to the row, police to the track
	EventThieves                       // Seat used thieves to take Cards from the row
	EventAuction                       // an auction of kind Auction began, initiated by Seat
	EventBid                           // Seat bid Cheque
	EventPass                          // Seat passed
	EventWin                           // Seat won with Cheque: took Cards and the Centre cheque face down
	EventNoWinner                      // everybody passed: Cards left the game (seventh) or stayed (police)
	EventRoundEnd                      // Round ended (PoliceLimit: by the police limit) and was scored
	EventGameOver                      // the game is over; Winners won
)

var eventNames = [...]string{"", "draw", "thieves", "auction", "bid", "pass", "win", "nowinner", "roundend", "gameover"}

// String returns the event kind's name in JSON, such as "win".
func (k EventKind) String() string {
	if int(k) < len(eventNames) && k != 0 {
		return eventNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// MarshalText encodes the kind as its name.
func (k EventKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText decodes a kind's name.
func (k *EventKind) UnmarshalText(b []byte) error {
	for i, name := range eventNames {
		if i > 0 && name == string(b) {
			*k = EventKind(i)
			return nil
		}
	}
	return fmt.Errorf("razzia: unknown event kind %q", b)
}

// eventJSON is an event's wire form: cards and auctions by name.
type eventJSON struct {
	Kind        EventKind `json:"kind"`
	Seat        *int      `json:"seat,omitempty"`
	Card        string    `json:"card,omitempty"`
	Cards       []string  `json:"cards,omitzero"`
	Cheque      int       `json:"cheque,omitempty"`
	Centre      int       `json:"centre,omitempty"`
	Auction     string    `json:"auction,omitempty"`
	Police      int       `json:"police,omitempty"`
	Round       int       `json:"round,omitempty"`
	PoliceLimit bool      `json:"policeLimit,omitempty"`
	Scores      []Score   `json:"scores,omitempty"`
	Winners     []int     `json:"winners,omitempty"`
}

// MarshalJSON encodes the event with the fields its kind uses, cards as
// record tokens: {"kind":"win","seat":2,"cheque":9,"centre":1,"cards":["car"]}.
func (e Event) MarshalJSON() ([]byte, error) {
	o := eventJSON{Kind: e.Kind, Cheque: e.Cheque, Centre: e.Centre, Police: e.Police, Round: e.Round,
		PoliceLimit: e.PoliceLimit, Scores: e.Scores, Winners: e.Winners}
	switch e.Kind {
	case EventDraw, EventThieves, EventAuction, EventBid, EventPass, EventWin:
		o.Seat = &e.Seat
	}
	if e.Card != NoKind {
		o.Card = e.Card.String()
	}
	for _, k := range e.Cards {
		o.Cards = append(o.Cards, k.String())
	}
	if e.Kind == EventWin || e.Kind == EventNoWinner || e.Kind == EventAuction {
		o.Cards = append([]string{}, o.Cards...) // an empty lot is [], not absent
	}
	if e.Auction != AuctionNone {
		o.Auction = e.Auction.String()
	}
	return json.Marshal(o)
}

// UnmarshalJSON decodes what MarshalJSON encodes; an event without a seat
// has Seat -1. Unknown fields are ignored, unknown names are errors.
func (e *Event) UnmarshalJSON(b []byte) error {
	var o eventJSON
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	ev := Event{Kind: o.Kind, Seat: -1, Cheque: o.Cheque, Centre: o.Centre, Police: o.Police, Round: o.Round,
		PoliceLimit: o.PoliceLimit, Scores: o.Scores, Winners: o.Winners}
	if ev.Kind == 0 {
		return fmt.Errorf("razzia: event without a kind")
	}
	if o.Seat != nil {
		ev.Seat = *o.Seat
	}
	if o.Card != "" {
		k, err := ParseKind(o.Card)
		if err != nil {
			return err
		}
		ev.Card = k
	}
	for _, c := range o.Cards {
		k, err := ParseKind(c)
		if err != nil {
			return err
		}
		ev.Cards = append(ev.Cards, k)
	}
	if o.Auction != "" {
		if err := ev.Auction.UnmarshalText([]byte(o.Auction)); err != nil {
			return err
		}
	}
	*e = ev
	return nil
}

// An Event is one thing that happened in a game, for logs and narration.
// Only the fields its kind names are set.
type Event struct {
	Kind        EventKind
	Seat        int
	Card        Kind
	Cards       []Kind
	Cheque      int
	Centre      int
	Auction     AuctionKind
	Police      int // police on the track after a police draw
	Round       int
	PoliceLimit bool
	Scores      []Score // EventRoundEnd: each seat's score for the round
	Winners     []int   // EventGameOver
}

// appendEvents appends what the move m did, seen from the states before and after it.
func appendEvents(ev []Event, before *State, m Move, after *State) []Event {
	seat := int(before.toMove)
	switch m.Action {
	case ActionDraw:
		e := Event{Kind: EventDraw, Seat: seat, Card: m.Card}
		if m.Card == Police {
			e.Police = int(before.police) + 1
		}
		ev = append(ev, e)
	case ActionThieves:
		ev = append(ev, Event{Kind: EventThieves, Seat: seat, Cards: append([]Kind(nil), m.Take[:m.Taken()]...)})
	case ActionBid:
		ev = append(ev, Event{Kind: EventBid, Seat: seat, Cheque: int(m.Cheque)})
	case ActionPass:
		ev = append(ev, Event{Kind: EventPass, Seat: seat})
	}
	if before.phase == PhaseTurn && after.phase == PhaseAuction {
		ev = append(ev, Event{Kind: EventAuction, Seat: seat, Auction: after.auction, Cards: after.Row()})
	}
	if before.phase == PhaseAuction && after.phase != PhaseAuction {
		cheque, winner := before.HighBid()
		if m.Action == ActionBid {
			cheque, winner = int(m.Cheque), seat
		}
		e := Event{Kind: EventNoWinner, Seat: winner, Auction: before.auction, Cards: before.Row(), Cheque: cheque}
		if winner >= 0 {
			e.Kind, e.Centre = EventWin, int(before.centre)
		}
		ev = append(ev, e)
	}
	if after.round != before.round || (after.phase == PhaseOver && before.phase != PhaseOver) {
		r := int(before.round)
		scores := after.Scores(r)
		ev = append(ev, Event{Kind: EventRoundEnd, Round: r, Scores: scores[:after.players:after.players],
			PoliceLimit: m.Action == ActionDraw && m.Card == Police})
		if after.phase == PhaseOver {
			ev = append(ev, Event{Kind: EventGameOver, Winners: after.Winners()})
		}
	}
	return ev
}
