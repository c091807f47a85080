package pace

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"
)

// t0 is a fixed instant the tests count from.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func mustClock(t testing.TB, id string, players int) Clock {
	t.Helper()
	p, ok := Lookup(id)
	if !ok {
		t.Fatalf("no preset %q", id)
	}
	c, err := New(p, players)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A decision of one seat: started and ended at offsets from t0, and what
// the clock must say it spent.
type decision struct {
	seat       int
	start, end time.Duration
	reserve    time.Duration // spent from the reserve
	timedOut   bool
	at         time.Duration // when it ended, from t0
}

func TestClockRules(t *testing.T) {
	const s, ms, min = time.Second, time.Millisecond, time.Minute
	tests := []struct {
		name      string
		pace      string
		decisions []decision
		left      []time.Duration // each seat's reserve at the end
	}{
		{"live: a move within the decision time spends nothing", "rapid",
			[]decision{{0, 0, 19 * s, 0, false, 19 * s}},
			[]time.Duration{3 * min, 3 * min}},
		{"live: the whole decision time spends nothing", "rapid",
			[]decision{{0, 0, 20 * s, 0, false, 20 * s}},
			[]time.Duration{3 * min, 3 * min}},
		{"live: reserve spent only beyond the decision time", "rapid",
			[]decision{{0, 0, 25*s + 500*ms, 5*s + 500*ms, false, 25*s + 500*ms}},
			[]time.Duration{3*min - 5*s - 500*ms, 3 * min}},
		{"live: reserve spent to the millisecond, rounded up", "rapid",
			[]decision{{0, 0, 20*s + 1100*time.Microsecond, 2 * ms, false, 20*s + 1100*time.Microsecond}},
			[]time.Duration{3*min - 2*ms, 3 * min}},
		{"live: unused decision time is not saved", "rapid",
			[]decision{{0, 0, 5 * s, 0, false, 5 * s}, {0, min, min + 30*s, 10 * s, false, min + 30*s}},
			[]time.Duration{3*min - 10*s, 3 * min}},
		{"live: seats have their own reserves", "rapid",
			[]decision{{0, 0, 30 * s, 10 * s, false, 30 * s}, {1, 30 * s, 90 * s, 40 * s, false, 90 * s}},
			[]time.Duration{3*min - 10*s, 3*min - 40*s}},
		{"live: one millisecond before the deadline is in time", "rapid",
			[]decision{{0, 0, 200*s - ms, 3*min - ms, false, 200*s - ms}},
			[]time.Duration{ms, 3 * min}},
		{"live: at the deadline is too late", "rapid",
			[]decision{{0, 0, 200 * s, 3 * min, true, 200 * s}},
			[]time.Duration{0, 3 * min}},
		{"live: timed out long after the deadline, at the deadline", "rapid",
			[]decision{{0, 0, time.Hour, 3 * min, true, 200 * s}},
			[]time.Duration{0, 3 * min}},
		{"live: reserve exhausted: only the decision time is left", "rapid",
			[]decision{{0, 0, 200 * s, 3 * min, true, 200 * s}, {0, 300 * s, 320 * s, 0, true, 320 * s}},
			[]time.Duration{0, 3 * min}},
		{"live: reserve exhausted: in time within the decision time", "rapid",
			[]decision{{0, 0, 200 * s, 3 * min, true, 200 * s}, {0, 300 * s, 319 * s, 0, false, 319 * s}},
			[]time.Duration{0, 3 * min}},
		{"live: the last millisecond of reserve", "blitz",
			[]decision{{0, 0, 70*s - ms, min - ms, false, 70*s - ms}, {0, 100 * s, 110*s + ms, ms, true, 110*s + ms}},
			[]time.Duration{0, min}},
		{"correspondence: within the day no vacation is spent", "day1",
			[]decision{{0, 0, Day - s, 0, false, Day - s}},
			[]time.Duration{7 * Day, 7 * Day}},
		{"correspondence: an hour over spends a whole vacation day", "day1",
			[]decision{{0, 0, Day + time.Hour, Day, false, Day + time.Hour}},
			[]time.Duration{6 * Day, 7 * Day}},
		{"correspondence: two days and a minute over spend three", "day1",
			[]decision{{0, 0, 3*Day + min, 3 * Day, false, 3*Day + min}},
			[]time.Duration{4 * Day, 7 * Day}},
		{"correspondence: vacation used across decisions", "day2",
			[]decision{{0, 0, 3 * Day, Day, false, 3 * Day}, {1, 3 * Day, 4 * Day, 0, false, 4 * Day}, {0, 4 * Day, 9 * Day, 3 * Day, false, 9 * Day}},
			[]time.Duration{10 * Day, 14 * Day}},
		{"correspondence: timeout when the days and the vacation are used up", "day1",
			[]decision{{0, 0, 9 * Day, 7 * Day, true, 8 * Day}},
			[]time.Duration{0, 7 * Day}},
		{"correspondence: vacation exhausted: one day per decision", "day1",
			[]decision{{0, 0, 8*Day - s, 7 * Day, false, 8*Day - s}, {0, 8 * Day, 9*Day + s, 0, true, 9 * Day}},
			[]time.Duration{0, 7 * Day}},
		{"untimed: never times out, spends nothing", "untimed",
			[]decision{{0, 0, 1000 * Day, 0, false, 1000 * Day}},
			[]time.Duration{0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustClock(t, tt.pace, len(tt.left))
			for i, d := range tt.decisions {
				if err := c.Start(d.seat, t0.Add(d.start)); err != nil {
					t.Fatal(err)
				}
				end := t0.Add(d.end)
				if got := c.Expired(end); got != d.timedOut {
					t.Errorf("decision %d: Expired = %v, want %v", i, got, d.timedOut)
				}
				got := c.Stop(end)
				want := Spent{Seat: d.seat, Took: d.at - d.start, Reserve: d.reserve, TimedOut: d.timedOut, At: t0.Add(d.at)}
				if got != want {
					t.Errorf("decision %d: Stop = %+v\nwant %+v", i, got, want)
				}
			}
			for seat, want := range tt.left {
				if got := c.Reserve(seat); got != want {
					t.Errorf("seat %d keeps %v, want %v", seat, got, want)
				}
			}
		})
	}
}

// A correspondence day is 24 hours whatever the clocks on the wall say:
// across a daylight saving change and from every time zone, the deadline
// is the same instant.
func TestCorrespondenceDeadlineAcrossDays(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skipf("no time zone data: %v", err)
	}
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	newYork, _ := time.LoadLocation("America/New_York")
	// Saturday 28 March 2026, 23:30 in Berlin; summer time starts the next
	// night, so eight days later the wall clock says 00:30, not 23:30.
	start := time.Date(2026, 3, 28, 23, 30, 0, 0, berlin)
	tests := []struct {
		name string
		pace string
		want time.Time // the deadline, in Berlin's wall time
	}{
		{"one day and a week of vacation, across summer time", "day1", time.Date(2026, 4, 6, 0, 30, 0, 0, berlin)},
		{"two days and two weeks", "day2", time.Date(2026, 4, 14, 0, 30, 0, 0, berlin)},
		{"three days and three weeks", "day3", time.Date(2026, 4, 22, 0, 30, 0, 0, berlin)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, loc := range []*time.Location{berlin, tokyo, newYork, time.UTC} {
				c := mustClock(t, tt.pace, 3)
				if err := c.Start(1, start.In(loc)); err != nil {
					t.Fatal(err)
				}
				d, ok := c.Deadline()
				if !ok || !d.Equal(tt.want) {
					t.Errorf("from %s: deadline %v, want %v", loc, d.In(berlin), tt.want)
				}
				if !c.Expired(tt.want) || c.Expired(tt.want.Add(-time.Millisecond)) {
					t.Errorf("from %s: Expired is wrong at the deadline", loc)
				}
			}
		})
	}
}

func TestClockLeft(t *testing.T) {
	const s = time.Second
	tests := []struct {
		name              string
		pace              string
		after             time.Duration
		decision, reserve time.Duration
		idle              bool
	}{
		{"live: counting the decision time", "rapid", 5 * s, 15 * s, 3 * time.Minute, false},
		{"live: counting the reserve", "rapid", 50 * s, 0, 150 * s, false},
		{"live: timed out", "rapid", time.Hour, 0, 0, false},
		{"correspondence: vacation shown as it would be kept", "day1", Day + time.Hour, 0, 6 * Day, false},
		{"live: no decision running", "rapid", 0, 0, 0, true},
		{"untimed", "untimed", 5 * s, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustClock(t, tt.pace, 2)
			if !tt.idle {
				if err := c.Start(0, t0); err != nil {
					t.Fatal(err)
				}
			}
			d, r := c.Left(t0.Add(tt.after))
			if d != tt.decision || r != tt.reserve {
				t.Errorf("Left = %v, %v; want %v, %v", d, r, tt.decision, tt.reserve)
			}
		})
	}
}

func TestClockReminder(t *testing.T) {
	c := mustClock(t, "day2", 2)
	if _, ok := c.ReminderAt(); ok {
		t.Error("a reminder with no decision running")
	}
	if err := c.Start(1, t0); err != nil {
		t.Fatal(err)
	}
	at, ok := c.ReminderAt()
	if !ok || !at.Equal(t0.Add(Day)) {
		t.Fatalf("ReminderAt = %v, %v; want half of two days after the start", at, ok)
	}
	if a, _ := c.Alarm(); !a.Equal(at) {
		t.Errorf("Alarm = %v before the reminder, want the reminder %v", a, at)
	}
	if c.Remind(at.Add(-time.Millisecond)) {
		t.Error("reminded before half the decision time passed")
	}
	if !c.Remind(at) {
		t.Error("not reminded when half the decision time passed")
	}
	if c.Remind(at.Add(time.Hour)) {
		t.Error("reminded twice for one decision")
	}
	if a, _ := c.Alarm(); !a.Equal(t0.Add(16 * Day)) {
		t.Errorf("Alarm = %v after the reminder, want the deadline", a)
	}
	c.Stop(t0.Add(Day + time.Hour))
	if err := c.Start(1, t0.Add(2*Day)); err != nil {
		t.Fatal(err)
	}
	if !c.Remind(t0.Add(3 * Day)) {
		t.Error("the next decision has no reminder of its own")
	}

	live := mustClock(t, "standard", 2)
	if err := live.Start(0, t0); err != nil {
		t.Fatal(err)
	}
	if _, ok := live.ReminderAt(); ok || live.Remind(t0.Add(time.Hour)) {
		t.Error("a live decision has a reminder")
	}
	if a, ok := live.Alarm(); !ok || !a.Equal(t0.Add(11*time.Minute)) {
		t.Errorf("live Alarm = %v, %v; want the deadline", a, ok)
	}
	untimed := mustClock(t, "untimed", 2)
	if err := untimed.Start(0, t0); err != nil {
		t.Fatal(err)
	}
	if _, ok := untimed.Alarm(); ok {
		t.Error("an untimed decision has an alarm")
	}
}

func TestClockStartRefused(t *testing.T) {
	c := mustClock(t, "rapid", 3)
	for _, seat := range []int{-1, 3, 5} {
		if err := c.Start(seat, t0); err == nil {
			t.Errorf("Start(%d) at a table of 3 accepted", seat)
		}
	}
	if err := c.Start(2, t0); err != nil {
		t.Fatal(err)
	}
	before := c
	if err := c.Start(1, t0.Add(time.Second)); !errors.Is(err, ErrRunning) {
		t.Errorf("a second Start: %v, want ErrRunning", err)
	}
	if c != before {
		t.Error("a refused Start changed the clock")
	}
	idle := mustClock(t, "rapid", 2)
	if sp := idle.Stop(t0); sp != (Spent{Seat: -1}) {
		t.Errorf("Stop with nothing running = %+v", sp)
	}
}

// A node whose clock is behind the one that started the decision charges
// nothing for the negative time.
func TestClockBackwards(t *testing.T) {
	c := mustClock(t, "rapid", 2)
	if err := c.Start(0, t0); err != nil {
		t.Fatal(err)
	}
	if sp := c.Stop(t0.Add(-time.Minute)); sp.Took != 0 || sp.Reserve != 0 || sp.TimedOut {
		t.Errorf("Stop before the start = %+v", sp)
	}
}

func TestNewRefused(t *testing.T) {
	rapid, _ := Lookup("rapid")
	for _, n := range []int{0, 1, 6} {
		if _, err := New(rapid, n); err == nil {
			t.Errorf("New with %d players accepted", n)
		}
	}
	if _, err := New(Pace{ID: "x", Kind: Live}, 2); err == nil {
		t.Error("New with a live pace without decision time accepted")
	}
}

// restart stores the clock as JSON and reads it back, as a restarted
// server or a node taking the table over does.
func restart(t *testing.T, c Clock) Clock {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back Clock
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("reading back %s: %v", b, err)
	}
	if back != c {
		t.Fatalf("%s read back as %+v, want %+v", b, back, c)
	}
	return back
}

// A restart or a take-over never resets, doubles or skips a timeout: the
// stored clock gives the same deadline, a deadline passed while no node
// ran fires at once and at the stored instant, and a timeout handled
// before the restart does not fire again.
func TestClockRestart(t *testing.T) {
	const s = time.Second
	t.Run("mid-decision: same deadline and same outcome", func(t *testing.T) {
		c := mustClock(t, "rapid", 3)
		c.Start(0, t0)
		c.Stop(t0.Add(50 * s)) // 30 s of reserve spent
		c.Start(1, t0.Add(50*s+123*time.Millisecond))
		back := restart(t, c)
		d1, _ := c.Deadline()
		d2, _ := back.Deadline()
		if !d1.Equal(d2) || !d2.Equal(t0.Add(50*s+123*time.Millisecond+200*s)) {
			t.Errorf("deadline %v before the restart, %v after", d1, d2)
		}
		end := t0.Add(100 * s)
		if a, b := c.Stop(end), back.Stop(end); a != b {
			t.Errorf("Stop before the restart %+v, after %+v", a, b)
		}
	})
	t.Run("never resets: the reserve spent stays spent", func(t *testing.T) {
		c := mustClock(t, "rapid", 2)
		c.Start(0, t0)
		c.Stop(t0.Add(80 * s))
		if got := restart(t, c).Reserve(0); got != 2*time.Minute {
			t.Errorf("reserve after the restart %v, want 2m", got)
		}
	})
	t.Run("never skips: a deadline passed while down fires at the stored instant", func(t *testing.T) {
		c := mustClock(t, "day1", 2)
		c.Start(1, t0)
		back := restart(t, c)
		later := t0.Add(30 * Day) // the server was down for a month
		if !back.Expired(later) {
			t.Fatal("the passed deadline did not fire after the restart")
		}
		sp := back.Stop(later)
		if !sp.TimedOut || !sp.At.Equal(t0.Add(8*Day)) {
			t.Errorf("timed out %+v, want at the stored deadline", sp)
		}
	})
	t.Run("never doubles: a timeout handled before the restart does not fire again", func(t *testing.T) {
		c := mustClock(t, "rapid", 2)
		c.Start(0, t0)
		if sp := c.Stop(t0.Add(time.Hour)); !sp.TimedOut {
			t.Fatal("no timeout")
		}
		back := restart(t, c)
		if back.Expired(t0.Add(2 * time.Hour)) {
			t.Error("the handled timeout fired again after the restart")
		}
		if sp := back.Stop(t0.Add(2 * time.Hour)); sp.TimedOut {
			t.Errorf("Stop after the restart timed out again: %+v", sp)
		}
	})
	t.Run("a stale timer of the previous decision does not fire for the next", func(t *testing.T) {
		c := mustClock(t, "rapid", 2)
		c.Start(0, t0)
		c.Stop(t0.Add(10 * s))
		c.Start(1, t0.Add(10*s))
		if c.Expired(t0.Add(200 * s)) { // seat 0's deadline, had it kept deciding
			t.Error("seat 1 timed out at seat 0's deadline")
		}
	})
	t.Run("the reminder is not sent twice across a restart", func(t *testing.T) {
		c := mustClock(t, "day3", 2)
		c.Start(0, t0)
		if !c.Remind(t0.Add(2 * Day)) {
			t.Fatal("no reminder")
		}
		back := restart(t, c)
		if back.Remind(t0.Add(2 * Day)) {
			t.Error("reminded again after the restart")
		}
	})
	t.Run("an idle clock", func(t *testing.T) {
		restart(t, mustClock(t, "untimed", 5))
	})
}

func TestClockJSON(t *testing.T) {
	c := mustClock(t, "rapid", 2)
	c.Start(1, t0)
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"pace":{"id":"rapid","kind":"live","decisionMs":20000,"reserveMs":180000,"graceMs":15000},"reserveMs":[180000,180000],"seat":1,"startedMs":1772366400000}`
	if string(b) != want {
		t.Errorf("stored as %s\nwant %s", b, want)
	}
	c.Start(0, t0) // refused: it keeps the stored form
	c.Stop(t0)
	if b, _ := json.Marshal(c); string(b) != `{"pace":{"id":"rapid","kind":"live","decisionMs":20000,"reserveMs":180000,"graceMs":15000},"reserveMs":[180000,180000]}` {
		t.Errorf("idle clock stored as %s", b)
	}
}

func TestClockJSONRefused(t *testing.T) {
	const rapid = `{"id":"rapid","kind":"live","decisionMs":20000,"reserveMs":180000}`
	const day1 = `{"id":"day1","kind":"correspondence","decisionMs":86400000,"reserveMs":604800000}`
	tests := []struct{ name, json string }{
		{"not JSON", `{`},
		{"no pace", `{"reserveMs":[0,0]}`},
		{"one seat", `{"pace":` + rapid + `,"reserveMs":[0]}`},
		{"six seats", `{"pace":` + rapid + `,"reserveMs":[0,0,0,0,0,0]}`},
		{"a reserve beyond the pace's", `{"pace":` + rapid + `,"reserveMs":[180001,0]}`},
		{"a negative reserve", `{"pace":` + rapid + `,"reserveMs":[-5,0]}`},
		{"vacation in part days", `{"pace":` + day1 + `,"reserveMs":[3600000,0]}`},
		{"a seat not at the table", `{"pace":` + rapid + `,"reserveMs":[0,0],"seat":2,"startedMs":5}`},
		{"a negative seat", `{"pace":` + rapid + `,"reserveMs":[0,0],"seat":-1,"startedMs":5}`},
		{"a decision without a start", `{"pace":` + rapid + `,"reserveMs":[0,0],"seat":0}`},
		{"a start without a seat", `{"pace":` + rapid + `,"reserveMs":[0,0],"startedMs":5}`},
		{"reminded without a decision", `{"pace":` + rapid + `,"reserveMs":[0,0],"reminded":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustClock(t, "blitz", 4)
			before := c
			if err := json.Unmarshal([]byte(tt.json), &c); err == nil {
				t.Errorf("accepted %s", tt.json)
			}
			if c != before {
				t.Error("a refused clock changed the value")
			}
		})
	}
}

func FuzzClockJSON(f *testing.F) {
	for _, id := range []string{"rapid", "day2", "untimed"} {
		c := mustClock(f, id, 3)
		b, _ := json.Marshal(c)
		f.Add(b)
		c.Start(2, t0)
		c.Remind(t0.Add(10 * Day))
		b, _ = json.Marshal(c)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var c Clock
		if err := json.Unmarshal(b, &c); err != nil {
			return
		}
		restart(t, c)
		now := t0.Add(time.Duration(len(b)) * time.Hour)
		c.Left(now)
		c.Alarm()
		sp := c.Stop(now)
		if sp.Reserve < 0 || c.Reserve(max(sp.Seat, 0)) < 0 {
			t.Errorf("negative reserve after %+v", sp)
		}
	})
}

func ExampleClock() {
	rapid, _ := Lookup("rapid") // 20 s per decision + 3 min reserve
	c, _ := New(rapid, 3)
	start := time.Date(2026, 5, 1, 20, 0, 0, 0, time.UTC)

	c.Start(0, start)
	deadline, _ := c.Deadline()
	fmt.Println("deadline", deadline.Sub(start))
	sp := c.Stop(start.Add(45 * time.Second))
	fmt.Println("spent", sp.Reserve, "left", c.Reserve(0))

	c.Start(0, start.Add(time.Minute))
	sp = c.Stop(start.Add(time.Hour)) // the table's timer fired late
	fmt.Println("timed out", sp.TimedOut, "after", sp.At.Sub(start.Add(time.Minute)))
	// Output:
	// deadline 3m20s
	// spent 25s left 2m35s
	// timed out true after 2m55s
}
