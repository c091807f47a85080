package table

import (
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/store/postgres"
)

// alerts collects a Hub's alerts; the hook never blocks.
type alerts chan Alert

func (c alerts) hook(a Alert) {
	select {
	case c <- a:
	default:
		panic("table test: too many alerts")
	}
}

// next returns the next alert.
func (c alerts) next(t *testing.T) Alert {
	t.Helper()
	select {
	case a := <-c:
		return a
	case <-testContext(t).Done():
		t.Fatal("no alert came")
		return Alert{}
	}
}

// none checks that no alert is waiting. Call it only when nothing can be
// making one: the fake clock fired no timer and no bot moves.
func (c alerts) none(t *testing.T, when string) {
	t.Helper()
	select {
	case a := <-c:
		t.Errorf("%s: alert %+v, want none", when, a)
	default:
	}
}

// alertHub returns a Hub on st whose time is clk's and whose alerts go to c.
func alertHub(t *testing.T, st store.Store, clk *fakeClock, c alerts) *Hub {
	t.Helper()
	o := testOptions(t)
	o.Now, o.AfterFunc, o.OnAlert = clk.Now, clk.AfterFunc, c.hook
	h := New(st, o)
	t.Cleanup(func() { h.Close() })
	return h
}

// accountTable creates a table at the pace and seats Ann and Bob, signed
// in; it returns the game id and their tokens.
func accountTable(t *testing.T, h *Hub, paceID string, before func(id string, tokens [2]string)) (string, [2]string) {
	t.Helper()
	ctx := testContext(t)
	in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", ""}, Pace: paceID}))
	if err != nil {
		t.Fatal(err)
	}
	tokens := [2]string{"token-of-ann-000000000000", "token-of-bob-000000000000"}
	for i, name := range []string{"Ann", "Bob"} {
		if i == 1 && before != nil {
			before(in.ID, tokens)
		}
		if _, _, err := h.Join(ctx, in.ID, i, Person{Name: name, Token: tokens[i], Account: "acct-" + name}); err != nil {
			t.Fatal(err)
		}
	}
	return in.ID, tokens
}

// TestAlertReminder: a correspondence decision's reminder is alerted
// exactly when half its decision time has passed, once, stored as sent
// before it is alerted: a restart before it is due reminds once, a
// restart after it does not remind again. On memstore and on PostgreSQL.
func TestAlertReminder(t *testing.T) {
	for name, open := range restartStores {
		t.Run(name, func(t *testing.T) { alertReminder(t, open(t)) })
	}
}

// restartStores are the stores a Hub is restarted on in tests: memstore,
// and PostgreSQL, whose stored clock goes through the database.
var restartStores = map[string]func(t *testing.T) store.Store{
	"memstore": func(*testing.T) store.Store { return memstore.New() },
	"postgres": func(t *testing.T) store.Store {
		st, err := postgres.Open(t.Context(), migrated.DB(t), postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	},
}

func alertReminder(t *testing.T, st store.Store) {
	ctx := testContext(t)
	clk := newFakeClock()
	c := make(alerts, 64)
	h := alertHub(t, st, clk, c)
	id, _ := accountTable(t, h, "day1", nil)
	turn := c.next(t)
	if turn.Kind != AlertTurn || turn.Game != id || turn.Pace != pace.Correspondence || turn.Watching {
		t.Fatalf("first alert %+v, want the turn of the first to move, at a correspondence table, unwatched", turn)
	}
	seat := turn.Seat
	half := pace.Day / 2

	clk.Advance(half - time.Hour)
	c.none(t, "an hour before half the time")
	h.Close() // the server stops before the reminder is due
	h = alertHub(t, st, clk, c)
	resumeArmed(t, h, id)
	clk.Advance(time.Hour - time.Millisecond)
	c.none(t, "a millisecond before half the time")
	clk.Advance(time.Millisecond)
	r := c.next(t)
	if r.Kind != AlertReminder || r.Seat != seat || r.Account != turn.Account || r.Left != half+7*pace.Day {
		t.Errorf("at half the time: %+v, want the reminder of seat %d with 12 h and the 7 vacation days left", r, seat)
	}
	g, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if tm, err := match.DecodeTiming(g.Clock, 2); err != nil || tm.Clock.Remind(clk.Now()) {
		t.Errorf("the stored clock (%v) would remind again", err)
	}

	// Restarted after the reminder, the table does not remind again: the
	// next alert is the other seat's turn, once a bot stood in for this
	// one at the deadline and moved.
	h.Close()
	h = alertHub(t, st, clk, c)
	resumeArmed(t, h, id)
	clk.Advance(half + 7*pace.Day)
	if a := c.next(t); a.Kind != AlertTurn || a.Seat != 1-seat {
		t.Errorf("after the restart and the deadline: %+v, want the turn of seat %d", a, 1-seat)
	}
}

// resumeArmed resumes h's games (Resume, which starts their goroutines)
// and waits until game id's goroutine has taken charge, its clock's timer
// armed: a fake clock advanced while the goroutine arms it would set the
// timer from the later time, past the alarm, and it would never fire.
func resumeArmed(t *testing.T, h *Hub, id string) {
	t.Helper()
	ctx := testContext(t)
	if _, err := h.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.Game(ctx, id, ""); err != nil { // served by the goroutine, once in charge
		t.Fatal(err)
	}
}

// TestAlertTurnAndGameOver: each turn of a person is alerted, saying
// whether a connection of the seat watches the game; at the end every
// signed-in person hears that the game is over. Live tables never remind.
func TestAlertTurnAndGameOver(t *testing.T) {
	ctx := testContext(t)
	c := make(alerts, 4096)
	clk := newFakeClock()
	h := alertHub(t, memstore.New(), clk, c)
	// Ann watches the table from before it starts, Bob from after.
	id, tokens := accountTable(t, h, "rapid", func(id string, tokens [2]string) {
		sub, err := h.Watch(ctx, id, Watcher{Token: tokens[0]})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(sub.Close)
	})
	if first := c.next(t); first.Kind != AlertTurn || first.Watching != (first.Seat == 0) {
		t.Errorf("the first turn %+v: watching should be %v", first, first.Seat == 0)
	}
	bob, err := h.Watch(ctx, id, Watcher{Token: tokens[1]})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(bob.Close)
	done := make(chan struct{})
	go func() {
		defer close(done)
		playAlong(t, ctx, h, id, tokens[0])
	}()
	playAlong(t, ctx, h, id, tokens[1])
	<-done
	turns, over := map[int]int{}, map[int]int{}
	for len(over) < 2 {
		a := c.next(t)
		switch a.Kind {
		case AlertTurn:
			turns[a.Seat]++
			if !a.Watching {
				t.Errorf("turn of seat %d while it played along: not watching", a.Seat)
			}
		case AlertGameOver:
			over[a.Seat]++
		default:
			t.Errorf("alert %+v at a live table", a)
		}
		if a.Game != id || a.Account != [2]string{"acct-Ann", "acct-Bob"}[a.Seat] || a.Pace != pace.Live {
			t.Errorf("alert %+v: wrong game, account or pace", a)
		}
	}
	if turns[0] == 0 || turns[1] == 0 || over[0] != 1 || over[1] != 1 {
		t.Errorf("turns %v, game over %v: want turns of both and one game over each", turns, over)
	}
}

// TestAlertReminderTakeOver: the node that sent a reminder dies; the node
// that takes the game over before the deadline does not remind again: its
// next alert is the other seat's turn, after the deadline. The nodes share
// a memstore, or each has its own connection to one PostgreSQL database.
func TestAlertReminderTakeOver(t *testing.T) {
	waitsOnTimers(t)
	onNodeStores(t, alertReminderTakeOver)
}

func alertReminderTakeOver(t *testing.T, open func(t *testing.T) store.Store) {
	ctx := testContext(t)
	clk := newFakeClock()
	c := make(alerts, 64)
	fake := func(o *Options) { o.Now, o.AfterFunc, o.OnAlert = clk.Now, clk.AfterFunc, c.hook }
	st := open(t)
	a := nodeHub(t, st, fake)
	id, _ := accountTable(t, a, "day1", nil)
	seat := c.next(t).Seat
	clk.Advance(pace.Day / 2)
	if r := c.next(t); r.Kind != AlertReminder || r.Seat != seat {
		t.Fatalf("at half the time: %+v, want the reminder of seat %d", r, seat)
	}
	ch := changes(t, st)
	a.crash()

	b := nodeHub(t, open(t), fake)
	waitLease(t, ctx, ch, id, b.Node())
	sub, err := b.Watch(ctx, id, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	await(t, sub, func(u Update) bool { return u.Clock != nil && u.Clock.Running == seat })
	clk.Advance(time.Millisecond) // past the reminder, before the deadline
	clk.Advance(pace.Day/2 + 7*pace.Day)
	if a := c.next(t); a.Kind != AlertTurn || a.Seat != 1-seat {
		t.Errorf("after the take-over and the deadline: %+v, want the turn of seat %d", a, 1-seat)
	}
}
