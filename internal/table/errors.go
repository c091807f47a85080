package table

import (
	"errors"
	"fmt"
	"time"

	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/store"
)

// Sentinel errors. Every error the Hub returns wraps one of these, so the
// HTTP layer can map it to a code with errors.Is.
var (
	ErrNotFound    = store.ErrNotFound // one "no such game", the store's and the Hub's
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
	// ErrUnavailable is a write this node could not have made: the node
	// that runs the game did not answer in time and its lease has not
	// lapsed yet, or no node runs it while this one is shutting down. It
	// is temporary: the same request succeeds once another node runs it.
	ErrUnavailable     = errors.New("the game is changing servers")
	ErrAccountRequired = errors.New("a rated table takes signed-in players only")
	ErrAlreadySeated   = errors.New("you hold a seat of the table already")
	ErrCancelled       = errors.New("the table was cancelled")
	ErrTimedOut        = errors.New("the time ran out")
	// ErrNotOver is a rematch of a game that is not over.
	ErrNotOver = errors.New("the game is not over")
	// ErrRematch is a rematch offer or answer that cannot be made: the
	// game had its offer, the player answered, or nobody offered.
	ErrRematch = errors.New("rematch refused")
	// ErrUnsupported is a command of a kind the node that runs the game
	// does not know: it runs another version.
	ErrUnsupported = errors.New("unsupported command")
)

// errNotOwner is the answer of a node asked to make a write of a game it
// does not run (any more): the asker looks up the owner again.
var errNotOwner = errors.New("this node does not run the game")

// kinds are the sentinels an answer passed between nodes may carry, named
// by their text.
var kinds = []error{
	ErrNotFound, ErrSeatTaken, ErrTableFull, ErrBadName, ErrBadRequest, ErrNotYourSeat, ErrNotYourTurn,
	ErrStale, ErrNotStarted, ErrGameOver, ErrIllegalMove, ErrBadRecord, ErrInternal, ErrClosed,
	ErrNameTaken, ErrRateLimited, ErrTooManyGames, ErrTooManyConnections, ErrExpired, ErrNotCreator,
	ErrAlreadyStarted, ErrUnavailable, ErrCancelled, ErrTimedOut, ErrNotOver, ErrRematch, errNotOwner,
	ErrUnsupported,
	// The chat's refusals (Hub.Chat, Hub.Mute).
	chat.ErrEmpty, chat.ErrTooLong, chat.ErrBadChar, chat.ErrTooFast, chat.ErrSignIn,
	chat.ErrUnknownPhrase, chat.ErrChannel, chat.ErrMuteSelf,
}

// kindNamed returns the sentinel whose text is name; ErrInternal for an
// unknown one (a node of another version).
func kindNamed(name string) error {
	for _, k := range kinds {
		if k.Error() == name {
			return k
		}
	}
	return ErrInternal
}

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
