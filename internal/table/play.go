package table

import (
	"context"

	"github.com/razziagame/razzia/internal/match"
)

// A ChatRequest is a message to a table's chat: who says it, a seat's
// holder (Token) or a signed-in account watching (Account and Name), and
// what, a quick phrase by its id or free text, exactly one.
type ChatRequest struct {
	Token         string
	Account, Name string
	Phrase, Text  string
}

// Chat sends c to the table's chat. A refusal is an *Error whose Kind is
// one of internal/chat's sentinels (ErrTooLong, ErrTooFast with
// RetryAfter, ErrBadChar, ErrSignIn, ...), and ErrClosed once
// chat.AfterGame has passed since the game ended; nothing changed then.
func (h *Hub) Chat(ctx context.Context, id string, c ChatRequest) error {
	r := match.Command{Kind: match.Chat, Game: id, Hash: hashToken(c.Token), Account: c.Account, Name: c.Name, Phrase: c.Phrase, Text: c.Text}
	_, err := h.write(ctx, r)
	return err
}

// A MuteRequest hides (On) or shows again (!On) the messages of the
// player at Seat from a seat's holder (Token) or from the signed-in
// account watching (Account).
type MuteRequest struct {
	Token, Account string
	Seat           int
	On             bool
}

// Mute hides or shows again a player's messages, as m asks, on all the
// connections of who asks, also after the game, with Chat's bound.
func (h *Hub) Mute(ctx context.Context, id string, m MuteRequest) error {
	r := match.Command{Kind: match.Mute, Game: id, Hash: hashToken(m.Token), Account: m.Account, Seat: m.Seat, Mute: m.On}
	_, err := h.write(ctx, r)
	return err
}

// TakeBack gives the person whose token is given their seat back from the
// bot that played for them since their time ran out or they left. It does
// nothing when no bot stands in for them; watching the game with the
// seat's token, playing a move or entering a pre-move takes the seat back
// too.
func (h *Hub) TakeBack(ctx context.Context, id, token string) error {
	hash := hashToken(token)
	_, err := h.write(ctx, match.Command{Kind: match.TakeBack, Game: id, Hash: hash})
	return err
}

// Continue tells, for the person whose token is given, that they have
// read the round's scores: the next round's first clock, held meanwhile,
// starts once every connected person has continued, or when the pace's
// grace runs out. It does nothing when no clock is held or they
// continued already; a token without a seat is refused.
func (h *Hub) Continue(ctx context.Context, id, token string) error {
	hash := hashToken(token)
	_, err := h.write(ctx, match.Command{Kind: match.Continue, Game: id, Hash: hash})
	return err
}

// PreMove enters, for the person whose token is given, a choice for the
// running auction to be played when their turn comes: "pass" or "bid N"
// (a record token); the empty move withdraws it. It replaces the seat's
// last pre-move and is shown to its owner only.
func (h *Hub) PreMove(ctx context.Context, id, token, move string) error {
	hash := hashToken(token)
	_, err := h.write(ctx, match.Command{Kind: match.EnterPreMove, Game: id, Hash: hash, Move: move})
	return err
}

// Leave hands the seat of the person whose token is given to a server bot
// (StandInLevel) for the rest of the game, or until they come back as
// after a timeout: the others are never stuck with a player who left.
func (h *Hub) Leave(ctx context.Context, id, token string) error {
	hash := hashToken(token)
	_, err := h.write(ctx, match.Command{Kind: match.Leave, Game: id, Hash: hash})
	return err
}

// Play makes the move (a record token) for the seat whose token is given.
// Only the seat to move may play; a draw names no card, since the server
// draws it. seq, when not negative, is the number of moves the player saw:
// if the game has moved on since, the move is rejected with ErrStale.
func (h *Hub) Play(ctx context.Context, id, token, move string, seq int) error {
	hash := hashToken(token)
	_, err := h.write(ctx, match.Command{Kind: match.Play, Game: id, Hash: hash, Move: move, Seq: seq})
	return err
}
