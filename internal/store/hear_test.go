package store

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
)

// TestBrokerHear: a hearer hears every notice of its channels as it is
// published, in order, with no goroutine between (heard before Publish
// returns), and a Missed notice; its done closes when its context ends,
// after which it hears nothing.
func TestBrokerHear(t *testing.T) {
	var b Broker
	defer b.Close()
	ctx, cancel := context.WithCancel(t.Context())
	var heard []Notice
	done, err := b.Hear(ctx, func(n Notice) { heard = append(heard, n) }, "room")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		b.Publish("room", fmt.Sprint(i))
		b.Publish("elsewhere", "not heard")
		if len(heard) != i+1 || heard[i].Payload != fmt.Sprint(i) || heard[i].Channel != "room" {
			t.Fatalf("after publishing %d: heard %+v", i, heard)
		}
	}
	b.Missed()
	if !heard[len(heard)-1].Missed {
		t.Fatalf("a Missed notice not heard: %+v", heard)
	}
	cancel()
	<-done
	before := slices.Clone(heard)
	b.Publish("room", "after")
	if !slices.Equal(heard, before) {
		t.Errorf("heard %+v after its context ended", heard[len(before):])
	}
}

// TestBrokerHearClosed: the broker's Close ends a hearer (its done
// closes), and a Hear after it fails.
func TestBrokerHearClosed(t *testing.T) {
	var b Broker
	done, err := b.Hear(t.Context(), func(Notice) {}, "room")
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	<-done
	if _, err := b.Hear(t.Context(), func(Notice) {}, "room"); err == nil {
		t.Error("Hear on a closed broker succeeded")
	}
	if _, err := b.Hear(t.Context(), func(Notice) {}); err == nil {
		t.Error("Hear to no channel succeeded")
	}
}

// TestBrokerHearerPublishes: a hearer that publishes, subscribes and
// closes the broker does not deadlock on the broker's lock (which it
// would if it were called under it): what it publishes is heard after it
// returns, in the order published, and a hearer ended while it hears
// (the broker closed) has its done closed only after.
func TestBrokerHearerPublishes(t *testing.T) {
	var b Broker
	var heard []string
	record := func(n Notice) {
		if n.Missed {
			heard = append(heard, "missed")
			return
		}
		heard = append(heard, n.Payload)
	}
	if _, err := b.Hear(t.Context(), record, "ping", "pong"); err != nil {
		t.Fatal(err)
	}
	var done <-chan struct{}
	answer := func(n Notice) {
		switch {
		case n.Missed:
			return
		case n.Payload == "ping 2":
			b.Missed()
			return
		case n.Payload == "close":
			b.Close()
			select {
			case <-done:
				t.Error("a hearer's done closed while it hears")
			default:
			}
			return
		}
		before := len(heard)
		b.Publish("pong", "re "+n.Payload)
		if len(heard) != before {
			t.Errorf("%q heard before its publisher returned", heard[before:])
		}
		if _, err := b.Hear(t.Context(), func(Notice) {}, "other"); err != nil {
			t.Errorf("Hear from a hearer: %v", err)
		}
	}
	var err error
	if done, err = b.Hear(t.Context(), answer, "ping"); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		b.Publish("ping", fmt.Sprint("ping ", i))
	}
	want := []string{"ping 0", "re ping 0", "ping 1", "re ping 1", "ping 2", "missed"}
	if !slices.Equal(heard, want) {
		t.Errorf("heard %q, want %q", heard, want)
	}
	b.Publish("ping", "close")
	<-done
	if _, err := b.Hear(t.Context(), record, "ping"); err == nil {
		t.Error("Hear after a hearer closed the broker succeeded")
	}
}

// TestBrokerHearersInOrder: notices published at once by several
// goroutines, and by hearers as they hear, reach every hearer in one
// order, each publisher's in its own, and all of them once every
// Publish returned, whichever goroutine delivered them (go test -race).
func TestBrokerHearersInOrder(t *testing.T) {
	var b Broker
	defer b.Close()
	const publishers, each = 4, 200
	var logs [2][]string
	for i := range logs {
		_, err := b.Hear(t.Context(), func(n Notice) {
			logs[i] = append(logs[i], n.Channel+" "+n.Payload)
			if i == 0 && n.Channel == "ping" {
				b.Publish("pong", n.Payload)
			}
		}, "ping", "pong")
		if err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for p := range publishers {
		wg.Go(func() {
			for i := range each {
				b.Publish("ping", fmt.Sprint(p, " ", i))
			}
		})
	}
	wg.Wait()
	if !slices.Equal(logs[0], logs[1]) {
		t.Error("two hearers heard the notices in different orders")
	}
	if got, want := len(logs[0]), 2*publishers*each; got != want {
		t.Fatalf("%d notices heard once every Publish returned, want %d", got, want)
	}
	next := map[string]int{} // a publisher's next number, by channel
	for _, line := range logs[0] {
		var channel string
		var p, i int
		fmt.Sscan(line, &channel, &p, &i)
		key := fmt.Sprint(channel, p)
		if i != next[key] {
			t.Fatalf("heard %q after %d of its publisher's", line, next[key])
		}
		next[key]++
	}
}

// TestBrokerHearerPanics: a hearer that panics (recovered by its
// publisher's caller) leaves the broker delivering the next notices.
func TestBrokerHearerPanics(t *testing.T) {
	var b Broker
	defer b.Close()
	var heard []string
	_, err := b.Hear(t.Context(), func(n Notice) {
		if n.Payload == "boom" {
			panic("boom")
		}
		heard = append(heard, n.Payload)
	}, "room")
	if err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() { recover() }()
		b.Publish("room", "boom")
	}()
	b.Publish("room", "after")
	if !slices.Equal(heard, []string{"after"}) {
		t.Errorf("heard %q after a hearer panicked, want [after]", heard)
	}
}

// TestBrokerQueue: notices queued are heard at the next Deliver, in
// order, and a subscriber through a channel has them at once.
func TestBrokerQueue(t *testing.T) {
	var b Broker
	defer b.Close()
	var heard []string
	if _, err := b.Hear(t.Context(), func(n Notice) { heard = append(heard, n.Payload) }, "room"); err != nil {
		t.Fatal(err)
	}
	ch, err := b.Subscribe(t.Context(), "room")
	if err != nil {
		t.Fatal(err)
	}
	b.Queue("room", "a")
	b.Queue("room", "b")
	if len(heard) != 0 || len(ch) != 2 {
		t.Fatalf("queued: heard %q, %d in the channel; want none and 2", heard, len(ch))
	}
	b.Deliver()
	if !slices.Equal(heard, []string{"a", "b"}) {
		t.Errorf("heard %q at Deliver, want [a b]", heard)
	}
}

// TestBrokerHearerJoinsLate: a hearer that joins while notices wait in
// the queue hears none published before it.
func TestBrokerHearerJoinsLate(t *testing.T) {
	var b Broker
	defer b.Close()
	if _, err := b.Hear(t.Context(), func(Notice) {}, "room"); err != nil {
		t.Fatal(err)
	}
	b.Queue("room", "before")
	var heard []string
	if _, err := b.Hear(t.Context(), func(n Notice) { heard = append(heard, n.Payload) }, "room"); err != nil {
		t.Fatal(err)
	}
	b.Publish("room", "after")
	if !slices.Equal(heard, []string{"after"}) {
		t.Errorf("heard %q, want [after]", heard)
	}
}
