package protocol

import "time"

// The WebSocket messages of a rematch.
const (
	// TypeRematch offers a rematch of the finished game, or answers the
	// offer made (RematchMessage).
	TypeRematch = "rematch" // client to server
	// TypeRematchOffer tells every watcher of a finished game the state
	// of its rematch offer, at every change (RematchOfferMessage).
	TypeRematchOffer = "rematchOffer" // server to client
)

// A RematchMessage is the client's "rematch": Accept true offers a
// rematch when none was offered yet, or accepts the offer; false declines
// it. POST /api/games/{id}/rematch takes the same object.
type RematchMessage struct {
	Type   string `json:"type,omitempty"` // TypeRematch; not sent over HTTP
	Accept *bool  `json:"accept"`
}

// A RematchOfferMessage is the server's "rematchOffer".
type RematchOfferMessage struct {
	Type  string       `json:"type"` // TypeRematchOffer
	Offer RematchOffer `json:"offer"`
}

// The states of a rematch offer.
const (
	RematchOpen    = "open"    // waiting for answers
	RematchStarted = "started" // the new game runs: Game names it
	RematchLapsed  = "lapsed"  // too few accepted: no new game
)

// The answers of a seat to a rematch offer.
const (
	RematchYes = "yes"
	RematchNo  = "no"
)

// A RematchOffer is the rematch offered at a finished game: one per game.
// Every seat that accepts is seated at a new table with the same pace,
// rating and bot levels (bots always accept); it starts once every person
// answered, or at Expires with those who accepted, if they are enough
// for a game (razzia.MinPlayers), else the offer lapses.
type RematchOffer struct {
	By    int    `json:"by"`    // the seat that offered
	State string `json:"state"` // RematchOpen, RematchStarted or RematchLapsed
	// Answers has each seat's answer, RematchYes, RematchNo, or "" for
	// none yet (at Expires, none counts as no).
	Answers []string  `json:"answers"`
	Expires time.Time `json:"expires"`
	// Game is the new game's id, chosen with the offer: it exists once
	// the offer started.
	Game string `json:"game"`
}

// Pending reports whether seat has yet to answer.
func (o *RematchOffer) Pending(seat int) bool {
	return o.State == RematchOpen && seat >= 0 && seat < len(o.Answers) && o.Answers[seat] == ""
}

// A RematchAnswer answers POST /api/games/{id}/rematch. Token, for an
// answer that accepts, is the token of the player's seat at the new
// game (Offer.Game): a guest's is the same, a signed-in player's the
// account's for that game.
type RematchAnswer struct {
	Offer RematchOffer `json:"offer"`
	Token string       `json:"token,omitempty"`
}
