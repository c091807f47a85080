package bot

import (
	"fmt"
	"testing"

	"github.com/razziagame/razzia"
)

// TestSettledChoice checks that a search bounded by iterations, which
// Choose stops once its most visited move can no longer be overtaken,
// chooses the move the whole search would have (Evaluate runs it whole,
// with the same seed), and that it does stop early.
func TestSettledChoice(t *testing.T) {
	t.Parallel() // deterministic searches: on both cores
	skipUnderRace(t, "a search settles only with one worker, one goroutine")
	const iters = 600
	decisions, early, run := 0, 0, 0
	for players := razzia.MinPlayers; players <= razzia.MaxPlayers; players++ {
		moves := goldenGame(t, players)
		g := newGame(t, players, "golden")
		for at, m := range moves {
			st := g.State()
			if at%19 == 5 && len(prune(&st, st.LegalMoves(nil))) > 1 {
				spec := fmt.Sprintf("mcts:iters=%d", iters)
				b := must(New(spec, uint64(at))).(*MCTS)
				got := b.Choose(g.View(st.ToMove()))
				stats, err := must(New(spec, uint64(at))).(*MCTS).Evaluate(t.Context(), &st, razzia.Move{})
				if err != nil {
					t.Fatal(err)
				}
				if got != stats[0].Move {
					t.Errorf("%dp move %d: chose %v after %d iterations, the whole search %v (%v)", players, at, got, b.Iterations(), stats[0].Move, stats)
				}
				decisions++
				run += b.Iterations()
				if b.Iterations() < iters {
					early++
				}
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d decisions, %d stopped early, %.0f%% of the iterations run", decisions, early, 100*float64(run)/float64(decisions*iters))
	if early == 0 {
		t.Error("no search stopped early: the test proves nothing")
	}
}
