package protocol

import (
	"fmt"
	"time"
)

// The live socket (GET /api/live) of every page: who is online, notices
// about the players one follows. Its client sends TypeAway (and pings);
// a table's socket takes TypeAway too, for its seat.
const (
	// TypeOnline is the list of the people online, sent when it changes
	// (at most every few seconds) to a socket that asked for it.
	TypeOnline = "online" // server to client
	// TypeNotice tells of a player the reader follows: online, playing.
	TypeNotice = "notice" // server to client
	// TypeAway says whether the page is hidden (away: true) or shown.
	TypeAway = "away" // client to server
)

// The activities of a person online.
const (
	ActivityLobby    = "lobby"
	ActivityPlaying  = "playing"
	ActivityWatching = "watching"
)

// The kinds of NoticeMessage.
const (
	NoticeOnline  = "online"  // a followed player came online
	NoticePlaying = "playing" // a followed player sat down at a table that started
)

// FinishRate is a player's finish rate: the weighted share of their last
// games (at most 100) they finished rather than left or timed out of
// (docs/presence.md has the formula). Games 0 is a player with no game
// counted, shown as new; Percent is 100 then.
type FinishRate struct {
	Percent int `json:"percent"`
	Games   int `json:"games"`
	Left    int `json:"left"`
}

// A PersonOnline is one person in the online list.
type PersonOnline struct {
	Name string `json:"name"`
	// Guest is a person who has not signed in: their name is theirs
	// only while they are online.
	Guest    bool   `json:"guest,omitempty"`
	Activity string `json:"activity"`       // ActivityLobby, ActivityPlaying or ActivityWatching
	Game     string `json:"game,omitempty"` // the table played or watched: /g/{game} to watch
	Away     bool   `json:"away,omitempty"` // every page of theirs is hidden
	// Rating and Finish are a signed-in player's; Profile their page.
	Rating   *RatingInfo `json:"rating,omitempty"`
	Finish   *FinishRate `json:"finish,omitempty"`
	Profile  string      `json:"profile,omitempty"`
	Followed bool        `json:"followed,omitempty"` // the reader follows them
	You      bool        `json:"you,omitempty"`      // the reader themself
	Since    time.Time   `json:"since"`              // online since
}

// OnlineMessage is the online list: the people listed (those the reader
// follows first, then the signed-in, then guests, each by name), and the
// counts.
type OnlineMessage struct {
	Type    string         `json:"type"` // TypeOnline
	People  []PersonOnline `json:"people"`
	Online  int            `json:"online"`         // everyone online, listed or not
	Playing int            `json:"playing"`        // games being played
	More    int            `json:"more,omitempty"` // people online not listed: guests without a name, and those past the list's 100
}

// OnlineAnswer is the answer to GET /api/online: the online list without
// its type.
type OnlineAnswer struct {
	People  []PersonOnline `json:"people"`
	Online  int            `json:"online"`
	Playing int            `json:"playing"`
	More    int            `json:"more,omitempty"`
}

// NoticeMessage tells the reader of a player they follow.
type NoticeMessage struct {
	Type string `json:"type"` // TypeNotice
	Kind string `json:"kind"` // NoticeOnline or NoticePlaying
	Name string `json:"name"`
	// Game is the table a NoticePlaying is about: /g/{game} to watch.
	Game string `json:"game,omitempty"`
}

// AwayMessage says whether the client's page is hidden.
type AwayMessage struct {
	Type string `json:"type"` // TypeAway
	Away *bool  `json:"away"`
}

// Check reports what makes m malformed.
func (m AwayMessage) Check() error {
	if m.Away == nil {
		return fmt.Errorf("%q needs \"away\": true or false", TypeAway)
	}
	return nil
}

// PlayerPresence is the answer to GET /api/players/{name}/presence: is
// the player online, doing what, and when were they last seen; their
// finish rate; and whether the reader (signed in) follows or blocks them.
type PlayerPresence struct {
	Name     string     `json:"name"`
	Online   bool       `json:"online"`
	Activity string     `json:"activity,omitempty"` // while online
	Game     string     `json:"game,omitempty"`
	Away     bool       `json:"away,omitempty"`
	LastSeen *time.Time `json:"lastSeen,omitempty"` // while offline; none if never seen
	Finish   FinishRate `json:"finish"`
	// Followers is how many players follow them.
	Followers int `json:"followers"`
	// Following and Blocking are the reader's: false for a guest.
	Following bool `json:"following"`
	Blocking  bool `json:"blocking"`
	You       bool `json:"you,omitempty"` // the reader is this player
}

// RelationsAnswer is the answer to GET /api/account/relations: the names
// of the players the signed-in account follows and blocks, sorted.
type RelationsAnswer struct {
	Following []string `json:"following"`
	Blocking  []string `json:"blocking"`
}

// TypeSeats is the presence of each seat's person at a table, sent on the
// table's socket when the table's socket opens and whenever it changes.
const TypeSeats = "seats" // server to client

// The presence of a seat's person.
const (
	SeatConnected = "connected" // a page of theirs is open at the table and shown
	SeatAway      = "away"      // open, but hidden (another tab, the phone locked)
	SeatGone      = "gone"      // no page of theirs is open at the table
)

// SeatPresence is the presence of the person at one seat.
type SeatPresence struct {
	Seat     int    `json:"seat"`
	Presence string `json:"presence"` // SeatConnected, SeatAway or SeatGone
	// LastSeen is when a gone person was last connected to the table;
	// none if never.
	LastSeen *time.Time `json:"lastSeen,omitempty"`
}

// SeatsMessage is the presence of the people at a table's seats (bots'
// and open seats are left out).
type SeatsMessage struct {
	Type  string         `json:"type"` // TypeSeats
	Seats []SeatPresence `json:"seats"`
}
