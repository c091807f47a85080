package razzia

import (
	"errors"
	"fmt"
)

// Sentinel errors. The errors the engine returns wrap one of these, so
// callers can tell the reasons apart with errors.Is; their messages are
// written for players.
var (
	ErrSyntax      = errors.New("malformed move")
	ErrUnknownCard = errors.New("unknown card")
	ErrSetup       = errors.New("invalid setup")
	ErrGameOver    = errors.New("the game is over")
	ErrNoAuction   = errors.New("no auction is running")
	ErrInAuction   = errors.New("an auction is running")
	ErrNotHeld     = errors.New("cheque not face up in hand")
	ErrBidTooLow   = errors.New("bid not higher than the highest bid")
	ErrMustBid     = errors.New("the caller must bid")
	ErrUsedUp      = errors.New("no such card left to draw")
	ErrDeckEmpty   = errors.New("the deck is empty")
	ErrNoThief     = errors.New("not enough thieves")
	ErrNotInRow    = errors.New("card not in the row")
	ErrNoChance    = errors.New("no source of chance")
)

// A SyntaxError reports a token that is not a move.
type SyntaxError struct {
	Token string // the text as given
	Err   error  // ErrSyntax or ErrUnknownCard
	msg   string
}

func (e *SyntaxError) Error() string { return e.msg }
func (e *SyntaxError) Unwrap() error { return e.Err }

// A MoveError reports a move that is not legal in the current state. The
// state is unchanged.
type MoveError struct {
	Move   Move
	Seat   int    // the seat that was to move, or -1 once the game is over
	Player string // the seat's name, if known
	Err    error  // the sentinel: ErrNotHeld, ErrBidTooLow, ...
	detail string // why, as the end of a sentence
}

// Error returns a sentence a player understands, such as
// "Felix cannot bid 9: their face-up cheques are 3 and 7".
func (e *MoveError) Error() string {
	if e.Seat < 0 {
		return fmt.Sprintf("cannot %s: %s", e.Move.phrase(), e.detail)
	}
	who := e.Player
	if who == "" {
		who = fmt.Sprintf("seat %d", e.Seat+1)
	}
	return fmt.Sprintf("%s cannot %s: %s", who, e.Move.phrase(), e.detail)
}

func (e *MoveError) Unwrap() error { return e.Err }
