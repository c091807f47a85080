package match_test

import (
	"testing"
	"time"
)

// TestClockReserve: a move's command spends the mover's reserve by what
// its decision took beyond the decision time, and nothing within it (the
// match's side of the Hub's TestClockDecisionAndReserve).
func TestClockReserve(t *testing.T) {
	// blitz: 10 s a decision, then a minute of reserve.
	for _, tc := range []struct {
		name string
		took time.Duration
		want time.Duration
	}{
		{"within the decision time", 4 * time.Second, time.Minute},
		{"to the decision's end", 10 * time.Second, time.Minute},
		{"beyond it, the excess", 25 * time.Second, 45 * time.Second},
		{"to the reserve's last second", 69 * time.Second, time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := started(t, "blitz")
			mover := m.Game.ToMove()
			r := must(t, m, play(m, "draw"), t0.Add(tc.took))
			if r.Finished || r.Then != nil {
				t.Fatalf("the move in time: %+v", r)
			}
			if got := m.Timing.Clock.Reserve(mover); got != tc.want {
				t.Errorf("reserve after a %v decision = %v, want %v", tc.took, got, tc.want)
			}
			if seat, at, ok := m.Timing.Clock.Running(); !ok || seat == mover || !at.Equal(t0.Add(tc.took)) {
				t.Errorf("running %d since %v (%v), want the next seat since the move", seat, at, ok)
			}
		})
	}
}
