package match_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/protocol"
)

// TestTimingEncode checks that a stored timing is what encoding/json
// writes, with or without what a move's timing usually lacks (take-overs,
// pre-moves, a hold), untimed, timed and running.
func TestTimingEncode(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	running, err := pace.New(pace.Default(true), 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := running.Start(2, at); err != nil {
		t.Fatal(err)
	}
	untimed, err := pace.New(pace.Default(false), 3)
	if err != nil {
		t.Fatal(err)
	}
	for name, tm := range map[string]match.Timing{
		"untimed":    {Clock: untimed},
		"running":    {Clock: running},
		"tournament": {Clock: running, Tournament: true},
		"take-over":  {Clock: running, TakeOvers: []protocol.TakeOver{{Seat: 1, Bot: "hard", Reason: protocol.ReasonLeft, Move: 3, At: at}}},
		"pre-move":   {Clock: running, PreMoves: []match.StoredPreMove{{Seat: 0, Move: "pass"}}},
		"hold":       {Clock: running, Hold: &match.Hold{Until: at, Continued: []int{1}}},
	} {
		want, err := json.Marshal(tm)
		if err != nil {
			t.Fatal(err)
		}
		if got := tm.Encode(); string(got) != string(want) {
			t.Errorf("%s: stored as\n%s\nencoding/json writes\n%s", name, got, want)
		}
	}
}
