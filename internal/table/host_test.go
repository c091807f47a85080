package table

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// TestRefused: a refusal of the match reaches the player as the Hub's
// error with its sentinel, message, cause and wait; one without a kind is
// internal.
func TestRefused(t *testing.T) {
	cause := errors.New("the cause")
	for _, tt := range []struct {
		name string
		kind error
		want error
	}{
		{"a sentinel of the match", match.ErrTableFull, ErrTableFull},
		{"a sentinel of the chat", chat.ErrTooFast, chat.ErrTooFast},
		{"no kind", nil, ErrInternal},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := refused(&match.Refusal{Kind: tt.kind, Msg: "the message", Err: cause, RetryAfter: time.Second})
			var e *Error
			if !errors.As(err, &e) || e.Kind != tt.want || e.Msg != "the message" || !errors.Is(err, cause) || e.RetryAfter != time.Second {
				t.Fatalf("refused = %#v, want the kind %v", err, tt.want)
			}
		})
	}
}

// TestUnsupportedCommand: a command of a kind the node that runs the game
// does not know, as a node of another version sends it, is refused as
// unsupported, by the owner and through a node that passes it on, and
// nothing it carries changes the table.
func TestUnsupportedCommand(t *testing.T) {
	waitsOnTimers(t)
	ctx := testContext(t)
	st := memstore.New()
	a, b := nodeHub(t, st), nodeHub(t, st)
	in, _, err := created(a.Create(ctx, TableSetup{Seats: []string{"", ""}}))
	if err != nil {
		t.Fatal(err)
	}
	_, ann, err := b.Join(ctx, in.ID, 0, Person{Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	before, err := st.Game(ctx, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	c := match.Command{Kind: "seat-v9", Game: in.ID, Hash: hashToken("mallory"), Name: "Mallory", Seat: 1, Move: "draw"}
	for _, h := range []*Hub{a, b} {
		_, err := h.write(ctx, c)
		wantKind(t, err, ErrUnsupported)
	}
	after, err := st.Game(ctx, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	same := func(x, y store.Seat) bool { return x.Name == y.Name && string(x.TokenHash) == string(y.TokenHash) }
	if after.Status != before.Status || !slices.EqualFunc(after.Seats, before.Seats, same) || !after.Updated.Equal(before.Updated) {
		t.Errorf("the table changed: %+v, was %+v", after, before)
	}
	if err := b.Play(ctx, in.ID, ann, "draw", -1); !errors.Is(err, ErrNotStarted) {
		t.Errorf("the table after the refused command: %v, want it still open", err)
	}
}

// TestNarrowStore: a Hub asks its store for the methods of Store only,
// and says "no such game" as the store does.
func TestNarrowStore(t *testing.T) {
	ctx := testContext(t)
	h := newHub(t, struct{ Store }{memstore.New()})
	in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"easy", "easy"}}))
	if err != nil {
		t.Fatal(err)
	}
	waitOver(t, ctx, h, in.ID)
	if _, _, err := h.Game(ctx, "nosuchgame", ""); !errors.Is(err, store.ErrNotFound) || !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown game: %v, want the one no such game", err)
	}
}
