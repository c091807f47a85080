package table

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// A fakeClock is the Hub's clock in tests: time moves only when the test
// advances it, and the timers due then fire, each in its own goroutine as
// time.AfterFunc's do.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers map[*fakeTimer]struct{}
}

type fakeTimer struct {
	at time.Time
	f  func()
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 11, 22, 14, 0, 0, 0, time.UTC), timers: map[*fakeTimer]struct{}{}}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{at: c.now.Add(d), f: f}
	if d <= 0 {
		go f()
		return func() bool { return false }
	}
	c.timers[t] = struct{}{}
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		_, ok := c.timers[t]
		delete(c.timers, t)
		return ok
	}
}

// Advance moves the time on by d and fires the timers due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	for t := range c.timers {
		if !t.at.After(c.now) {
			delete(c.timers, t)
			go t.f()
		}
	}
}

// clockHub returns a Hub on st whose time is clk's.
func clockHub(t *testing.T, st store.Store, clk *fakeClock) *Hub {
	t.Helper()
	o := testOptions(t)
	o.Now, o.AfterFunc = clk.Now, clk.AfterFunc
	h := New(st, o)
	t.Cleanup(func() { h.Close() })
	return h
}

// timedTable creates a table of two people at the pace and seats them; it
// returns the game id and the seats' tokens.
func timedTable(t *testing.T, h *Hub, paceID string) (string, [2]string) {
	t.Helper()
	ctx := testContext(t)
	in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", ""}, Pace: paceID}))
	if err != nil {
		t.Fatal(err)
	}
	var tokens [2]string
	for i, name := range []string{"Ann", "Bob"} {
		if _, tokens[i], err = h.Join(ctx, in.ID, i, Person{Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	return in.ID, tokens
}

// watchClock watches the game as a spectator until a decision is timed.
func watchClock(t *testing.T, h *Hub, id string) (*Subscription, Update) {
	t.Helper()
	sub, err := h.Watch(testContext(t), id, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sub.Close)
	return sub, await(t, sub, func(u Update) bool { return u.Clock != nil && u.Clock.Running >= 0 })
}

// await returns the first update of sub that satisfies ok.
func await(t *testing.T, sub *Subscription, ok func(Update) bool) Update {
	t.Helper()
	ctx := testContext(t)
	for {
		u, open := next(t, ctx, sub)
		if !open {
			t.Fatal("the subscription ended")
		}
		if u.View != nil && ok(u) {
			return u
		}
	}
}

func TestPaceChosenAtCreation(t *testing.T) {
	ctx := testContext(t)
	h := newHub(t, memstore.New())
	for _, c := range []struct {
		name, pace string
		want       string
	}{
		{"default is untimed at a casual table", "", "untimed"},
		{"live preset", "rapid", "rapid"},
		{"correspondence preset", "day2", "day2"},
		{"untimed at a casual table", "untimed", "untimed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "easy"}, Pace: c.pace}))
			if err != nil {
				t.Fatal(err)
			}
			if in.Pace == nil || in.Pace.ID != c.want {
				t.Errorf("pace = %+v, want %s", in.Pace, c.want)
			}
		})
	}
	t.Run("unknown preset", func(t *testing.T) {
		before, _ := h.List(ctx, "")
		_, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "easy"}, Pace: "bullet"}))
		wantKind(t, err, ErrBadRequest)
		if !errors.Is(err, pace.ErrUnknown) {
			t.Errorf("error %v does not wrap pace.ErrUnknown", err)
		}
		if after, _ := h.List(ctx, ""); len(after) != len(before) {
			t.Errorf("a refused table was stored: %d games, want %d", len(after), len(before))
		}
	})
}

// TestClockDecisionAndReserve plays with an injected clock: a decision
// within its time keeps the reserve, one beyond it spends the excess.
func TestClockDecisionAndReserve(t *testing.T) {
	ctx := testContext(t)
	clk := newFakeClock()
	h := clockHub(t, memstore.New(), clk)
	id, tokens := timedTable(t, h, "blitz") // 10 s per decision, 1 min reserve
	sub, u := watchClock(t, h, id)
	first := u.Clock.Running
	if want := clk.Now().Add(70 * time.Second).UnixMilli(); u.Clock.Deadline != want {
		t.Errorf("deadline = %d, want start + 10 s + 1 min = %d", u.Clock.Deadline, want)
	}
	if u.Clock.ServerTime != clk.Now().UnixMilli() || u.Clock.DecisionEnds != clk.Now().Add(10*time.Second).UnixMilli() {
		t.Errorf("clock = %+v, want serverTime now and decisionEnds now + 10 s", u.Clock)
	}

	clk.Advance(4 * time.Second) // within the decision time
	if err := h.Play(ctx, id, tokens[first], "draw", u.View.Moves); err != nil {
		t.Fatal(err)
	}
	u = await(t, sub, func(u Update) bool { return u.View.Moves == 1 })
	if got := u.Clock.ReserveMs[first]; got != time.Minute.Milliseconds() {
		t.Errorf("reserve after a 4 s decision = %d ms, want the whole minute", got)
	}
	second := u.Clock.Running
	if second < 0 {
		t.Fatalf("no decision runs after the first move: %+v", u.Clock)
	}

	own, err := h.Watch(ctx, id, Watcher{Token: tokens[second]})
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	legal := await(t, own, func(u Update) bool { return u.View.Moves == 1 }).View.Legal
	clk.Advance(25 * time.Second) // 15 s beyond the decision time
	if err := h.Play(ctx, id, tokens[second], legal[0], u.View.Moves); err != nil {
		t.Fatal(err)
	}
	u = await(t, sub, func(u Update) bool { return u.View.Moves == 2 })
	if got, want := u.Clock.ReserveMs[second], (45 * time.Second).Milliseconds(); got != want {
		t.Errorf("reserve after a 25 s decision = %d ms, want %d", got, want)
	}
}

// TestTimeoutStandInAndReturn: when the time runs out a bot plays for the
// seat, marked at the table and in the take-overs, until the player takes
// the seat back; a late move is refused and changes nothing.
func TestTimeoutStandInAndReturn(t *testing.T) {
	ctx := testContext(t)
	clk := newFakeClock()
	st := memstore.New()
	h := clockHub(t, st, clk)
	id, tokens := timedTable(t, h, "blitz")
	sub, u := watchClock(t, h, id)
	late, moves := u.Clock.Running, u.View.Moves

	clk.Advance(70 * time.Second) // the deadline: too late
	u = await(t, sub, func(u Update) bool { return len(u.TakeOvers) == 1 })
	to := u.TakeOvers[0]
	if to.Seat != late || to.Bot != StandInLevel || to.Reason != "timeout" || to.Move != moves || !to.At.Equal(clk.Now()) || to.BackMove != nil {
		t.Errorf("take-over = %+v, want seat %d by %s at move %d at %v", to, late, StandInLevel, moves, clk.Now())
	}
	if u.Game.Seats[late].StandIn != StandInLevel {
		t.Errorf("seat %d's standIn = %q, want %q", late, u.Game.Seats[late].StandIn, StandInLevel)
	}
	if u.Clock.ReserveMs[late] != 0 {
		t.Errorf("reserve after a timeout = %d ms, want 0", u.Clock.ReserveMs[late])
	}
	// The bot plays for the seat: in the take-over's update already when
	// its move came before the subscriber took that update (the two merge).
	if u.View.Moves == moves {
		u = await(t, sub, func(u Update) bool { return u.View.Moves > moves })
	}

	// Coming back: the seat is the player's again, timed with no reserve.
	if err := h.TakeBack(ctx, id, tokens[late]); err != nil {
		t.Fatal(err)
	}
	u = await(t, sub, func(u Update) bool { return len(u.TakeOvers) == 1 && u.TakeOvers[0].BackMove != nil })
	if u.Game.Seats[late].StandIn != "" {
		t.Errorf("after taking the seat back, standIn = %q", u.Game.Seats[late].StandIn)
	}
	if err := h.TakeBack(ctx, id, tokens[late]); err != nil {
		t.Errorf("taking back a seat one holds: %v, want nothing done", err)
	}
	g, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	tm, err := match.DecodeTiming(g.Clock, 2)
	if err != nil || len(tm.TakeOvers) != 1 || tm.TakeOvers[0].BackMove == nil {
		t.Errorf("stored take-overs = %+v (%v), want the one, with its return", tm.TakeOvers, err)
	}
	if err := h.TakeBack(ctx, id, "not-a-token"); !errors.Is(err, ErrNotYourSeat) {
		t.Errorf("TakeBack by a spectator = %v, want ErrNotYourSeat", err)
	}
}

// TestLateMoveTimesOut: a move at the deadline is too late even if the
// timer has not fired yet; the seat is taken over once.
func TestLateMoveTimesOut(t *testing.T) {
	ctx := testContext(t)
	clk := newFakeClock()
	o := testOptions(t)
	o.Now = clk.Now
	// Timers that never fire: only the move finds the timeout.
	o.AfterFunc = func(time.Duration, func()) func() bool { return func() bool { return true } }
	st := memstore.New()
	h := New(st, o)
	t.Cleanup(func() { h.Close() })
	id, tokens := timedTable(t, h, "blitz")
	sub, u := watchClock(t, h, id)
	seat := u.Clock.Running
	clk.Advance(70 * time.Second)
	wantKind(t, h.Play(ctx, id, tokens[seat], "draw", u.View.Moves), ErrTimedOut)
	u = await(t, sub, func(u Update) bool { return len(u.TakeOvers) == 1 })
	if u.TakeOvers[0].Seat != seat {
		t.Errorf("take-over of seat %d, want %d", u.TakeOvers[0].Seat, seat)
	}
}

// TestRestartMidClock restarts the Hub on the same store with the clock
// past the deadline: the seat times out once, at the stored deadline, and
// a second restart does not time it out again. On memstore and on
// PostgreSQL, whose stored clock goes through the database.
func TestRestartMidClock(t *testing.T) {
	for name, open := range restartStores {
		t.Run(name, func(t *testing.T) { restartMidClock(t, open(t)) })
	}
}

func restartMidClock(t *testing.T, st store.Store) {
	ctx := testContext(t)
	clk := newFakeClock()
	h := clockHub(t, st, clk)
	id, _ := timedTable(t, h, "rapid") // 20 s + 3 min
	sub, u := watchClock(t, h, id)
	seat, deadline := u.Clock.Running, time.UnixMilli(u.Clock.Deadline)
	sub.Close()
	h.Close()

	clk.Advance(time.Hour) // the server was down past the deadline
	for restart := range 2 {
		h := clockHub(t, st, clk)
		if _, err := h.Resume(ctx); err != nil {
			t.Fatal(err)
		}
		sub, err := h.Watch(ctx, id, Watcher{})
		if err != nil {
			t.Fatal(err)
		}
		u := await(t, sub, func(u Update) bool { return len(u.TakeOvers) > 0 })
		if len(u.TakeOvers) != 1 || u.TakeOvers[0].Seat != seat || !u.TakeOvers[0].At.Equal(deadline) {
			t.Errorf("restart %d: take-overs %+v, want one of seat %d at the deadline %v", restart, u.TakeOvers, seat, deadline)
		}
		sub.Close()
		h.Close()
	}
	g, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if tm, err := match.DecodeTiming(g.Clock, 2); err != nil || len(tm.TakeOvers) != 1 {
		t.Errorf("stored take-overs %+v (%v), want the one", tm.TakeOvers, err)
	}
}

// TestResumeOnHubClock: a game started and stored without its running
// clock (the node stopped, or lost its lease under load, before it stored
// it) resumes the decision from when the game last changed, stamped on the
// hub's clock by the store: the seat times out within the pace's time of
// it, not days off on another clock.
func TestResumeOnHubClock(t *testing.T) {
	ctx := testContext(t)
	clk := newFakeClock()
	st := memstore.NewOptions(memstore.Options{Now: clk.Now})
	h := clockHub(t, st, clk)
	in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", ""}, Pace: "rapid"}))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.Join(ctx, in.ID, 0, Person{Name: "Ann"}); err != nil {
		t.Fatal(err)
	}
	open, err := st.Game(ctx, in.ID) // the clock before the game started
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.Join(ctx, in.ID, 1, Person{Name: "Bob"}); err != nil {
		t.Fatal(err)
	}
	sub, _ := watchClock(t, h, in.ID)
	sub.Close()
	h.Close()
	if err := st.SetClock(ctx, in.ID, store.NoFence, 0, open.Clock); err != nil {
		t.Fatal(err)
	}
	g, err := st.Game(ctx, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Hour) // past the rapid pace's 20 s + 3 min
	h = clockHub(t, st, clk)
	if _, err := h.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	sub, err = h.Watch(ctx, in.ID, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	u := await(t, sub, func(u Update) bool { return len(u.TakeOvers) > 0 })
	if at := u.TakeOvers[0].At; at.Before(g.Updated) || at.After(g.Updated.Add(time.Hour)) {
		t.Errorf("timed out at %v, want within the pace's time of the stored %v", at, g.Updated)
	}
}

// TestLeave: a player who leaves hands the seat to a bot at once, timed or
// not, until they come back; RecordMeta says who forfeited.
func TestLeave(t *testing.T) {
	ctx := testContext(t)
	h := newHub(t, memstore.New())
	id, tokens := timedTable(t, h, "untimed")
	sub, err := h.Watch(ctx, id, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	u := await(t, sub, func(u Update) bool { return u.View.ToMove >= 0 })
	seat, moves := u.View.ToMove, u.View.Moves
	wantKind(t, h.Leave(ctx, id, ""), ErrNotYourSeat)
	if err := h.Leave(ctx, id, tokens[seat]); err != nil {
		t.Fatal(err)
	}
	u = await(t, sub, func(u Update) bool { return len(u.TakeOvers) == 1 })
	if to := u.TakeOvers[0]; to.Seat != seat || to.Reason != "left" || to.Move != moves {
		t.Errorf("take-over = %+v, want seat %d left at move %d", to, seat, moves)
	}
	// The bot plays, at once: a spectator that reads slowly may get the
	// take-over and the move in one update, the latest.
	if u.View.Moves <= moves {
		await(t, sub, func(u Update) bool { return u.View.Moves > moves })
	}
	meta, err := h.RecordMeta(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if f := meta.Forfeited(2); !f[seat] || f[1-seat] {
		t.Errorf("Forfeited = %v, want seat %d only", f, seat)
	}
	if err := h.Leave(ctx, id, tokens[seat]); err != nil {
		t.Errorf("leaving again: %v, want nothing done", err)
	}
	// Coming back: watching with the seat's token.
	own, err := h.Watch(ctx, id, Watcher{Token: tokens[seat]})
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	u = await(t, own, func(u Update) bool { return len(u.TakeOvers) == 1 && u.TakeOvers[0].BackMove != nil })
	if u.Game.Seats[seat].StandIn != "" {
		t.Errorf("after coming back, standIn = %q", u.Game.Seats[seat].StandIn)
	}
}

// TestTakeOverMidClock: the node that runs a timed game dies with a
// decision running; the node that takes the game over times the decision
// out once, at the stored deadline, and a third node, taking over from the
// second, does not time it out again. The nodes share a memstore, or each
// has its own connection to one PostgreSQL database.
func TestTakeOverMidClock(t *testing.T) {
	waitsOnTimers(t)
	// The stores stamp the games on the hubs' clock: a node that resumes
	// the clock from the game's stored time (its lease lapsed under load
	// before it stored the clock) runs it on the hubs' time.
	clk := newFakeClock()
	onNodeStoresAt(t, clk.Now, func(t *testing.T, open func(t *testing.T) store.Store) { takeOverMidClock(t, clk, open) })
}

// takeOverMidClock runs TestTakeOverMidClock with the store of each node
// from open, on clk.
func takeOverMidClock(t *testing.T, clk *fakeClock, open func(t *testing.T) store.Store) {
	ctx := testContext(t)
	fake := func(o *Options) { o.Now, o.AfterFunc = clk.Now, clk.AfterFunc }
	a := nodeHub(t, open(t), fake)
	id, _ := timedTable(t, a, "rapid")
	sub, u := watchClock(t, a, id)
	seat, deadline := u.Clock.Running, time.UnixMilli(u.Clock.Deadline)
	sub.Close()
	a.crash()
	clk.Advance(time.Hour) // nobody ran the game past its deadline

	var st store.Store
	for _, name := range []string{"b", "c"} {
		st = open(t)
		n := nodeHub(t, st, fake)
		sub, err := n.Watch(ctx, id, Watcher{}) // taken over once the lease lapsed
		if err != nil {
			t.Fatal(err)
		}
		u := await(t, sub, func(u Update) bool { return len(u.TakeOvers) > 0 })
		if len(u.TakeOvers) != 1 || u.TakeOvers[0].Seat != seat || !u.TakeOvers[0].At.Equal(deadline) {
			t.Errorf("node %s: take-overs %+v, want one of seat %d at the deadline %v", name, u.TakeOvers, seat, deadline)
		}
		sub.Close()
		n.crash()
	}
	g, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if tm, err := match.DecodeTiming(g.Clock, 2); err != nil || len(tm.TakeOvers) != 1 {
		t.Errorf("stored take-overs %+v (%v), want the one", tm.TakeOvers, err)
	}
}

// TestFinishedForfeited: the game-over hook says who left or timed out,
// for the ratings (a rated game is a loss for them).
func TestFinishedForfeited(t *testing.T) {
	ctx := testContext(t)
	got := make(chan Finished, 1)
	o := testOptions(t)
	o.OnFinish = func(_ context.Context, f Finished) { got <- f }
	h := New(memstore.New(), o)
	t.Cleanup(func() { h.Close() })
	id, tokens := timedTable(t, h, "untimed")
	if err := h.Leave(ctx, id, tokens[0]); err != nil {
		t.Fatal(err)
	}
	playAlong(t, ctx, h, id, tokens[1])
	select {
	case f := <-got:
		if len(f.Forfeited) != 2 || !f.Forfeited[0] || f.Forfeited[1] {
			t.Errorf("Forfeited = %v, want [true false]", f.Forfeited)
		}
	case <-ctx.Done():
		t.Fatal("the hook was not called")
	}
}

// The open table's expiry, a bot's pause before its move and its retry
// after a store failure are timed by the Hub's clock, not the wall's:
// each fires when the clock passes it.
func TestTimersOnTheHubsClock(t *testing.T) {
	ctx := testContext(t)
	clk := newFakeClock()
	armed := make(chan time.Duration, 64) // the waits armed, in order
	st := &failStore{Store: memstore.New(), fail: true}
	o := testOptions(t)
	// Wall time alone never reaches them.
	o.Now, o.RetryDelay, o.BotDelay = clk.Now, time.Hour, 3*time.Hour
	o.Limits.OpenTTL = 2 * time.Hour
	o.AfterFunc = func(d time.Duration, f func()) func() bool {
		stop := clk.AfterFunc(d, f)
		armed <- d
		return stop
	}
	h := New(st, o)
	t.Cleanup(func() { h.Close() })
	armedFor := func(want time.Duration) {
		t.Helper()
		for {
			select {
			case d := <-armed:
				if d == want {
					return
				}
			case <-ctx.Done():
				t.Fatalf("no timer of %v armed", want)
			}
		}
	}

	open, _, _ := created(h.Create(ctx, TableSetup{Seats: []string{"", "easy"}}))
	sub, err := h.Watch(ctx, open.ID, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	armedFor(2 * time.Hour)
	clk.Advance(2*time.Hour - time.Minute)
	if info, _, _ := h.Game(ctx, open.ID, ""); info.Status != protocol.StatusOpen {
		t.Fatalf("a minute before its expiry the table is %s", info.Status)
	}
	clk.Advance(time.Minute)
	var last Update
	for u, ok := next(t, ctx, sub); ok; u, ok = next(t, ctx, sub) {
		last = u
	}
	if last.Game.Status != protocol.StatusExpired {
		t.Fatalf("the last update has status %q, want expired", last.Game.Status)
	}

	game, _, _ := created(h.Create(ctx, TableSetup{Seats: []string{"easy", ""}}))
	_, ann, _ := h.Join(ctx, game.ID, 1, Person{Name: "Ann"})
	sub2, _ := h.Watch(ctx, game.ID, Watcher{Token: ann})
	defer sub2.Close()
	armedFor(3 * time.Hour) // the bot's pause
	clk.Advance(3 * time.Hour)
	armedFor(time.Hour) // the bot's move was refused
	st.set(false)
	clk.Advance(time.Hour)
	if u := await(t, sub2, func(u Update) bool { return u.View.Moves > 0 }); u.View.Moves != 1 {
		t.Fatalf("after the retry: %d moves", u.View.Moves)
	}
}
