package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// The checks of table chat: messages kept in order with the
// game, mutes per reader, while the game is live only by the holder of
// its lease, once it is finished by anyone without a fence, each write
// announced.

var chatChecks = []struct {
	name string
	run  func(t *testing.T, s store.Store)
}{
	{"ChatRoundTrip", testChatRoundTrip},
	{"ChatRejected", testChatRejected},
	{"ChatFenced", testChatFenced},
	{"ChatAnnounced", testChatAnnounced},
	{"ChatAfterGame", testChatAfterGame},
}

// chatLines are a conversation: a phrase, free text with characters
// from several scripts, markup kept as text, and a spectator's line.
func chatLines() []store.ChatLine {
	at := base.Add(time.Minute).UTC()
	return []store.ChatLine{
		{Channel: "players", From: "seat:0", Seat: 0, Name: "Bea", Phrase: "gl", At: at},
		{Channel: "players", From: "seat:2", Seat: 2, Name: "Ann", Text: "Szép lépés! 👍 <b>http://x.example</b>", Move: 3, At: at.Add(time.Second)},
		{Channel: "spectators", From: "account:k1", Seat: -1, Name: "Kim", Text: "ναι", Move: 3, At: at.Add(2 * time.Second)},
		{Channel: "players", From: "seat:0", Seat: 0, Name: "Bea", Phrase: "gg", Move: 7, At: at.Add(3*time.Second + 7)},
	}
}

func chatGame(t *testing.T, s store.Store, id string) *store.Game {
	t.Helper()
	g := newGame(id, store.StatusPlaying, 0)
	g.Seats[0] = store.Seat{Name: "Bea", TokenHash: hash(0xb0)}
	create(t, s, g)
	return g
}

func addChat(t *testing.T, s store.Store, id string, fence store.Fence, m store.ChatLine) {
	t.Helper()
	if err := s.AddChat(ctx(t), id, fence, m); err != nil {
		t.Fatalf("AddChat(%s, %+v): %v", id, m, err)
	}
}

func getChat(t *testing.T, s store.Store, id string) store.Chat {
	t.Helper()
	c, err := s.Chat(ctx(t), id)
	if err != nil {
		t.Fatalf("Chat(%s): %v", id, err)
	}
	return c
}

// sameChat reports how got differs from want, times compared as instants.
func sameChat(got, want store.Chat) error {
	if len(got.Lines) != len(want.Lines) {
		return fmt.Errorf("%d lines, want %d: %+v", len(got.Lines), len(want.Lines), got.Lines)
	}
	for i := range want.Lines {
		g, w := got.Lines[i], want.Lines[i]
		if g.Seq != i {
			return fmt.Errorf("line %d numbered %d", i, g.Seq)
		}
		if w.Seq = i; !g.At.Equal(w.At) {
			return fmt.Errorf("line %d at %v, want %v", i, g.At, w.At)
		}
		g.At, w.At = time.Time{}, time.Time{}
		if g != w {
			return fmt.Errorf("line %d = %+v, want %+v", i, g, w)
		}
	}
	if len(got.Mutes)+len(want.Mutes) > 0 && !reflect.DeepEqual(got.Mutes, want.Mutes) {
		return fmt.Errorf("mutes %+v, want %+v", got.Mutes, want.Mutes)
	}
	return nil
}

func testChatRoundTrip(t *testing.T, s store.Store) {
	g := chatGame(t, s, "chat000001")
	other := chatGame(t, s, "chat000002")
	if c := getChat(t, s, g.ID); len(c.Lines)+len(c.Mutes) != 0 {
		t.Fatalf("a new game's chat = %+v, want none", c)
	}
	lines := chatLines()
	for _, m := range lines {
		addChat(t, s, g.ID, store.NoFence, m)
	}
	addChat(t, s, other.ID, store.NoFence, lines[0])
	for _, m := range []struct {
		mute store.Mute
		on   bool
	}{
		{store.Mute{Muter: "seat:2", Muted: "seat:0"}, true},
		{store.Mute{Muter: "seat:2", Muted: "seat:0"}, true}, // twice: once
		{store.Mute{Muter: "account:k1", Muted: "seat:2"}, true},
		{store.Mute{Muter: "seat:0", Muted: "seat:2"}, true},
		{store.Mute{Muter: "seat:0", Muted: "seat:2"}, false},
		{store.Mute{Muter: "seat:0", Muted: "seat:1"}, false}, // not muted: nothing
	} {
		if err := s.SetMute(ctx(t), g.ID, store.NoFence, m.mute, m.on); err != nil {
			t.Fatalf("SetMute(%+v, %v): %v", m.mute, m.on, err)
		}
	}
	want := store.Chat{Lines: lines, Mutes: []store.Mute{{Muter: "account:k1", Muted: "seat:2"}, {Muter: "seat:2", Muted: "seat:0"}}}
	if err := sameChat(getChat(t, s, g.ID), want); err != nil {
		t.Error(err)
	}
	if err := sameChat(getChat(t, s, other.ID), store.Chat{Lines: lines[:1]}); err != nil {
		t.Errorf("the other game: %v", err)
	}
	// The chat stays with the game once it is over.
	appendMove(t, s, g.ID, 0, "draw", store.StatusFinished)
	if err := sameChat(getChat(t, s, g.ID), want); err != nil {
		t.Errorf("after the game: %v", err)
	}
}

func testChatRejected(t *testing.T, s store.Store) {
	g := chatGame(t, s, "chat000003")
	addChat(t, s, g.ID, store.NoFence, chatLines()[0])
	archived := newGame("chat000004", store.StatusArchived, 0)
	create(t, s, archived)
	expired := newGame("chat000007", store.StatusExpired, 0)
	create(t, s, expired)
	good := chatLines()[1]
	bad := func(f func(*store.ChatLine)) store.ChatLine {
		m := good
		f(&m)
		return m
	}
	for _, c := range []struct {
		name string
		id   string
		m    store.ChatLine
		want error // nil: any error
	}{
		{"archived game", archived.ID, good, store.ErrConflict},
		{"expired table", expired.ID, good, store.ErrConflict},
		{"unknown game", "nosuchgame", good, store.ErrNotFound},
		{"phrase and text", g.ID, bad(func(m *store.ChatLine) { m.Phrase = "gg" }), nil},
		{"neither phrase nor text", g.ID, bad(func(m *store.ChatLine) { m.Text = "" }), nil},
		{"no sender", g.ID, bad(func(m *store.ChatLine) { m.From = "" }), nil},
		{"no channel", g.ID, bad(func(m *store.ChatLine) { m.Channel = "" }), nil},
		{"text too long", g.ID, bad(func(m *store.ChatLine) { m.Text = string(make([]byte, store.MaxChatBytes+1)) }), nil},
		{"not UTF-8", g.ID, bad(func(m *store.ChatLine) { m.Text = "\xff" }), nil},
	} {
		err := s.AddChat(ctx(t), c.id, store.NoFence, c.m)
		if err == nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: AddChat = %v, want %v", c.name, err, c.want)
		}
	}
	for _, c := range []struct {
		name string
		id   string
		m    store.Mute
		want error
	}{
		{"archived game", archived.ID, store.Mute{Muter: "seat:0", Muted: "seat:2"}, store.ErrConflict},
		{"unknown game", "nosuchgame", store.Mute{Muter: "seat:0", Muted: "seat:2"}, store.ErrNotFound},
		{"oneself", g.ID, store.Mute{Muter: "seat:0", Muted: "seat:0"}, nil},
		{"nobody", g.ID, store.Mute{Muter: "seat:0"}, nil},
	} {
		err := s.SetMute(ctx(t), c.id, store.NoFence, c.m, true)
		if err == nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: SetMute = %v, want %v", c.name, err, c.want)
		}
	}
	if err := sameChat(getChat(t, s, g.ID), store.Chat{Lines: chatLines()[:1]}); err != nil {
		t.Errorf("after refused writes: %v", err)
	}
	if _, err := s.Chat(ctx(t), "nosuchgame"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Chat of an unknown game = %v, want ErrNotFound", err)
	}
}

func testChatFenced(t *testing.T, s store.Store) {
	g := chatGame(t, s, "chat000005")
	a := acquire(t, s, g.ID, "node-a", longTTL)
	m := chatLines()[0]
	for _, f := range []store.Fence{store.NoFence, a.Fence + 1} {
		wantLeaseLost(t, fmt.Sprintf("AddChat with fence %d", f), s.AddChat(ctx(t), g.ID, f, m))
		wantLeaseLost(t, fmt.Sprintf("SetMute with fence %d", f), s.SetMute(ctx(t), g.ID, f, store.Mute{Muter: "seat:0", Muted: "seat:2"}, true))
	}
	if c := getChat(t, s, g.ID); len(c.Lines)+len(c.Mutes) != 0 {
		t.Errorf("after writes with the wrong fence: %+v, want nothing", c)
	}
	addChat(t, s, g.ID, a.Fence, m)
	if err := s.SetMute(ctx(t), g.ID, a.Fence, store.Mute{Muter: "seat:0", Muted: "seat:2"}, true); err != nil {
		t.Errorf("SetMute with the lease's fence: %v", err)
	}
	if err := sameChat(getChat(t, s, g.ID), store.Chat{Lines: []store.ChatLine{m}, Mutes: []store.Mute{{Muter: "seat:0", Muted: "seat:2"}}}); err != nil {
		t.Error(err)
	}
}

func testChatAnnounced(t *testing.T, s store.Store) {
	g := chatGame(t, s, "chat000006")
	appendMove(t, s, g.ID, 0, "draw", store.StatusPlaying)
	ch := subscribe(t, s, store.ChangesChannel)
	addChat(t, s, g.ID, store.NoFence, chatLines()[0])
	if err := s.SetMute(ctx(t), g.ID, store.NoFence, store.Mute{Muter: "seat:0", Muted: "seat:2"}, true); err != nil {
		t.Fatal(err)
	}
	want := store.Change{Game: g.ID, Kind: store.ChangeChat, Moves: 1, Status: store.StatusPlaying}
	for i := range 2 {
		if c := nextChange(t, ch); c != want {
			t.Errorf("change %d = %+v, want %+v", i, c, want)
		}
	}
}

// testChatAfterGame: a finished game's chat goes on, written by any node
// without a fence (its lease ended with it), and announced; the game's
// Updated time, when it ended, stays.
func testChatAfterGame(t *testing.T, s store.Store) {
	g := chatGame(t, s, "chat000008")
	a := acquire(t, s, g.ID, "node-a", longTTL)
	lines := chatLines()
	addChat(t, s, g.ID, a.Fence, lines[0])
	if err := s.AppendMove(ctx(t), g.ID, a.Fence, 0, "draw", store.StatusFinished); err != nil {
		t.Fatal(err)
	}
	before, err := s.Game(ctx(t), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	// The lease is still held: a write with its fence is refused all the same.
	wantLeaseLost(t, "AddChat with the finished game's fence", s.AddChat(ctx(t), g.ID, a.Fence, lines[1]))
	wantLeaseLost(t, "SetMute with the finished game's fence", s.SetMute(ctx(t), g.ID, a.Fence, store.Mute{Muter: "seat:0", Muted: "seat:2"}, true))
	ch := subscribe(t, s, store.ChangesChannel)
	addChat(t, s, g.ID, store.NoFence, lines[1])
	if err := s.SetMute(ctx(t), g.ID, store.NoFence, store.Mute{Muter: "seat:0", Muted: "seat:2"}, true); err != nil {
		t.Fatalf("SetMute after the game: %v", err)
	}
	addChat(t, s, g.ID, store.NoFence, lines[2])
	want := store.Change{Game: g.ID, Kind: store.ChangeChat, Moves: 1, Status: store.StatusFinished}
	for i := range 3 {
		if c := nextChange(t, ch); c != want {
			t.Errorf("change %d = %+v, want %+v", i, c, want)
		}
	}
	if err := sameChat(getChat(t, s, g.ID), store.Chat{Lines: lines[:3], Mutes: []store.Mute{{Muter: "seat:0", Muted: "seat:2"}}}); err != nil {
		t.Error(err)
	}
	after, err := s.Game(ctx(t), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !after.Updated.Equal(before.Updated) || after.Status != store.StatusFinished {
		t.Errorf("after the chat: %s, updated %v; want finished, updated %v as when it ended", after.Status, after.Updated, before.Updated)
	}
}
