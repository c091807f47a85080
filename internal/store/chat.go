package store

import (
	"context"
	"fmt"
	"time"
	"unicode/utf8"
)

// Chats keeps the table chat of games: the messages, in the
// order they were sent, and who muted whom. While the game is live only
// its owner writes them, with its fence; once it is finished, any node
// does, without a fence (the chat after the game: no goroutine runs the
// game then). Anyone reads them, for as long as the game is kept.
type Chats interface {
	// AddChat stores a message of game id, as CheckChatWrite allows:
	// ErrNotFound when unknown. It is announced as ChangeChat; the game's
	// Updated time stays (a finished game's is when it ended).
	AddChat(ctx context.Context, id string, fence Fence, m ChatLine) error
	// SetMute records that muter muted (on) or unmuted (!on) muted at
	// game id, with AddChat's errors; muting twice or unmuting someone
	// not muted changes nothing. It is announced as ChangeChat.
	SetMute(ctx context.Context, id string, fence Fence, m Mute, on bool) error
	// Chat returns game id's messages in the order stored and its mutes,
	// sorted; ErrNotFound for an unknown game.
	Chat(ctx context.Context, id string) (Chat, error)
}

// CheckChatWrite reports whether a chat write with fence may go ahead
// at game id, of status st and lease l, at now: at a live game only with
// the fence of its lease (else ErrLeaseLost); at a finished game only
// without one (NoFence; else ErrLeaseLost: the game's lease ended with
// it); at any other game (archived, expired, cancelled) never
// (ErrConflict). Every store applies it, so the rule is one.
func CheckChatWrite(id string, st Status, l Lease, fence Fence, now time.Time) error {
	switch {
	case st.Live():
		if !l.Permits(fence, now) {
			return fmt.Errorf("game %q fence %d: %w", id, fence, ErrLeaseLost)
		}
	case st == StatusFinished:
		if fence != NoFence {
			return fmt.Errorf("game %q is over: its chat is written without a fence, not %d: %w", id, fence, ErrLeaseLost)
		}
	default:
		return fmt.Errorf("game %q is %s: it has no chat to write: %w", id, st, ErrConflict)
	}
	return nil
}

// A ChatLine is one stored chat message. The store keeps its fields as
// they are; internal/chat checked them.
type ChatLine struct {
	Channel string // "players" or "spectators"
	From    string // the sender's key for mutes and rate limits: a seat or an account
	Seat    int    // the sender's seat; -1 for a spectator
	Name    string // the sender's name as shown
	Phrase  string // a quick phrase's id, or
	Text    string // free text
	Move    int    // the moves played when it was sent
	At      time.Time
	// Seq is the line's place in its game's chat, 0 the first: Chat
	// numbers the lines, AddChat ignores it.
	Seq int
	// Removed is a line an operator removed (Moderation.StrikeChat): its
	// text is kept for the operators and shown to nobody else.
	Removed bool
}

// A Mute is one reader (Muter) who sees nothing of a sender's (Muted)
// messages. Both are sender keys, as in ChatLine.From.
type Mute struct {
	Muter, Muted string
}

// A Chat is a game's conversation as stored.
type Chat struct {
	Lines []ChatLine
	Mutes []Mute // sorted by Muter, then Muted
}

// MaxChatBytes bounds the bytes of a stored message's text, a generous
// bound on internal/chat's 200 characters.
const MaxChatBytes = 2048

// Check reports what makes m unfit to store for game id: no channel or
// sender, both or neither of a phrase and a text, text too long or not
// UTF-8.
func (m ChatLine) Check(id string) error {
	switch {
	case m.Channel == "" || m.From == "":
		return fmt.Errorf("game %q: a chat message without a channel or a sender", id)
	case (m.Phrase == "") == (m.Text == ""):
		return fmt.Errorf("game %q: a chat message with both or neither of a phrase and a text", id)
	case len(m.Text) > MaxChatBytes || len(m.Phrase) > MaxChatBytes || len(m.Name) > MaxChatBytes:
		return fmt.Errorf("game %q: a chat message of over %d bytes", id, MaxChatBytes)
	case !utf8.ValidString(m.Text) || !utf8.ValidString(m.Name):
		return fmt.Errorf("game %q: a chat message that is not UTF-8", id)
	case m.Move < 0:
		return fmt.Errorf("game %q: a chat message at move %d", id, m.Move)
	}
	return nil
}

// Check reports what makes m unfit to store for game id: an empty key,
// or a reader muting themselves.
func (m Mute) Check(id string) error {
	switch {
	case m.Muter == "" || m.Muted == "":
		return fmt.Errorf("game %q: a mute without a reader or a sender", id)
	case m.Muter == m.Muted:
		return fmt.Errorf("game %q: %q mutes themselves", id, m.Muter)
	}
	return nil
}
