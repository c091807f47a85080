package table

import (
	"context"
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

// Chat sends a message to the table's chat for whoever holds token (a
// seat), or for the signed-in account (id and name) watching: a quick
// phrase by its id or free text, exactly one. A refusal is an *Error
// whose Kind is one of internal/chat's sentinels (ErrTooLong, ErrTooFast
// with RetryAfter, ErrBadChar, ErrSignIn, ...), and ErrClosed once
// chat.AfterGame has passed since the game ended; nothing changed then.
func (h *Hub) Chat(ctx context.Context, id, token, account, name, phrase, text string) error {
	r := match.Command{Kind: match.Chat, Game: id, Hash: hashToken(token), Account: account, Name: name, Phrase: phrase, Text: text}
	_, err := h.write(ctx, r)
	return err
}

// Mute hides (on) or shows again (!on) the messages of the player at seat
// from whoever holds token, or from the signed-in account watching, on
// all their connections, also after the game, with Chat's bound.
func (h *Hub) Mute(ctx context.Context, id, token, account string, seat int, on bool) error {
	r := match.Command{Kind: match.Mute, Game: id, Hash: hashToken(token), Account: account, Seat: seat, Mute: on}
	_, err := h.write(ctx, r)
	return err
}

// ChatLog returns the players' channel of game id's chat as a replay
// shows it: every message, none muted.
func (h *Hub) ChatLog(ctx context.Context, id string) ([]protocol.ChatLine, error) {
	if !protocol.ValidID(id) {
		return nil, notFound(id)
	}
	c, err := h.store.Chat(ctx, id)
	if err != nil {
		return nil, h.storeError("read the chat of game", id, err)
	}
	out := []protocol.ChatLine{}
	for _, m := range c.Lines {
		if m.Channel == chat.Players.String() {
			out = append(out, chatLine(m))
		}
	}
	return out, nil
}

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

// syncChat reads the game's chat from the store: at the loop's start,
// and in a replica when the owner changed it. New messages and changed
// mutes go to the watchers.
func (l *loop) syncChat() {
	ctx, cancel := context.WithTimeout(l.env.ctx, commitTimeout)
	defer cancel()
	c, err := l.env.store.Chat(ctx, l.id)
	if err != nil {
		l.env.log.Error("cannot read the chat", "game", l.id, "err", err)
		if l.m.Room == nil {
			l.m.Room = match.RoomOf(nil) // the conversation is read again at the next change
		}
		return
	}
	var added []store.ChatLine
	if len(c.Lines) > len(l.m.Chat) {
		added = c.Lines[len(l.m.Chat):]
	}
	l.m.Chat = c.Lines
	if l.m.Room == nil || !l.owns() {
		// A replica's room only shows; an owner's keeps its rate limits,
		// and the mutes it stored itself.
		l.m.Room = match.RoomOf(c.Mutes)
	}
	for s := range l.subs {
		l.chatTo(s, added)
	}
}

// chatTo sends s the lines its reader may see, and the seats it muted
// when they changed.
func (l *loop) chatTo(s *Subscription, lines []store.ChatLine) {
	s.tell(l.m.Room, lines, l.m.Game != nil && l.m.Game.Over())
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
		if v.Muted {
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

// chatLine is a stored message as the protocol shows it.
func chatLine(m store.ChatLine) protocol.ChatLine {
	return protocol.ChatLine{Seat: m.Seat, Name: m.Name, Channel: m.Channel, Phrase: m.Phrase, Text: m.Text, Move: m.Move, At: m.At}
}
