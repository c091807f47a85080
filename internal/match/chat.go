package match

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/store"
)

// The table's chat: the players write in the players' channel, which
// everyone at the table reads; signed-in spectators in the spectators'
// channel, which players never see during the game, so that no kibitzer
// can advise them. An anonymous spectator reads and does not write: there
// is nobody to rate-limit or to mute. internal/chat judges the messages;
// the match keeps the room (its rate limits and mutes) and the lines.

// SeatKey and AccountKey name a writer or reader of the chat: for rate
// limits and mutes, and in the store. Only seats are ever shown.
func SeatKey(seat int) string { return "seat:" + strconv.Itoa(seat) }

// AccountKey names a signed-in spectator; see SeatKey.
func AccountKey(account string) string { return "account:" + account }

// SeatOfKey returns the seat a key names, or -1.
func SeatOfKey(key string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(key, "seat:"))
	if err != nil || !strings.HasPrefix(key, "seat:") {
		return -1
	}
	return n
}

// Chatter returns who, at a table of seats, the holder of hash or the
// account is, and their seat (-1 for a spectator); an anonymous spectator
// is nobody.
func Chatter(seats []store.Seat, hash []byte, account string) (chat.Person, int, bool) {
	if seat := SeatOf(seats, hash); seat >= 0 {
		return chat.Person{ID: SeatKey(seat), SignedIn: seats[seat].Account != "" || account != ""}, seat, true
	}
	if account != "" {
		return chat.Person{ID: AccountKey(account), Spectator: true, SignedIn: true}, -1, true
	}
	return chat.Person{}, -1, false
}

// ChatChannel returns the channel the person at seat of seats (-1: a
// spectator, whose name is given) writes in, and their name.
func ChatChannel(seats []store.Seat, seat int, name string) (chat.Channel, string) {
	if seat >= 0 {
		return chat.Players, seats[seat].Name
	}
	return chat.Spectators, name
}

// chatRefusal is the refusal of a chat command for a reason of
// internal/chat: the sentinel kind, or a *chat.Error naming it.
func chatRefusal(kind error, format string, args ...any) *Refusal {
	r := refuse(kind, format, args...)
	if ce := (*chat.Error)(nil); errors.As(kind, &ce) {
		r.Kind, r.Err = ce.Err, ce
	}
	return r
}

// ChatRefusal is the refusal of a message internal/chat refused (err:
// a *chat.Error), with the wait of a message sent too fast.
func ChatRefusal(err error) *Refusal {
	var ce *chat.Error
	if !errors.As(err, &ce) {
		return &Refusal{Kind: ErrInternal, Msg: "internal error: please try again", Err: err}
	}
	return &Refusal{Kind: ce.Err, Msg: strings.TrimPrefix(ce.Error(), "chat: "), Err: ce, RetryAfter: ce.RetryAfter}
}

// SignInRefusal is the refusal of an anonymous spectator's chat command;
// what names what they tried.
func SignInRefusal(what string) *Refusal {
	return chatRefusal(chat.ErrSignIn, "spectators sign in to %s", what)
}

// MuteTarget returns the key of the person at seat of seats, whom p would
// mute, or why p cannot.
func MuteTarget(seats []store.Seat, p chat.Person, seat int) (string, error) {
	switch {
	case seat < 0 || seat >= len(seats):
		return "", chatRefusal(chat.ErrChannel, "there is no seat %d: the seats are 0 to %d", seat, len(seats)-1)
	case seats[seat].Bot != "" || seats[seat].Name == "":
		return "", chatRefusal(chat.ErrChannel, "seat %d is not a person's: there is nobody to mute", seat)
	case SeatKey(seat) == p.ID:
		return "", chatRefusal(chat.ErrMuteSelf, "one cannot mute oneself")
	}
	return SeatKey(seat), nil
}

// post decides a message of a live game at now, within its sender's rate
// limit; Apply takes it from the limit, once it is stored.
func (m *Match) post(c Command, now time.Time) (Result, error) {
	p, seat, ok := Chatter(m.Seats, c.Hash, c.Account)
	if !ok {
		return Result{}, SignInRefusal("chat; everyone can read along")
	}
	ch, name := ChatChannel(m.Seats, seat, c.Name)
	msg, err := m.roomNow().Check(p, ch, c.Phrase, c.Text, now)
	if err != nil {
		return Result{}, ChatRefusal(err)
	}
	line := store.ChatLine{Channel: ch.String(), From: p.ID, Seat: seat, Name: name, Phrase: msg.Phrase, Text: msg.Text,
		At: now.UTC().Round(0), Move: m.Moves()}
	r := Result{Write: Write{Kind: AddChat, Line: line}, next: &change{line: &line}}
	r.Said = []store.ChatLine{line}
	return r, nil
}

// mute decides a mute (c.Mute) or unmute of the person at c.Seat by the
// sender of c. The result is empty when nothing changes.
func (m *Match) mute(c Command) (Result, error) {
	p, _, ok := Chatter(m.Seats, c.Hash, c.Account)
	if !ok {
		return Result{}, SignInRefusal("mute a player")
	}
	target, err := MuteTarget(m.Seats, p, c.Seat)
	if err != nil {
		return Result{}, err
	}
	if slices.Contains(m.roomNow().Muted(p.ID), target) == c.Mute {
		return Result{}, nil
	}
	mute := store.Mute{Muter: p.ID, Muted: target}
	r := Result{Write: Write{Kind: SetMute, Mute: mute, On: c.Mute}, next: &change{mute: &mute, on: c.Mute}}
	r.Muter = p.ID
	return r, nil
}

// AfterGame decides a chat command c (a message or a mute) at game g,
// which is over, at now: the chat goes on for chat.AfterGame after the
// game's end, both channels open to everyone, within the rate limits of
// room, which deciding does not change. It returns the write to make
// without a fence (store.NoFence): no goroutine runs the game any more.
// An uploaded record has no chat.
func AfterGame(c Command, g *store.Game, room *chat.Room, now time.Time) (Write, error) {
	if g.Status != store.StatusFinished {
		return Write{}, chatRefusal(chat.ErrClosed, "an uploaded record has no table chat")
	}
	if err := chat.CheckOpen(g.Updated, now); err != nil {
		return Write{}, ChatRefusal(err)
	}
	p, seat, ok := Chatter(g.Seats, c.Hash, c.Account)
	if !ok {
		return Write{}, SignInRefusal("chat; everyone can read along")
	}
	switch c.Kind {
	case Chat:
		ch, name := ChatChannel(g.Seats, seat, c.Name)
		m, err := room.Check(p, ch, c.Phrase, c.Text, now)
		if err != nil {
			return Write{}, ChatRefusal(err)
		}
		line := store.ChatLine{Channel: ch.String(), From: p.ID, Seat: seat, Name: name, Phrase: m.Phrase, Text: m.Text,
			Move: len(g.Moves), At: now.UTC().Round(0)}
		return Write{Kind: AddChat, Line: line}, nil
	case Mute:
		target, err := MuteTarget(g.Seats, p, c.Seat)
		if err != nil {
			return Write{}, err
		}
		return Write{Kind: SetMute, Mute: store.Mute{Muter: p.ID, Muted: target}, On: c.Mute}, nil
	}
	return Write{}, unsupported(c.Kind)
}
