package match

import (
	"fmt"
	"time"

	"github.com/razziagame/razzia/internal/protocol"
)

// The refusals of the match, each declared with its protocol code (the
// catalogue: internal/protocol); internal/table answers them as its own.
// A chat command internal/chat refuses carries that package's sentinel.
var (
	ErrBadRequest      = protocol.NewRefusal(protocol.BadRequest, "bad request")                                     // a seat that does not exist, a seat that is not a person's
	ErrTableFull       = protocol.NewRefusal(protocol.TableFull, "the table is full")                                // a join after the game started
	ErrSeatTaken       = protocol.NewRefusal(protocol.SeatTaken, "the seat is taken")                                // a join of a taken seat
	ErrBadName         = protocol.NewRefusal(protocol.BadName, "bad name")                                           // a name people may not take (playername.Check)
	ErrNameTaken       = protocol.NewRefusal(protocol.NameTaken, "the name is taken at the table")                   // a join with the name of a seated player
	ErrAccountRequired = protocol.NewRefusal(protocol.AccountRequired, "a rated table takes signed-in players only") // a guest's join of a rated table
	ErrAlreadySeated   = protocol.NewRefusal(protocol.AlreadySeated, "you hold a seat of the table already")         // a join by a token or account holding a seat
	ErrNotCreator      = protocol.NewRefusal(protocol.NotCreator, "not the table's creator")                         // a creator's command by someone else
	ErrAlreadyStarted  = protocol.NewRefusal(protocol.AlreadyStarted, "the game has started")                        // a creator's command after the start
	ErrNotYourSeat     = protocol.NewRefusal(protocol.NotYourSeat, "not your seat")                                  // a player's command without a seat
	ErrNotStarted      = protocol.NewRefusal(protocol.NotStarted, "the game has not started")                        // a player's command before the start
	ErrGameOver        = protocol.NewRefusal(protocol.GameOver, "the game is over")                                  // a player's command after the end
	ErrStale           = protocol.NewRefusal(protocol.Stale, "the game has moved on")                                // a move for a position the game has left
	ErrNotYourTurn     = protocol.NewRefusal(protocol.NotYourTurn, "not your turn")                                  // a move out of turn
	ErrIllegalMove     = protocol.NewRefusal(protocol.IllegalMove, "illegal move")                                   // a move or pre-move the rules forbid
	ErrTimedOut        = protocol.NewRefusal(protocol.TimedOut, "the time ran out")                                  // a move at or after the deadline
	ErrInternal        = protocol.NewRefusal(protocol.Internal, "internal error")                                    // a failure that is not the player's doing
	ErrUnsupported     = protocol.NewRefusal(protocol.Unsupported, "the write is unknown to this server's version")  // a command of a kind this version does not know
	ErrRematch         = protocol.NewRefusal(protocol.RematchRefused, "rematch refused")                             // a second rematch offer or answer, or an answer to none
)

// A Refusal is a command the match did not make: nothing changed. Its
// message is written for the player who sent the command.
type Refusal struct {
	// Kind is the sentinel: one of the above or internal/chat's.
	Kind error
	Msg  string
	Err  error // the cause, if any: a *razzia.MoveError, a pace error, a *chat.Error
	// RetryAfter is how long to wait before the same command may be
	// made (a chat message sent too fast); zero otherwise.
	RetryAfter time.Duration
}

func (r *Refusal) Error() string { return r.Msg }

// Unwrap returns the sentinel and the cause, so that errors.Is matches
// the sentinel and errors.As finds the engine's error.
func (r *Refusal) Unwrap() []error {
	if r.Err == nil {
		return []error{r.Kind}
	}
	return []error{r.Kind, r.Err}
}

func refuse(kind error, format string, args ...any) *Refusal {
	return &Refusal{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// NotCreatorRefusal is the refusal of a creator's command by someone else.
func NotCreatorRefusal() *Refusal {
	return refuse(ErrNotCreator, "only the table's creator may change its seats or cancel it: send the creator token the table was created with")
}

// NoSeatRefusal is the refusal of a player's command by a token that
// holds no seat of the table.
func NoSeatRefusal() *Refusal { return refuse(ErrNotYourSeat, "you have no seat at this table") }

// GameOverRefusal is the refusal of a player's command after the end.
func GameOverRefusal() *Refusal { return refuse(ErrGameOver, "the game is over") }

// StartedRefusal is the refusal of a creator's command once the game
// has started; what names the command's effect.
func StartedRefusal(what string) *Refusal {
	return refuse(ErrAlreadyStarted, "the game has started: %s", what)
}

// FullRefusal is the refusal of a join once the game has started.
func FullRefusal() *Refusal { return refuse(ErrTableFull, "the table is full: the game has started") }

// changed is the refusal of a creator's write that found the table
// changed in the store.
func changed() *Refusal { return refuse(ErrAlreadyStarted, "the table changed meanwhile: look again") }
