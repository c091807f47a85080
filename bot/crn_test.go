package bot

import (
	"fmt"
	"testing"

	"github.com/razziagame/razzia"
)

// TestCRNRoot checks the search whose root compares its moves on shared
// deck orders (crn=1): every root move still in the running has had
// every sample, one iteration each, so their visits are equal and the
// dropped moves have fewer; no more iterations run than the budget; and
// it chooses, among the moves in the running, the one of the best mean.
func TestCRNRoot(t *testing.T) {
	t.Parallel() // deterministic searches: on both cores
	skipUnderRace(t, "a search of one goroutine")
	const iters = 800
	decisions, dropped := 0, 0
	for _, players := range []int{2, 4} {
		moves := goldenGame(t, players)
		g := newGame(t, players, "golden")
		for at, m := range moves {
			st := g.State()
			legal := prune(&st, st.LegalMoves(nil))
			if at%7 == 4 && len(legal) > 2 {
				b := must(New(fmt.Sprintf("mcts:iters=%d,crn=1,policy=flat", iters), uint64(at))).(*MCTS)
				got := b.Choose(g.View(st.ToMove()))
				stats := b.trees[0]
				root := stats.nodes[0]
				top, sum := int32(0), 0
				for _, e := range stats.edges[root.first : root.first+int32(root.n)] {
					top = max(top, e.visits)
					sum += int(e.visits)
				}
				if sum > iters || sum != b.Iterations() {
					t.Errorf("%dp move %d: %d root visits, %d iterations, budget %d", players, at, sum, b.Iterations(), iters)
				}
				best, bestMean := razzia.Move{}, -1.0
				for k, e := range stats.edges[root.first : root.first+int32(root.n)] {
					n := len(stats.crnR[k])
					if int(e.visits) != n {
						t.Fatalf("%dp move %d: %v has %d visits and %d samples", players, at, e.move, e.visits, n)
					}
					if e.visits < top {
						dropped++
						if stats.alive[k] {
							t.Errorf("%dp move %d: %v has fewer visits but is in the running", players, at, e.move)
						}
						continue
					}
					if m := float64(e.reward) / float64(e.visits); m > bestMean {
						best, bestMean = e.move, m
					}
				}
				if got != best {
					t.Errorf("%dp move %d: chose %v, the best mean in the running is %v", players, at, got, best)
				}
				decisions++
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d decisions, %d moves dropped", decisions, dropped)
	if decisions < 5 || dropped == 0 {
		t.Errorf("%d decisions, %d moves dropped: the test proves nothing", decisions, dropped)
	}
}
