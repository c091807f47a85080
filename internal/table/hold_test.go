package table

import (
	"slices"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// heldGame returns the game id as st holds it, replayed, and its timing.
func heldGame(t *testing.T, st store.Store, id string) (*razzia.Game, match.Timing) {
	t.Helper()
	g, err := st.Game(testContext(t), id)
	if err != nil {
		t.Fatal(err)
	}
	game, err := match.Replay(g)
	if err != nil {
		t.Fatal(err)
	}
	tm, err := match.DecodeTiming(g.Clock, len(g.Seats))
	if err != nil {
		t.Fatal(err)
	}
	return game, tm
}

// playRound1 plays the two people's default moves, a second apart, until
// round 1 is over; it returns when its last move was made.
func playRound1(t *testing.T, h *Hub, st store.Store, clk *fakeClock, id string, tokens [2]string) time.Time {
	t.Helper()
	ctx := testContext(t)
	game, _ := heldGame(t, st, id)
	round := func() int { s := game.State(); return s.Round() }
	first := round()
	for round() == first {
		clk.Advance(time.Second)
		mv := bot.Default(game.LegalMoves())
		if err := h.Play(ctx, id, tokens[game.ToMove()], mv.String(), game.Len()); err != nil {
			t.Fatalf("move %d: %v", game.Len(), err)
		}
		game, _ = heldGame(t, st, id)
		if game.Len() > 500 {
			t.Fatal("round 1 does not end")
		}
	}
	return clk.Now()
}

// seated watches the game with each seat's token, as both people do at
// their screens.
func seated(t *testing.T, h *Hub, id string, tokens [2]string) [2]*Subscription {
	t.Helper()
	var subs [2]*Subscription
	for i, tok := range tokens {
		sub, err := h.Watch(testContext(t), id, Watcher{Token: tok})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(sub.Close)
		subs[i] = sub
	}
	return subs
}

// TestHoldContinued: the clock of round 2 waits while both people read
// round 1's scores, for a continue from each connected person; a
// spectator's or a stranger's continue is refused.
func TestHoldContinued(t *testing.T) {
	ctx := testContext(t)
	st, clk := memstore.New(), newFakeClock()
	h := clockHub(t, st, clk)
	id, tokens := timedTable(t, h, "blitz")
	seated(t, h, id, tokens)
	spec, err := h.Watch(ctx, id, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	defer spec.Close()
	end := playRound1(t, h, st, clk, id, tokens)
	until := end.Add(pace.DefaultGrace)
	u := await(t, spec, func(u Update) bool { return u.Clock != nil && u.Clock.HeldUntil != 0 })
	if u.Clock.Running != -1 || u.Clock.HeldUntil != until.UnixMilli() {
		t.Fatalf("clock %+v, want none running, held until %v", u.Clock, until)
	}
	wantKind(t, h.Continue(ctx, id, ""), ErrNotYourSeat)
	wantKind(t, h.Continue(ctx, id, "a stranger's token"), ErrNotYourSeat)

	clk.Advance(2 * time.Second)
	if err := h.Continue(ctx, id, tokens[0]); err != nil {
		t.Fatal(err)
	}
	if err := h.Continue(ctx, id, tokens[0]); err != nil {
		t.Errorf("a second continue: %v", err)
	}
	u = await(t, spec, func(u Update) bool { return u.Clock != nil && len(u.Clock.Continued) == 1 })
	if u.Clock.Running != -1 || !slices.Equal(u.Clock.Continued, []int{0}) {
		t.Fatalf("after Ann continued: %+v, want held for Bob", u.Clock)
	}
	clk.Advance(time.Second)
	if err := h.Continue(ctx, id, tokens[1]); err != nil {
		t.Fatal(err)
	}
	u = await(t, spec, func(u Update) bool { return u.Clock != nil && u.Clock.Running >= 0 })
	if want := end.Add(3*time.Second + 10*time.Second); u.Clock.HeldUntil != 0 || u.Clock.DecisionEnds != want.UnixMilli() {
		t.Errorf("after both continued: %+v, want the decision started then, ending %v", u.Clock, want)
	}
}

// TestHoldLeaver: a person who closes the table's page does not hold the
// clock: the other's continue starts it.
func TestHoldLeaver(t *testing.T) {
	ctx := testContext(t)
	st, clk := memstore.New(), newFakeClock()
	h := clockHub(t, st, clk)
	id, tokens := timedTable(t, h, "blitz")
	subs := seated(t, h, id, tokens)
	spec, err := h.Watch(ctx, id, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	defer spec.Close()
	end := playRound1(t, h, st, clk, id, tokens)
	await(t, spec, func(u Update) bool { return u.Clock != nil && u.Clock.HeldUntil != 0 })
	if err := h.Continue(ctx, id, tokens[0]); err != nil {
		t.Fatal(err)
	}
	await(t, spec, func(u Update) bool { return u.Clock != nil && len(u.Clock.Continued) == 1 })
	subs[1].Close()
	u := await(t, spec, func(u Update) bool { return u.Clock != nil && u.Clock.Running >= 0 })
	if u.Clock.HeldUntil != 0 || u.Clock.DecisionEnds != end.Add(10*time.Second).UnixMilli() {
		t.Errorf("after Bob left: %+v, want the decision started at once", u.Clock)
	}
}

// TestHoldRestart: the hold is stored with the clock, so a restart keeps
// its deadline and who continued, and the decision starts at the grace's
// end, once, however long the server was down.
func TestHoldRestart(t *testing.T) {
	for name, open := range restartStores {
		t.Run(name, func(t *testing.T) { holdRestart(t, open(t)) })
	}
}

// resumeWatching starts a Hub on st again, as after a restart, and
// watches the game id there as a spectator.
func resumeWatching(t *testing.T, st store.Store, clk *fakeClock, id string) (*Hub, *Subscription) {
	t.Helper()
	ctx := testContext(t)
	h := clockHub(t, st, clk)
	if _, err := h.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	sub, err := h.Watch(ctx, id, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	return h, sub
}

func holdRestart(t *testing.T, st store.Store) {
	ctx := testContext(t)
	clk := newFakeClock()
	h := clockHub(t, st, clk)
	id, tokens := timedTable(t, h, "blitz")
	subs := seated(t, h, id, tokens)
	end := playRound1(t, h, st, clk, id, tokens)
	until := end.Add(pace.DefaultGrace)
	if err := h.Continue(ctx, id, tokens[0]); err != nil {
		t.Fatal(err)
	}
	for _, s := range subs {
		s.Close()
	}
	h.Close()

	clk.Advance(5 * time.Second) // down, within the grace
	for restart := range 2 {
		h, spec := resumeWatching(t, st, clk, id)
		u := await(t, spec, func(u Update) bool { return u.Clock != nil })
		if u.Clock.HeldUntil != until.UnixMilli() || !slices.Equal(u.Clock.Continued, []int{0}) || u.Clock.Running != -1 {
			t.Fatalf("restart %d: clock %+v, want it held until %v, Ann continued", restart, u.Clock, until)
		}
		spec.Close()
		h.Close()
	}
	clk.Advance(time.Hour) // down past the grace and the decision's deadline
	_, spec := resumeWatching(t, st, clk, id)
	defer spec.Close()
	u := await(t, spec, func(u Update) bool { return len(u.TakeOvers) > 0 })
	// The decision started at the grace's end: it timed out after its
	// 10 s and the whole minute of reserve, not an hour later.
	if deadline := until.Add(10*time.Second + time.Minute); len(u.TakeOvers) != 1 || !u.TakeOvers[0].At.Equal(deadline) {
		t.Errorf("take-overs %+v, want one at %v", u.TakeOvers, deadline)
	}
	if _, tm := heldGame(t, st, id); tm.Hold != nil {
		t.Errorf("stored hold %+v after the grace", tm.Hold)
	}
}

// TestHoldTakeOver: a node that takes the table over from one that
// crashed while the clock was held starts the decision at the grace's
// end as stored, once.
func TestHoldTakeOver(t *testing.T) {
	waitsOnTimers(t)
	onNodeStores(t, holdTakeOver)
}

func holdTakeOver(t *testing.T, open func(t *testing.T) store.Store) {
	ctx := testContext(t)
	clk := newFakeClock()
	fake := func(o *Options) { o.Now, o.AfterFunc = clk.Now, clk.AfterFunc }
	st := open(t)
	a := nodeHub(t, st, fake)
	id, tokens := timedTable(t, a, "blitz")
	seated(t, a, id, tokens)
	until := playRound1(t, a, st, clk, id, tokens).Add(pace.DefaultGrace)
	if err := a.Continue(ctx, id, tokens[1]); err != nil {
		t.Fatal(err)
	}
	a.crash()
	clk.Advance(time.Hour) // nobody ran the game past the grace and the deadline

	for _, name := range []string{"b", "c"} {
		n := nodeHub(t, open(t), fake)
		sub, err := n.Watch(ctx, id, Watcher{}) // taken over once the lease lapsed
		if err != nil {
			t.Fatal(err)
		}
		u := await(t, sub, func(u Update) bool { return len(u.TakeOvers) > 0 })
		if deadline := until.Add(10*time.Second + time.Minute); len(u.TakeOvers) != 1 || !u.TakeOvers[0].At.Equal(deadline) {
			t.Errorf("node %s: take-overs %+v, want one at %v", name, u.TakeOvers, deadline)
		}
		sub.Close()
		n.crash()
	}
}
