package protocol

import (
	"errors"
	"fmt"
	"time"
)

// The types of the chat's WebSocket messages.
const (
	// TypeChat is both ways: the client's ChatSend, the server's
	// ChatMessage.
	TypeChat = "chat"
	// TypeMute and TypeUnmute hide and show again a player's messages to
	// the sender's connections (MuteMessage).
	TypeMute   = "mute"   // client to server
	TypeUnmute = "unmute" // client to server
)

// The chat's channels: the players write in the first, which spectators
// read too; the spectators write in the second, which players never see
// during the game. internal/chat names them (a test checks they agree).
const (
	ChannelPlayers    = "players"
	ChannelSpectators = "spectators"
)

// A ChatSend is the client's "chat": a quick phrase by its id (listed in
// docs/protocol.md), or free text, exactly one of them.
type ChatSend struct {
	Type   string `json:"type"` // TypeChat
	Phrase string `json:"phrase,omitempty"`
	Text   string `json:"text,omitempty"`
}

// Check reports what is wrong with the message's form; the chat's own
// rules (length, characters, rate) are the table's to judge.
func (m *ChatSend) Check() error {
	switch {
	case m.Type != TypeChat:
		return fmt.Errorf("a chat message has type %q, not %q", TypeChat, m.Type)
	case m.Phrase != "" && m.Text != "":
		return errors.New(`a chat message is a quick phrase ("phrase") or free text ("text"), not both`)
	case m.Phrase == "" && m.Text == "":
		return errors.New(`a chat message needs "phrase", a quick phrase's id such as "gg", or "text"`)
	}
	return nil
}

// A MuteMessage is the client's "mute" or "unmute" of the player at
// Seat: the sender's connections get that player's messages as muted
// copies, without their content, until unmuted. It lasts for the game.
type MuteMessage struct {
	Type string `json:"type"` // TypeMute or TypeUnmute
	Seat *int   `json:"seat"`
}

// Check reports what is wrong with the message's form.
func (m *MuteMessage) Check() error {
	switch {
	case m.Type != TypeMute && m.Type != TypeUnmute:
		return fmt.Errorf("a mute message has type %q or %q, not %q", TypeMute, TypeUnmute, m.Type)
	case m.Seat == nil:
		return fmt.Errorf(`%q needs "seat", the player's seat`, m.Type)
	case *m.Seat < 0:
		return fmt.Errorf(`"seat" is a seat number, not %d`, *m.Seat)
	}
	return nil
}

// A ChatLine is one message of a table's chat as one reader sees it: in
// the server's "chat" messages, and (the players' channel) in a replay.
// Exactly one of Phrase and Text is set, except in a muted copy, which
// has neither. Text is plain text, never markup: a client shows it as
// text, and a link in it stays text.
type ChatLine struct {
	// Seq is the line's place in the game's chat, 0 the first: a line
	// sent again with the same seq replaces the one shown (removed).
	Seq     int    `json:"seq"`
	Seat    int    `json:"seat"` // the sender's seat; -1 for a spectator
	Name    string `json:"name"`
	Channel string `json:"channel"`          // ChannelPlayers or ChannelSpectators
	Phrase  string `json:"phrase,omitempty"` // a quick phrase's id: its text is the catalogue's chat.phrase.<id>
	Text    string `json:"text,omitempty"`   // free text
	// Move is the number of moves played when the message was sent: a
	// replay shows it after that move.
	Move  int       `json:"move"`
	At    time.Time `json:"at"`
	Muted bool      `json:"muted,omitempty"` // the reader muted the sender: the content is withheld
	// Removed is a line an operator removed: its content is withheld
	// from everyone.
	Removed bool `json:"removed,omitempty"`
}

// A ChatMessage is the server's "chat": the lines the connection has not
// had yet (on connecting, the whole conversation it may read), and the
// seats its reader muted.
type ChatMessage struct {
	Type  string     `json:"type"` // TypeChat
	Lines []ChatLine `json:"lines"`
	Muted []int      `json:"muted"`
}
