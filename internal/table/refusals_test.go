package table

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// codeOf returns the protocol code of a refusal of the Hub: "" for no
// error, "not an *Error" for a failure that is not a refusal.
func codeOf(err error) protocol.Code {
	var e *Error
	switch {
	case err == nil:
		return ""
	case !errors.As(err, &e):
		return "not an *Error"
	}
	code, ok := protocol.CodeOf(e.Kind)
	if !ok {
		return "no code"
	}
	return code
}

// A refusalCase is a write refused, made on a node.
type refusalCase struct {
	name  string
	code  protocol.Code
	write func(h *Hub) error
}

// TestRefusalsAcrossNodes: every refusal of a write arrives with the same
// code through a node that does not run the game as from the node that
// does, and changes nothing; in one process (memstore) and as separate
// servers (PostgreSQL, NOTIFY).
func TestRefusalsAcrossNodes(t *testing.T) {
	waitsOnTimers(t)
	onNodeStores(t, refusalsAcrossNodes)
}

func refusalsAcrossNodes(t *testing.T, open func(t *testing.T) store.Store) {
	ctx := testContext(t)
	var ahead atomic.Int64 // how far node a's clock runs ahead, to close the chat
	st := open(t)
	// No node dies here: long leases and waits for answers keep a loaded
	// machine from turning a refusal into unavailable.
	patient := func(o *Options) { o.LeaseTTL, o.ForwardTimeout = time.Minute, 10*time.Second }
	a := nodeHub(t, st, patient, func(o *Options) {
		o.Now = func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	})
	b := nodeHub(t, open(t), patient)
	tb, err := a.Create(ctx, TableSetup{Seats: []string{"", ""}, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	id, creator := tb.Info.ID, tb.Creator
	tokens := [2]string{"ann-token", "bob-token"}
	if _, _, err := a.Join(ctx, id, 0, Person{Name: "Ann", Token: tokens[0], Account: "acct-ann"}); err != nil {
		t.Fatal(err)
	}
	join := func(seat int, p Person) func(h *Hub) error {
		return func(h *Hub) error { _, _, err := h.Join(ctx, id, seat, p); return err }
	}
	unknown := func(h *Hub) error {
		_, err := h.write(ctx, match.Command{Kind: "teleport", Game: id})
		return err
	}
	checkAcross(t, st, id, []*Hub{a, b}, []refusalCase{
		{"a guest at a rated table", protocol.AccountRequired, join(1, Person{Name: "Gus", Token: "gus-token"})},
		{"an account at a second seat", protocol.AlreadySeated, join(1, Person{Name: "Ann again", Token: "other-token", Account: "acct-ann"})},
		{"a taken seat", protocol.SeatTaken, join(0, Person{Name: "Bob", Token: tokens[1], Account: "acct-bob"})},
		{"a taken name", protocol.NameTaken, join(1, Person{Name: "ANN", Token: tokens[1], Account: "acct-bob"})},
		{"removing without the creator's token", protocol.NotCreator, func(h *Hub) error { return h.Remove(ctx, id, "not-the-creator", 0) }},
		{"giving up another's seat", protocol.NotYourSeat, func(h *Hub) error { return h.GiveUp(ctx, id, tokens[0], 1) }},
		{"a level without the creator's token", protocol.NotCreator, func(h *Hub) error { return h.SetLevel(ctx, id, "not-the-creator", 1, "hard") }},
		{"a level for a person's seat", protocol.BadRequest, func(h *Hub) error { return h.SetLevel(ctx, id, creator, 0, "hard") }},
		{"a write of another version", protocol.Unsupported, unknown},
	})
	var e *Error
	if err := unknown(b); !errors.As(err, &e) || e.RetryAfter != time.Minute {
		t.Errorf("a write of another version through b: %#v, want a wait of a minute", err)
	}
	if _, _, err := a.Join(ctx, id, 1, Person{Name: "Bob", Token: tokens[1], Account: "acct-bob"}); err != nil {
		t.Fatal(err)
	}
	g, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	game, err := match.Replay(g)
	if err != nil {
		t.Fatal(err)
	}
	mover, waiter := tokens[game.ToMove()], tokens[1-game.ToMove()]
	play := func(token, move string, seq int) func(h *Hub) error {
		return func(h *Hub) error { return h.Play(ctx, id, token, move, seq) }
	}
	say := func(token, name, phrase, text string) func(h *Hub) error {
		return func(h *Hub) error {
			return h.Chat(ctx, id, ChatRequest{Token: token, Name: name, Phrase: phrase, Text: text})
		}
	}
	checkAcross(t, st, id, []*Hub{a, b}, []refusalCase{
		{"a move out of turn", protocol.NotYourTurn, play(waiter, "draw", 0)},
		{"a move of a spectator", protocol.NotYourSeat, play("nobody's-token", "draw", 0)},
		{"a stale move", protocol.Stale, play(mover, "draw", 5)},
		{"an illegal move", protocol.IllegalMove, play(mover, "fly", 0)},
		{"a join at a full table", protocol.TableFull, join(-1, Person{Name: "Cy", Token: "cy-token", Account: "acct-cy"})},
		{"removing a player after the start", protocol.AlreadyStarted, func(h *Hub) error { return h.Remove(ctx, id, creator, 1) }},
		{"giving up a seat after the start", protocol.AlreadyStarted, func(h *Hub) error { return h.GiveUp(ctx, id, tokens[1], 1) }},
		{"a level after the start", protocol.AlreadyStarted, func(h *Hub) error { return h.SetLevel(ctx, id, creator, 1, "hard") }},
		{"a chat message with a control character", protocol.ChatBadChar, say(mover, "", "", "a\u202eb")},
		{"a chat message too long", protocol.ChatTooLong, say(mover, "", "", strings.Repeat("x", chat.MaxRunes+1))},
		{"an unknown quick phrase", protocol.ChatNotAllowed, say(mover, "", "no-such-phrase", "")},
		{"an anonymous spectator's chat", protocol.ChatSignIn, say("", "Kim", "", "psst")},
		{"muting oneself", protocol.ChatNotAllowed, func(h *Hub) error { return h.Mute(ctx, id, MuteRequest{Token: tokens[0], Seat: 0, On: true}) }},
		{"removing a chat line that is not there", protocol.BadRequest, func(h *Hub) error { return h.Strike(ctx, id, 7) }},
		{"a write of another version", protocol.Unsupported, unknown},
	})
	// A write the channel between nodes cannot carry is refused at once,
	// not left to wait for an answer and called unavailable.
	huge := strings.Repeat("<", store.MaxPayload/2)
	if err := play(mover, huge, 0)(b); codeOf(err) != protocol.TooLarge {
		t.Errorf("a move of %d bytes through b: %v (%s), want %s", len(huge), err, codeOf(err), protocol.TooLarge)
	}

	// Once the game is over no node runs it: a chat message passed to a
	// as the game ended is checked there, and its chat closes a day later.
	playAlongBoth(t, a, id, tokens)
	waitOver(t, ctx, b, id)
	ahead.Store(int64(25 * time.Hour))
	late := match.Command{Kind: match.Chat, Game: id, Hash: hashToken(tokens[0]), Phrase: "gg"}
	if err := a.Chat(ctx, id, ChatRequest{Token: tokens[0], Phrase: "gg"}); codeOf(err) != protocol.ChatClosed {
		t.Errorf("a chat message a day after the game on a: %v (%s), want %s", err, codeOf(err), protocol.ChatClosed)
	}
	if _, _, _, err := b.forward(ctx, late, a.Node()); codeOf(err) != protocol.ChatClosed {
		t.Errorf("a chat message a day after the game passed from b to a: %v (%s), want %s", err, codeOf(err), protocol.ChatClosed)
	}
}

// checkAcross makes each write of cases on each of the nodes, one of
// which runs game id, and checks both are refused with the case's
// code and that the stored game did not change.
func checkAcross(t *testing.T, st store.Store, id string, nodes []*Hub, cases []refusalCase) {
	t.Helper()
	ctx := testContext(t)
	before := storedJSON(t, ctx, st, id)
	holder := owner(t, st, id)
	for _, c := range cases {
		for _, h := range nodes {
			where := "through the node that does not run the game"
			if h.Node() == holder {
				where = "on the node that runs it"
			}
			if err := c.write(h); codeOf(err) != c.code {
				t.Errorf("%s %s: %v (%s), want %s", c.name, where, err, codeOf(err), c.code)
			}
		}
	}
	if after := storedJSON(t, ctx, st, id); after != before {
		t.Errorf("refused writes changed the game:\nbefore %s\nafter  %s", before, after)
	}
}

// storedJSON returns the stored game as JSON, but for its time of update.
func storedJSON(t *testing.T, ctx context.Context, st store.Store, id string) string {
	t.Helper()
	g, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	c := *g
	c.Updated = time.Time{}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAnswerKeepsEveryRefusal: every refusal declared, passed between
// nodes as JSON, comes back as the same sentinel; one this node lacks
// (a node of another version) keeps its code.
func TestAnswerKeepsEveryRefusal(t *testing.T) {
	for _, r := range protocol.Refusals() {
		b, err := json.Marshal(answerOf(0, reject(r, "refused: %s", r)))
		if err != nil {
			t.Fatal(err)
		}
		var a answer
		if err := json.Unmarshal(b, &a); err != nil {
			t.Fatal(err)
		}
		_, got := a.result()
		var e *Error
		if !errors.As(got, &e) || e.Kind != r || e.Msg != "refused: "+r.Error() {
			t.Errorf("%q (%s) came back as %#v", r, r.Code(), got)
		}
	}
	tests := []struct {
		name string
		a    answer
		want protocol.Code
	}{
		{"a sentinel of a newer version", answer{Kind: "a refusal of a newer version", Code: protocol.SeatTaken}, protocol.SeatTaken},
		{"a known text with another code", answer{Kind: ErrSeatTaken.Error(), Code: protocol.TableFull}, protocol.TableFull},
		{"a sentinel of an older version", answer{Kind: ErrSeatTaken.Error()}, protocol.SeatTaken},
		{"an unknown code", answer{Kind: "a refusal of a newer version", Code: "teleported"}, protocol.Internal},
		{"no code, unknown text", answer{Kind: "a refusal of a newer version"}, protocol.Internal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tt.a.result(); codeOf(err) != tt.want {
				t.Errorf("%+v came back as %v (%s), want %s", tt.a, err, codeOf(err), tt.want)
			}
		})
	}
}
