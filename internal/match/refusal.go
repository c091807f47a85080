package match

import (
	"fmt"
	"time"
)

// A Reason is what was wrong with a command the match refused. The host
// names each with its own sentinel error.
type Reason int

// The reasons.
const (
	BadRequest      Reason = iota + 1 // a seat that does not exist, a seat that is not a person's
	TableFull                         // a join after the game started
	SeatTaken                         // a join of a taken seat
	NameTaken                         // a join with the name of a seated player
	AccountRequired                   // a guest's join of a rated table
	AlreadySeated                     // a join by a token or account holding a seat
	NotCreator                        // a creator's command by someone else
	AlreadyStarted                    // a creator's command after the start
	NotYourSeat                       // a player's command without a seat
	NotStarted                        // a player's command before the start
	GameOver                          // a player's command after the end
	Stale                             // a move for a position the game has left
	NotYourTurn                       // a move out of turn
	IllegalMove                       // a move or pre-move the rules forbid
	TimedOut                          // a move at or after the deadline
	Internal                          // a failure that is not the player's doing
	Unsupported                       // a command of a kind this version does not know
	RematchRefused                    // a second rematch offer or answer, or an answer to none
	ChatRefused                       // a chat command internal/chat refuses: Err names its sentinel
	numReasons
)

var reasonNames = [numReasons]string{
	BadRequest: "bad request", TableFull: "table full", SeatTaken: "seat taken", NameTaken: "name taken",
	AccountRequired: "account required", AlreadySeated: "already seated", NotCreator: "not creator",
	AlreadyStarted: "already started", NotYourSeat: "not your seat", NotStarted: "not started",
	GameOver: "game over", Stale: "stale", NotYourTurn: "not your turn", IllegalMove: "illegal move",
	TimedOut: "timed out", Internal: "internal", Unsupported: "unsupported",
	RematchRefused: "rematch refused", ChatRefused: "chat refused",
}

func (r Reason) String() string {
	if r > 0 && r < numReasons {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", int(r))
}

// Reasons returns every reason, so that a host can check that it names
// each one.
func Reasons() []Reason {
	rs := make([]Reason, 0, numReasons-1)
	for r := BadRequest; r < numReasons; r++ {
		rs = append(rs, r)
	}
	return rs
}

// A Refusal is a command the match did not make: nothing changed. Its
// message is written for the player who sent the command.
type Refusal struct {
	Reason Reason
	Msg    string
	Err    error // the cause, if any: a *razzia.MoveError, a pace error, a *chat.Error
	// RetryAfter is how long to wait before the same command may be
	// made (a chat message sent too fast); zero otherwise.
	RetryAfter time.Duration
}

func (r *Refusal) Error() string { return r.Msg }

// Unwrap returns the cause, so that errors.As finds the engine's error.
func (r *Refusal) Unwrap() error { return r.Err }

func refuse(reason Reason, format string, args ...any) *Refusal {
	return &Refusal{Reason: reason, Msg: fmt.Sprintf(format, args...)}
}

// NotCreatorRefusal is the refusal of a creator's command by someone else.
func NotCreatorRefusal() *Refusal {
	return refuse(NotCreator, "only the table's creator may remove a player: send the creator token the table was created with")
}

// NoSeatRefusal is the refusal of a player's command by a token that
// holds no seat of the table.
func NoSeatRefusal() *Refusal { return refuse(NotYourSeat, "you have no seat at this table") }

// GameOverRefusal is the refusal of a player's command after the end.
func GameOverRefusal() *Refusal { return refuse(GameOver, "the game is over") }

// StartedRefusal is the refusal of a creator's command once the game
// has started; what names the command's effect.
func StartedRefusal(what string) *Refusal {
	return refuse(AlreadyStarted, "the game has started: %s", what)
}

// FullRefusal is the refusal of a join once the game has started.
func FullRefusal() *Refusal { return refuse(TableFull, "the table is full: the game has started") }
