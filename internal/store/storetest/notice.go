package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// next returns the next notice, failing the test if none comes in time.
func next(t *testing.T, ch <-chan store.Notice) store.Notice {
	t.Helper()
	select {
	case n, ok := <-ch:
		if !ok {
			t.Fatal("the subscription ended")
		}
		return n
	case <-time.After(10 * time.Second):
		t.Fatal("no notice within 10s")
	}
	panic("unreachable")
}

// nextChange returns the next change, skipping Missed notices.
func nextChange(t *testing.T, ch <-chan store.Notice) store.Change {
	t.Helper()
	for {
		n := next(t, ch)
		if n.Missed {
			continue
		}
		if n.Channel != store.ChangesChannel {
			t.Fatalf("notice on %q, want %q", n.Channel, store.ChangesChannel)
		}
		c, err := store.ParseChange(n.Payload)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
}

func subscribe(t *testing.T, s store.Store, channels ...string) <-chan store.Notice {
	t.Helper()
	ch, err := s.Subscribe(ctx(t), channels...)
	if err != nil {
		t.Fatalf("Subscribe(%q): %v", channels, err)
	}
	return ch
}

// testChanges: every committed change is announced once, in order, after
// its commit; refused writes are not announced. A move's notice carries
// the move and the clock written with it, a clock's the clock.
func testChanges(t *testing.T, s store.Store) {
	ch := subscribe(t, s, store.ChangesChannel)
	g := newGame("notice0001", store.StatusOpen, 0)
	create(t, s, g)
	if err := s.TakeSeat(ctx(t), g.ID, store.NoFence, 0, store.Seat{Name: "Bo", TokenHash: hash(1)}, store.StatusPlaying); err != nil {
		t.Fatal(err)
	}
	l := acquire(t, s, g.ID, "node-a", longTTL)
	acquire(t, s, g.ID, "node-a", longTTL) // a renewal by its holder: no change
	if err := s.AppendMove(ctx(t), g.ID, l.Fence, 1, "draw", store.StatusPlaying); err == nil {
		t.Fatal("AppendMove at a wrong index succeeded")
	}
	if err := s.AppendMove(ctx(t), g.ID, l.Fence, 0, "draw", store.StatusPlaying); err != nil {
		t.Fatal(err)
	}
	if err := s.SetClock(ctx(t), g.ID, l.Fence, 1, []byte(`{"left":[3,2]}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendTimedMove(ctx(t), g.ID, l.Fence, 1, "bid 9", store.StatusFinished, []byte(`{"left":[1,2]}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.ReleaseLease(ctx(t), l); err != nil {
		t.Fatal(err)
	}
	want := []store.Change{
		{Game: g.ID, Kind: store.ChangeCreated, Moves: 0, Status: store.StatusOpen},
		{Game: g.ID, Kind: store.ChangeSeat, Moves: 0, Status: store.StatusPlaying},
		{Game: g.ID, Kind: store.ChangeLease, Moves: 0, Status: store.StatusPlaying, Node: "node-a", Fence: l.Fence},
		{Game: g.ID, Kind: store.ChangeMove, Moves: 1, Status: store.StatusPlaying, Token: "draw"},
		{Game: g.ID, Kind: store.ChangeClock, Moves: 1, Status: store.StatusPlaying, Clock: `{"left":[3,2]}`},
		{Game: g.ID, Kind: store.ChangeMove, Moves: 2, Status: store.StatusFinished, Token: "bid 9", Clock: `{"left":[1,2]}`},
		{Game: g.ID, Kind: store.ChangeLease, Moves: 2, Status: store.StatusFinished, Fence: l.Fence},
	}
	for i, w := range want {
		if c := nextChange(t, ch); c != w {
			t.Errorf("change %d = %+v, want %+v", i, c, w)
		}
	}
	select {
	case n := <-ch:
		t.Errorf("an extra notice %+v", n)
	default:
	}
}

func testPublishSubscribe(t *testing.T, s store.Store) {
	a1 := subscribe(t, s, "room_a")
	a2 := subscribe(t, s, "room_a", "room_b")
	c, cancel := context.WithCancel(ctx(t))
	b, err := s.Subscribe(c, "room_b")
	if err != nil {
		t.Fatal(err)
	}
	payloads := []string{"move k3x9q2m7ab 12 bid 9", "Zoë 🎲 \"quoted\" 'single' \\ back", "", strings.Repeat("x", store.MaxPayload)}
	for _, p := range payloads {
		if err := s.Publish(ctx(t), "room_a", p); err != nil {
			t.Fatalf("Publish(%.20q): %v", p, err)
		}
	}
	if err := s.Publish(ctx(t), "room_b", "for b"); err != nil {
		t.Fatal(err)
	}
	for _, p := range payloads {
		for name, ch := range map[string]<-chan store.Notice{"a1": a1, "a2": a2} {
			if n := next(t, ch); n.Channel != "room_a" || n.Payload != p || n.Missed {
				t.Errorf("%s got %+.40v, want %.20q on room_a", name, n, p)
			}
		}
	}
	for name, ch := range map[string]<-chan store.Notice{"a2": a2, "b": b} {
		if n := next(t, ch); n.Channel != "room_b" || n.Payload != "for b" {
			t.Errorf("%s got %+v, want \"for b\" on room_b", name, n)
		}
	}
	cancel()
	for range b { // closed once its context is done
	}
	bad := []struct{ channel, payload string }{
		{"", "x"},
		{"Room", "x"},
		{"room-a", "x"},
		{"1room", "x"},
		{"room a", "x"},
		{"room;drop", "x"},
		{strings.Repeat("r", 64), "x"},
		{store.ChangesChannel, `{"game":"x","kind":"move"}`},
		{"room_a", strings.Repeat("x", store.MaxPayload+1)},
	}
	for _, c := range bad {
		if err := s.Publish(ctx(t), c.channel, c.payload); err == nil {
			t.Errorf("Publish(%q, %d bytes) succeeded", c.channel, len(c.payload))
		}
	}
	for _, channels := range [][]string{nil, {"Room"}, {"room_a", ""}} {
		if _, err := s.Subscribe(ctx(t), channels...); err == nil {
			t.Errorf("Subscribe(%q) succeeded", channels)
		}
	}
	// Nothing refused was delivered.
	if err := s.Publish(ctx(t), "room_a", "last"); err != nil {
		t.Fatal(err)
	}
	if n := next(t, a1); n.Payload != "last" {
		t.Errorf("after refused publishes a1 got %+.40v, want \"last\"", n)
	}
}

func testHealth(t *testing.T, s store.Store) {
	if err := s.Health(ctx(t)); err != nil {
		t.Errorf("Health of a fresh store: %v", err)
	}
	create(t, s, newGame("health0001", store.StatusOpen, 0))
	if err := s.Health(ctx(t)); err != nil {
		t.Errorf("Health: %v", err)
	}
	c, cancel := context.WithCancel(ctx(t))
	cancel()
	if err := s.Health(c); err == nil {
		t.Error("Health with a canceled context succeeded")
	}
}

// testCloseEndsSubscriptions: Close ends every subscription, and later
// calls fail. (Run closes the store again: a second Close is harmless.)
func testCloseEndsSubscriptions(t *testing.T, s store.Store) {
	ch := subscribe(t, s, store.ChangesChannel, "room_a")
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	deadline := time.After(10 * time.Second)
	for open := true; open; {
		select {
		case _, open = <-ch:
		case <-deadline:
			t.Fatal("the subscription is still open 10s after Close")
		}
	}
	if _, err := s.Subscribe(ctx(t), "room_a"); err == nil {
		t.Error("Subscribe after Close succeeded")
	}
	if err := s.AppendMove(ctx(t), "absent0001", store.NoFence, 0, "draw", store.StatusPlaying); err == nil {
		t.Error("AppendMove after Close succeeded")
	}
	if err := s.Health(ctx(t)); err == nil {
		t.Error("Health after Close succeeded")
	}
}

// testChangesAfterCommit: a change is announced only once it is
// committed, so a subscriber that reads the game on a notice finds it.
func testChangesAfterCommit(t *testing.T, s store.Store) {
	const moves = 40
	ch := subscribe(t, s, store.ChangesChannel)
	g := newGame("commit0001", store.StatusPlaying, 0)
	create(t, s, g)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range moves {
			if err := s.AppendMove(ctx(t), g.ID, store.NoFence, i, fmt.Sprintf("bid %d", i), store.StatusPlaying); err != nil {
				t.Errorf("AppendMove(%d): %v", i, err)
				return
			}
		}
	}()
	for seen := 0; seen < moves; {
		c := nextChange(t, ch)
		if c.Kind != store.ChangeMove {
			continue
		}
		if got := get(t, s, g.ID); len(got.Moves) < c.Moves {
			t.Fatalf("notice of %d moves, but the game has %d", c.Moves, len(got.Moves))
		}
		seen = c.Moves
	}
	<-done
}

// testAskNamed: a move made for a request another node passed on
// (store.WithAsk) is announced naming the request when the store says so
// (Ask.Told), and only then; a refused move tells nothing. A store may
// leave requests unnamed: the owner answers them itself.
func testAskNamed(t *testing.T, s store.Store) {
	ch := subscribe(t, s, store.ChangesChannel)
	g := newGame("asknamed01", store.StatusPlaying, 0)
	create(t, s, g)
	nextChange(t, ch) // created
	refused := &store.Ask{Node: "node-b", ID: 6}
	if err := s.AppendTimedMove(store.WithAsk(ctx(t), refused), g.ID, store.NoFence, 1, "draw", store.StatusPlaying, nil); err == nil {
		t.Fatal("AppendTimedMove at a wrong index succeeded")
	}
	if refused.Told {
		t.Error("a refused move told its asker that it was made")
	}
	made := &store.Ask{Node: "node-b", ID: 7}
	if err := s.AppendTimedMove(store.WithAsk(ctx(t), made), g.ID, store.NoFence, 0, "draw", store.StatusPlaying, nil); err != nil {
		t.Fatal(err)
	}
	want := store.Change{Game: g.ID, Kind: store.ChangeMove, Moves: 1, Status: store.StatusPlaying, Token: "draw"}
	if made.Told {
		want.Asker, want.Ask = "node-b", 7
	}
	if c := nextChange(t, ch); c != want {
		t.Errorf("the move's change = %+v, want %+v (told the asker: %v)", c, want, made.Told)
	}
}
