package table

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// Sentinel errors. Every error the Hub returns wraps one of these or one of
// internal/chat's; each is declared with its protocol code, which the HTTP
// and WebSocket answers and a refusal passed between nodes carry.
var (
	ErrNotFound    = store.ErrNotFound // one "no such game", the store's and the Hub's
	ErrSeatTaken   = match.ErrSeatTaken
	ErrTableFull   = match.ErrTableFull
	ErrBadName     = match.ErrBadName
	ErrBadRequest  = match.ErrBadRequest
	ErrNotYourSeat = match.ErrNotYourSeat
	ErrNotYourTurn = match.ErrNotYourTurn
	ErrStale       = match.ErrStale
	ErrNotStarted  = match.ErrNotStarted
	ErrGameOver    = match.ErrGameOver
	ErrIllegalMove = match.ErrIllegalMove
	ErrBadRecord   = protocol.NewRefusal(protocol.BadRecord, "bad record")
	ErrInternal    = match.ErrInternal
	ErrClosed      = protocol.NewRefusal(protocol.Unavailable, "the server is shutting down")

	ErrNameTaken          = match.ErrNameTaken
	ErrRateLimited        = protocol.NewRefusal(protocol.RateLimited, "too many moves")
	ErrTooManyGames       = protocol.NewRefusal(protocol.TooManyGames, "too many games")
	ErrTooManyConnections = protocol.NewRefusal(protocol.TooManyConnections, "too many connections")
	ErrExpired            = match.ErrExpired
	ErrNotCreator         = match.ErrNotCreator
	ErrAlreadyStarted     = match.ErrAlreadyStarted
	// ErrUnavailable is a write this node could not have made: the node
	// that runs the game did not answer in time and its lease has not
	// lapsed yet, or no node runs it while this one is shutting down. It
	// is temporary: the same request succeeds once another node runs it.
	ErrUnavailable     = protocol.NewRefusal(protocol.Unavailable, "the game is changing servers")
	ErrAccountRequired = match.ErrAccountRequired
	ErrAlreadySeated   = match.ErrAlreadySeated
	ErrCancelled       = match.ErrCancelled
	ErrTimedOut        = match.ErrTimedOut
	// ErrNotOver is a rematch of a game that is not over.
	ErrNotOver = match.ErrNotOver
	// ErrRematch is a rematch offer or answer that cannot be made: the
	// game had its offer, the player answered, or nobody offered.
	ErrRematch = match.ErrRematch
	// ErrTooLarge is a write too large to pass to the node that runs its
	// game: the channel between nodes carries store.MaxPayload bytes.
	ErrTooLarge = protocol.NewRefusal(protocol.TooLarge, "the write is too large to pass between nodes")
	// ErrUnsupported is a write passed from a node of another version that
	// this one does not know: retried, it succeeds once both run one
	// version.
	ErrUnsupported = match.ErrUnsupported
)

// errNotOwner is the answer of a node asked to make a write of a game it
// does not run (any more): the asker looks up the owner again.
var errNotOwner = errors.New("this node does not run the game")

// An Error is a request the Hub rejected. Its message is written for the
// player who made the request; nothing changed.
type Error struct {
	// Kind is one of the sentinels; passed from a node of another version
	// that has a sentinel this one lacks, its protocol.Code.
	Kind error
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

// expiredError is the error of a request about a table g that expired
// after waiting openTTL for players.
func expiredError(openTTL time.Duration, g *store.Game) *Error {
	return fromRefusal(match.ExpiredRefusal(openTTL, g))
}

// storeFailed maps a store error about game id: a game the store does
// not have, or a failure logged.
func storeFailed(log *slog.Logger, what, id string, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return notFound(id)
	}
	return logFailed(log, what, id, err)
}

// logFailed logs an internal failure of what at game id and returns the
// error for the player.
func logFailed(log *slog.Logger, what, id string, err error) error {
	log.Error(what+" failed", "game", id, "err", err)
	return internal(fmt.Errorf("%s %s: %w", what, id, err))
}

// internal wraps a failure that is not the player's doing; its message is
// generic, the cause is for the log.
func internal(err error) *Error {
	return &Error{Kind: ErrInternal, Msg: "internal error: please try again", Err: err}
}

// cancelled is the error of a request about a cancelled table.
func cancelled() *Error {
	return fromRefusal(match.CancelledRefusal())
}

// unavailable is the error of a write no node could make in time.
func unavailable() *Error {
	e := reject(ErrUnavailable, "the game is moving to another server: try again in a moment")
	e.RetryAfter = time.Second
	return e
}

// refused returns the Hub's error for a refusal of the match, whose kind
// is already one of the catalogue's sentinels (the Hub's own, re-exported
// from internal/match, or internal/chat's); another error is returned as
// it is.
func refused(err error) error {
	var r *match.Refusal
	if !errors.As(err, &r) {
		return err
	}
	return fromRefusal(r)
}

// fromRefusal is refused for a refusal known to be one.
func fromRefusal(r *match.Refusal) *Error {
	kind := r.Kind
	if kind == nil {
		kind = ErrInternal
	}
	return &Error{Kind: kind, Msg: r.Msg, Err: r.Err, RetryAfter: r.RetryAfter}
}

// errEnded reports a request sent to a game goroutine that has ended.
var errEnded = errors.New("the game goroutine has ended")

func notFound(id string) *Error {
	return reject(ErrNotFound, "there is no game %q", id)
}
