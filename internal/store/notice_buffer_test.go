package store

import (
	"context"
	"fmt"
	"testing"
)

// A node's subscriber that falls some seconds behind the commits of a
// thousand tables (three thousand notices a second on three nodes) gets
// every notice, and no Missed notice that would make it re-read all its
// games.
func TestBrokerBuffersSecondsOfABusyCluster(t *testing.T) {
	const perSecond, seconds = 3000, 4
	var b Broker
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, err := b.Subscribe(ctx, "busy")
	if err != nil {
		t.Fatal(err)
	}
	for i := range perSecond * seconds {
		b.Publish("busy", fmt.Sprint(i))
	}
	for i := range perSecond * seconds {
		n := <-ch
		if n.Missed || n.Payload != fmt.Sprint(i) {
			t.Fatalf("notice %d is %+v, want payload %d", i, n, i)
		}
	}
}
