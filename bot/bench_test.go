package bot

import (
	"fmt"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/cputime"
)

// midGame returns the view of the seat to move in a game of players
// played by heuristic bots to the middle of round 2, at a turn.
func midGame(b testing.TB, players int) razzia.View {
	g := newGame(b, players, "benchmark")
	specs := make([]string, players)
	for i := range specs {
		specs[i] = "heuristic"
	}
	for {
		play(b, g, specs, 7, 1)
		st := g.State()
		if st.Round() == 2 && st.Police() >= st.PoliceLimit()/2 && st.Phase() == razzia.PhaseTurn {
			return g.View(st.ToMove())
		}
	}
}

// reportIters reports a search's iterations per second of wall time and,
// where the CPU time is known, per second of CPU time, which a loaded
// machine changes much less.
func reportIters(b *testing.B, iters int, cpu time.Duration) {
	b.ReportMetric(float64(iters)/b.Elapsed().Seconds(), "iters/s")
	if cpu > 0 {
		b.ReportMetric(float64(iters)/cpu.Seconds(), "iters/cpu-s")
	}
}

// BenchmarkMCTSIterations runs MCTS decisions of 1000 iterations on a
// mid-game position of every player count and reports iterations per
// second on one core.
func BenchmarkMCTSIterations(b *testing.B) {
	for players := razzia.MinPlayers; players <= razzia.MaxPlayers; players++ {
		b.Run(fmt.Sprintf("%dp", players), func(b *testing.B) {
			v := midGame(b, players)
			m := NewMCTS(1, 1000, 0, 1)
			m.rollout = rolloutHeuristic // the figures of docs/strength.md
			b.ReportAllocs()
			benchChoose(b, m, v)
		})
	}
}

// benchChoose times m's decisions on v, once the pools have grown, and
// reports its iterations a second.
func benchChoose(b *testing.B, m *MCTS, v razzia.View) {
	m.Choose(v) // grow the pools
	iters := 0
	b.ResetTimer()
	cpu := cputime.Process()
	for b.Loop() {
		m.Choose(v)
		iters += m.Iterations()
	}
	reportIters(b, iters, cputime.Process()-cpu)
}

// BenchmarkMix runs decisions of 1000 iterations of hard's search on a
// mid-game position of 2 players, with the afterstate value mixed in at
// the leaves by 0, half and all (mix=X), and reports the iterations per
// second of CPU: what the value costs, and what leaves without playouts
// save.
func BenchmarkMix(b *testing.B) {
	for _, mix := range []float64{0, 0.5, 1} {
		b.Run(fmt.Sprintf("mix=%g", mix), func(b *testing.B) {
			v := midGame(b, 2)
			m := NewMCTS(1, 1000, 0, 1)
			m.mix = mix
			benchChoose(b, m, v)
		})
	}
}

// BenchmarkLevels times decisions of the search levels, as people play
// them (bounded by time), on a mid-game position of every player count:
// ns/op is the decision time and iters/s the search's speed over all its
// workers.
func BenchmarkLevels(b *testing.B) {
	for _, level := range []string{"hard", "expert"} {
		for players := razzia.MinPlayers; players <= razzia.MaxPlayers; players++ {
			b.Run(fmt.Sprintf("%s/%dp", level, players), func(b *testing.B) { benchSearch(b, level, players) })
		}
	}
}

// BenchmarkPlayouts compares the search's speed with the playouts cut at
// the round's end by the value function and with the yardstick's policy
// played to the game's end (policy=flat,cut=none), bounded by
// iterations, on a mid-game position of every player count: iters/cpu-s
// gives the iterations a level's time buys with each.
func BenchmarkPlayouts(b *testing.B) {
	for _, spec := range []string{"mcts:iters=4000,rollout=auto", "mcts:iters=4000,rollout=auto,policy=flat,cut=none"} {
		for players := razzia.MinPlayers; players <= razzia.MaxPlayers; players++ {
			b.Run(fmt.Sprintf("%s/%dp", spec, players), func(b *testing.B) { benchSearch(b, spec, players) })
		}
	}
}

// benchSearch times the decisions of the search spec names on a mid-game
// position of players seats, and reports its iterations a CPU-second.
func benchSearch(b *testing.B, spec string, players int) {
	v := midGame(b, players)
	m := must(New(spec, 1)).(*MCTS)
	iters := 0
	cpu := cputime.Process()
	for b.Loop() {
		m.Choose(v)
		iters += m.Iterations()
	}
	reportIters(b, iters, cputime.Process()-cpu)
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
