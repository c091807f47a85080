package table

import (
	"slices"
	"testing"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/moderation"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// silencedOnly refuses the chat of one account, as the moderation's
// Options.Silenced does.
func silencedOnly(account string) func(string) error {
	return func(a string) error {
		if a == account {
			return &moderation.Error{Kind: moderation.ErrMuted, Msg: "an operator muted you"}
		}
		return nil
	}
}

// TestStrikeLine: an operator's removal of a chat line reaches every
// watcher as the line again, without its words, and the store keeps it
// removed; a line that is not there is refused, nothing changed.
func TestStrikeLine(t *testing.T) {
	st := memstore.New()
	h, id, tokens := chatTable(t, st, newFakeClock())
	ctx := testContext(t)
	if err := h.Chat(ctx, id, ChatRequest{Token: tokens[1], Account: "acct-bob", Text: "something rude"}); err != nil {
		t.Fatal(err)
	}
	ann, _ := chatWatch(t, h, id, tokens[0], "")
	if err := h.Strike(ctx, id, 0); err != nil {
		t.Fatal(err)
	}
	m := nextChat(t, ann)
	if len(m.Lines) != 1 || !m.Lines[0].Removed || m.Lines[0].Text != "" || m.Lines[0].Seq != 0 {
		t.Errorf("Ann read %+v, want line 0 removed, without its words", m.Lines)
	}
	c, err := st.Chat(ctx, id)
	if err != nil || !c.Lines[0].Removed || c.Lines[0].Text != "something rude" {
		t.Errorf("stored %+v, %v; want the line kept, removed", c.Lines, err)
	}
	wantKind(t, h.Strike(ctx, id, 3), ErrBadRequest)
	noChat(t, ann, "a refused removal")
	if err := h.Strike(ctx, id, 0); err != nil {
		t.Errorf("removing a line twice: %v", err)
	}
}

// TestExpelSeat: an operator's removal of a signed-in player hands their
// seat to a bot for good; the watchers are told; the player cannot take
// it back.
func TestExpelSeat(t *testing.T) {
	st := memstore.New()
	h, id, tokens := chatTable(t, st, newFakeClock())
	ctx := testContext(t)
	sub, err := h.Watch(ctx, id, Watcher{Token: tokens[0]})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if err := h.Expel(ctx, id, "acct-nobody"); err != nil {
		t.Errorf("the removal of an account without a seat: %v", err)
	}
	if err := h.Expel(ctx, id, "acct-bob"); err != nil {
		t.Fatal(err)
	}
	for {
		u, _ := next(t, ctx, sub)
		if slices.ContainsFunc(u.TakeOvers, func(to protocol.TakeOver) bool { return to.Seat == 1 && to.Reason == protocol.ReasonRemoved }) {
			break
		}
	}
	wantKind(t, h.TakeBack(ctx, id, tokens[1]), match.ErrSeatRemoved)
	g, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	tm, err := match.DecodeTiming(g.Clock, len(g.Seats))
	if err != nil || !tm.Removed(1) {
		t.Errorf("the stored take-overs %+v (%v): want seat 1's for good", tm.TakeOvers, err)
	}
}

// TestSilencedChat: the chat of an account Options.Silenced refuses is
// refused with its code, at the seat and watching; nothing is stored.
func TestSilencedChat(t *testing.T) {
	st := memstore.New()
	h := New(st, Options{Silenced: silencedOnly("acct-bob")})
	t.Cleanup(func() { h.Close() })
	id, tokens := seatAnnAndBob(t, h)
	ctx := testContext(t)
	for name, err := range map[string]error{
		"at Bob's seat":                h.Chat(ctx, id, ChatRequest{Token: tokens[1], Phrase: "gg"}),
		"watching, signed in as Bob":   h.Chat(ctx, id, ChatRequest{Account: "acct-bob", Name: "Bob", Text: "psst"}),
		"at Ann's seat, signed as Bob": h.Chat(ctx, id, ChatRequest{Token: tokens[0], Account: "acct-bob", Phrase: "gg"}),
	} {
		if codeOf(err) != protocol.ChatMuted {
			t.Errorf("%s: %v, want %s", name, err, protocol.ChatMuted)
		}
	}
	if err := h.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "gg"}); err != nil {
		t.Errorf("Ann's message: %v", err)
	}
	if c, _ := st.Chat(ctx, id); len(c.Lines) != 1 {
		t.Errorf("%d lines stored, want Ann's only", len(c.Lines))
	}
}
