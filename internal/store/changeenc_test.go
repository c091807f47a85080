package store

import (
	"testing"
)

// FuzzPayload: a change's payload written without reflection is the one
// encoding/json writes, whenever encodeChange takes the change.
func FuzzPayload(f *testing.F) {
	clock := `{"pace":"rapid","left":[180000000000,179000000000],"since":1764000000000000000}`
	f.Add("abcdefghjk", "move", 42, "playing", "", int64(0), "bid 9", clock, "node-b", uint64(1<<40))
	f.Add("abcdefghjk", "lease", 3, "open", "n1", int64(-2), "", "", "", uint64(0))
	f.Add("g", "clock", 0, "finished", "", int64(0), "", `{"a":"<&>\\\"é\n"}`, "", uint64(0))
	f.Fuzz(func(t *testing.T, game, kind string, moves int, status, node string, fence int64, token, clock, asker string, ask uint64) {
		c := Change{Game: game, Kind: ChangeKind(kind), Moves: moves, Status: Status(status), Node: node, Fence: Fence(fence),
			Token: token, Clock: clock, Asker: asker, Ask: ask}
		got, ok := encodeChange(c)
		if !ok {
			return
		}
		if want := marshalChange(c); got != want {
			t.Fatalf("encodeChange(%+v) = %s, encoding/json %s", c, got, want)
		}
	})
}

// TestPayloadTaken: the changes a move, a timed move and a lease make are
// written without reflection (one allocation, the payload); one with a
// character outside ASCII is left to encoding/json, which writes the same
// change.
func TestPayloadTaken(t *testing.T) {
	clock := []byte(`{"pace":"rapid","left":[180000000000,180000000000,180000000000,180000000000],"since":1764000000000000000}`)
	for _, c := range []Change{
		MoveChange("abcdefghjk", 41, "bid 9", StatusPlaying, nil),
		MoveChange("abcdefghjk", 41, "bid 9", StatusPlaying, clock).Asked(&Ask{Node: "node-b", ID: 1234}),
		{Game: "abcdefghjk", Kind: ChangeLease, Moves: 3, Status: StatusPlaying, Node: "n1", Fence: 7},
	} {
		if _, ok := encodeChange(c); !ok {
			t.Errorf("encodeChange(%+v) leaves it to encoding/json", c)
		}
		if n := testing.AllocsPerRun(100, func() { _ = c.Payload() }); n > 1 {
			t.Errorf("the payload of %+v allocates %.0f times, want 1", c, n)
		}
	}
	c := ClockChange("abcdefghjk", 7, StatusPlaying, []byte(`{"a":"é"}`))
	if _, ok := encodeChange(c); ok {
		t.Errorf("encodeChange takes %+v, outside ASCII", c)
	}
	if got, want := c.Payload(), marshalChange(c); got != want {
		t.Errorf("Payload() = %s, want %s", got, want)
	}
}
