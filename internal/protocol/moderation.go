package protocol

import "time"

// Moderation: a signed-in person reports another (POST /api/reports); an
// operator reads the open reports (GET /api/moderation/reports) and acts
// on a person or a chat line (POST /api/moderation/actions); a person
// reads their own standing and the actions on them
// (GET /api/moderation/me), and is told of a new one at once on the live
// socket of every page they have open (TypeModeration).

// TypeModeration is the live socket's message telling a person of an
// operator's action on them.
const TypeModeration = "moderation" // server to client

// The kinds of report.
const (
	ReportChat     = "chat"     // abuse in the chat
	ReportStalling = "stalling" // letting the clock run, not moving
	ReportCheating = "cheating" // a suspicion of help from outside
)

// The kinds of an operator's action.
const (
	ActionMute    = "mute"    // no chat, for Hours or until lifted (0)
	ActionSuspend = "suspend" // no chat, no creating or joining a table, for Hours; their seats in games go to bots
	ActionBan     = "ban"     // as suspend, for good; the name cannot come back as a guest
	ActionLift    = "lift"    // the sanctions in force end
	ActionStrike  = "strike"  // a chat line removed for everyone (Game, Line)
	ActionDismiss = "dismiss" // a report closed without a sanction (Report)
)

// MaxReasonRunes bounds the characters of a report's or an action's
// reason.
const MaxReasonRunes = 500

// ReportRequest is the body of POST /api/reports: who, at which game,
// what kind of behaviour, in the reporter's words, and optionally the
// chat lines concerned (their seq, as the chat messages number them).
type ReportRequest struct {
	Player string `json:"player"`
	Game   string `json:"game"`
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
	Lines  []int  `json:"lines,omitempty"`
}

// A ReportInfo is a report as an operator reads it.
type ReportInfo struct {
	ID       string    `json:"id"`
	Reporter string    `json:"reporter"`
	Player   string    `json:"player"` // the person reported
	Game     GameLink  `json:"game"`
	Kind     string    `json:"kind"`
	Reason   string    `json:"reason"`
	At       time.Time `json:"at"`
	// Lines are the chat lines concerned: those the reporter named, or
	// else every line the person wrote at the game (the last 50),
	// removed ones included, with their words, for the operator.
	Lines []ModLine `json:"lines"`
	// Standing is the person's standing now.
	Standing Standing `json:"standing"`
}

// A GameLink names a game, its seats and where to see it (URL): /g/{id}
// while it is live, /g/{id}/replay once it is over. Seats are in seat
// order, as GameInfo's: a server's bot with its level, so that a page
// names it in the reader's language.
type GameLink struct {
	ID     string     `json:"id"`
	Status Status     `json:"status"`
	Seats  []SeatInfo `json:"seats"`
	URL    string     `json:"url"`
}

// A ModLine is a chat line as an operator reads it.
type ModLine struct {
	Seq     int       `json:"seq"`
	Name    string    `json:"name"`
	Channel string    `json:"channel"`
	Phrase  string    `json:"phrase,omitempty"`
	Text    string    `json:"text,omitempty"`
	At      time.Time `json:"at"`
	Removed bool      `json:"removed,omitempty"`
}

// ReportAnswer is the answer to POST /api/reports.
type ReportAnswer struct {
	ID string `json:"id"`
}

// ReportsAnswer is the answer to GET /api/moderation/reports: the open
// reports, oldest first, and the last actions of every operator, newest
// first.
type ReportsAnswer struct {
	Reports []ReportInfo `json:"reports"`
	Actions []ActionInfo `json:"actions"`
}

// ActionRequest is the body of POST /api/moderation/actions. Player
// names the person (for a strike, the line's author is the person);
// Hours is a suspension's length (1 to 8760) or a mute's (0: until
// lifted); Game and Line name a chat line to strike; Report, if given,
// is the report the action answers, which it closes.
type ActionRequest struct {
	Kind   string `json:"kind"`
	Player string `json:"player,omitempty"`
	Reason string `json:"reason"`
	Hours  int    `json:"hours,omitempty"`
	Game   string `json:"game,omitempty"`
	Line   *int   `json:"line,omitempty"`
	Report string `json:"report,omitempty"`
}

// An ActionInfo is an operator's action, as the operators and the person
// acted on read it: who acted, why, on what, until when.
type ActionInfo struct {
	ID       string     `json:"id"`
	Kind     string     `json:"kind"`
	Player   string     `json:"player"`
	Operator string     `json:"operator"`
	Reason   string     `json:"reason"`
	Game     string     `json:"game,omitempty"`
	Line     *int       `json:"line,omitempty"`
	Until    *time.Time `json:"until,omitempty"`
	At       time.Time  `json:"at"`
	Report   string     `json:"report,omitempty"`
}

// ActionAnswer is the answer to POST /api/moderation/actions: the action
// logged, the person's standing after it, and the games whose seat of
// theirs went to a bot (or was freed, at an open table).
type ActionAnswer struct {
	Action   ActionInfo `json:"action"`
	Standing Standing   `json:"standing"`
	Removed  []string   `json:"removed,omitempty"`
}

// Standing is what a person may do: the sanctions in force on them. A
// zero time is for good (until lifted).
type Standing struct {
	Muted          bool       `json:"muted,omitempty"`
	MutedUntil     *time.Time `json:"mutedUntil,omitempty"`
	Suspended      bool       `json:"suspended,omitempty"`
	SuspendedUntil *time.Time `json:"suspendedUntil,omitempty"`
	Banned         bool       `json:"banned,omitempty"`
}

// ModerationAnswer is the answer to GET /api/moderation/me: whether the
// person is an operator, their standing, and every action on them but
// dismissed reports, newest first.
type ModerationAnswer struct {
	Operator bool         `json:"operator,omitempty"`
	Standing Standing     `json:"standing"`
	Actions  []ActionInfo `json:"actions"`
}

// ModerationMessage tells a person, on every page's live socket, of an
// operator's action on them, with their standing after it.
type ModerationMessage struct {
	Type     string     `json:"type"` // TypeModeration
	Action   ActionInfo `json:"action"`
	Standing Standing   `json:"standing"`
}
