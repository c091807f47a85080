package match_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/store"
)

// chatReason returns internal/chat's sentinel a chat refusal names.
func chatReason(t *testing.T, err error) error {
	t.Helper()
	var r *match.Refusal
	if !errors.As(err, &r) || r.Msg == "" {
		t.Fatalf("err = %v, want a chat refusal", err)
	}
	for _, k := range []error{chat.ErrSignIn, chat.ErrChannel, chat.ErrMuteSelf, chat.ErrTooFast, chat.ErrUnknownPhrase} {
		if errors.Is(r, k) {
			return k
		}
	}
	t.Fatalf("refusal %v names no sentinel of internal/chat", err)
	return nil
}

func TestChat(t *testing.T) {
	m := newMatch(t, "untimed", false, "", "easy")
	must(t, m, join("Ann", 0), t0)
	phrase := chat.Phrases()[0]
	say := func(c match.Command) match.Command { c.Kind = match.Chat; return c }
	tests := []struct {
		name    string
		c       match.Command
		want    error // internal/chat's sentinel; nil: said
		channel chat.Channel
		seat    int
	}{
		{name: "a player's phrase", c: say(match.Command{Hash: hash("Ann"), Phrase: phrase}), channel: chat.Players, seat: 0},
		{name: "a signed-in spectator's text", c: say(match.Command{Account: "acc", Name: "Cy", Text: "hello"}), channel: chat.Spectators, seat: -1},
		{name: "an anonymous spectator", c: say(match.Command{Phrase: phrase}), want: chat.ErrSignIn},
		{name: "a guest's free text", c: say(match.Command{Hash: hash("Ann"), Text: "hello"}), want: chat.ErrSignIn},
		{name: "no such phrase", c: say(match.Command{Hash: hash("Ann"), Phrase: "no-such-phrase"}), want: chat.ErrUnknownPhrase},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := decide(t, m, tt.c, t0)
			if tt.want != nil {
				if got := chatReason(t, err); got != tt.want {
					t.Fatalf("refused for %v, want %v", got, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			l := r.Write.Line
			if r.Write.Kind != match.AddChat || l.Channel != tt.channel.String() || l.Seat != tt.seat || !slices.Equal(r.Said, []store.ChatLine{l}) {
				t.Fatalf("result %+v, want a line in %v from seat %d sent to every watcher", r, tt.channel, tt.seat)
			}
			n := len(m.Chat)
			m.Apply(r, t0)
			if len(m.Chat) != n+1 || !m.Updated.Equal(t0) {
				t.Errorf("applied: %d lines, updated %v; want the line kept and the table unchanged", len(m.Chat), m.Updated)
			}
		})
	}
	t.Run("too fast", func(t *testing.T) {
		var err error
		for i := 0; i < 100 && err == nil; i++ {
			var r match.Result
			if r, err = decide(t, m, say(match.Command{Hash: hash("Ann"), Phrase: phrase}), t0.Add(time.Second)); err == nil {
				m.Apply(r, t0.Add(time.Second))
			}
		}
		var r *match.Refusal
		if chatReason(t, err) != chat.ErrTooFast || !errors.As(err, &r) || r.RetryAfter <= 0 {
			t.Errorf("a flood: %v, want too fast with a wait", err)
		}
	})
}

// TestChatRateTakenAtApply: deciding a message takes nothing from its
// sender's rate limit; applying it does. A message decided and never
// applied (its write failed) costs nothing.
func TestChatRateTakenAtApply(t *testing.T) {
	m := newMatch(t, "untimed", false, "", "easy")
	must(t, m, join("Ann", 0), t0)
	c := match.Command{Kind: match.Chat, Hash: hash("Ann"), Phrase: chat.Phrases()[0]}
	for i := range chat.DefaultLimits.Burst + 3 {
		if _, err := decide(t, m, c, t0); err != nil {
			t.Fatalf("decision %d, none applied: %v; want said (deciding takes nothing)", i+1, err)
		}
	}
	for range chat.DefaultLimits.Burst {
		must(t, m, c, t0)
	}
	if _, err := decide(t, m, c, t0); chatReason(t, err) != chat.ErrTooFast {
		t.Fatalf("after a burst applied: %v, want too fast", err)
	}
}

func TestMute(t *testing.T) {
	m := newMatch(t, "untimed", false, "", "", "easy")
	must(t, m, join("Ann", 0), t0)
	must(t, m, join("Bob", 1), t0)
	mute := func(by []byte, seat int, on bool) match.Command {
		return match.Command{Kind: match.Mute, Hash: by, Seat: seat, Mute: on}
	}
	for _, tt := range []struct {
		name string
		c    match.Command
		want error
	}{
		{"an anonymous spectator", mute(nil, 1, true), chat.ErrSignIn},
		{"no such seat", mute(hash("Ann"), 3, true), chat.ErrChannel},
		{"a bot", mute(hash("Ann"), 2, true), chat.ErrChannel},
		{"oneself", mute(hash("Ann"), 0, true), chat.ErrMuteSelf},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decide(t, m, tt.c, t0)
			if got := chatReason(t, err); got != tt.want {
				t.Errorf("refused for %v, want %v", got, tt.want)
			}
		})
	}
	r := must(t, m, mute(hash("Ann"), 1, true), t0)
	if r.Write.Kind != match.SetMute || !r.Write.On || r.Write.Mute != (store.Mute{Muter: "seat:0", Muted: "seat:1"}) || r.Muter != "seat:0" {
		t.Fatalf("mute: %+v", r)
	}
	if got := m.Room.Muted("seat:0"); !slices.Equal(got, []string{"seat:1"}) {
		t.Errorf("muted %v after the mute", got)
	}
	if r := must(t, m, mute(hash("Ann"), 1, true), t0); r.Write.Kind != match.NoWrite {
		t.Errorf("a second mute: %+v, want nothing", r)
	}
	must(t, m, mute(hash("Ann"), 1, false), t0)
	if got := m.Room.Muted("seat:0"); len(got) != 0 {
		t.Errorf("muted %v after the unmute", got)
	}
}

// TestAfterGame: the chat after a game's end, decided without its
// goroutine: who may say what for how long, and what is stored.
func TestAfterGame(t *testing.T) {
	g := &store.Game{ID: "g1", Status: store.StatusFinished, Updated: t0, Moves: []string{"draw", "draw"},
		Seats: []store.Seat{{Name: "Ann", TokenHash: hash("Ann")}, {Name: "Bob", TokenHash: hash("Bob"), Account: "acct-bob"}, {Name: "Bot 2 (easy)", Bot: "easy"}}}
	uploaded := *g
	uploaded.Status = store.StatusArchived
	phrase := chat.Phrases()[0]
	say := func(c match.Command) match.Command { c.Kind = match.Chat; return c }
	mute := func(c match.Command) match.Command { c.Kind = match.Mute; return c }
	tests := []struct {
		name  string
		g     *store.Game
		c     match.Command
		at    time.Time
		want  error // the refusal's kind; nil: the write
		write match.WriteKind
	}{
		{name: "a player's phrase", g: g, c: say(match.Command{Hash: hash("Ann"), Phrase: phrase}), at: t0.Add(time.Hour), write: match.AddChat},
		{name: "a signed-in spectator's text", g: g, c: say(match.Command{Account: "acc", Name: "Cy", Text: "gg"}), at: t0, write: match.AddChat},
		{name: "a mute", g: g, c: mute(match.Command{Hash: hash("Bob"), Seat: 0, Mute: true}), at: t0, write: match.SetMute},
		{name: "an uploaded record", g: &uploaded, c: say(match.Command{Hash: hash("Ann"), Phrase: phrase}), at: t0, want: chat.ErrClosed},
		{name: "after the chat closed", g: g, c: say(match.Command{Hash: hash("Ann"), Phrase: phrase}), at: t0.Add(chat.AfterGame + time.Minute), want: chat.ErrClosed},
		{name: "an anonymous spectator", g: g, c: say(match.Command{Phrase: phrase}), at: t0, want: chat.ErrSignIn},
		{name: "a guest's free text", g: g, c: say(match.Command{Hash: hash("Ann"), Text: "gg"}), at: t0, want: chat.ErrSignIn},
		{name: "muting oneself", g: g, c: mute(match.Command{Hash: hash("Bob"), Seat: 1, Mute: true}), at: t0, want: chat.ErrMuteSelf},
		{name: "muting a bot", g: g, c: mute(match.Command{Hash: hash("Bob"), Seat: 2, Mute: true}), at: t0, want: chat.ErrChannel},
		{name: "a move", g: g, c: match.Command{Kind: match.Play, Hash: hash("Ann"), Move: "draw"}, at: t0, want: match.ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := match.AfterGame(tt.c, tt.g, match.RoomOf(nil), tt.at)
			if tt.want != nil {
				if !errors.Is(err, tt.want) {
					t.Fatalf("err = %v, want %v", err, tt.want)
				}
				return
			}
			if err != nil || w.Kind != tt.write {
				t.Fatalf("%+v, %v; want a %v", w, err, tt.write)
			}
			if w.Kind == match.AddChat && (w.Line.Move != len(g.Moves) || !w.Line.At.Equal(tt.at)) {
				t.Errorf("line %+v: want it at move %d, %v", w.Line, len(g.Moves), tt.at)
			}
		})
	}
	t.Run("deciding takes nothing from the rate", func(t *testing.T) {
		room := match.RoomOf(nil)
		c := say(match.Command{Hash: hash("Ann"), Phrase: phrase})
		for i := range chat.DefaultLimits.Burst + 2 {
			if _, err := match.AfterGame(c, g, room, t0); err != nil {
				t.Fatalf("decision %d, none taken: %v", i+1, err)
			}
		}
		for range chat.DefaultLimits.Burst {
			room.Take(match.SeatKey(0), t0)
		}
		if _, err := match.AfterGame(c, g, room, t0); !errors.Is(err, chat.ErrTooFast) {
			t.Errorf("after a burst taken: %v, want too fast", err)
		}
	})
}

// TestChatRefusedText: a signed-in speaker's text that the chat's rules
// refuse is refused by the match with the chat's reason and changes
// nothing; a guest player signed in on the connection may write (the
// match's side of the Hub's TestChatRefused and
// TestChatFreeTextSignedInOnly).
func TestChatRefusedText(t *testing.T) {
	m := newMatch(t, "untimed", false, "", "easy")
	must(t, m, join("Ann", 0), t0)
	for _, tc := range []struct {
		name string
		c    match.Command
		want error
	}{
		{"too long", match.Command{Account: "acc", Name: "Cy", Text: strings.Repeat("é", chat.MaxRunes+1)}, chat.ErrTooLong},
		{"empty", match.Command{Account: "acc", Name: "Cy", Text: "   "}, chat.ErrEmpty},
		{"a line break", match.Command{Account: "acc", Name: "Cy", Text: "one\ntwo"}, chat.ErrBadChar},
		{"a direction override", match.Command{Account: "acc", Name: "Cy", Text: "abc\u202edef"}, chat.ErrBadChar},
		{"a zero-width space", match.Command{Account: "acc", Name: "Cy", Text: "a\u200bb"}, chat.ErrBadChar},
		{"a NUL", match.Command{Account: "acc", Name: "Cy", Text: "a\x00b"}, chat.ErrBadChar},
		{"not UTF-8", match.Command{Account: "acc", Name: "Cy", Text: "a\xffb"}, chat.ErrBadChar},
		{"a guest player signed in on the connection", match.Command{Hash: hash("Ann"), Account: "acc-ann", Text: "now signed in"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.c.Kind = match.Chat
			r, err := decide(t, m, tc.c, t0.Add(time.Minute))
			if tc.want == nil {
				if err != nil || r.Write.Kind != match.AddChat {
					t.Errorf("Decide = %+v, %v; want the line written", r.Write, err)
				}
				return
			}
			var ref *match.Refusal
			if !errors.As(err, &ref) || !errors.Is(err, tc.want) {
				t.Errorf("Decide = %v, want a refusal for %v", err, tc.want)
			}
		})
	}
}
