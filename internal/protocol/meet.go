package protocol

import "time"

// Play now and challenges: the requests and answers of /api/seeks and
// /api/challenges, and the messages of the pages' live socket
// (/api/live) that tell a person at once what became of theirs.

// SeekRequest is the body of POST /api/seeks: a Play-now request. A
// guest names themselves; a signed-in person plays as their account.
type SeekRequest struct {
	// Min and Max bound the players wanted, the person included and any
	// bots: 2 to 5. Max 0 is Min.
	Min int `json:"min"`
	Max int `json:"max,omitempty"`
	// Pace is a pace's id (GET /api/paces); "" is the default.
	Pace  string `json:"pace,omitempty"`
	Rated bool   `json:"rated,omitempty"`
	// RatingMin and RatingMax bound the others' ratings; 0 leaves that
	// side open.
	RatingMin int `json:"ratingMin,omitempty"`
	RatingMax int `json:"ratingMax,omitempty"`
	// MinFinish is the least finish rate (percent) of the others.
	MinFinish int `json:"minFinish,omitempty"`
	// BotsAfter is how many seconds to wait for people before bots fill
	// the table; 0 never.
	BotsAfter int    `json:"botsAfter,omitempty"`
	Name      string `json:"name,omitempty"` // a guest's name
}

// The statuses of a Play-now request.
const (
	SeekOpen      = "open"
	SeekPaired    = "paired"
	SeekCancelled = "cancelled"
	SeekLapsed    = "lapsed"
)

// SeekInfo describes a Play-now request, as the lobby lists it.
type SeekInfo struct {
	ID   string `json:"id"`
	Name string `json:"name"` // who made it
	// SignedIn is true for a signed-in person's request (their name is a
	// profile's).
	SignedIn  bool   `json:"signedIn"`
	Min       int    `json:"min"`
	Max       int    `json:"max"`
	Pace      string `json:"pace"`
	Rated     bool   `json:"rated"`
	Rating    int    `json:"rating,omitempty"`
	RatingMin int    `json:"ratingMin,omitempty"`
	RatingMax int    `json:"ratingMax,omitempty"`
	// Finish is the person's finish rate in percent; absent while they
	// have no finished or abandoned game.
	Finish    *int      `json:"finish,omitempty"`
	MinFinish int       `json:"minFinish,omitempty"`
	BotsAfter int       `json:"botsAfter,omitempty"` // seconds
	Status    string    `json:"status"`
	Created   time.Time `json:"created"`
	// Mine is true for the asker's own requests; Game and Seat say where
	// one of theirs was seated (Seat from 0).
	Mine bool   `json:"mine,omitempty"`
	Game string `json:"game,omitempty"`
	Seat *int   `json:"seat,omitempty"`
}

// SeeksAnswer is the answer of GET /api/seeks: every open request, oldest
// first, and the asker's own, open or recently ended, newest first.
type SeeksAnswer struct {
	Seeks []SeekInfo `json:"seeks"`
	Mine  []SeekInfo `json:"mine"`
}

// SeekAnswer is the answer of POST /api/seeks and of joining one
// (POST /api/seeks/{id}/join): the asker's request as stored.
type SeekAnswer struct {
	Seek SeekInfo `json:"seek"`
}

// SeatAnswer of POST /api/seeks/{id}/seat: the table a guest's paired
// request sits at; the answer gives the browser the seat's cookie.
type SeekSeatAnswer struct {
	Game  GameInfo `json:"game"`
	Seat  int      `json:"seat"`
	Token string   `json:"token"`
}

// ChallengeRequest is the body of POST /api/challenges: challenge one
// person, or up to four for one table, by their account names.
type ChallengeRequest struct {
	To    []string `json:"to"`
	Pace  string   `json:"pace,omitempty"`
	Rated bool     `json:"rated,omitempty"`
}

// AnswerRequest is the body of POST /api/challenges/{id}/answer.
type AnswerRequest struct {
	Accept bool `json:"accept"`
	// Reason is a decline's: one of DeclineReasons.
	Reason string `json:"reason,omitempty"`
}

// DeclineReasons are the reasons a challenge may be declined with; the
// page and the terminal show each in the person's language.
var DeclineReasons = []string{"generic", "later", "pace", "rated", "casual", "players"}

// The statuses of a challenge.
const (
	ChallengeOpen      = "open"
	ChallengeAccepted  = "accepted"
	ChallengeDeclined  = "declined"
	ChallengeLapsed    = "lapsed"
	ChallengeCancelled = "cancelled"
)

// ChallengedInfo is one person challenged and their answer so far.
type ChallengedInfo struct {
	Name string `json:"name"`
	// Answer is "" until they answer, then "accept" or "decline".
	Answer string `json:"answer,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// ChallengeInfo describes a challenge to its challenger and the people
// challenged.
type ChallengeInfo struct {
	ID      string           `json:"id"`
	From    string           `json:"from"`
	To      []ChallengedInfo `json:"to"`
	Pace    string           `json:"pace"`
	Rated   bool             `json:"rated"`
	Status  string           `json:"status"`
	Game    string           `json:"game,omitempty"` // the table, once everyone accepted
	Created time.Time        `json:"created"`
	Expires time.Time        `json:"expires"`
	// Mine is true for the asker's own challenge (they made it).
	Mine bool `json:"mine,omitempty"`
}

// ChallengesAnswer is the answer of GET /api/challenges: the asker's
// challenges, made or received, open or recently ended, newest first.
type ChallengesAnswer struct {
	Challenges []ChallengeInfo `json:"challenges"`
}

// ChallengeAnswer is the answer of POST /api/challenges and of an
// answer or a cancel: the challenge afterwards.
type ChallengeAnswer struct {
	Challenge ChallengeInfo `json:"challenge"`
}

// The types of the lobby's messages.
const (
	TypeSeek      = "seek"      // one of the person's requests changed (seated: game)
	TypeChallenge = "challenge" // a challenge from or to the person is new or changed
	TypeSeeks     = "seeks"     // a request is new or changed (Seek, as every lobby lists it)
	TypeResync    = "resync"    // messages may have been lost: read both lists again (a game's client: send me a whole state)
)

// MeetMessage is a message of the live socket, from the server. A
// TypeSeeks message, sent to every lobby, carries the request as anyone
// sees it (Mine false, no table).
type MeetMessage struct {
	Type      string         `json:"type"`
	Seek      *SeekInfo      `json:"seek,omitempty"`
	Challenge *ChallengeInfo `json:"challenge,omitempty"`
}

// SeekJoinRequest is the body of POST /api/seeks/{id}/join: one click on
// another's request. A guest names themselves.
type SeekJoinRequest struct {
	Name string `json:"name,omitempty"`
}
