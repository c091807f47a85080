package store

import (
	"bytes"
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
	f.Add(MoveChange("k3x9q2m7ab", 3, "bid 9", StatusPlaying, []byte(`{"left":[1,2]}`)).Payload())
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

// TestCarried: the notice of a move or a clock carries them through its
// payload, unless they would not fit, and only those notices do.
func TestCarried(t *testing.T) {
	clock := []byte(`{"left":[61000,59000],"at":1732460000}`)
	tests := []struct {
		name  string
		c     Change
		ok    bool
		from  int
		move  string
		clock []byte
	}{
		{"a move with a clock", MoveChange("g", 4, "bid 9", StatusPlaying, clock), true, 4, "bid 9", clock},
		{"a move that kept the clock", MoveChange("g", 0, "draw", StatusFinished, nil), true, 0, "draw", nil},
		{"a clock", ClockChange("g", 5, StatusPlaying, clock), true, 5, "", clock},
		{"no clock", ClockChange("g", 5, StatusPlaying, nil), false, 0, "", nil},
		{"too long to carry", MoveChange("g", 4, "bid 9", StatusPlaying, bytes.Repeat([]byte("x"), MaxPayload)), false, 0, "", nil},
		{"a clock too long", ClockChange("g", 4, StatusPlaying, bytes.Repeat([]byte("x"), MaxPayload)), false, 0, "", nil},
		{"not UTF-8", MoveChange("g", 4, "bid 9", StatusPlaying, []byte{'"', 0xff, '"'}), false, 0, "", nil},
		{"another kind", Change{Game: "g", Kind: ChangeSeat, Moves: 5, Clock: string(clock)}, false, 0, "", nil},
		{"an older node's", Change{Game: "g", Kind: ChangeMove, Moves: 5}, false, 0, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseChange(tt.c.Payload())
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Payload()) > MaxPayload {
				t.Errorf("payload of %d bytes, over %d", len(c.Payload()), MaxPayload)
			}
			if c.Moves != tt.c.Moves || c.Status != tt.c.Status {
				t.Errorf("moves %d, status %s; want %d, %s", c.Moves, c.Status, tt.c.Moves, tt.c.Status)
			}
			from, move, clock, ok := c.Carried()
			if ok != tt.ok {
				t.Fatalf("Carried() ok = %t, want %t", ok, tt.ok)
			}
			if ok && (from != tt.from || move != tt.move || !bytes.Equal(clock, tt.clock) || (clock == nil) != (tt.clock == nil)) {
				t.Errorf("Carried() = %d, %q, %q; want %d, %q, %q", from, move, clock, tt.from, tt.move, tt.clock)
			}
		})
	}
}

// TestMayFinish: every change that says a game finished passes the
// undecoded check, and a move of a game in play does not.
func TestMayFinish(t *testing.T) {
	clock := []byte(`{"left":[61000,59000],"at":1732460000}`)
	ask := &Ask{Node: "node-b", ID: 12}
	for _, st := range []Status{StatusOpen, StatusPlaying, StatusFinished, StatusArchived, StatusExpired, StatusCancelled} {
		for _, c := range []Change{
			MoveChange("g", 4, "bid 9", st, clock),
			MoveChange("g", 4, "draw", st, nil).Asked(ask),
			ClockChange("g", 5, st, clock),
			{Game: "g", Kind: ChangeSeat, Moves: 5, Status: st},
			{Game: "g", Kind: ChangeLease, Moves: 5, Status: st, Node: "node-a", Fence: 3},
		} {
			p := c.Payload()
			if got, want := MayFinish(p), st == StatusFinished; got != want {
				t.Errorf("MayFinish(%s) = %t, want %t", p, got, want)
			}
		}
	}
}
