package tournament

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"
)

func TestSizes(t *testing.T) {
	for _, tc := range []struct {
		n, size int
		want    []int
	}{
		{7, 4, []int{4, 3}},
		{12, 5, []int{4, 4, 4}},
		{12, 4, []int{4, 4, 4}},
		{29, 4, []int{4, 4, 4, 4, 4, 3, 3, 3}},
		{29, 5, []int{5, 5, 5, 5, 5, 4}},
		{29, 3, []int{3, 3, 3, 3, 3, 3, 3, 3, 3, 2}},
		{7, 2, []int{3, 2, 2}},
		{3, 2, []int{3}},
		{2, 5, []int{2}},
		{6, 5, []int{3, 3}},
	} {
		t.Run(fmt.Sprintf("%d at %d", tc.n, tc.size), func(t *testing.T) {
			got, err := Sizes(tc.n, tc.size)
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("Sizes = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
	for size := MinTable; size <= MaxTable; size++ {
		for n := 2; n <= 80; n++ {
			s, err := Sizes(n, size)
			if err != nil {
				t.Fatalf("Sizes(%d, %d): %v", n, size, err)
			}
			sum := 0
			for _, x := range s {
				sum += x
				if x < MinTable || x > max(size, 3) {
					t.Errorf("Sizes(%d, %d) = %v: a table of %d", n, size, s, x)
				}
			}
			if sum != n || !slices.IsSortedFunc(s, func(a, b int) int { return b - a }) || s[0]-s[len(s)-1] > 1 {
				t.Errorf("Sizes(%d, %d) = %v", n, size, s)
			}
			if (size > 2 || n%2 == 0) && len(s) != (n+size-1)/size {
				t.Errorf("Sizes(%d, %d) = %v: not the fewest tables", n, size, s)
			}
		}
	}
	for _, bad := range [][2]int{{1, 4}, {0, 4}, {5, 1}, {5, 6}} {
		if _, err := Sizes(bad[0], bad[1]); err == nil {
			t.Errorf("Sizes(%d, %d) gave no error", bad[0], bad[1])
		}
	}
}

func TestFilled(t *testing.T) {
	for _, tc := range []struct{ n, size, tables, bots int }{
		{7, 4, 2, 1}, {3, 2, 2, 1}, {12, 5, 3, 3}, {29, 4, 8, 3}, {2, 5, 1, 3},
	} {
		tables, bots, err := Filled(tc.n, tc.size)
		if err != nil || tables != tc.tables || bots != tc.bots {
			t.Errorf("Filled(%d, %d) = %d, %d, %v; want %d, %d", tc.n, tc.size, tables, bots, err, tc.tables, tc.bots)
		}
	}
}

func TestShares(t *testing.T) {
	for _, tc := range []struct {
		name      string
		totals    []int
		forfeited []bool
		want      []Points
	}{
		{"two, a win", []int{30, 20}, nil, []Points{24, 0}},
		{"two, a tie", []int{30, 30}, nil, []Points{12, 12}},
		{"four in order", []int{40, 30, 20, 10}, nil, []Points{24, 16, 8, 0}},
		{"four, two share the win", []int{40, 40, 20, 10}, nil, []Points{20, 20, 8, 0}},
		{"five, three share last", []int{50, 10, 10, 10, 40}, nil, []Points{24, 6, 6, 6, 18}},
		{"a bot stood in for the best total", []int{50, 30, 20}, []bool{true, false, false}, []Points{0, 24, 12}},
		{"two stood in, whatever their bots scored", []int{50, 30, 20}, []bool{true, false, true}, []Points{6, 24, 6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Shares(tc.totals, tc.forfeited); !slices.Equal(got, tc.want) {
				t.Errorf("Shares = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPointsString(t *testing.T) {
	for p, want := range map[Points]string{0: "0", 24: "1", 36: "1.5", 8: "0.33", 20: "0.83", 6 * 24: "6"} {
		if got := p.String(); got != want {
			t.Errorf("Points(%d) = %q, want %q", p, got, want)
		}
	}
}

func ids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "p" + strconv.Itoa(i+1)
	}
	return out
}

// play gives each table's seats made-up totals drawn from r.
func play(r *rand.Rand, round int, tables []Table) []Game {
	var out []Game
	for i, tb := range tables {
		g := Game{Round: round, Table: i + 1, Deal: tb.Deal, Seats: tb.Seats, Totals: make([]int, len(tb.Seats)),
			Finished: time.Unix(int64(round*100+i), 0)}
		for s := range g.Totals {
			g.Totals[s] = r.IntN(40)
		}
		out = append(out, g)
	}
	return out
}

func ranked(st []Standing) []Ranked {
	out := make([]Ranked, len(st))
	for i, s := range st {
		out[i] = Ranked{ID: s.ID, Points: s.Points}
	}
	return out
}

// minRepeats returns, by trying every grouping, the fewest repeated
// meetings tables of sizes can hold.
func minRepeats(people []string, sizes []int, met History) int {
	best := -1
	var rec func(left []string, k int, acc int)
	rec = func(left []string, k int, acc int) {
		if best >= 0 && acc >= best {
			return
		}
		if k == len(sizes) {
			best = acc
			return
		}
		// Tables of one size are interchangeable: the first left always sits at table k.
		first, rest := left[0], left[1:]
		var pick func(from int, table []string)
		pick = func(from int, table []string) {
			if len(table) == sizes[k] {
				var next []string
				for _, p := range left {
					if !slices.Contains(table, p) {
						next = append(next, p)
					}
				}
				rec(next, k+1, acc+Repeats([][]string{table}, met))
				return
			}
			for i := from; i < len(rest); i++ {
				pick(i+1, append(slices.Clone(table), rest[i]))
			}
		}
		pick(0, []string{first})
	}
	rec(people, 0, 0)
	return best
}

// TestSwissSimulated plays Swiss tournaments of 7, 12 and 29 people with
// made-up results: every table legal, everyone seated once a round, and
// no meeting repeated where another grouping avoids it.
func TestSwissSimulated(t *testing.T) {
	for _, tc := range []struct {
		n, size, rounds int
		fill            bool
	}{
		{7, 4, 4, false}, {7, 4, 3, true}, {12, 4, 3, false}, {12, 5, 3, false}, {29, 4, 3, false}, {29, 5, 4, true}, {29, 2, 5, false},
	} {
		t.Run(fmt.Sprintf("%d at %d fill %v", tc.n, tc.size, tc.fill), func(t *testing.T) {
			people := ids(tc.n)
			r := rand.New(rand.NewPCG(1, uint64(tc.n)))
			met := History{}
			var games []Game
			for round := 1; round <= tc.rounds; round++ {
				st := Standings(Swiss, people, games)
				tables, err := SwissRound(ranked(st), tc.size, tc.fill, met, uint64(round))
				if err != nil {
					t.Fatal(err)
				}
				seen := map[string]bool{}
				var groups [][]string
				for _, tb := range tables {
					if n := len(tb.Seats); n < MinTable || n > max(tc.size, 3) || tc.fill && n != tc.size {
						t.Errorf("round %d: a table of %d", round, n)
					}
					if tb.Bots() > 0 && !tc.fill {
						t.Errorf("round %d: bots at %v without fill", round, tb.Seats)
					}
					for _, p := range tb.People() {
						if seen[p] {
							t.Errorf("round %d: %s seated twice", round, p)
						}
						seen[p] = true
					}
					groups = append(groups, tb.People())
				}
				if len(seen) != tc.n {
					t.Errorf("round %d: %d of %d seated", round, len(seen), tc.n)
				}
				got := Repeats(groups, met)
				var want int
				if tc.n <= 12 && !tc.fill {
					sizes, _ := Sizes(tc.n, tc.size)
					want = minRepeats(people, sizes, met)
				}
				if tc.n > 12 && got > 0 {
					t.Errorf("round %d: %d repeated meetings, want none", round, got)
				}
				if tc.n <= 12 && !tc.fill && got != want {
					t.Errorf("round %d: %d repeated meetings, the fewest is %d", round, got, want)
				}
				for _, g := range groups {
					met.Add(g)
				}
				games = append(games, play(r, round, tables)...)
			}
		})
	}
}

// TestSwissStandingsByHand checks the standings of a small tournament
// against values worked out by hand.
func TestSwissStandingsByHand(t *testing.T) {
	games := []Game{
		{Round: 1, Table: 1, Seats: []string{"A", "B"}, Totals: []int{30, 20}},
		{Round: 1, Table: 2, Seats: []string{"C", "D"}, Totals: []int{25, 25}},
		{Round: 2, Table: 1, Seats: []string{"A", "C"}, Totals: []int{10, 40}},
		// B's clock ran out: their bot's 50 counts for nothing.
		{Round: 2, Table: 2, Seats: []string{"B", "D"}, Totals: []int{50, 10}, Forfeited: []bool{true, false}},
	}
	// Points: A 1, B 0, C ½+1, D ½+1. Buchholz: A B+C = 1.5, B A+D = 2.5,
	// C D+A = 2.5, D C+B = 1.5: C ahead of D.
	want := []Standing{
		{ID: "C", Rank: 1, Points: 36, Buchholz: 60, Games: 2, Wins: 1, Score: 65},
		{ID: "D", Rank: 2, Points: 36, Buchholz: 36, Games: 2, Wins: 1, Score: 35},
		{ID: "A", Rank: 3, Points: 24, Buchholz: 36, Games: 2, Wins: 1, Score: 40},
		{ID: "B", Rank: 4, Points: 0, Buchholz: 60, Games: 2, Wins: 0, Score: 70},
	}
	got := Standings(Swiss, []string{"A", "B", "C", "D"}, games)
	for i, w := range want {
		g := got[i]
		if g.ID != w.ID || g.Rank != w.Rank || g.Points != w.Points || g.Buchholz != w.Buchholz || g.Games != w.Games || g.Wins != w.Wins || g.Score != w.Score {
			t.Errorf("line %d = %+v, want %+v", i+1, g, w)
		}
	}
}

// TestArenaStreak checks lichess's streak: after two wins in a row the
// games score double until one is not won.
func TestArenaStreak(t *testing.T) {
	at := func(i int) time.Time { return time.Unix(int64(i), 0) }
	var games []Game
	for i, x := range []int{30, 30, 30, 20, 10, 30} { // X against Y: W W W D L W
		games = append(games, Game{Seats: []string{"X", "Y"}, Totals: []int{x, 20}, Finished: at(i)})
	}
	st := Standings(Arena, []string{"Y", "X"}, games)
	x := st[0]
	// W 2, W 2, W on fire 4, D on fire 2, L 0, W 2.
	if x.ID != "X" || x.Points != 12*Point || !slices.Equal(x.Sheet, []Points{48, 48, 96, 48, 0, 48}) || x.Fire || x.Wins != 4 {
		t.Errorf("X = %+v (points %v, sheet %v)", x, x.Points, x.Sheet)
	}
	// Y: L L L D W L: 0 0 0 2 4 0 = 6... Y won game 5 only: 1 point doubled, no fire.
	if y := st[1]; y.Points != 3*Point || y.Fire {
		t.Errorf("Y = %+v", y)
	}
	games = append(games, Game{Seats: []string{"X", "Y"}, Totals: []int{30, 0}, Finished: at(9)})
	if st := Standings(Arena, []string{"X", "Y"}, games); !st[0].Fire {
		t.Errorf("after two wins in a row X is not on fire: %+v", st[0])
	}
}

// TestMatchpointsByHand checks one deal's matchpoints worked out by hand.
func TestMatchpointsByHand(t *testing.T) {
	games := []Game{
		{Deal: 14, Seats: []string{"p1", "p2", "p3", "p4"}, Totals: []int{30, 20, 10, 5}},
		{Deal: 14, Seats: []string{"p5", "p6", "p7", "p8"}, Totals: []int{25, 40, 10, 5}, Forfeited: []bool{false, true, false, false}},
		{Deal: 14, Seats: []string{"", "p9", "p10", ""}, Totals: []int{30, 20, 12, 5}},
	}
	// Seat 1: p1 30 beats p5's 25 and ties the bot's 30: 1.5 of 2. p5: 0.
	// Seat 2: p2 20 beats p6 (a bot stood in) and ties p9: 0.75, so does p9; p6 0.
	// Seat 3: p10 12 beats both 10s: 1; p3 and p7 tie each other, lose to p10: 0.25.
	// Seat 4: three 5s: 0.5 each for p4 and p8.
	want := map[string]float64{"p1": 0.75, "p5": 0, "p2": 0.75, "p9": 0.75, "p6": 0, "p10": 1, "p3": 0.25, "p7": 0.25, "p4": 0.5, "p8": 0.5}
	got := Matchpoints(games)
	if len(got) != len(want) {
		t.Errorf("matchpoints of %d people, want %d: %v", len(got), len(want), got)
	}
	for id, w := range want {
		if m := got[id]; m.Sum != w || m.Deals != 1 {
			t.Errorf("%s: %+v, want %v of 1 deal", id, m, w)
		}
	}
	st := Standings(Duplicate, []string{"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10"}, games)
	if st[0].ID != "p10" || st[0].Percent != 100 || st[1].Rank != 2 || st[1].Percent != 75 {
		t.Errorf("standings start %+v, %+v", st[0], st[1])
	}
}

// TestDuplicateSimulated plays duplicate tournaments of 7, 12 and 29
// people: every deal at two tables at least, people at every seat of
// every deal, nobody at a deal twice, seats balanced over the rounds.
func TestDuplicateSimulated(t *testing.T) {
	for _, tc := range []struct{ n, size, rounds int }{
		{7, 4, 4}, {12, 4, 4}, {12, 5, 5}, {29, 4, 4}, {29, 5, 5}, {5, 5, 5}, {29, 2, 3},
	} {
		t.Run(fmt.Sprintf("%d at %d", tc.n, tc.size), func(t *testing.T) {
			people := ids(tc.n)
			r := rand.New(rand.NewPCG(2, uint64(tc.n)))
			met, counts := History{}, SeatCounts{}
			var games []Game
			played := map[string]map[int]bool{}
			for round := 1; round <= tc.rounds; round++ {
				st := Standings(Duplicate, people, games)
				tables, err := DuplicateRound(ranked(st), tc.size, round, met, counts, uint64(round))
				if err != nil {
					t.Fatal(err)
				}
				deals := map[int][]Table{}
				seated := 0
				for _, tb := range tables {
					if n := len(tb.Seats); n < MinTable || n > max(tc.size, 3) || tb.Deal != round*10+n {
						t.Errorf("round %d: a table of %d plays deal %d", round, n, tb.Deal)
					}
					deals[tb.Deal] = append(deals[tb.Deal], tb)
					for _, p := range tb.People() {
						if played[p] == nil {
							played[p] = map[int]bool{}
						}
						if played[p][tb.Deal] {
							t.Errorf("%s plays deal %d twice", p, tb.Deal)
						}
						played[p][tb.Deal] = true
						seated++
					}
					met.Add(tb.Seats)
					counts.Add(tb.Seats)
				}
				if seated != tc.n {
					t.Errorf("round %d: %d of %d seated", round, seated, tc.n)
				}
				for d, ts := range deals {
					if len(ts) < 2 {
						t.Errorf("round %d: deal %d at %d table", round, d, len(ts))
					}
					for seat := range ts[0].Seats {
						person := false
						for _, tb := range ts {
							person = person || tb.Seats[seat] != ""
						}
						if !person {
							t.Errorf("round %d: deal %d: seat %d is a bot's at every table", round, d, seat+1)
						}
					}
				}
				games = append(games, play(r, round, tables)...)
			}
			// Seats balanced: with as many rounds as seats, and a table size
			// that never changes, nobody held one seat more than twice.
			for p, c := range counts {
				for s, k := range c {
					if k > 2 {
						t.Errorf("%s held seat %d %d times: %v", p, s+1, k, c)
					}
				}
			}
			mp := Matchpoints(games)
			for _, p := range people {
				if mp[p].Deals != tc.rounds {
					t.Errorf("%s: %d deals count, want %d", p, mp[p].Deals, tc.rounds)
				}
			}
		})
	}
}

// TestArenaSeat checks who an arena seats at once and who waits.
func TestArenaSeat(t *testing.T) {
	t0 := time.Unix(1000, 0)
	w := func(id string, pts Points, since int) Waiting {
		return Waiting{Ranked{id, pts}, t0.Add(time.Duration(since) * time.Second)}
	}
	waiting := []Waiting{w("a", 10, 5), w("b", 8, 0), w("c", 6, 1), w("d", 4, 2), w("e", 2, 3), w("f", 0, 30)}
	now := t0.Add(31 * time.Second)
	tables := ArenaSeat(now, waiting, 4, time.Minute, false, History{}, 1)
	if len(tables) != 1 || len(tables[0].Seats) != 4 || slices.Contains(tables[0].Seats, "f") || slices.Contains(tables[0].Seats, "a") {
		t.Errorf("seated %v: want b, c, d, e (the longest waiting), a and f waiting", tables)
	}
	// A minute after e came, a and f are seated too: at a table of 2, or with bots.
	now = t0.Add(66 * time.Second)
	if tables := ArenaSeat(now, waiting, 4, time.Minute, false, History{}, 1); len(tables) != 2 || len(tables[1].Seats) != 2 {
		t.Errorf("after their patience: %v", tables)
	}
	if tables := ArenaSeat(now, waiting, 4, time.Minute, true, History{}, 1); len(tables) != 2 || len(tables[1].Seats) != 4 || tables[1].Bots() != 2 {
		t.Errorf("after their patience, with bots: %v", tables)
	}
	// One alone never plays without bots.
	if tables := ArenaSeat(now, waiting[:1], 4, time.Minute, false, History{}, 1); len(tables) != 0 {
		t.Errorf("one alone seated: %v", tables)
	}
	// Two who just played each other are not seated together again when others are free.
	last := History{}
	last.Add([]string{"b", "c"})
	last.Add([]string{"d", "e"})
	tables = ArenaSeat(now, []Waiting{w("b", 0, 0), w("c", 0, 0), w("d", 0, 0), w("e", 0, 0)}, 2, time.Minute, false, last, 1)
	if Repeats([][]string{tables[0].Seats, tables[1].Seats}, last) != 0 {
		t.Errorf("a rematch at once: %v", tables)
	}
}
