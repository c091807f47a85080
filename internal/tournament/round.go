package tournament

import (
	"math/rand/v2"
	"slices"
	"time"
)

// A Table is one table of a round: who sits in each seat, in seat order,
// "" for a seat a bot fills; and, in a duplicate round, the deal it plays.
type Table struct {
	Seats []string
	// Deal names the deal of a duplicate table: round*10 + table size,
	// so that the tables of one size in a round share it; 0 otherwise.
	Deal int
}

// People returns the ids of the table's people, bots left out.
func (t Table) People() []string {
	var out []string
	for _, s := range t.Seats {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Bots returns how many seats of the table bots fill.
func (t Table) Bots() int { return len(t.Seats) - len(t.People()) }

// spread returns the people's count at each of t tables, as evenly as
// possible, largest first.
func spread(n, t int) []int {
	out := make([]int, t)
	for i := range out {
		out[i] = n / t
		if i < n%t {
			out[i]++
		}
	}
	return out
}

// SwissRound seats a round of a Swiss tournament: people listed best
// first (by the standings so far, or in any fair order for the first
// round), at tables of size (Sizes), or, with fill, at full tables of
// size where bots take the seats the people leave (Filled). The people of
// a table are grouped as Group does and seated in an order drawn from
// seed, so nobody is always first to play.
func SwissRound(people []Ranked, size int, fill bool, met History, seed uint64) ([]Table, error) {
	sizes, seats, err := layout(len(people), size, fill)
	if err != nil {
		return nil, err
	}
	groups := Group(people, sizes, met, seed)
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]Table, len(groups))
	for t, g := range groups {
		s := make([]string, seats[t])
		for i, p := range g {
			s[i] = people[p].ID
		}
		r.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
		out[t] = Table{Seats: s}
	}
	return out, nil
}

// layout returns how many people sit at each table and how many seats
// each table has.
func layout(n, size int, fill bool) (people, seats []int, err error) {
	if !fill {
		s, err := Sizes(n, size)
		return s, s, err
	}
	t, _, err := Filled(n, size)
	if err != nil {
		return nil, nil, err
	}
	seats = make([]int, t)
	for i := range seats {
		seats[i] = size
	}
	return spread(n, t), seats, nil
}

// DuplicateSizes returns the tables of a duplicate round of n people at
// tables of size: how many people and how many seats each has. Every
// deal must be played at two tables at least, so that each result has
// another to be compared with: the sizes are those of Sizes, except that
// when a size would have a single table, the tables are those of Filled,
// all of size with bots in the seats left (and one table of everyone
// becomes two).
// Bots never take the same seat of a deal at every table, so people hold
// every seat; that needs n to be size at least.
func DuplicateSizes(n, size int) (people, seats []int, err error) {
	s, err := Sizes(n, size)
	if err != nil {
		return nil, nil, err
	}
	if n < size {
		return nil, nil, ErrTooFew
	}
	lone := len(s) == 1
	for _, x := range s {
		if count(s, x) == 1 {
			lone = true
		}
	}
	if !lone {
		return s, s, nil
	}
	t := max((n+size-1)/size, 2)
	seats = make([]int, t)
	for i := range seats {
		seats[i] = size
	}
	return spread(n, t), seats, nil
}

func count(s []int, x int) int {
	n := 0
	for _, y := range s {
		if y == x {
			n++
		}
	}
	return n
}

// SeatCounts counts, by person, how often they held each seat (from 0)
// of a duplicate deal.
type SeatCounts map[string][]int

// Add counts the seats of one table.
func (c SeatCounts) Add(seats []string) {
	for i, id := range seats {
		if id == "" {
			continue
		}
		for len(c[id]) <= i {
			c[id] = append(c[id], 0)
		}
		c[id][i]++
	}
}

func (c SeatCounts) held(id string, seat int) int {
	if seat < len(c[id]) {
		return c[id][seat]
	}
	return 0
}

// DuplicateRound seats round (from 1) of a duplicate tournament: the
// tables of DuplicateSizes, the people grouped as Group does, and every
// table of one size playing the deal round*10 + size. Bots take seats
// from the last one backwards (one seat further each round), each bot of
// the round at the next seat, so that no seat of a deal is a bot's at
// every table; and each person takes, among the seats left, the one they
// held least so far (counts), so that over the rounds everyone plays from
// every seat.
func DuplicateRound(people []Ranked, size, round int, met History, counts SeatCounts, seed uint64) ([]Table, error) {
	sizes, seats, err := DuplicateSizes(len(people), size)
	if err != nil {
		return nil, err
	}
	groups := Group(people, sizes, met, seed)
	out := make([]Table, len(groups))
	bot := map[int]int{} // by table size, the next seat a bot takes, from the last
	for t, g := range groups {
		n := seats[t]
		s := make([]string, n)
		free := make([]bool, n)
		for i := range free {
			free[i] = true
		}
		for range n - len(g) {
			i := n - 1 - (bot[n]+round-1)%n
			bot[n]++
			free[i] = false
		}
		ids := make([]string, len(g))
		for i, p := range g {
			ids[i] = people[p].ID
		}
		placeLeastHeld(s, free, ids, counts)
		out[t] = Table{Seats: s, Deal: round*10 + n}
	}
	return out, nil
}

// placeLeastHeld puts ids into the free seats of s so that the sum of how
// often each held their seat before is least; among equal sums the first
// found in seat order wins, so the result is deterministic.
func placeLeastHeld(s []string, free []bool, ids []string, counts SeatCounts) {
	var open []int
	for i, f := range free {
		if f {
			open = append(open, i)
		}
	}
	best, bestCost := []int(nil), -1
	perm := slices.Clone(open)
	var try func(k, cost int)
	try = func(k, cost int) {
		if bestCost >= 0 && cost >= bestCost {
			return
		}
		if k == len(ids) {
			best, bestCost = slices.Clone(perm), cost
			return
		}
		for i := k; i < len(perm); i++ {
			perm[k], perm[i] = perm[i], perm[k]
			try(k+1, cost+counts.held(ids[k], perm[k]))
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	try(0, 0)
	for k, id := range ids {
		s[best[k]] = id
	}
}

// A Waiting is a person of an arena free to play: their points so far and
// since when they wait.
type Waiting struct {
	Ranked
	Since time.Time
}

// ArenaSeat returns the tables to seat now in an arena, from the people
// waiting, best first. Those who waited longest are seated first, at
// tables of size, grouped as Group does with last, the people each met in
// their last game, so that nobody meets the same opponent twice in a row
// when others are free. The few left (fewer than size) wait for others to
// finish; once the first of them has waited patience, they are seated
// too: at a smaller table, or alone with bots when fill is set. A single
// person left waits on when fill is not set. Seat order is drawn from
// seed.
func ArenaSeat(now time.Time, waiting []Waiting, size int, patience time.Duration, fill bool, last History, seed uint64) []Table {
	if size < MinTable || size > MaxTable || len(waiting) == 0 {
		return nil
	}
	byWait := slices.Clone(waiting)
	slices.SortStableFunc(byWait, func(a, b Waiting) int { return a.Since.Compare(b.Since) })
	full := len(byWait) / size * size
	seatLeft := len(byWait) > full && !now.Before(byWait[full].Since.Add(patience))
	if seatLeft {
		// Everyone waiting; patience counts from the longest wait of those left.
		if n := len(byWait) - full; n < MinTable && !fill {
			seatLeft = false
		}
	}
	// The last to come wait, unless the longest waiting of them waited long enough.
	seated := byWait[:full]
	if seatLeft {
		seated = byWait
	}
	in := map[string]bool{}
	for _, w := range seated {
		in[w.ID] = true
	}
	var people []Ranked
	for _, w := range waiting {
		if in[w.ID] {
			people = append(people, w.Ranked)
		}
	}
	if len(people) == 0 {
		return nil
	}
	sizes, seats := make([]int, full/size), make([]int, full/size)
	for i := range sizes {
		sizes[i], seats[i] = size, size
	}
	if left := len(people) - full; left > 0 {
		sizes = append(sizes, left)
		if fill {
			seats = append(seats, size)
		} else {
			seats = append(seats, left)
		}
	}
	groups := Group(people, sizes, last, seed)
	r := rand.New(rand.NewPCG(seed, 2))
	out := make([]Table, len(groups))
	for t, g := range groups {
		s := make([]string, seatsFor(seats, sizes, len(g)))
		for i, p := range g {
			s[i] = people[p].ID
		}
		r.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
		out[t] = Table{Seats: s}
	}
	return out
}

// seatsFor returns the seats of the table whose people number n.
func seatsFor(seats, sizes []int, n int) int {
	for i, s := range sizes {
		if s == n {
			return seats[i]
		}
	}
	return n
}
