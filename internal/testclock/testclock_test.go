package testclock_test

import (
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/testclock"
)

// TestAdvance: a timer fires once the clock reached it, not before, and
// a stopped one never does.
func TestAdvance(t *testing.T) {
	c := testclock.New()
	start := c.Now()
	var fired []string
	c.AfterFunc(2*time.Second, func() { fired = append(fired, "two") })
	stop := c.AfterFunc(time.Second, func() { fired = append(fired, "stopped") })
	if !stop() || stop() {
		t.Error("stop: want true once, then false")
	}
	c.Advance(2*time.Second - time.Nanosecond)
	if len(fired) != 0 {
		t.Fatalf("fired early: %q", fired)
	}
	c.Advance(time.Nanosecond)
	if len(fired) != 1 || fired[0] != "two" || c.Now().Sub(start) != 2*time.Second {
		t.Errorf("fired %q at %v", fired, c.Now().Sub(start))
	}
	c.Advance(time.Hour)
	if len(fired) != 1 {
		t.Errorf("fired again: %q", fired)
	}
}
