package store

import (
	"context"
	"fmt"
	"slices"
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
