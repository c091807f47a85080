package table

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// TestChatAfterGame checks the chat after the game: the players' open
// connections, kept from the game, hear "Well played" said after the last
// move; a spectator's channel is open to the players then; a connection
// made after the game reads it all and hears what comes next.
func TestChatAfterGame(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	h, id, tokens := chatTable(t, st, newFakeClock())
	ann, _ := chatWatch(t, h, id, tokens[0], "")
	bob, _ := chatWatch(t, h, id, tokens[1], "")
	if err := h.Chat(ctx, id, ChatRequest{Account: "acct-kim", Name: "Kim", Text: "psst"}); err != nil {
		t.Fatal(err)
	}
	playAlongBoth(t, h, id, tokens)
	// At the end, the players read the spectators' channel.
	wantSaid(t, "Ann at the end", nextChat(t, ann), "Kim: psst")
	wantSaid(t, "Bob at the end", nextChat(t, bob), "Kim: psst")

	if err := h.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "wp"}); err != nil {
		t.Fatalf("Ann's \"Well played\" after the game: %v", err)
	}
	m := nextChat(t, bob)
	wantSaid(t, "Bob after the game", m, "Ann: #wp")
	g, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if l := m.Lines[0]; l.Move != len(g.Moves) || l.Channel != protocol.ChannelPlayers || l.Seat != 0 {
		t.Errorf("Ann's line after the game %+v: want move %d (after the last), the players' channel, seat 0", l, len(g.Moves))
	}
	wantSaid(t, "Ann after the game", nextChat(t, ann), "Ann: #wp")
	if err := h.Chat(ctx, id, ChatRequest{Token: tokens[1], Text: "gg, close one"}); err != nil {
		t.Fatalf("Bob's free text after the game: %v", err)
	}
	wantSaid(t, "Ann", nextChat(t, ann), "Bob: gg, close one")
	// A spectator says something after the game: the players read it.
	if err := h.Chat(ctx, id, ChatRequest{Account: "acct-kim", Name: "Kim", Phrase: "gg"}); err != nil {
		t.Fatal(err)
	}
	wantSaid(t, "Ann", nextChat(t, ann), "Kim: #gg")
	nextChat(t, bob)

	// A connection made after the game reads the conversation, then
	// hears what is said next.
	late, hist := chatWatch(t, h, id, tokens[1], "")
	wantSaid(t, "Bob reconnecting", hist, "Kim: psst", "Ann: #wp", "Bob: gg, close one", "Kim: #gg")
	if err := h.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "bye"}); err != nil {
		t.Fatal(err)
	}
	wantSaid(t, "Bob's new connection", nextChat(t, late), "Ann: #bye")

	// The replay shows the players' lines after the game after the last move.
	log, err := h.ChatLog(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got := said(log); !slices.Equal(got, []string{"Ann: #wp", "Bob: gg, close one", "Ann: #bye"}) {
		t.Errorf("the replay's chat %q", got)
	}
	for _, l := range log {
		if l.Move != len(g.Moves) {
			t.Errorf("the replay's line %+v: want move %d, after the last", l, len(g.Moves))
		}
	}
}

// TestChatAfterGameRules checks that the rules of the chat hold after the
// game: free text signed in, bad characters, rate limits, mutes per
// reader; and that it closes chat.AfterGame after the end.
func TestChatAfterGameRules(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	clk := newFakeClock()
	h, id, tokens := chatTable(t, st, clk)
	playAlongBoth(t, h, id, tokens)
	bob, _ := chatWatch(t, h, id, tokens[1], "")
	spec, _ := chatWatch(t, h, id, "", "")
	for _, c := range []struct {
		name, token, account, phrase, text string
		kind                               error
	}{
		{"a guest player's text", tokens[0], "", "", "hello", chat.ErrSignIn},
		{"an anonymous spectator's phrase", "", "", "gg", "", chat.ErrSignIn},
		{"a direction override", tokens[1], "", "", "abc\u202edef", chat.ErrBadChar},
		{"an unknown phrase", tokens[0], "", "hax", "", chat.ErrUnknownPhrase},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantKind(t, h.Chat(ctx, id, ChatRequest{Token: c.token, Account: c.account, Phrase: c.phrase, Text: c.text}), c.kind)
		})
	}
	// Bob mutes Ann after the game: on his connection only.
	wantKind(t, h.Mute(ctx, id, MuteRequest{Token: tokens[1], Seat: 1, On: true}), chat.ErrMuteSelf)
	if err := h.Mute(ctx, id, MuteRequest{Token: tokens[1], Seat: 0, On: true}); err != nil {
		t.Fatal(err)
	}
	if m := nextChat(t, bob); !slices.Equal(m.Muted, []int{0}) || len(m.Lines) != 0 {
		t.Errorf("Bob after muting Ann: %+v, want muted [0] and no lines", m)
	}
	if err := h.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "gg"}); err != nil {
		t.Fatal(err)
	}
	wantSaid(t, "Bob", nextChat(t, bob), "Ann: (muted)")
	wantSaid(t, "a spectator", nextChat(t, spec), "Ann: #gg")
	// Too fast: Ann's burst (the "gg" was its first), then a wait.
	for i := 1; i < chat.DefaultLimits.Burst; i++ {
		if err := h.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "thanks"}); err != nil {
			t.Fatalf("message %d of the burst: %v", i+1, err)
		}
	}
	err := h.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "bye"})
	wantKind(t, err, chat.ErrTooFast)
	var e *Error
	if errors.As(err, &e) && (e.RetryAfter <= 0 || e.RetryAfter > chat.DefaultLimits.Every) {
		t.Errorf("too fast: retry after %v, want within %v", e.RetryAfter, chat.DefaultLimits.Every)
	}
	clk.Advance(chat.DefaultLimits.Every)
	if err := h.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "bye"}); err != nil {
		t.Errorf("after waiting: %v", err)
	}
	stored, err := st.Chat(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(stored.Lines); n != chat.DefaultLimits.Burst+1 {
		t.Errorf("stored %d lines, want %d: nothing refused is stored", n, chat.DefaultLimits.Burst+1)
	}

	// The game ended when the store last changed it (its Updated time);
	// its chat closes chat.AfterGame later, for messages and mutes.
	g, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	clk.Advance(g.Updated.Sub(clk.Now()) + chat.AfterGame - time.Second)
	if err := h.Chat(ctx, id, ChatRequest{Token: tokens[1], Text: "still here"}); err != nil {
		t.Errorf("a second before the chat closes: %v", err)
	}
	clk.Advance(2 * time.Second)
	wantKind(t, h.Chat(ctx, id, ChatRequest{Token: tokens[1], Phrase: "gg"}), chat.ErrClosed)
	wantKind(t, h.Mute(ctx, id, MuteRequest{Token: tokens[1], Seat: 0}), chat.ErrClosed)
	if after, err := st.Chat(ctx, id); err != nil || len(after.Lines) != len(stored.Lines)+1 || len(after.Mutes) != 1 {
		t.Errorf("after refusals once closed: %+v, %v: want one line more, the mute kept", after, err)
	}
	// A connection made then reads the conversation; nothing more comes.
	_, hist := chatWatch(t, h, id, tokens[0], "")
	if n := len(hist.Lines); n != len(stored.Lines)+1 {
		t.Errorf("Ann reconnecting once the chat closed read %d lines, want %d", n, len(stored.Lines)+1)
	}
}

// TestChatAfterGameAcrossNodes checks that a message said after the game
// through one node reaches the players connected to another, from the
// connections they kept from the game and from new ones; that a mute after
// the game holds on the other node; in one process (memstore) and as
// separate servers (PostgreSQL, NOTIFY).
func TestChatAfterGameAcrossNodes(t *testing.T) {
	waitsOnTimers(t)
	onNodeStores(t, chatAfterGameAcrossNodes)
}

func chatAfterGameAcrossNodes(t *testing.T, open func(t *testing.T) store.Store) {
	ctx := testContext(t)
	a := nodeHub(t, open(t), steady)
	b := nodeHub(t, open(t), steady)
	id, tokens := seatAnnAndBob(t, a)
	annOnA, _ := chatWatch(t, a, id, tokens[0], "")
	bobOnB, _ := chatWatch(t, b, id, tokens[1], "")
	playAlongBoth(t, a, id, tokens)
	waitOver(t, ctx, b, id)
	// Ann says it through a; Bob's connection on b, kept from the game, hears it.
	if err := a.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "wp"}); err != nil {
		t.Fatal(err)
	}
	wantSaid(t, "Bob on b", nextChat(t, bobOnB), "Ann: #wp")
	wantSaid(t, "Ann on a", nextChat(t, annOnA), "Ann: #wp")
	// Bob answers through b; a connection made on a after the game hears it.
	annLate, hist := chatWatch(t, a, id, tokens[0], "")
	wantSaid(t, "Ann's new connection on a", hist, "Ann: #wp")
	if err := b.Chat(ctx, id, ChatRequest{Token: tokens[1], Text: "gg from b"}); err != nil {
		t.Fatal(err)
	}
	wantSaid(t, "Ann on a", nextChat(t, annOnA), "Bob: gg from b")
	wantSaid(t, "Ann's new connection on a", nextChat(t, annLate), "Bob: gg from b")
	nextChat(t, bobOnB)
	// Ann mutes Bob through b: her connections on a hold it.
	if err := b.Mute(ctx, id, MuteRequest{Token: tokens[0], Seat: 1, On: true}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Subscription{annOnA, annLate} {
		if m := nextChat(t, s); !slices.Equal(m.Muted, []int{1}) {
			t.Errorf("Ann on a after muting Bob: muted %v", m.Muted)
		}
	}
	if err := b.Chat(ctx, id, ChatRequest{Token: tokens[1], Phrase: "bye"}); err != nil {
		t.Fatal(err)
	}
	wantSaid(t, "Ann on a", nextChat(t, annOnA), "Bob: (muted)")
	wantSaid(t, "Bob on b", nextChat(t, bobOnB), "Bob: #bye")
}
