// Package testclock is a clock for tests that moves only when the test
// advances it: its Now and AfterFunc stand in for time.Now and
// time.AfterFunc where a package takes them as options.
package testclock

import (
	"sync"
	"time"
)

// A Clock moves only when Advance is called; the timers due then fire in
// Advance's goroutine, once the clock is unlocked.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers map[*timer]struct{}
}

type timer struct {
	at time.Time
	f  func()
}

// New returns a clock at a fixed instant.
func New() *Clock {
	return &Clock{now: time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC), timers: map[*timer]struct{}{}}
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc calls f once the clock has advanced by d; stop cancels it
// and reports whether it had not fired.
func (c *Clock) AfterFunc(d time.Duration, f func()) (stop func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{at: c.now.Add(d), f: f}
	c.timers[t] = struct{}{}
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		_, ok := c.timers[t]
		delete(c.timers, t)
		return ok
	}
}

// Advance moves the time on by d and fires the timers due.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*timer
	for t := range c.timers {
		if !t.at.After(c.now) {
			due = append(due, t)
			delete(c.timers, t)
		}
	}
	c.mu.Unlock()
	for _, t := range due {
		t.f()
	}
}
