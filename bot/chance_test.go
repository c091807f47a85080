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
		m := NewMCTS(1, 100, 0, 1)
		m.strat = strat
		tr := &tree{}
		tr.reset(m, 7, nil, st.Players())
		tr.expandChance(tr.newNode())
		nd := &tr.nodes[0]
		var drawn [numKinds]int
		off := 0.0
		for n := 1; n <= 2000; n++ {
			nd.visits++
			k := tr.drawKind(0, &st)
			if st.Remaining(k) == 0 {
				t.Fatalf("drew %v, of which none are left", k)
			}
			drawn[k]++
			for k := range numKinds {
				want := float64(st.Remaining(razzia.Kind(k))) / left * float64(n)
				off = math.Max(off, math.Abs(float64(drawn[k])-want))
			}
		}
		return off
	}
	if off := worst(true); off > 1 {
		t.Errorf("strat: a kind strayed %.2f visits from its share, want at most 1", off)
	}
	if off := worst(false); off <= 1 {
		t.Errorf("sampling stayed within %.2f visits of every share: the test cannot tell strat from it", off)
	}
}
