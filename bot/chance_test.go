package bot

import (
	"math"
	"testing"

	"github.com/razziagame/razzia"
)

// TestStratifiedChance checks chance=strat: a chance node's draws give
// every kind its share of the node's visits, its count in the deck over
// the cards left, within one visit at every point, where sampling the
// deck strays further.
func TestStratifiedChance(t *testing.T) {
	g := newGame(t, 3, "strat")
	st := g.State()
	left := float64(st.DeckLeft())
	worst := func(strat bool) float64 {
		var drawn [numKinds]int
		off := 0.0
		drawChance(t, &st, func(m *MCTS) { m.strat = strat }, 2000, func(n int, k razzia.Kind) {
			drawn[k]++
			for k := range numKinds {
				want := float64(st.Remaining(razzia.Kind(k))) / left * float64(n)
				off = math.Max(off, math.Abs(float64(drawn[k])-want))
			}
		})
		return off
	}
	if off := worst(true); off > 1 {
		t.Errorf("strat: a kind strayed %.2f visits from its share, want at most 1", off)
	}
	if off := worst(false); off <= 1 {
		t.Errorf("sampling stayed within %.2f visits of every share: the test cannot tell strat from it", off)
	}
}

// drawChance visits a chance node of a tree searching st, of a search
// set by set, visits times, and calls drawn with the visit's number and
// the kind it drew, which the deck must hold.
func drawChance(t *testing.T, st *razzia.State, set func(*MCTS), visits int, drawn func(n int, k razzia.Kind)) {
	t.Helper()
	m := NewMCTS(1, 100, 0, 1)
	set(m)
	tr := &tree{}
	tr.reset(m, 7, nil, st.Players())
	tr.expandChance(tr.newNode())
	nd := &tr.nodes[0]
	for n := 1; n <= visits; n++ {
		nd.visits++
		k := tr.drawKind(0, st)
		if st.Remaining(k) == 0 {
			t.Fatalf("drew %v, of which none are left", k)
		}
		drawn(n, k)
	}
}

// TestWidenedChance checks widen=X: a chance node of n visits has drawn
// at most ⌈X·√n⌉ kinds, only kinds the deck still holds, and in the end
// every kind it holds, each about as often as its count in the deck
// says; sampling the deck draws more kinds early, so the bound tells the
// two apart.
func TestWidenedChance(t *testing.T) {
	g := newGame(t, 3, "widen")
	st := g.State()
	left := float64(st.DeckLeft())
	draws := func(widen float64, visits int, check func(n, kinds int)) [numKinds]int {
		var drawn [numKinds]int
		kinds := 0
		drawChance(t, &st, func(m *MCTS) { m.widen = widen }, visits, func(n int, k razzia.Kind) {
			if drawn[k] == 0 {
				kinds++
			}
			drawn[k]++
			check(n, kinds)
		})
		return drawn
	}
	for _, widen := range []float64{0.5, 1, 2} {
		drawn := draws(widen, 20000, func(n, kinds int) {
			if bound := int(math.Ceil(widen * math.Sqrt(float64(n)))); kinds > bound {
				t.Fatalf("widen=%g: %d kinds after %d visits, want at most %d", widen, kinds, n, bound)
			}
		})
		for k := range numKinds {
			c := st.Remaining(razzia.Kind(k))
			if c > 0 && drawn[k] == 0 {
				t.Errorf("widen=%g: %v never drawn in 20,000 visits, %d in the deck", widen, razzia.Kind(k), c)
			}
			// Within 5 standard errors of a binomial and 1% for the early draws' skew.
			p := float64(c) / left
			if off, tol := math.Abs(float64(drawn[k])/20000-p), 5*math.Sqrt(p*(1-p)/20000)+0.01; off > tol {
				t.Errorf("widen=%g: %v drawn %.4f of the time, want %.4f ± %.4f", widen, razzia.Kind(k), float64(drawn[k])/20000, p, tol)
			}
		}
	}
	over := false
	draws(0, 20, func(n, kinds int) { over = over || kinds > int(math.Ceil(math.Sqrt(float64(n)))) })
	if !over {
		t.Error("sampling kept within ⌈√n⌉ kinds: the test cannot tell widen from it")
	}
}
