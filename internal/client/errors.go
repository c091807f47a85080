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
