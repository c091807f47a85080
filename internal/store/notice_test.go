package store

import (
	"fmt"
	"testing"
)

// TestBrokerSlowSubscriber: a subscriber that does not keep up loses what
// waited for one Missed notice, then gets what comes next; the sender is
// never blocked.
func TestBrokerSlowSubscriber(t *testing.T) {
	var b Broker
	defer b.Close()
	slow, err := b.Subscribe(t.Context(), "room")
	if err != nil {
		t.Fatal(err)
	}
	for i := range subscriberBuffer + 10 { // more than the buffer holds
		b.Publish("room", fmt.Sprint(i))
	}
	var got []Notice
	for len(slow) > 0 {
		got = append(got, <-slow)
	}
	if len(got) == 0 || !got[0].Missed {
		t.Fatalf("first notice %+v, want Missed", got)
	}
	if last := got[len(got)-1]; last.Payload != fmt.Sprint(subscriberBuffer+9) {
		t.Errorf("last notice %+v, want the last sent", last)
	}
	if len(got) > subscriberBuffer {
		t.Errorf("%d notices queued, more than the buffer of %d", len(got), subscriberBuffer)
	}
}

func TestCheckChannel(t *testing.T) {
	for name, ok := range map[string]bool{
		"a": true, "room_1": true, ChangesChannel: true, "": false, "1a": false, "_a": false,
		"A": false, "a-b": false, "a b": false, "ä": false, string(make([]byte, 64)): false,
	} {
		if err := CheckChannel(name); (err == nil) != ok {
			t.Errorf("CheckChannel(%q) = %v, want ok %t", name, err, ok)
		}
	}
}

// FuzzParseChange: a payload from the database, whatever it holds, is a
// change or an error, and a change encodes back to itself.
func FuzzParseChange(f *testing.F) {
	f.Add(Change{Game: "k3x9q2m7ab", Kind: ChangeMove, Moves: 12, Status: StatusPlaying}.Payload())
	f.Add(Change{Game: "g", Kind: ChangeLease, Status: StatusOpen, Node: "node-a", Fence: 3}.Payload())
	f.Add(`{"game":"","kind":"move"}`)
	f.Add(`{"game":"x","kind":"move","moves":-1}`)
	f.Add(`null`)
	f.Fuzz(func(t *testing.T, payload string) {
		c, err := ParseChange(payload)
		if err != nil {
			return
		}
		again, err := ParseChange(c.Payload())
		if err != nil || again != c {
			t.Errorf("%q parsed as %+v, which encodes to %q and parses as %+v, %v", payload, c, c.Payload(), again, err)
		}
	})
}
