package table

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/premove"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// forcedAuction seats two people at an untimed table and has the first to
// move call an auction (R9): the caller decides last. It returns the game,
// the tokens, the caller and the other seat, and the watchers of each seat
// and of a spectator.
func forcedAuction(t *testing.T) (h *Hub, id string, tokens [2]string, caller, other int, subs [3]*Subscription) {
	t.Helper()
	ctx := testContext(t)
	h = newHub(t, memstore.New())
	id, tokens = timedTable(t, h, "untimed")
	for i, tok := range []string{tokens[0], tokens[1], ""} {
		s, err := h.Watch(ctx, id, Watcher{Token: tok})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		subs[i] = s
	}
	u := await(t, subs[2], func(u Update) bool { return u.View.ToMove >= 0 })
	caller = u.View.ToMove
	other = 1 - caller
	if err := h.Play(ctx, id, tokens[caller], "call", u.View.Moves); err != nil {
		t.Fatal(err)
	}
	await(t, subs[2], func(u Update) bool { return u.View.Phase == "auction" && u.View.ToMove == other })
	return h, id, tokens, caller, other, subs
}

func TestPreMovePlayed(t *testing.T) {
	ctx := testContext(t)
	h, id, tokens, caller, other, subs := forcedAuction(t)
	u := await(t, subs[other], func(u Update) bool { return u.View.ToMove == other })
	if err := h.PreMove(ctx, id, tokens[caller], "pass"); err != nil {
		t.Fatal(err)
	}
	// Only the owner sees it.
	if got := await(t, subs[caller], func(u Update) bool { return u.PreMove != "" }); got.PreMove != "pass" {
		t.Errorf("the owner's pre-move = %q, want pass", got.PreMove)
	}
	bid := slices.Min(u.View.Seats[other].FaceUp)
	moves := u.View.Moves
	if err := h.Play(ctx, id, tokens[other], fmt.Sprint("bid ", bid), moves); err != nil {
		t.Fatal(err)
	}
	// The caller's pass is played at once: the auction is over.
	u = await(t, subs[2], func(u Update) bool { return u.View.Moves >= moves+2 })
	if u.View.Moves != moves+2 || u.View.Phase == "auction" {
		t.Errorf("after the bid: moves %d, phase %s; want the pre-entered pass played (moves %d)", u.View.Moves, u.View.Phase, moves+2)
	}
	if u.PreMove != "" {
		t.Errorf("a spectator saw a pre-move %q", u.PreMove)
	}
	if got := await(t, subs[other], func(u Update) bool { return u.View.Moves == moves+2 }); got.PreMove != "" {
		t.Errorf("the other seat saw a pre-move %q", got.PreMove)
	}
}

func TestPreMoveDropped(t *testing.T) {
	ctx := testContext(t)
	h, id, tokens, caller, other, subs := forcedAuction(t)
	u := await(t, subs[caller], func(u Update) bool { return u.View.ToMove == other })
	low, high := slices.Min(u.View.Seats[caller].FaceUp), slices.Max(u.View.Seats[other].FaceUp)
	if high < low {
		t.Fatalf("the deal leaves no bid above the caller's lowest cheque %d (other's highest %d)", low, high)
	}
	if err := h.PreMove(ctx, id, tokens[caller], fmt.Sprint("bid ", low)); err != nil {
		t.Fatal(err)
	}
	if err := h.Play(ctx, id, tokens[other], fmt.Sprint("bid ", high), u.View.Moves); err != nil {
		t.Fatal(err)
	}
	// Overtaken: dropped, and the caller is asked.
	u = await(t, subs[caller], func(u Update) bool { return u.PreMoveDropped != "" })
	if u.View.ToMove != caller || u.View.Moves != 2 {
		t.Errorf("after the drop: %d moves, seat %d to move; want 2, the caller %d asked", u.View.Moves, u.View.ToMove, caller)
	}
	if u.PreMove != fmt.Sprint("bid ", low) {
		t.Errorf("the dropped pre-move shown = %q", u.PreMove)
	}
}

func TestPreMoveRefused(t *testing.T) {
	ctx := testContext(t)
	h, id, tokens, caller, other, _ := forcedAuction(t)
	for _, c := range []struct {
		name, token, move string
		kind              error
		cause             error
	}{
		{"not held", tokens[caller], "bid 99", ErrIllegalMove, nil},
		{"not a pre-move", tokens[caller], "draw", ErrIllegalMove, nil},
		{"malformed", tokens[caller], "bid lots", ErrIllegalMove, nil},
		{"their decision now", tokens[other], "pass", ErrIllegalMove, premove.ErrYourTurn},
		{"spectator", "", "pass", ErrNotYourSeat, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := h.PreMove(ctx, id, c.token, c.move)
			wantKind(t, err, c.kind)
			if c.cause != nil && !errors.Is(err, c.cause) {
				t.Errorf("error %v does not wrap %v", err, c.cause)
			}
		})
	}
	g, err := h.store.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if tm, _ := match.DecodeTiming(g.Clock, 2); len(tm.PreMoves) != 0 {
		t.Errorf("refused pre-moves were stored: %+v", tm.PreMoves)
	}
}

func TestCancel(t *testing.T) {
	ctx := testContext(t)
	h := newHub(t, memstore.New())
	in, creator, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "", "easy"}}))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.Join(ctx, in.ID, 0, Person{Name: "Ann"}); err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{"someone else", ""} {
		_, err := h.Cancel(ctx, in.ID, tok)
		wantKind(t, err, ErrNotCreator)
	}
	if got, _, _ := h.Game(ctx, in.ID, ""); got.Status != "open" {
		t.Fatalf("after refused cancels the table is %s, want open", got.Status)
	}
	sub, err := h.Watch(ctx, in.ID, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if got, err := h.Cancel(ctx, in.ID, creator); err != nil || got.Status != "cancelled" {
		t.Fatalf("Cancel by the creator = %s, %v; want cancelled", got.Status, err)
	}
	for u, ok := next(t, ctx, sub); ; u, ok = next(t, ctx, sub) {
		if !ok {
			t.Fatal("the watcher was not told the table was cancelled")
		}
		if u.Game.Status == "cancelled" {
			break
		}
	}
	_, _, err = h.Join(ctx, in.ID, 1, Person{Name: "Bob"})
	wantKind(t, err, ErrCancelled)
	_, err = h.Cancel(ctx, in.ID, creator)
	wantKind(t, err, ErrCancelled)
	if l, _ := h.List(ctx, store.StatusCancelled); len(l) != 1 {
		t.Errorf("List(cancelled) = %d games, want 1", len(l))
	}

	// A game that has started cannot be cancelled.
	started, creator, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "easy"}}))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.Join(ctx, started.ID, 0, Person{Name: "Ann"}); err != nil {
		t.Fatal(err)
	}
	_, err = h.Cancel(ctx, started.ID, creator)
	wantKind(t, err, ErrAlreadyStarted)
}
