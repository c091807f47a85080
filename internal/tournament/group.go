package tournament

import (
	"cmp"
	"math/rand/v2"
	"slices"
)

// A History counts how often two people sat at one table.
type History map[[2]string]int

func pair(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// Add counts the people of one table as having met each other; bots
// (empty ids) are not counted.
func (h History) Add(seats []string) {
	for i, a := range seats {
		for _, b := range seats[i+1:] {
			if a != "" && b != "" && a != b {
				h[pair(a, b)]++
			}
		}
	}
}

// Met returns how often a and b sat at one table.
func (h History) Met(a, b string) int { return h[pair(a, b)] }

// A Ranked is a person to seat, with the points they have so far.
type Ranked struct {
	ID     string
	Points Points
}

// repeatCost outweighs any difference of points a grouping can make, so
// that a table of people who met before is only ever chosen when no
// grouping avoids it.
const repeatCost = int64(1) << 40

// kicks bounds the changes Group tries when the first grouping, improved,
// still repeats a meeting.
const kicks = 400

// Group seats people, listed best first, at tables of the given sizes
// (largest first, as Sizes returns them) and returns the indexes of each
// table's people, best first; the tables keep the order of sizes, those of
// one size in the order of their best.
//
// The tables are filled in order of standing, the best at the first
// table, and then improved by swapping two people of different tables
// while a swap lowers the cost: every earlier meeting of two people at one
// table costs more than any spread of points can, and otherwise the cost
// is the sum, over the tables, of the differences of points between
// every two of their people. So people sit with those of their own score
// unless that would repeat a meeting another grouping avoids. When the
// improved grouping still repeats meetings, Group moves someone who met
// an opponent before to another table (drawn from seed), improves again,
// and keeps the result when it costs no more, a few hundred times at
// most: the same arguments always give the same tables.
func Group(people []Ranked, sizes []int, met History, seed uint64) [][]int {
	n := len(people)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	g := newGrouping(people, sizes, met)
	best := g.solve(order)
	if g.repeats(best) > 0 && len(best) > 1 {
		// Iterated local search on the meetings alone: kick someone who
		// meets an old opponent to another table, improve, keep what
		// repeats no more; then bring back the points.
		r := rand.New(rand.NewPCG(seed, uint64(n)))
		g.meetingsOnly = true
		cur, found := clone2(best), clone2(best)
		for range kicks {
			next := clone2(cur)
			g.kick(next, r)
			g.climb(next)
			if g.cost(next) <= g.cost(cur) {
				cur = next
				if g.cost(cur) < g.cost(found) {
					found = clone2(cur)
				}
			}
			if g.repeats(found) == 0 {
				break
			}
		}
		g.meetingsOnly = false
		g.climb(found)
		if g.cost(found) < g.cost(best) {
			best = found
		}
	}
	for _, t := range best {
		slices.Sort(t)
	}
	slices.SortStableFunc(best, func(a, b []int) int { return cmp.Or(len(b)-len(a), a[0]-b[0]) })
	return best
}

type grouping struct {
	people []Ranked
	sizes  []int
	met    History
	// meetingsOnly leaves the points out of the cost.
	meetingsOnly bool
}

func newGrouping(people []Ranked, sizes []int, met History) *grouping {
	return &grouping{people: people, sizes: sizes, met: met}
}

// solve fills the tables with the people in order, then swaps to a local
// minimum of the cost.
func (g *grouping) solve(order []int) [][]int {
	tables := make([][]int, len(g.sizes))
	k := 0
	for t, s := range g.sizes {
		tables[t] = slices.Clone(order[k : k+s])
		k += s
	}
	g.climb(tables)
	return tables
}

// climb swaps people between tables while a swap lowers the cost.
func (g *grouping) climb(tables [][]int) {
	for pass := 0; pass < 100; pass++ {
		improved := false
		for a := range tables {
			for b := a + 1; b < len(tables); b++ {
				for i := range tables[a] {
					for j := range tables[b] {
						if g.swapGain(tables[a], tables[b], i, j) > 0 {
							tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
							improved = true
						}
					}
				}
			}
		}
		if !improved {
			return
		}
	}
}

// kick swaps someone who met an opponent at their table before with
// someone at another table, both drawn from r.
func (g *grouping) kick(tables [][]int, r *rand.Rand) {
	type at struct{ t, i int }
	var bad []at
	for t, tb := range tables {
		for i, a := range tb {
			for _, b := range tb {
				if a != b && g.met.Met(g.people[a].ID, g.people[b].ID) > 0 {
					bad = append(bad, at{t, i})
					break
				}
			}
		}
	}
	if len(bad) == 0 {
		return
	}
	x := bad[r.IntN(len(bad))]
	t := r.IntN(len(tables) - 1)
	if t >= x.t {
		t++
	}
	j := r.IntN(len(tables[t]))
	tables[x.t][x.i], tables[t][j] = tables[t][j], tables[x.t][x.i]
}

func clone2(t [][]int) [][]int {
	out := make([][]int, len(t))
	for i := range t {
		out[i] = slices.Clone(t[i])
	}
	return out
}

// swapGain is how much the cost falls when ta[i] and tb[j] change tables.
func (g *grouping) swapGain(ta, tb []int, i, j int) int64 {
	x, y := ta[i], tb[j]
	var before, after int64
	for k, p := range ta {
		if k != i {
			before += g.pairCost(x, p)
			after += g.pairCost(y, p)
		}
	}
	for k, p := range tb {
		if k != j {
			before += g.pairCost(y, p)
			after += g.pairCost(x, p)
		}
	}
	return before - after
}

func (g *grouping) pairCost(a, b int) int64 {
	pa, pb := g.people[a], g.people[b]
	d := int64(pa.Points - pb.Points)
	if d < 0 {
		d = -d
	}
	if g.meetingsOnly {
		d = 0
	}
	return d + repeatCost*int64(g.met.Met(pa.ID, pb.ID))
}

func (g *grouping) cost(tables [][]int) int64 {
	var c int64
	for _, t := range tables {
		for i, a := range t {
			for _, b := range t[i+1:] {
				c += g.pairCost(a, b)
			}
		}
	}
	return c
}

func (g *grouping) repeats(tables [][]int) int {
	n := 0
	for _, t := range tables {
		for i, a := range t {
			for _, b := range t[i+1:] {
				n += g.met.Met(g.people[a].ID, g.people[b].ID)
			}
		}
	}
	return n
}

// Repeats returns how many meetings of people who met before (counted
// as often as they met) the tables of ids hold.
func Repeats(tables [][]string, met History) int {
	n := 0
	for _, t := range tables {
		for i, a := range t {
			for _, b := range t[i+1:] {
				if a != "" && b != "" {
					n += met.Met(a, b)
				}
			}
		}
	}
	return n
}
