package table

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store/memstore"
)

// elsewhere is Options.Present in a test: the seats whose people are
// connected through another node.
type elsewhere struct {
	mu    sync.Mutex
	seats []int
}

func (e *elsewhere) present(string) []int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.seats)
}

func (e *elsewhere) set(seats ...int) {
	e.mu.Lock()
	e.seats = seats
	e.mu.Unlock()
}

// TestHoldAcrossNodes: a person connected through another node holds the
// new round's first clock as one connected here does: the other person's
// continue does not start it while they read; when presence says they
// left (SeatsChanged), it starts at once.
func TestHoldAcrossNodes(t *testing.T) {
	ctx := testContext(t)
	st, clk := memstore.New(), newFakeClock()
	var far elsewhere
	o := testOptions(t)
	o.Now, o.AfterFunc, o.Present = clk.Now, clk.AfterFunc, far.present
	h := New(st, o)
	t.Cleanup(func() { h.Close() })
	id, tokens := timedTable(t, h, "blitz")
	// Ann watches here; Bob's page is open on another node.
	sub, err := h.Watch(ctx, id, Watcher{Token: tokens[0]})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	far.set(1)
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
	u := await(t, spec, func(u Update) bool { return u.Clock != nil && len(u.Clock.Continued) == 1 })
	if u.Clock.Running != -1 {
		t.Fatalf("after Ann continued, with Bob reading on another node: %+v, want held", u.Clock)
	}
	clk.Advance(2 * time.Second)
	far.set()
	h.SeatsChanged(id)
	u = await(t, spec, func(u Update) bool { return u.Clock != nil && u.Clock.Running >= 0 })
	if want := end.Add(2*time.Second + 10*time.Second); u.Clock.HeldUntil != 0 || u.Clock.DecisionEnds != want.UnixMilli() {
		t.Errorf("after Bob left the other node: %+v, want the decision started then, ending %v", u.Clock, want)
	}
}
