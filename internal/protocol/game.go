package protocol

import "time"

// A Status is where a game is in its life.
type Status string

// The statuses of a game.
const (
	StatusOpen     Status = "open"     // seats wait for people; no moves yet
	StatusPlaying  Status = "playing"  // under way
	StatusFinished Status = "finished" // over
	StatusArchived Status = "archived" // an uploaded record, never played here
	StatusExpired  Status = "expired"  // an open table nobody filled in time; never played
	// StatusCancelled is an open table its creator cancelled; never played.
	StatusCancelled Status = "cancelled"
)

// Over reports whether a game of the status has been played and will
// never change again.
func (s Status) Over() bool { return s == StatusFinished || s == StatusArchived }

// Valid reports whether s is one of the statuses.
func (s Status) Valid() bool {
	switch s {
	case StatusOpen, StatusPlaying, StatusFinished, StatusArchived, StatusExpired, StatusCancelled:
		return true
	}
	return false
}

// Open reports whether a game of the status is a table waiting for
// players, the only kind whose seats may be freed or that may be closed.
func (s Status) Open() bool { return s == StatusOpen }

// Live reports whether a game of the status may still change: it is open
// or being played.
func (s Status) Live() bool { return s == StatusOpen || s == StatusPlaying }

// Closed reports whether the status ends a table that was never played.
func (s Status) Closed() bool { return s == StatusExpired || s == StatusCancelled }

// GameInfo describes a game, as every answer about one does. It never
// holds the game's seed or its seats' tokens.
type GameInfo struct {
	ID      string     `json:"id"`
	Status  Status     `json:"status"`
	Players int        `json:"players"`
	Seats   []SeatInfo `json:"seats"`
	Moves   int        `json:"moves"`
	Created time.Time  `json:"created"`
	Updated time.Time  `json:"updated"`
	Winners []int      `json:"winners,omitempty"` // once the game is over
	Invite  string     `json:"invite"`            // the table page's path, /g/<id>
	// Expires is when an open table closes (status expired) unless a
	// seat is taken before: every seat taken restarts the wait.
	Expires *time.Time `json:"expires,omitempty"`
	// Rated is a table whose result changes its players' ratings: only
	// signed-in players (and bots) sit at it.
	Rated bool `json:"rated,omitempty"`
	// Pace is how fast the table plays; nil for a game stored before
	// paces existed, which is untimed.
	Pace *PaceInfo `json:"pace,omitempty"`
	// ToMove is the seat to move while the game is played.
	ToMove *int `json:"toMove,omitempty"`
	// RematchOf is the finished game this one is the rematch of;
	// Rematch the game started as this one's rematch, once it started;
	// RematchOffer the offer made at this finished game, if any.
	RematchOf    string        `json:"rematchOf,omitempty"`
	Rematch      string        `json:"rematch,omitempty"`
	RematchOffer *RematchOffer `json:"rematchOffer,omitempty"`
}

// A SeatInfo is one seat of a GameInfo.
type SeatInfo struct {
	Name string `json:"name"` // empty while open
	Bot  string `json:"bot"`  // the server bot's level; empty for a person
	Open bool   `json:"open"` // waiting for a person
	// StandIn is the level of the server bot playing for the person
	// while they are away (their time ran out); empty otherwise.
	StandIn string `json:"standIn,omitempty"`
	// Account is a seat held by a signed-in player, whose profile is at
	// ProfilePath(Name).
	Account bool `json:"account,omitempty"`
}

// InvitePath returns the path of a game's table page, its invite link.
func InvitePath(id string) string { return "/g/" + id }

// IDLen is the length of a game id.
const IDLen = 10

// ValidID reports whether s is a game id: IDLen characters of the
// lower-case base32 alphabet (a-z and 2-7). The server, the page's handler
// and the client check ids with it, so a path or an invite that cannot
// name a game is refused the same way everywhere.
func ValidID(s string) bool {
	if len(s) != IDLen {
		return false
	}
	for _, c := range []byte(s) {
		if (c < 'a' || c > 'z') && (c < '2' || c > '7') {
			return false
		}
	}
	return true
}
