package table

import (
	"errors"
	"fmt"
	"time"
)

// Sentinel errors. Every error the Hub returns wraps one of these, so the
// HTTP layer can map it to a code with errors.Is.
var (
	ErrNotFound    = errors.New("no such game")
	ErrSeatTaken   = errors.New("the seat is taken")
	ErrTableFull   = errors.New("the table is full")
	ErrBadName     = errors.New("bad name")
	ErrBadRequest  = errors.New("bad request")
	ErrNotYourSeat = errors.New("not your seat")
	ErrNotYourTurn = errors.New("not your turn")
	ErrStale       = errors.New("the game has moved on")
	ErrNotStarted  = errors.New("the game has not started")
	ErrGameOver    = errors.New("the game is over")
	ErrIllegalMove = errors.New("illegal move")
	ErrBadRecord   = errors.New("bad record")
	ErrInternal    = errors.New("internal error")
	ErrClosed      = errors.New("the server is shutting down")

	ErrNameTaken          = errors.New("the name is taken at the table")
	ErrRateLimited        = errors.New("too many moves")
	ErrTooManyGames       = errors.New("too many games")
	ErrTooManyConnections = errors.New("too many connections")
	ErrExpired            = errors.New("the table expired")
	ErrNotCreator         = errors.New("not the table's creator")
	ErrAlreadyStarted     = errors.New("the game has started")
	ErrAccountRequired    = errors.New("a rated table takes signed-in players only")
	ErrAlreadySeated      = errors.New("you hold a seat of the table already")
)

// An Error is a request the Hub rejected. Its message is written for the
// player who made the request; nothing changed.
type Error struct {
	Kind error  // one of the sentinels
	Msg  string // for the player
	Err  error  // the cause, if any: a *razzia.MoveError, a *razzia.RecordError, a store error
	// RetryAfter is how long to wait before the same request may succeed
	// (ErrRateLimited); zero otherwise.
	RetryAfter time.Duration
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the sentinel and the cause, so that errors.Is matches the
// sentinel and errors.As finds the engine's error.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

func reject(kind error, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// internal wraps a failure that is not the player's doing; its message is
// generic, the cause is for the log.
func internal(err error) *Error {
	return &Error{Kind: ErrInternal, Msg: "internal error: please try again", Err: err}
}
