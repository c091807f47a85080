package table

import (
	"slices"

	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// Table chat. While the game is live, its goroutine owns the
// conversation as it owns the moves: the match decides a message or a
// mute (internal/match: who writes where, who may mute whom), the owner
// stores it with the game and sends it to its watchers; a replica hears
// of it from the store (ChangeChat) and sends it to its own. Messages and
// mutes sent to a replica are passed to the owner like moves. A reader
// who muted a player gets that player's messages as muted copies, without
// their content, on every connection. Once the game is over the chat goes
// on for a while without the game's goroutine (afterchat.go).

// maxPending bounds the chat lines waiting for a slow connection: the
// oldest are dropped (the conversation is stored; a reconnect reads it).
const maxPending = 200

// reader returns who reads through s.
func (s *Subscription) reader() chat.Person {
	if s.seat >= 0 {
		return chat.Person{ID: match.SeatKey(s.seat)}
	}
	p := chat.Person{Spectator: true}
	if s.account != "" {
		p.ID = match.AccountKey(s.account)
	}
	return p
}

// tell sends s the lines of a game (over or not) its reader may see in
// room, and the seats it muted when they changed: without blocking,
// merged with a message s has not taken yet. Its one sender at a time
// calls it: the game's goroutine, then, once the game is over, the Hub's
// followers of the chat after the game under their lock.
func (s *Subscription) tell(room *chat.Room, lines []store.ChatLine, over bool) {
	msg := chatMessage(room, s.reader(), lines, over)
	if len(msg.Lines) == 0 && slices.Equal(msg.Muted, s.muted) {
		return // nothing new: a connection to a quiet table hears nothing of the chat
	}
	s.muted = msg.Muted
	select {
	case old := <-s.chat:
		msg.Lines = append(old.Lines, msg.Lines...)
	default:
	}
	if n := len(msg.Lines); n > maxPending {
		msg.Lines = msg.Lines[n-maxPending:]
	}
	s.chat <- msg // the buffer has room: the caller is the only sender
}

// chatMessage returns the lines reader sees of lines, muted copies for
// the senders they muted, and the seats they muted.
func chatMessage(room *chat.Room, reader chat.Person, lines []store.ChatLine, over bool) protocol.ChatMessage {
	msg := protocol.ChatMessage{Type: protocol.TypeChat, Lines: []protocol.ChatLine{}, Muted: []int{}}
	for _, m := range lines {
		var ch chat.Channel
		if ch.UnmarshalText([]byte(m.Channel)) != nil {
			continue
		}
		v, ok := room.View(reader, chat.Message{Channel: ch, From: m.From, Phrase: m.Phrase, Text: m.Text, At: m.At}, over)
		if !ok {
			continue
		}
		line := chatLine(m)
		if v.Muted && !m.Removed {
			line.Phrase, line.Text, line.Muted = "", "", true
		}
		msg.Lines = append(msg.Lines, line)
	}
	if reader.ID != "" {
		for _, key := range room.Muted(reader.ID) {
			if seat := match.SeatOfKey(key); seat >= 0 {
				msg.Muted = append(msg.Muted, seat)
			}
		}
	}
	return msg
}

// chatLine is a stored message as the protocol shows it: one an operator
// removed, without its words, to everyone.
func chatLine(m store.ChatLine) protocol.ChatLine {
	l := protocol.ChatLine{Seq: m.Seq, Seat: m.Seat, Name: m.Name, Channel: m.Channel, Phrase: m.Phrase, Text: m.Text, Move: m.Move, At: m.At}
	if m.Removed {
		l.Phrase, l.Text, l.Removed = "", "", true
	}
	return l
}
