package arena

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/razziagame/razzia/internal/rating"
)

var ladderPower = flag.Bool("ladder-power", false, "TestLadderPower: print how often the 2-player ladder parts expert from hard, by true win rate and games")

// powerRung is a table of the simulated 2-player ladder: the stronger bot
// wins a game with chance p.
type powerRung struct {
	strong, weak string
	p            float64
	games        int
}

// partedShare simulates the 2-player ladder of seed 3310 (random, easy,
// medium and hard at 200 games a table, their win rates as measured
// there) with a top bot that beats hard with chance p in n games, rates
// each simulated ladder as rate does (deal by deal, the tables in turn),
// and returns in how many of reps ladders the top bot's 95% interval lies
// above hard's, and the median of that gap.
func partedShare(p float64, n, reps int) (share, medianGap float64) {
	m := LadderModel()
	rungs := []powerRung{
		{"easy", "random", 0.968, 200},
		{"medium", "easy", 0.716, 200},
		{"hard", "medium", 0.94, 200},
		{"top", "hard", p, n},
	}
	parted := 0
	gaps := make([]float64, 0, reps)
	for rep := range reps {
		rng := rand.New(rand.NewPCG(uint64(rep), uint64(n)<<20|uint64(p*1e4)))
		r := map[string]rating.Rating{}
		for _, g := range rungs {
			r[g.strong], r[g.weak] = m.New(), m.New()
		}
		most := 0
		for _, g := range rungs {
			most = max(most, g.games)
		}
		for i := range most {
			for _, g := range rungs {
				if i >= g.games {
					continue
				}
				ranks := []int{2, 1}
				if rng.Float64() < g.p {
					ranks = []int{1, 2}
				}
				after, err := m.Rate([]rating.Rating{r[g.strong], r[g.weak]}, ranks)
				if err != nil {
					panic(err)
				}
				r[g.strong], r[g.weak] = after[0], after[1]
			}
		}
		low, _ := r["top"].Interval()
		_, high := r["hard"].Interval()
		if low > high {
			parted++
		}
		gaps = append(gaps, low-high)
	}
	slices.Sort(gaps)
	return float64(parted) / float64(reps), gaps[reps/2]
}

// Two bots of equal strength must almost never be parted, or the
// simulation's figures below would promise what the ladder cannot keep.
func TestLadderPowerEqualBotsStayTogether(t *testing.T) {
	if share, _ := partedShare(0.5, 400, 200); share > 0.05 {
		t.Errorf("equal bots parted in %.1f%% of 200 ladders of 400 games, want at most 5%%", 100*share)
	}
	if share, _ := partedShare(0.95, 400, 200); share < 0.95 {
		t.Errorf("a bot winning 95%% parted in %.1f%% of 200 ladders of 400 games, want at least 95%%", 100*share)
	}
}

// TestLadderPower prints, for a top level that wins a share p of its
// 2-player games against hard, how often n such games part the two on
// the ladder: the games point 2 of the ladder's goal would cost.
//
//	go test ./internal/arena -run TestLadderPower$ -ladder-power -v
func TestLadderPower(t *testing.T) {
	if !*ladderPower {
		t.Skip("prints a table: run with -ladder-power")
	}
	for _, p := range []float64{0.55, 0.60, 0.65, 0.70, 0.75, 0.80} {
		for _, n := range []int{40, 100, 200, 400, 1000, 2000} {
			share, gap := partedShare(p, n, 200)
			fmt.Printf("p=%.2f games=%4d parted in %5.1f%% of 200 ladders, median gap %+5.1f\n", p, n, 100*share, gap)
		}
	}
}
