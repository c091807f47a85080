package bot

import (
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/razziagame/razzia"
)

var loneSearch = flag.Int("lone-search", 0, "TestLonePlayoutValue: also play the lone seat's round by the search this many times (minutes)")

// loneGame returns the position after move 47 of game 1 of arena seed
// 3501 (expert against hard): expert has just won the row with its last
// face-up cheque, and hard, to move, is alone for the rest of round 1.
func loneGame(t *testing.T) razzia.State {
	f, err := os.Open("testdata/lone-3501-1.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := razzia.ReadRecord(f)
	if err != nil {
		t.Fatal(err)
	}
	r.Moves = r.Moves[:47]
	g, err := r.Game()
	if err != nil {
		t.Fatal(err)
	}
	return g.State()
}

// TestLonePlayoutValue checks the playouts' worth of a seat left alone
// (R13) right after its rival won the row with its last cheque: the
// yardstick's policy, which the levels' playouts follow, must play it
// alone (drawing on to fuller rows) and value it near what the search
// makes of it. Read as a rival's standing bid, the last auction's high
// bid made the policy call at once with a card or two in the row, and its
// playouts gave the seat 0.729 of a win where playing the round by the
// search (4,000 iterations a decision, then the policy) gives 0.837 ±
// 0.058 (150 runs; -lone-search 150 runs them again); played alone, 0.828.
func TestLonePlayoutValue(t *testing.T) {
	s0 := loneGame(t)
	const hard = 1
	if s0.ToMove() != hard {
		t.Fatalf("seat %d to move, want hard (seat 1)", s0.ToMove())
	}
	if !alone(&s0, false) {
		t.Errorf("hard, the only seat with face-up cheques, is not alone")
	}
	rng := newRand(3501)
	p := playout{w: &flatWeights, rng: rng, noise: 2, rollout: rolloutHeuristic}
	var sum, sq float64
	const n = 10000
	for range n {
		st := s0
		p.run(&st)
		_, share := rewards(&st)
		x := float64(share[hard])
		sum, sq = sum+x, sq+x*x
	}
	mean := sum / n
	se := math.Sqrt((sq/n - mean*mean) / n)
	t.Logf("the policy's playouts: hard's win share %.3f ± %.3f", mean, 1.96*se)
	if mean < 0.79 {
		t.Errorf("the policy's playouts give the lone seat %.3f ± %.3f of a win, want about 0.83: it does not play alone", mean, 1.96*se)
	}
	if *loneSearch > 0 {
		m, ci := searchedRound(s0, hard, *loneSearch, rng)
		t.Logf("the round by the search, then the policy: hard's win share %.3f ± %.3f (%d runs)", m, ci, *loneSearch)
	}
}

// searchedRound plays s0's round runs times with every decision by a
// 4,000-iteration search, then the rest of the game by the policy, and
// returns seat's mean win share and its 95% interval.
func searchedRound(s0 razzia.State, seat, runs int, rng *rand.Rand) (mean, ci float64) {
	var sum, sq float64
	for i := range runs {
		st, m := s0, NewMCTS(uint64(i)+7, 4000, 0, 1)
		for !st.Over() && st.Round() == s0.Round() {
			legal := st.LegalMoves(nil)
			mv := legal[0]
			if len(legal) > 1 {
				mv = m.Choose(razzia.View{Seat: st.ToMove(), State: st, Legal: legal})
			}
			if mv.Action == razzia.ActionDraw && mv.Card == razzia.NoKind {
				mv.Card = st.RandomCard(rng)
			}
			st.Apply(mv)
		}
		p := playout{w: &flatWeights, rng: rng, noise: 2, rollout: rolloutHeuristic}
		p.run(&st)
		_, share := rewards(&st)
		x := float64(share[seat])
		sum, sq = sum+x, sq+x*x
	}
	n := float64(runs)
	mean = sum / n
	return mean, 1.96 * math.Sqrt((sq/n-mean*mean)/n)
}
