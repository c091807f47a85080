package client

import (
	"fmt"

	"github.com/razziagame/razzia/internal/protocol"
)

// An Error is the server's refusal: an HTTP error answer or a WebSocket
// "error" message. Nothing changed on the server. errors.Is(err,
// protocol.Stale) tells an *Error by its code.
type Error struct {
	Code    protocol.Code
	Message string // a sentence for people
	Status  int    // the HTTP status; 0 for a WebSocket message
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
func (e *Error) MoveMatters() bool {
	switch e.Code {
	case protocol.Stale, protocol.GameOver, protocol.NotStarted:
		return false
	}
	return true
}
