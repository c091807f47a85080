package table

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// Table chat (issue 12). While the game is live, its goroutine owns the
// conversation as it owns the moves: the owner checks a message (internal/chat: a quick
// phrase, or free text from someone signed in, rate-limited), stores it
// with the game, and sends it to its watchers; a replica hears of it from
// the store (ChangeChat) and sends it to its own. Messages and mutes sent
// to a replica are passed to the owner like moves.
//
// Who writes where: the players in the players' channel, which everyone
// at the table reads, as on lichess; signed-in spectators in the
// spectators' channel, which players never see during the game, so that
// no kibitzer can advise them. An anonymous spectator reads and does not
// write: there is nobody to rate-limit or to mute. A reader who muted a
// player gets that player's messages as muted copies, without their
// content, on every connection. Once the game is over the chat goes on
// for a while without the game's goroutine (afterchat.go).

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
	_, err := h.write(ctx, r, func(g *store.Game) error { return h.chatAfter(ctx, g, r) })
	return err
}

// Mute hides (on) or shows again (!on) the messages of the player at seat
// from whoever holds token, or from the signed-in account watching, on
// all their connections, also after the game, with Chat's bound.
func (h *Hub) Mute(ctx context.Context, id, token, account string, seat int, on bool) error {
	r := match.Command{Kind: match.Mute, Game: id, Hash: hashToken(token), Account: account, Seat: seat, Mute: on}
	_, err := h.write(ctx, r, func(g *store.Game) error { return h.chatAfter(ctx, g, r) })
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

// seatKey and accountKey name a writer or reader of the chat: for rate
// limits and mutes, and in the store. Only seats are ever shown.
func seatKey(seat int) string          { return "seat:" + strconv.Itoa(seat) }
func accountKey(account string) string { return "account:" + account }

// seatOfKey returns the seat a key names, or -1.
func seatOfKey(key string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(key, "seat:"))
	if err != nil || !strings.HasPrefix(key, "seat:") {
		return -1
	}
	return n
}

// chatter returns who, at a table of seats, the holder of hash or the
// account is, and their seat (-1 for a spectator); an anonymous spectator
// is nobody.
func chatter(seats []store.Seat, hash []byte, account string) (chat.Person, int, bool) {
	if seat := match.SeatOf(seats, hash); seat >= 0 {
		return chat.Person{ID: seatKey(seat), SignedIn: seats[seat].Account != "" || account != ""}, seat, true
	}
	if account != "" {
		return chat.Person{ID: accountKey(account), Spectator: true, SignedIn: true}, -1, true
	}
	return chat.Person{}, -1, false
}

// reader returns who reads through s.
func (s *Subscription) reader() chat.Person {
	if s.seat >= 0 {
		return chat.Person{ID: seatKey(s.seat)}
	}
	p := chat.Person{Spectator: true}
	if s.account != "" {
		p.ID = accountKey(s.account)
	}
	return p
}

// chatError turns internal/chat's refusal into the Hub's.
func chatError(err error) error {
	var ce *chat.Error
	if !errors.As(err, &ce) {
		return internal(err)
	}
	return &Error{Kind: ce.Err, Msg: strings.TrimPrefix(ce.Error(), "chat: "), RetryAfter: ce.RetryAfter}
}

// chatChannel returns the channel the person at seat of seats (-1: a
// spectator, whose name is given) writes in, and their name.
func chatChannel(seats []store.Seat, seat int, name string) (chat.Channel, string) {
	if seat >= 0 {
		return chat.Players, seats[seat].Name
	}
	return chat.Spectators, name
}

// muteTarget returns the key of the person at seat of seats, whom p would
// mute, or why p cannot.
func muteTarget(seats []store.Seat, p chat.Person, seat int) (string, error) {
	switch {
	case seat < 0 || seat >= len(seats):
		return "", reject(chat.ErrChannel, "there is no seat %d: the seats are 0 to %d", seat, len(seats)-1)
	case seats[seat].Bot != "" || seats[seat].Name == "":
		return "", reject(chat.ErrChannel, "seat %d is not a person's: there is nobody to mute", seat)
	case seatKey(seat) == p.ID:
		return "", reject(chat.ErrMuteSelf, "one cannot mute oneself")
	}
	return seatKey(seat), nil
}

// postChat checks, stores and sends a message; see Hub.Chat.
func (l *loop) postChat(r match.Command) error {
	if !l.m.Status.Live() {
		return errEnded // the game is over: the chat after it is the Hub's
	}
	p, seat, ok := chatter(l.m.Seats, r.Hash, r.Account)
	if !ok {
		return reject(chat.ErrSignIn, "spectators sign in to chat; everyone can read along")
	}
	ch, name := chatChannel(l.m.Seats, seat, r.Name)
	now := l.h.opts.Now()
	m, err := l.room.Post(p, ch, r.Phrase, r.Text, now)
	if err != nil {
		return chatError(err)
	}
	line := store.ChatLine{Channel: ch.String(), From: p.ID, Seat: seat, Name: name, Phrase: m.Phrase, Text: m.Text, At: now.UTC().Round(0)}
	if l.m.Game != nil {
		line.Move = l.m.Game.Len()
	}
	if err := l.commitChat("store a chat message", func(ctx context.Context) error {
		return l.h.store.AddChat(ctx, l.id, l.lease.Fence, line)
	}); err != nil {
		return err
	}
	l.chat = append(l.chat, line)
	for s := range l.subs {
		l.chatTo(s, l.chat[len(l.chat)-1:])
	}
	return nil
}

// mute records a mute or unmute; see Hub.Mute.
func (l *loop) mute(r match.Command) error {
	if !l.m.Status.Live() {
		return errEnded // the game is over: the chat after it is the Hub's
	}
	p, _, ok := chatter(l.m.Seats, r.Hash, r.Account)
	if !ok {
		return reject(chat.ErrSignIn, "spectators sign in to mute a player")
	}
	target, err := muteTarget(l.m.Seats, p, r.Seat)
	if err != nil {
		return err
	}
	if slices.Contains(l.room.Muted(p.ID), target) == r.Mute {
		return nil // nothing changes
	}
	if err := l.commitChat("store a mute", func(ctx context.Context) error {
		return l.h.store.SetMute(ctx, l.id, l.lease.Fence, store.Mute{Muter: p.ID, Muted: target}, r.Mute)
	}); err != nil {
		return err
	}
	if r.Mute {
		l.room.Mute(p.ID, target)
	} else {
		l.room.Unmute(p.ID, target)
	}
	for s := range l.subs {
		if s.reader().ID == p.ID {
			l.chatTo(s, nil)
		}
	}
	return nil
}

// commitChat makes a chat write (what names it) in the store, as the
// owner: nothing changed when it fails.
func (l *loop) commitChat(what string, write func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(l.h.ctx, commitTimeout)
	defer cancel()
	if err := write(ctx); err != nil {
		if errors.Is(err, store.ErrLeaseLost) {
			return l.lostLease(err)
		}
		return l.h.failed(what, l.id, err)
	}
	return nil
}

// syncChat reads the game's chat from the store: at the loop's start,
// and in a replica when the owner changed it. New messages and changed
// mutes go to the watchers.
func (l *loop) syncChat() {
	ctx, cancel := context.WithTimeout(l.h.ctx, commitTimeout)
	defer cancel()
	c, err := l.h.store.Chat(ctx, l.id)
	if err != nil {
		l.h.log.Error("cannot read the chat", "game", l.id, "err", err)
		if l.room == nil {
			l.room = roomOf(nil) // the conversation is read again at the next change
		}
		return
	}
	var added []store.ChatLine
	if len(c.Lines) > len(l.chat) {
		added = c.Lines[len(l.chat):]
	}
	l.chat = c.Lines
	if l.room == nil || !l.owns() {
		// A replica's room only shows; an owner's keeps its rate limits,
		// and the mutes it stored itself.
		l.room = roomOf(c.Mutes)
	}
	for s := range l.subs {
		l.chatTo(s, added)
	}
}

// chatTo sends s the lines its reader may see, and the seats it muted
// when they changed.
func (l *loop) chatTo(s *Subscription, lines []store.ChatLine) {
	s.tell(l.room, lines, l.m.Game != nil && l.m.Game.Over())
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

// roomOf returns a chat room with the stored mutes.
func roomOf(mutes []store.Mute) *chat.Room {
	room := chat.NewRoom(chat.DefaultLimits)
	for _, m := range mutes {
		room.Mute(m.Muter, m.Muted)
	}
	return room
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
			if seat := seatOfKey(key); seat >= 0 {
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
