package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// testHear: a store that hands the notices to a function (store.Hearer)
// hands it every change in order, once committed, and what a hearer
// publishes as it hears a change comes after that change, in order;
// Close ends the hearing.
func testHear(t *testing.T, s store.Store) {
	h, ok := s.(store.Hearer)
	if !ok {
		t.Skipf("SKIPPED: %T has no store.Hearer: its notices come through Subscribe", s)
	}
	heard := make(chan store.Notice, 64)
	done, err := h.Hear(ctx(t), func(n store.Notice) { heard <- n }, store.ChangesChannel, "relay")
	if err != nil {
		t.Fatalf("Hear: %v", err)
	}
	relayed := make(chan error, 64)
	_, err = h.Hear(ctx(t), func(n store.Notice) {
		if c, err := store.ParseChange(n.Payload); err == nil && c.Kind == store.ChangeMove {
			relayed <- s.Publish(context.Background(), "relay", fmt.Sprint("after ", c.Moves))
		}
	}, store.ChangesChannel)
	if err != nil {
		t.Fatalf("Hear: %v", err)
	}
	g := newGame("hear000001", store.StatusPlaying, 0)
	create(t, s, g)
	if c := nextChange(t, heard); c.Kind != store.ChangeCreated {
		t.Fatalf("first change heard %+v, want the game's creation", c)
	}
	for i := range 3 {
		appendMove(t, s, g.ID, i, "draw", store.StatusPlaying)
		if c := nextChange(t, heard); c.Kind != store.ChangeMove || c.Moves != i+1 {
			t.Fatalf("after move %d heard %+v", i+1, c)
		}
		if err := <-relayed; err != nil {
			t.Fatalf("Publish by a hearer: %v", err)
		}
		if n := next(t, heard); n.Channel != "relay" || n.Payload != fmt.Sprint("after ", i+1) {
			t.Fatalf("after move %d heard %+v, want what the hearer published", i+1, n)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the hearing goes on 10s after Close")
	}
}

// HearerWrites checks a store that lets a hearer call it (SQLite's and
// the memory store's: their hearers hear on the goroutines that write):
// a hearer that writes as it hears a move does not wait for itself (the
// store's writer, or its lock, held while it hears), and the change it
// makes is heard after the move's, in order.
func HearerWrites(t *testing.T, s store.Store) {
	h := s.(store.Hearer)
	heard := make(chan store.Notice, 64)
	if _, err := h.Hear(ctx(t), func(n store.Notice) { heard <- n }, store.ChangesChannel); err != nil {
		t.Fatalf("Hear: %v", err)
	}
	wrote := make(chan error, 64)
	_, err := h.Hear(ctx(t), func(n store.Notice) {
		if c, err := store.ParseChange(n.Payload); err == nil && c.Kind == store.ChangeMove {
			wrote <- s.SetClock(context.Background(), c.Game, store.NoFence, c.Moves, fmt.Appendf(nil, `{"after":%d}`, c.Moves))
		}
	}, store.ChangesChannel)
	if err != nil {
		t.Fatalf("Hear: %v", err)
	}
	g := newGame("hearwrites", store.StatusPlaying, 0)
	create(t, s, g)
	nextChange(t, heard) // its creation
	for i := range 3 {
		appendMove(t, s, g.ID, i, "draw", store.StatusPlaying)
		if err := <-wrote; err != nil {
			t.Fatalf("SetClock by a hearer: %v", err)
		}
		if c := nextChange(t, heard); c.Kind != store.ChangeMove || c.Moves != i+1 {
			t.Fatalf("after move %d heard %+v", i+1, c)
		}
		if c := nextChange(t, heard); c.Kind != store.ChangeClock || c.Clock != fmt.Sprintf(`{"after":%d}`, i+1) {
			t.Fatalf("after move %d heard %+v, want the clock the hearer wrote", i+1, c)
		}
	}
}

// HearerHoldsNoWrite checks a store whose hearers hear on the goroutines
// that write (SQLite's, the memory store's): a hearer held up holds up
// the goroutine that delivers to it, never the store's writer nor its
// lock, so another goroutine's write goes through meanwhile; its change
// is heard after, in order.
func HearerHoldsNoWrite(t *testing.T, s store.Store) {
	h := s.(store.Hearer)
	g := newGame("hearheldup", store.StatusPlaying, 0)
	create(t, s, g)
	held, release := make(chan struct{}), make(chan struct{})
	var heard []int // the moves heard, by the hearer alone
	_, err := h.Hear(ctx(t), func(n store.Notice) {
		c, err := store.ParseChange(n.Payload)
		if err != nil || c.Kind != store.ChangeMove {
			return
		}
		heard = append(heard, c.Moves)
		if c.Moves == 1 {
			close(held)
			<-release
		}
	}, store.ChangesChannel)
	if err != nil {
		t.Fatalf("Hear: %v", err)
	}
	first := make(chan error, 1)
	go func() {
		first <- s.AppendMove(context.Background(), g.ID, store.NoFence, 0, "draw", store.StatusPlaying)
	}()
	<-held
	err = s.AppendMove(ctx(t), g.ID, store.NoFence, 1, "draw", store.StatusPlaying) // no wait for the hearer
	close(release)
	if err != nil {
		t.Fatalf("a write while a hearer is held up: %v", err)
	}
	if err := <-first; err != nil {
		t.Fatalf("the first move: %v", err)
	}
	if len(heard) != 2 || heard[0] != 1 || heard[1] != 2 {
		t.Errorf("heard the moves %v, want [1 2]", heard)
	}
}
