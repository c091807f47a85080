package client

import (
	"encoding/json"

	"github.com/razziagame/razzia"
)

// wireEvent is an event as the server sends it (razzia.Event.MarshalJSON).
type wireEvent struct {
	Kind        string         `json:"kind"`
	Seat        int            `json:"seat"`
	Card        string         `json:"card"`
	Cards       []string       `json:"cards"`
	Cheque      int            `json:"cheque"`
	Centre      int            `json:"centre"`
	Auction     string         `json:"auction"`
	Police      int            `json:"police"`
	Round       int            `json:"round"`
	PoliceLimit bool           `json:"policeLimit"`
	Scores      []razzia.Score `json:"scores"`
	Winners     []int          `json:"winners"`
}

// auctionKinds are the auction names of the protocol.
var auctionKinds = []razzia.AuctionKind{razzia.PoliceAuction, razzia.SeventhAuction, razzia.ForcedAuction}

// decodeEvents turns the server's events into the engine's. Events of a
// kind this client does not know are left out, and unknown fields and
// names ignored, as the protocol asks of clients.
func decodeEvents(raw []json.RawMessage) []razzia.Event {
	events := make([]razzia.Event, 0, len(raw))
	for _, r := range raw {
		var w wireEvent
		if json.Unmarshal(r, &w) != nil {
			continue
		}
		var e razzia.Event
		if e.Kind.UnmarshalText([]byte(w.Kind)) != nil {
			continue
		}
		e.Seat = w.Seat
		if e.Kind == razzia.EventNoWinner {
			e.Seat = -1 // the engine's "no seat"; the wire leaves it out
		}
		if w.Card != "" {
			e.Card, _ = razzia.ParseKind(w.Card)
		}
		for _, c := range w.Cards {
			if k, err := razzia.ParseKind(c); err == nil {
				e.Cards = append(e.Cards, k)
			}
		}
		for _, a := range auctionKinds {
			if a.String() == w.Auction {
				e.Auction = a
			}
		}
		e.Cheque, e.Centre, e.Police, e.Round, e.PoliceLimit = w.Cheque, w.Centre, w.Police, w.Round, w.PoliceLimit
		e.Scores, e.Winners = w.Scores, w.Winners
		events = append(events, e)
	}
	return events
}
