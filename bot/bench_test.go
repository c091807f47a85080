package bot

import (
	"testing"

	"github.com/razziagame/razzia"
)

// midGame returns the view of the seat to move in a 4-player game played
// by heuristic bots to the middle of round 2.
func midGame(b *testing.B) razzia.View {
	g := newGame(b, 4, "benchmark")
	specs := []string{"heuristic", "heuristic", "heuristic", "heuristic"}
	for {
		play(b, g, specs, 7, 1)
		st := g.State()
		if st.Round() == 2 && st.Police() >= 3 && st.Phase() == razzia.PhaseTurn {
			return g.View(st.ToMove())
		}
	}
}

// BenchmarkMCTSIterations runs MCTS decisions on a mid-game 4-player
// position and reports iterations per second.
func BenchmarkMCTSIterations(b *testing.B) {
	v := midGame(b)
	m := NewMCTS(1, 1000, 0)
	m.Choose(v) // grow the pools
	iters := 0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m.Choose(v)
		iters += m.Iterations()
	}
	b.ReportMetric(float64(iters)/b.Elapsed().Seconds(), "iters/s")
}

// BenchmarkHeuristicDecision times heuristic decisions over every
// position of a 4-player game where there is a choice.
func BenchmarkHeuristicDecision(b *testing.B) {
	g := newGame(b, 4, "benchmark")
	specs := []string{"heuristic", "heuristic", "heuristic", "heuristic"}
	var views []razzia.View
	for !g.Over() {
		if v := g.View(g.ToMove()); len(v.Legal) > 1 {
			views = append(views, v)
		}
		play(b, g, specs, 7, 1)
	}
	h := NewHeuristic(1)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		h.Choose(views[i])
		i = (i + 1) % len(views)
	}
}
