// Package chat holds the rules of table chat: quick phrases
// anyone at a table can send, free text for signed-in people, checked and
// rate-limited, two channels, and mute lists.
//
// Quick phrases are ids ("gg", "thinking"); each reader sees the phrase in
// their own language (catalogue key chat.phrase.<id>). Free text is plain
// text, up to MaxRunes characters, without control, invisible or
// direction-changing characters (CheckText). It is never markup: a page
// inserts it as text, and a link in it stays text, never made clickable.
//
// Players write in the players' channel, which spectators read too;
// spectators write in their own channel, which players read only once the
// game is over, so that no kibitzer can advise a player. The chat stays
// open for AfterGame once the game is over ("gg", "Well played"), then
// closes (CheckOpen). A Room holds a
// table's rate limits and mute lists; it is owned by the table's goroutine
// and is not safe for concurrent use.
package chat

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/time/rate"

	"github.com/razziagame/razzia/internal/protocol"
)

// phrases lists the quick phrases' ids, in the order a picker shows them:
// greetings, during the game, after it.
var phrases = []string{
	"hello", "gl", "hf",
	"thinking", "brb", "back", "nice", "wow", "ouch", "oops", "sorry", "thanks",
	"wp", "gg", "rematch", "bye",
}

// Phrases returns the ids of the quick phrases, in the order a picker
// shows them. The text of phrase id is the catalogue key chat.phrase.<id>.
func Phrases() []string { return slices.Clone(phrases) }

// IsPhrase reports whether id is a quick phrase.
func IsPhrase(id string) bool { return slices.Contains(phrases, id) }

// A Channel is one of a table's two conversations.
type Channel uint8

// The channels.
const (
	Players    Channel = iota // written by the seated players, read by everyone
	Spectators                // written by spectators, read by players once the game is over
)

var channelNames = [...]string{"players", "spectators"}

// String returns "players" or "spectators".
func (c Channel) String() string {
	if int(c) < len(channelNames) {
		return channelNames[c]
	}
	return fmt.Sprintf("Channel(%d)", uint8(c))
}

// MarshalText encodes the channel as its name.
func (c Channel) MarshalText() ([]byte, error) {
	if int(c) >= len(channelNames) {
		return nil, fmt.Errorf("chat: cannot encode %v", c)
	}
	return []byte(c.String()), nil
}

// UnmarshalText decodes a channel's name.
func (c *Channel) UnmarshalText(b []byte) error {
	for i, name := range channelNames {
		if name == string(b) {
			*c = Channel(i)
			return nil
		}
	}
	return &Error{Code: "channel", Err: ErrChannel, msg: fmt.Sprintf("unknown channel %q: players or spectators", b)}
}

// A Person is someone at a table, writing or reading.
type Person struct {
	ID        string // an account or a seat's token: rate limits and mutes go by it
	Spectator bool   // watching rather than seated
	SignedIn  bool   // only signed-in people write free text
}

// channel returns the channel the person writes in.
func (p Person) channel() Channel {
	if p.Spectator {
		return Spectators
	}
	return Players
}

// A Message is one chat line, as stored with the game and sent to readers.
// Exactly one of Phrase and Text is set, except in a muted copy (View),
// which has neither.
type Message struct {
	Channel Channel   `json:"channel"`
	From    string    `json:"from"`
	Phrase  string    `json:"phrase,omitempty"` // a quick phrase's id
	Text    string    `json:"text,omitempty"`   // free text, plain
	At      time.Time `json:"at"`
	Muted   bool      `json:"muted,omitempty"` // the reader muted the sender: the content is withheld
}

// Sentinel errors, wrapped in an *Error, each declared with its protocol
// code.
var (
	ErrEmpty         = protocol.NewRefusal(protocol.ChatTooLong, "empty message")
	ErrTooLong       = protocol.NewRefusal(protocol.ChatTooLong, "message too long")
	ErrBadChar       = protocol.NewRefusal(protocol.ChatBadChar, "control or invisible character")
	ErrTooFast       = protocol.NewRefusal(protocol.ChatTooFast, "too many messages")
	ErrSignIn        = protocol.NewRefusal(protocol.ChatSignIn, "free text needs signing in")
	ErrUnknownPhrase = protocol.NewRefusal(protocol.ChatNotAllowed, "unknown quick phrase")
	ErrChannel       = protocol.NewRefusal(protocol.ChatNotAllowed, "not a channel one can write in")
	ErrMuteSelf      = protocol.NewRefusal(protocol.ChatNotAllowed, "one cannot mute oneself")
	ErrClosed        = protocol.NewRefusal(protocol.ChatClosed, "the chat is closed")
)

// An Error reports a message or mute refused; nothing changed.
type Error struct {
	// Code is the error's short name, also its catalogue key chat.error.<code>:
	// empty, too_long, bad_char, too_fast, sign_in, unknown_phrase, channel,
	// mute_self, closed.
	Code       string
	Max        int           // too_long: the most characters allowed
	RetryAfter time.Duration // too_fast: when the sender may write again
	Err        error         // the sentinel
	msg        string
}

func (e *Error) Error() string { return "chat: " + e.msg }
func (e *Error) Unwrap() error { return e.Err }

// AfterGame is how long a game's chat stays open once the game is over:
// long enough for "gg" and a word about the game, also at a
// correspondence table whose players come by once a day.
const AfterGame = 24 * time.Hour

// CheckOpen reports, at now, whether the chat of a game that ended at
// ended still takes messages and mutes: an *Error (ErrClosed) once
// AfterGame has passed.
func CheckOpen(ended, now time.Time) error {
	if closes := ended.Add(AfterGame); now.After(closes) {
		return &Error{Code: "closed", Err: ErrClosed, msg: fmt.Sprintf("the game ended at %s: its chat closed %d hours later",
			ended.UTC().Format("2006-01-02 15:04 MST"), int(AfterGame.Hours()))}
	}
	return nil
}

// MaxRunes is the longest free text, in characters (Unicode code points).
const MaxRunes = 200

// maxMarks bounds the combining marks on one character: enough for any
// language and an emoji's variation selector, too few to smear a message
// over its neighbours' lines.
const maxMarks = 4

// zwj is the zero width joiner: invisible, but it joins emoji such as 👨‍👩‍👧.
const zwj = '\u200d'

// invisible lists letters and symbols that show as nothing: fillers used
// to write blank messages or names.
var invisible = []rune{'\u115f', '\u1160', '\u3164', '\uffa0', '\u2800'}

// CheckText checks free text and returns it with the white space around it
// removed. It refuses (with an *Error) text that is empty, longer than
// MaxRunes, not UTF-8, or holds a character that is not visible: controls
// (line breaks too), format characters (direction marks and overrides,
// zero-width spaces), private-use, unassigned and line-separator code
// points, blank fillers, and more than four combining marks in a row. A
// zero width joiner is accepted between emoji only.
func CheckText(s string) (string, error) {
	bad := func(format string, args ...any) (string, error) {
		return "", &Error{Code: "bad_char", Err: ErrBadChar, msg: fmt.Sprintf(format, args...)}
	}
	if !utf8.ValidString(s) {
		return bad("the text is not valid UTF-8")
	}
	s = strings.TrimFunc(s, unicode.IsSpace)
	if s == "" {
		return "", &Error{Code: "empty", Err: ErrEmpty, msg: "the message is empty"}
	}
	if n := utf8.RuneCountInString(s); n > MaxRunes {
		return "", &Error{Code: "too_long", Max: MaxRunes, Err: ErrTooLong, msg: fmt.Sprintf("the message has %d characters; at most %d", n, MaxRunes)}
	}
	prev, marks := rune(0), 0
	for i, r := range s {
		switch {
		case r == zwj:
			next, size := utf8.DecodeRuneInString(s[i+len(string(zwj)):])
			if size == 0 || !joinsEmoji(prev, next) {
				return bad("an invisible character (U+200D) outside an emoji, at character %d", utf8.RuneCountInString(s[:i])+1)
			}
		case !unicode.IsGraphic(r) || slices.Contains(invisible, r):
			return bad("a control or invisible character (%U) at character %d", r, utf8.RuneCountInString(s[:i])+1)
		}
		if unicode.In(r, unicode.Mn, unicode.Me) {
			if marks++; marks > maxMarks {
				return bad("more than %d combining marks on one character, at character %d", maxMarks, utf8.RuneCountInString(s[:i])+1)
			}
		} else {
			marks = 0
		}
		prev = r
	}
	return s, nil
}

// joinsEmoji reports whether a zero width joiner between prev and next
// joins emoji: a symbol, a skin tone or an emoji presentation selector
// before it, and a symbol after.
func joinsEmoji(prev, next rune) bool {
	return (unicode.Is(unicode.So, prev) || unicode.Is(unicode.Sk, prev) || prev == '\ufe0f') && unicode.Is(unicode.So, next)
}

// Limits are the chat rate limits per sender: a burst of Burst messages,
// then one every Every.
type Limits struct {
	Every time.Duration
	Burst int
}

// DefaultLimits allows five messages at once, then one every three
// seconds: a conversation, not a flood.
var DefaultLimits = Limits{Every: 3 * time.Second, Burst: 5}

// A Room is one table's chat rules in force: rate limits and mute lists.
// The messages themselves are the caller's to store and send.
type Room struct {
	limits   Limits
	limiters map[string]*rate.Limiter
	mutes    map[string][]string // muter -> muted, sorted
}

// NewRoom returns the chat room of a table with the given limits.
func NewRoom(limits Limits) *Room {
	return &Room{limits: limits, limiters: map[string]*rate.Limiter{}, mutes: map[string][]string{}}
}

// pruneAt is the number of rate limiters kept before full ones, of
// senders who have been quiet long enough, are dropped.
const pruneAt = 256

// Post checks a message from a person at time now and takes it from
// their rate limit (Check, then Take). It returns the message to store
// and send, or an *Error: a refused message costs nothing and changes
// nothing.
func (r *Room) Post(from Person, ch Channel, phrase, text string, now time.Time) (Message, error) {
	m, err := r.Check(from, ch, phrase, text, now)
	if err != nil {
		return Message{}, err
	}
	r.Take(from.ID, now)
	return m, nil
}

// Check checks a message from a person at time now: a quick phrase (its
// id) or free text, exactly one, in the channel the person writes in,
// within their rate limit. It returns the message to store and send, or
// an *Error, and changes nothing: a message is taken from the rate limit
// by Take once it is sent, so that one checked and then not sent (its
// write failed) costs nothing.
func (r *Room) Check(from Person, ch Channel, phrase, text string, now time.Time) (Message, error) {
	fail := func(code string, err error, format string, args ...any) (Message, error) {
		return Message{}, &Error{Code: code, Err: err, msg: fmt.Sprintf(format, args...)}
	}
	if ch != from.channel() {
		if from.Spectator {
			return fail("channel", ErrChannel, "spectators write in the spectators' channel, not the %s'", ch)
		}
		return fail("channel", ErrChannel, "players write in the players' channel, not the %s'", ch)
	}
	m := Message{Channel: ch, From: from.ID, At: now}
	switch {
	case phrase != "" && text != "":
		return fail("bad_char", ErrBadChar, "a message is a quick phrase or text, not both")
	case phrase != "":
		if !IsPhrase(phrase) {
			return fail("unknown_phrase", ErrUnknownPhrase, "no quick phrase %q", phrase)
		}
		m.Phrase = phrase
	default:
		if !from.SignedIn {
			return fail("sign_in", ErrSignIn, "sign in to write free text; quick phrases are open to everyone")
		}
		t, err := CheckText(text)
		if err != nil {
			return Message{}, err
		}
		m.Text = t
	}
	if wait := r.wait(from.ID, now); wait > 0 {
		e := &Error{Code: "too_fast", RetryAfter: wait, Err: ErrTooFast, msg: fmt.Sprintf("too many messages; wait %v", wait)}
		return Message{}, e
	}
	return m, nil
}

// wait returns how long until the sender has a token at now: 0 when they
// have one. It spends nothing.
func (r *Room) wait(sender string, now time.Time) time.Duration {
	lim, ok := r.limiters[sender]
	if !ok {
		return 0 // a sender never heard from has the whole burst
	}
	tokens := lim.TokensAt(now)
	if tokens >= 1 {
		return 0
	}
	return time.Duration((1 - tokens) * float64(r.limits.Every)).Round(time.Millisecond)
}

// Take spends one of the sender's tokens at now, for a message Check
// passed and that was sent. Without a token left (a message sent without
// Check) it spends nothing.
func (r *Room) Take(sender string, now time.Time) {
	lim, ok := r.limiters[sender]
	if !ok {
		if len(r.limiters) >= pruneAt {
			r.prune(now)
		}
		lim = rate.NewLimiter(rate.Every(r.limits.Every), r.limits.Burst)
		r.limiters[sender] = lim
	}
	lim.AllowN(now, 1)
}

// prune forgets the limiters that are full again: their senders would
// start afresh anyway.
func (r *Room) prune(now time.Time) {
	for id, lim := range r.limiters {
		if lim.TokensAt(now) >= float64(r.limits.Burst) {
			delete(r.limiters, id)
		}
	}
}

// Mute makes muter see nothing of muted's messages; it returns an *Error
// for muting oneself.
func (r *Room) Mute(muter, muted string) error {
	if muter == muted {
		return &Error{Code: "mute_self", Err: ErrMuteSelf, msg: "one cannot mute oneself"}
	}
	list := r.mutes[muter]
	if i, found := slices.BinarySearch(list, muted); !found {
		r.mutes[muter] = slices.Insert(list, i, muted)
	}
	return nil
}

// Unmute undoes Mute; unmuting someone not muted does nothing.
func (r *Room) Unmute(muter, muted string) {
	list := r.mutes[muter]
	if i, found := slices.BinarySearch(list, muted); found {
		r.mutes[muter] = slices.Delete(list, i, i+1)
	}
	if len(r.mutes[muter]) == 0 {
		delete(r.mutes, muter)
	}
}

// Muted returns whom muter has muted, sorted.
func (r *Room) Muted(muter string) []string { return slices.Clone(r.mutes[muter]) }

// View returns the message as reader sees it, and whether reader sees it
// at all: the spectators' channel is hidden from players until the game is
// over; a message from someone reader muted comes as a muted copy, with
// the sender and the time but no content, which a page shows as
// chat.muted ("Message from a muted player"). One's own messages are
// always seen.
func (r *Room) View(reader Person, m Message, over bool) (Message, bool) {
	if m.Channel == Spectators && !reader.Spectator && !over {
		return Message{}, false
	}
	if m.From != reader.ID {
		if _, muted := slices.BinarySearch(r.mutes[reader.ID], m.From); muted {
			return Message{Channel: m.Channel, From: m.From, At: m.At, Muted: true}, true
		}
	}
	return m, true
}
