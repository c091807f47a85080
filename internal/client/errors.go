package client

import (
	"fmt"
	"time"

	"github.com/razziagame/razzia/internal/protocol"
)

// An Error is the server's refusal: an HTTP error answer or a WebSocket
// "error" message. Nothing changed on the server. errors.Is(err,
// protocol.Stale) tells an *Error by its code.
type Error struct {
	Code    protocol.Code
	Message string // a sentence for people
	Status  int    // the HTTP status; 0 for a WebSocket message
	// RetryAfter is the server's least wait before the same request may
	// succeed (retryAfter); 0 when it named none.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	if e.Message == "" {
		return string(e.Code)
	}
	return fmt.Sprintf("%s (%s)", e.Message, e.Code)
}

// Unwrap returns the code, for errors.Is.
func (e *Error) Unwrap() error { return e.Code }

// Temporary reports whether trying again later may succeed.
func (e *Error) Temporary() bool { return e.Code.Temporary() }

// MoveMatters reports whether a refusal of a move calls for another: not
// when the game has moved past the move (stale), is over, or has not
// started; the next state brings the seat's turn, if any.
func (e *Error) MoveMatters() bool { return AfterRefusal(e.Code) != Resync }

// A Next is what a seat does after the server refused its move: the rule
// of every client's seat loop, this one's and the page's (js/seat.js),
// both checked against testdata/refusals.json.
type Next string

// What a seat does after a refusal of its move.
const (
	// Resend the same move with the same seq after a wait: the server
	// could not take it now (a limit, a store failure, the game moving
	// between servers) and nothing changed.
	Resend Next = "resend"
	// Resync: send nothing; the game moved past the move (stale), is
	// over or has not started, and the next state says whose turn it is.
	Resync Next = "resync"
	// GiveUp the move: it will never be taken (illegal, not the seat's
	// turn...). A bot plays the safe move instead, a person chooses again.
	GiveUp Next = "give_up"
)

// AfterRefusal returns what a seat does after its move was refused with
// code.
func AfterRefusal(code protocol.Code) Next {
	switch {
	case code == protocol.Stale, code == protocol.GameOver, code == protocol.NotStarted:
		return Resync
	case code.Temporary():
		return Resend
	}
	return GiveUp
}
