package arena

import (
	"math"
	"testing"
	"time"

	"github.com/razziagame/razzia"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestWilson checks the interval against published values (Newcombe 1998,
// Table I, and the usual textbook examples).
func TestWilson(t *testing.T) {
	tests := []struct {
		name      string
		wins      float64
		n         int
		low, high float64
	}{
		{"none of 10", 0, 10, 0, 0.2775},
		{"all of 10", 10, 10, 0.7225, 1},
		{"half of 10", 5, 10, 0.2366, 0.7634},
		{"half of 100", 50, 100, 0.4038, 0.5962},
		{"81 of 263", 81, 263, 0.2553, 0.3662},
		{"15 of 148", 15, 148, 0.0624, 0.1605},
		{"no games", 0, 0, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			low, high := Wilson(tt.wins, tt.n)
			if !near(low, tt.low, 5e-5) || !near(high, tt.high, 5e-5) {
				t.Errorf("Wilson(%v, %d) = [%.4f, %.4f], want [%.4f, %.4f]", tt.wins, tt.n, low, high, tt.low, tt.high)
			}
			if low < 0 || high > 1 || low > high {
				t.Errorf("Wilson(%v, %d) = [%v, %v]: not inside [0, 1]", tt.wins, tt.n, low, high)
			}
		})
	}
}

// score returns a score with the given points in thieves and cars, so that
// totals and category means are both known.
func score(thieves, cars int) razzia.Score {
	var s razzia.Score
	s[razzia.CategoryThieves] = thieves
	s[razzia.CategoryCars] = cars
	return s
}

// TestTallyKnownOutcomes feeds three games with known results: an outright
// win, a win shared by two seats and one shared by three (R18: a shared win
// counts 1/k), and checks every figure by hand.
func TestTallyKnownOutcomes(t *testing.T) {
	seats := []string{"a", "b", "b"}
	tl := newTally(seats)
	// Bot indices: a = 0, b = 1. Scores as (thieves, cars); totals in comments.
	outcomes := []*outcome{
		// a 10, b 5, b 7: a wins outright.
		{index: 0, bots: []int{0, 1, 1}, scores: []razzia.Score{score(4, 6), score(5, 0), score(0, 7)}, winners: []int{0}},
		// b 8, b 8, a 3: the two b seats share the win.
		{index: 1, bots: []int{1, 1, 0}, scores: []razzia.Score{score(8, 0), score(3, 5), score(3, 0)}, winners: []int{0, 1}},
		// 6, 6, 6: a three-way tie, a third each.
		{index: 2, bots: []int{1, 0, 1}, scores: []razzia.Score{score(6, 0), score(0, 6), score(1, 5)}, winners: []int{0, 1, 2}},
	}
	// Any order of arrival gives the same result.
	for _, i := range []int{2, 0, 1} {
		tl.add(outcomes[i])
	}
	r := tl.result(&Config{Seats: seats, Seed: 7}, time.Second)

	if r.Games != 3 || r.Players != 3 || !r.Balanced || r.Seed != 7 {
		t.Errorf("games %d players %d balanced %v seed %d; want 3 3 true 7", r.Games, r.Players, r.Balanced, r.Seed)
	}
	if len(r.Bots) != 2 {
		t.Fatalf("got %d bots, want 2", len(r.Bots))
	}
	a, b := r.Bots[0], r.Bots[1]
	checks := []struct {
		name      string
		got, want float64
	}{
		{"a seats", float64(a.Seats), 1},
		{"b seats", float64(b.Seats), 2},
		{"a games", float64(a.Games), 3},
		{"b games", float64(b.Games), 6},
		{"a wins", a.Wins, 1 + 1.0/3},
		{"b wins", b.Wins, 1 + 2.0/3},
		{"a win rate", a.WinRate, 4.0 / 9},
		{"b win rate", b.WinRate, 5.0 / 18},
		{"a mean score", a.MeanScore, 19.0 / 3},
		{"b mean score", b.MeanScore, 40.0 / 6},
		{"a mean thieves", a.MeanByCategory[razzia.CategoryThieves], 7.0 / 3},
		{"a mean cars", a.MeanByCategory[razzia.CategoryCars], 12.0 / 3},
		{"b mean thieves", b.MeanByCategory[razzia.CategoryThieves], 23.0 / 6},
		{"b mean cars", b.MeanByCategory[razzia.CategoryCars], 17.0 / 6},
		{"b mean gold", b.MeanByCategory[razzia.CategoryGold], 0},
	}
	for _, c := range checks {
		if !near(c.got, c.want, 1e-12) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if low, high := Wilson(4.0/3, 3); a.WinLow != low || a.WinHigh != high {
		t.Errorf("a interval [%v, %v], want Wilson(4/3, 3) = [%v, %v]", a.WinLow, a.WinHigh, low, high)
	}
	// Every game has exactly one win to share out.
	if got := a.Wins + b.Wins; !near(got, 3, 1e-12) {
		t.Errorf("wins add up to %v, want 3", got)
	}

	// a against b: ahead of both b in game 1, behind both in game 2,
	// level with both in game 3.
	want := Pairing{A: "a", B: "b", Meetings: 6, AheadA: 2, AheadB: 2, Level: 2}
	if len(r.HeadToHead) != 1 || r.HeadToHead[0] != want {
		t.Fatalf("head to head %+v, want [%+v]", r.HeadToHead, want)
	}
	if got := r.HeadToHead[0].Rate(); got != 0.5 {
		t.Errorf("head-to-head rate %v, want 0.5", got)
	}
}

// TestTallyOrientation checks that a head-to-head pairing keeps A and B
// apart when the later bot sits first.
func TestTallyOrientation(t *testing.T) {
	tl := newTally([]string{"x", "y"})
	tl.add(&outcome{bots: []int{1, 0}, scores: []razzia.Score{score(9, 0), score(1, 0)}, winners: []int{0}})
	tl.add(&outcome{bots: []int{0, 1}, scores: []razzia.Score{score(2, 0), score(5, 0)}, winners: []int{1}})
	tl.add(&outcome{bots: []int{0, 1}, scores: []razzia.Score{score(2, 0), score(1, 0)}, winners: []int{0}})
	r := tl.result(&Config{Seats: []string{"x", "y"}}, 0)
	want := Pairing{A: "x", B: "y", Meetings: 3, AheadA: 1, AheadB: 2}
	if r.HeadToHead[0] != want {
		t.Errorf("got %+v, want %+v", r.HeadToHead[0], want)
	}
	if r.Balanced {
		t.Error("3 games of 2 players reported balanced")
	}
	if r.Bots[0].Wins != 1 || r.Bots[1].Wins != 2 {
		t.Errorf("wins x %v y %v, want 1 2", r.Bots[0].Wins, r.Bots[1].Wins)
	}
}

func TestCategoriesJSON(t *testing.T) {
	c := Categories{1, 2, 3, 4, 5, 6, 7.5}
	b, err := c.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"thieves":1,"bodyguards":2,"cars":3,"jewels":4,"gold":5,"businesses":6,"cheques":7.5}`
	if string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
	var back Categories
	if err := back.UnmarshalJSON(b); err != nil || back != c {
		t.Errorf("round trip gave %v, %v", back, err)
	}
}

func TestHistogramBuckets(t *testing.T) {
	prev := -1
	for _, v := range []uint64{0, 1, 63, 64, 66, 127, 128, 1000, 1 << 20, 123456789, 1<<62 + 12345, math.MaxInt64} {
		i := bucket(v)
		if i <= prev || i >= histBuckets {
			t.Errorf("bucket(%d) = %d after %d (of %d)", v, i, prev, histBuckets)
		}
		prev = i
		low, width := bounds(i)
		if v < low || v-low >= width {
			t.Errorf("%d in bucket %d = [%d, %d+%d)", v, i, low, low, width)
		}
		if v >= exact && float64(width)/float64(low) > 1.0/32 {
			t.Errorf("bucket %d is %d wide at %d: coarser than 1/32", i, width, low)
		}
	}
}

func TestHistogramQuantiles(t *testing.T) {
	var h, other histogram
	// 1..1000 µs, split across two histograms as workers would.
	for i := 1; i <= 1000; i++ {
		if i%2 == 0 {
			h.add(time.Duration(i) * time.Microsecond)
		} else {
			other.add(time.Duration(i) * time.Microsecond)
		}
	}
	h.merge(&other)
	tm := h.timing()
	if tm.Decisions != 1000 || tm.Max != time.Millisecond || tm.Mean != 500500*time.Nanosecond {
		t.Errorf("decisions %d max %v mean %v; want 1000 1ms 500.5µs", tm.Decisions, tm.Max, tm.Mean)
	}
	for _, q := range []struct {
		name      string
		got, want time.Duration
	}{
		{"p50", tm.P50, 500 * time.Microsecond},
		{"p90", tm.P90, 900 * time.Microsecond},
		{"p99", tm.P99, 990 * time.Microsecond},
	} {
		if rel := math.Abs(float64(q.got-q.want)) / float64(q.want); rel > 0.02 {
			t.Errorf("%s = %v, want %v within 2%%", q.name, q.got, q.want)
		}
	}
	var empty histogram
	if tm := empty.timing(); tm != (Timing{}) {
		t.Errorf("empty histogram timing %+v", tm)
	}
}
