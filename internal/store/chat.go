package store

import (
	"context"
	"fmt"
	"time"
	"unicode/utf8"
)

// Chats keeps the table chat of games (issue 12): the messages, in the
// order they were sent, and who muted whom. Only the game's owner writes
// them, with its fence, while the game is live; anyone reads them, for
// as long as the game is kept.
type Chats interface {
	// AddChat stores a message of live game id: ErrConflict when the game
	// is not live, ErrNotFound when unknown, ErrLeaseLost for a fence
	// that does not hold its lease. It is announced as ChangeChat.
	AddChat(ctx context.Context, id string, fence Fence, m ChatLine) error
	// SetMute records that muter muted (on) or unmuted (!on) muted at
	// live game id, with AddChat's errors; muting twice or unmuting
	// someone not muted changes nothing. It is announced as ChangeChat.
	SetMute(ctx context.Context, id string, fence Fence, m Mute, on bool) error
	// Chat returns game id's messages in the order stored and its mutes,
	// sorted; ErrNotFound for an unknown game.
	Chat(ctx context.Context, id string) (Chat, error)
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
