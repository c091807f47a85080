package table

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/store/postgres"
)

// chatTable seats Ann (a guest) and Bob (signed in as account "acct-bob")
// at an untimed table on a Hub with a fake clock. It returns the game
// and the seats' tokens.
func chatTable(t *testing.T, st store.Store, clk *fakeClock) (*Hub, string, [2]string) {
	t.Helper()
	h := clockHub(t, st, clk)
	id, tokens := seatAnnAndBob(t, h)
	return h, id, tokens
}

// seatAnnAndBob creates the untimed table of chatTable on h.
func seatAnnAndBob(t *testing.T, h *Hub) (string, [2]string) {
	t.Helper()
	ctx := testContext(t)
	in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", ""}, Pace: "untimed"}))
	if err != nil {
		t.Fatal(err)
	}
	tokens := [2]string{"ann-token", "bob-token"}
	for i, p := range []Person{{Name: "Ann", Token: tokens[0]}, {Name: "Bob", Token: tokens[1], Account: "acct-bob"}} {
		if _, _, err := h.Join(ctx, in.ID, i, p); err != nil {
			t.Fatal(err)
		}
	}
	return in.ID, tokens
}

// chatWatch watches the game with token (and account) and returns the
// subscription with the history it got on connecting: sent before
// Watch returns, if there is any.
func chatWatch(t *testing.T, h *Hub, id, token, account string) (*Subscription, protocol.ChatMessage) {
	t.Helper()
	s, err := h.Watch(testContext(t), id, Watcher{Token: token, Account: account})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	select {
	case m := <-s.Chat():
		return s, m
	default:
		return s, protocol.ChatMessage{}
	}
}

// nextChat returns the next chat message of s.
func nextChat(t *testing.T, s *Subscription) protocol.ChatMessage {
	t.Helper()
	select {
	case m, ok := <-s.Chat():
		if !ok {
			t.Fatal("the chat ended")
		}
		return m
	case <-testContext(t).Done():
		t.Fatal("no chat message before the deadline")
		return protocol.ChatMessage{}
	}
}

// noChat fails if s has a chat message waiting: every chat message is
// sent by the game's goroutine before the request that caused it
// returns, so one not there now never comes.
func noChat(t *testing.T, s *Subscription, why string) {
	t.Helper()
	select {
	case m := <-s.Chat():
		t.Errorf("%s: a chat message came: %+v", why, m)
	default:
	}
}

// said is what a line says: its phrase, its text, or "(muted)".
func said(lines []protocol.ChatLine) []string {
	var out []string
	for _, l := range lines {
		switch {
		case l.Muted:
			out = append(out, l.Name+": (muted)")
		case l.Phrase != "":
			out = append(out, l.Name+": #"+l.Phrase)
		default:
			out = append(out, l.Name+": "+l.Text)
		}
	}
	return out
}

func wantSaid(t *testing.T, who string, m protocol.ChatMessage, want ...string) {
	t.Helper()
	if got := said(m.Lines); !slices.Equal(got, want) {
		t.Errorf("%s read %q, want %q", who, got, want)
	}
}

func TestChatChannelsAgree(t *testing.T) {
	if chat.Players.String() != protocol.ChannelPlayers || chat.Spectators.String() != protocol.ChannelSpectators {
		t.Errorf("internal/chat's channels %v, %v; the protocol's %s, %s", chat.Players, chat.Spectators,
			protocol.ChannelPlayers, protocol.ChannelSpectators)
	}
}

func TestChatPhrases(t *testing.T) {
	ctx := testContext(t)
	h, id, tokens := chatTable(t, memstore.New(), newFakeClock())
	ann, hist := chatWatch(t, h, id, tokens[0], "")
	wantSaid(t, "Ann, on connecting", hist)
	bob, _ := chatWatch(t, h, id, tokens[1], "")
	spec, _ := chatWatch(t, h, id, "", "")
	// A guest player sends quick phrases.
	if err := h.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "gl"}); err != nil {
		t.Fatal(err)
	}
	for who, s := range map[string]*Subscription{"Ann": ann, "Bob": bob, "a spectator": spec} {
		m := nextChat(t, s)
		wantSaid(t, who, m, "Ann: #gl")
		if l := m.Lines[0]; l.Seat != 0 || l.Channel != protocol.ChannelPlayers || l.Move != 0 || l.At.IsZero() {
			t.Errorf("%s read %+v: want seat 0, the players' channel, move 0, a time", who, l)
		}
	}
	// A late watcher reads the conversation so far.
	_, hist = chatWatch(t, h, id, "", "")
	wantSaid(t, "a late spectator", hist, "Ann: #gl")
}

func TestChatFreeTextSignedInOnly(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	h, id, tokens := chatTable(t, st, newFakeClock())
	bob, _ := chatWatch(t, h, id, tokens[1], "")
	for _, c := range []struct {
		name, token, account, speaker, phrase, text string
		kind                                        error
	}{
		{"a guest player's text", tokens[0], "", "", "", "hello", chat.ErrSignIn},
		{"an anonymous spectator's phrase", "", "", "", "gg", "", chat.ErrSignIn},
		{"an anonymous spectator's text", "", "", "", "", "hi", chat.ErrSignIn},
		{"a seated account's text", tokens[1], "", "", "", "Hi all <b>https://x.example</b>", nil},
		{"a guest player signed in on the connection", tokens[0], "acct-ann", "", "", "now signed in", nil},
		{"a signed-in spectator's text", "", "acct-kim", "Kim", "", "kibitz", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := h.Chat(ctx, id, ChatRequest{Token: c.token, Account: c.account, Name: c.speaker, Phrase: c.phrase, Text: c.text})
			if c.kind != nil {
				wantKind(t, err, c.kind)
				noChat(t, bob, c.name)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
		})
	}
	// Bob reads the players' texts, markup and links as they were sent,
	// and not the spectator's.
	m := nextChat(t, bob)
	wantSaid(t, "Bob", m, "Bob: Hi all <b>https://x.example</b>", "Ann: now signed in")
	c, err := st.Chat(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Lines) != 3 || c.Lines[2].Channel != "spectators" || c.Lines[2].Name != "Kim" || c.Lines[2].Seat != -1 {
		t.Errorf("stored %+v: want three lines, the last Kim's in the spectators' channel", c.Lines)
	}
}

func TestChatRefused(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	clk := newFakeClock()
	h, id, tokens := chatTable(t, st, clk)
	ann, _ := chatWatch(t, h, id, tokens[0], "")
	bob := tokens[1] // signed in: free text
	for _, c := range []struct {
		name, phrase, text string
		kind               error
	}{
		{"too long", "", strings.Repeat("é", chat.MaxRunes+1), chat.ErrTooLong},
		{"empty", "", "   ", chat.ErrEmpty},
		{"a line break", "", "one\ntwo", chat.ErrBadChar},
		{"a direction override", "", "abc\u202edef", chat.ErrBadChar},
		{"a zero-width space", "", "a\u200bb", chat.ErrBadChar},
		{"a NUL", "", "a\x00b", chat.ErrBadChar},
		{"not UTF-8", "", "a\xffb", chat.ErrBadChar},
		{"an unknown phrase", "hax", "", chat.ErrUnknownPhrase},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantKind(t, h.Chat(ctx, id, ChatRequest{Token: bob, Phrase: c.phrase, Text: c.text}), c.kind)
			noChat(t, ann, c.name)
		})
	}
	// Too fast: a burst, then a wait.
	for i := range chat.DefaultLimits.Burst {
		if err := h.Chat(ctx, id, ChatRequest{Token: bob, Text: "msg"}); err != nil {
			t.Fatalf("message %d of the burst: %v", i+1, err)
		}
	}
	err := h.Chat(ctx, id, ChatRequest{Token: bob, Phrase: "gg"})
	wantKind(t, err, chat.ErrTooFast)
	var e *Error
	if errors.As(err, &e) && (e.RetryAfter <= 0 || e.RetryAfter > chat.DefaultLimits.Every) {
		t.Errorf("too fast: retry after %v, want within %v", e.RetryAfter, chat.DefaultLimits.Every)
	}
	// The limit is the sender's: Ann may still write.
	if err := h.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "wow"}); err != nil {
		t.Errorf("another player after Bob's burst: %v", err)
	}
	clk.Advance(chat.DefaultLimits.Every)
	if err := h.Chat(ctx, id, ChatRequest{Token: bob, Phrase: "gg"}); err != nil {
		t.Errorf("after waiting: %v", err)
	}
	c, err := st.Chat(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(c.Lines); n != chat.DefaultLimits.Burst+2 {
		t.Errorf("stored %d lines, want %d: nothing refused is stored", n, chat.DefaultLimits.Burst+2)
	}
}

func TestChatMute(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	clk := newFakeClock()
	h, id, tokens := chatTable(t, st, clk)
	bob1, _ := chatWatch(t, h, id, tokens[1], "")
	bob2, _ := chatWatch(t, h, id, tokens[1], "")
	spec, _ := chatWatch(t, h, id, "", "")
	for _, c := range []struct {
		name  string
		token string
		seat  int
		kind  error
	}{
		{"oneself", tokens[1], 1, chat.ErrMuteSelf},
		{"no such seat", tokens[1], 5, chat.ErrChannel},
		{"an anonymous spectator", "", 0, chat.ErrSignIn},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantKind(t, h.Mute(ctx, id, MuteRequest{Token: c.token, Seat: c.seat, On: true}), c.kind)
			noChat(t, bob1, c.name)
		})
	}
	if err := h.Mute(ctx, id, MuteRequest{Token: tokens[1], Seat: 0, On: true}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Subscription{bob1, bob2} {
		if m := nextChat(t, s); !slices.Equal(m.Muted, []int{0}) || len(m.Lines) != 0 {
			t.Errorf("Bob's connection after muting Ann: %+v, want muted [0] and no lines", m)
		}
	}
	noChat(t, spec, "Bob muted Ann")
	if err := h.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "oops"}); err != nil {
		t.Fatal(err)
	}
	wantSaid(t, "Bob", nextChat(t, bob1), "Ann: (muted)")
	wantSaid(t, "Bob's other connection", nextChat(t, bob2), "Ann: (muted)")
	wantSaid(t, "a spectator", nextChat(t, spec), "Ann: #oops")
	// The mute is stored: it holds for a new connection, and after a restart.
	_, hist := chatWatch(t, h, id, tokens[1], "")
	wantSaid(t, "Bob reconnecting", hist, "Ann: (muted)")
	if !slices.Equal(hist.Muted, []int{0}) {
		t.Errorf("Bob reconnecting: muted %v, want [0]", hist.Muted)
	}
	h.Close()
	h2 := clockHub(t, st, clk)
	_, hist = chatWatch(t, h2, id, tokens[1], "")
	wantSaid(t, "Bob after a restart", hist, "Ann: (muted)")
	// Unmuted, Ann's words come again.
	if err := h2.Mute(ctx, id, MuteRequest{Token: tokens[1], Seat: 0}); err != nil {
		t.Fatal(err)
	}
	_, hist = chatWatch(t, h2, id, tokens[1], "")
	wantSaid(t, "Bob after unmuting", hist, "Ann: #oops")
}

func TestChatSpectatorsChannel(t *testing.T) {
	ctx := testContext(t)
	h, id, tokens := chatTable(t, memstore.New(), newFakeClock())
	ann, _ := chatWatch(t, h, id, tokens[0], "")
	kim, _ := chatWatch(t, h, id, "", "acct-kim")
	anon, _ := chatWatch(t, h, id, "", "")
	if err := h.Chat(ctx, id, ChatRequest{Account: "acct-kim", Name: "Kim", Text: "Ann should bid 9"}); err != nil {
		t.Fatal(err)
	}
	if err := h.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "thinking"}); err != nil {
		t.Fatal(err)
	}
	// Players never read the spectators' channel during the game;
	// spectators read both.
	wantSaid(t, "Ann", nextChat(t, ann), "Ann: #thinking")
	wantSaid(t, "Kim", nextChat(t, kim), "Kim: Ann should bid 9", "Ann: #thinking")
	m := nextChat(t, anon)
	wantSaid(t, "an anonymous spectator", m, "Kim: Ann should bid 9", "Ann: #thinking")
	if m.Lines[0].Channel != protocol.ChannelSpectators || m.Lines[0].Seat != -1 {
		t.Errorf("Kim's line %+v: want the spectators' channel, seat -1", m.Lines[0])
	}
	// A signed-in spectator mutes a player for their own connections.
	if err := h.Mute(ctx, id, MuteRequest{Account: "acct-kim", Seat: 0, On: true}); err != nil {
		t.Fatal(err)
	}
	if m := nextChat(t, kim); !slices.Equal(m.Muted, []int{0}) {
		t.Errorf("Kim after muting Ann: muted %v", m.Muted)
	}
	noChat(t, anon, "Kim muted Ann")
}

// TestChatLog checks what a replay shows: the players' channel, each line
// at the moves played when it was said, none muted.
func TestChatLog(t *testing.T) {
	ctx := testContext(t)
	h, id, tokens := chatTable(t, memstore.New(), newFakeClock())
	if err := h.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "gl"}); err != nil {
		t.Fatal(err)
	}
	sub, _ := chatWatch(t, h, id, tokens[0], "")
	u := await(t, sub, func(u Update) bool { return true })
	if err := h.Play(ctx, id, tokens[u.View.ToMove], u.View.Legal[0], u.View.Moves); err != nil {
		t.Fatal(err)
	}
	if err := h.Mute(ctx, id, MuteRequest{Token: tokens[0], Seat: 1, On: true}); err != nil {
		t.Fatal(err)
	}
	if err := h.Chat(ctx, id, ChatRequest{Token: tokens[1], Text: "nice draw"}); err != nil {
		t.Fatal(err)
	}
	if err := h.Chat(ctx, id, ChatRequest{Account: "acct-kim", Name: "Kim", Text: "psst"}); err != nil {
		t.Fatal(err)
	}
	log, err := h.ChatLog(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got := said(log); !slices.Equal(got, []string{"Ann: #gl", "Bob: nice draw"}) {
		t.Errorf("the replay's chat %q", got)
	}
	if len(log) == 2 && (log[0].Move != 0 || log[1].Move != 1) {
		t.Errorf("the replay's chat at moves %d, %d; want 0, 1", log[0].Move, log[1].Move)
	}
	if _, err := h.ChatLog(ctx, "nosuchgame"); !errors.Is(err, ErrNotFound) {
		t.Errorf("the chat of an unknown game: %v", err)
	}
}

// TestChatGameOver checks that a player coming back after the game reads
// the chat whole, the spectators' channel included.
func TestChatGameOver(t *testing.T) {
	ctx := testContext(t)
	h, id, tokens := chatTable(t, memstore.New(), newFakeClock())
	if err := h.Chat(ctx, id, ChatRequest{Account: "acct-kim", Name: "Kim", Text: "psst"}); err != nil {
		t.Fatal(err)
	}
	playAlongBoth(t, h, id, tokens)
	_, hist := chatWatch(t, h, id, tokens[0], "")
	wantSaid(t, "Ann after the game", hist, "Kim: psst")
}

// playAlongBoth plays both seats to the end.
func playAlongBoth(t *testing.T, h *Hub, id string, tokens [2]string) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		playAlong(t, testContext(t), h, id, tokens[1])
	}()
	playAlong(t, testContext(t), h, id, tokens[0])
	<-done
	waitOver(t, testContext(t), h, id)
}

// TestChatAcrossNodes checks that a message sent to a node that does not
// run the game reaches the players connected to either node, and that a
// mute passed the same way holds on the other node's connections: in one
// process (memstore), and as separate servers do it, each node with its
// own connections to PostgreSQL (NOTIFY).
func TestChatAcrossNodes(t *testing.T) { onNodeStores(t, chatAcrossNodes) }

// onNodeStores runs a test of several nodes twice, open giving each node
// its store: the nodes share one memstore; then each has its own
// connections to one PostgreSQL database.
func onNodeStores(t *testing.T, run func(t *testing.T, open func(t *testing.T) store.Store)) {
	onNodeStoresAt(t, nil, run)
}

// onNodeStoresAt is onNodeStores with stores that stamp games from now
// (nil: the real clock), the hubs' clock.
func onNodeStoresAt(t *testing.T, now func() time.Time, run func(t *testing.T, open func(t *testing.T) store.Store)) {
	t.Run("memstore", func(t *testing.T) {
		st := memstore.NewOptions(memstore.Options{Now: now})
		run(t, func(*testing.T) store.Store { return st })
	})
	t.Run("postgres", func(t *testing.T) {
		db := migrated.DB(t)
		run(t, func(t *testing.T) store.Store {
			st, err := postgres.Open(t.Context(), db, postgres.Options{Now: now})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		})
	})
}

// chatAcrossNodes runs TestChatAcrossNodes with the store of each node
// from open.
func chatAcrossNodes(t *testing.T, open func(t *testing.T) store.Store) {
	ctx := testContext(t)
	st := open(t)
	a := nodeHub(t, st, steady)
	b := nodeHub(t, open(t), steady)
	id, tokens := seatAnnAndBob(t, a)
	if owner(t, st, id) != a.Node() {
		t.Fatal("node a should run the game it created")
	}
	annOnA, _ := chatWatch(t, a, id, tokens[0], "")
	bobOnB, _ := chatWatch(t, b, id, tokens[1], "")
	// Bob writes through b, which passes it to a.
	if err := b.Chat(ctx, id, ChatRequest{Token: tokens[1], Text: "from node b"}); err != nil {
		t.Fatal(err)
	}
	wantSaid(t, "Ann on a", nextChat(t, annOnA), "Bob: from node b")
	wantSaid(t, "Bob on b", nextChat(t, bobOnB), "Bob: from node b")
	// Bob mutes Ann through b; Ann writes through a.
	if err := b.Mute(ctx, id, MuteRequest{Token: tokens[1], Seat: 0, On: true}); err != nil {
		t.Fatal(err)
	}
	if m := nextChat(t, bobOnB); !slices.Equal(m.Muted, []int{0}) {
		t.Errorf("Bob on b after muting Ann: muted %v", m.Muted)
	}
	if err := a.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "sorry"}); err != nil {
		t.Fatal(err)
	}
	wantSaid(t, "Bob on b", nextChat(t, bobOnB), "Ann: (muted)")
	wantSaid(t, "Ann on a", nextChat(t, annOnA), "Ann: #sorry")
	// A refusal passes back with its kind.
	wantKind(t, b.Chat(ctx, id, ChatRequest{Token: tokens[1], Text: "a\u202eb"}), chat.ErrBadChar)
	noChat(t, annOnA, "a refused message")
}

// chatlessStore cannot read chats.
type chatlessStore struct{ *memstore.Store }

func (chatlessStore) Chat(context.Context, string) (store.Chat, error) {
	return store.Chat{}, errors.New("the disk is on fire")
}

// TestChatUnreadable: a game whose chat cannot be read is played and
// watched all the same, and its chat goes on from there.
func TestChatUnreadable(t *testing.T) {
	ctx := testContext(t)
	h, id, tokens := chatTable(t, chatlessStore{memstore.New()}, newFakeClock())
	spec, _ := chatWatch(t, h, id, "", "")
	if err := h.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "hf"}); err != nil {
		t.Fatal(err)
	}
	wantSaid(t, "a spectator", nextChat(t, spec), "Ann: #hf")
}

// chatFailStore fails chat messages (AddChat) while fail is set.
type chatFailStore struct {
	store.Store
	fail atomic.Bool
}

func (s *chatFailStore) AddChat(ctx context.Context, id string, fence store.Fence, m store.ChatLine) error {
	if s.fail.Load() {
		return errors.New("disk full")
	}
	return s.Store.AddChat(ctx, id, fence, m)
}

// TestChatFailedWriteCostsNothing: a message the store could not keep
// takes nothing from its sender's rate limit: it was not sent.
func TestChatFailedWriteCostsNothing(t *testing.T) {
	ctx := testContext(t)
	st := &chatFailStore{Store: memstore.New()}
	h, id, tokens := chatTable(t, st, newFakeClock()) // the clock stands still
	st.fail.Store(true)
	for range chat.DefaultLimits.Burst {
		wantKind(t, h.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "gg"}), ErrInternal)
	}
	st.fail.Store(false)
	for i := range chat.DefaultLimits.Burst {
		if err := h.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "gg"}); err != nil {
			t.Fatalf("message %d of a burst after %d that failed: %v", i+1, chat.DefaultLimits.Burst, err)
		}
	}
	wantKind(t, h.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "gg"}), chat.ErrTooFast)
}
