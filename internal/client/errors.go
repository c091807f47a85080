package client

import "fmt"

// A Code is an error code of the protocol (docs/protocol.md, "Errors"). A
// Code is an error itself, so errors.Is(err, client.Stale) tells an *Error
// by its code.
type Code string

// The codes of HTTP errors.
const (
	NotFound    Code = "not_found"
	SeatTaken   Code = "seat_taken"
	TableFull   Code = "table_full"
	BadName     Code = "bad_name"
	BadRequest  Code = "bad_request"
	BadRecord   Code = "bad_record"
	TooLarge    Code = "too_large"
	NotStarted  Code = "not_started"
	Forbidden   Code = "forbidden"
	RateLimited Code = "rate_limited"
	Internal    Code = "internal"
	Unavailable Code = "unavailable"
)

// The codes of WebSocket errors, besides TooLarge, RateLimited,
// NotStarted and Internal.
const (
	IllegalMove Code = "illegal_move"
	NotYourTurn Code = "not_your_turn"
	NotYourSeat Code = "not_your_seat"
	Stale       Code = "stale"
	BadMessage  Code = "bad_message"
	GameOver    Code = "game_over"
)

func (c Code) Error() string { return string(c) }

// An Error is the server's refusal: an HTTP error answer or a WebSocket
// "error" message. Nothing changed on the server.
type Error struct {
	Code    Code
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
func (e *Error) Temporary() bool {
	switch e.Code {
	case RateLimited, Internal, Unavailable:
		return true
	}
	return false
}
