package bot

import (
	"context"
	"math"
	"testing"

	"github.com/razziagame/razzia"
)

// TestAfterValueHeldOut checks the embedded afterstate value on games it
// was not fitted to: in every round and at every table size it predicts
// the winners better than knowing nothing does, by more than chance could
// give a table of zeros, and its estimates are chances that sum to one.
func TestAfterValueHeldOut(t *testing.T) {
	for players := razzia.MinPlayers; players <= razzia.MaxPlayers; players++ {
		x, share := afterSamples(players, 300, 9000+uint64(players))
		for r := range x {
			w := &trainedAfter[players-razzia.MinPlayers][r]
			loss, n := 0.0, len(share[r])/players
			for s := range n {
				var score [razzia.MaxPlayers]float64
				top := math.Inf(-1)
				for p := range players {
					f := x[r][(s*players+p)*numAfter:]
					for i := range numAfter {
						score[p] += w[i] * f[i]
					}
					top = max(top, score[p])
				}
				v := softmax(players, &score, top)
				sum := 0.0
				for p := range players {
					sum += float64(v[p])
					loss -= share[r][s*players+p] * math.Log(max(1e-9, float64(v[p])))
				}
				if math.Abs(sum-1) > 1e-5 {
					t.Fatalf("%d players, round %d: the chances sum to %g", players, r+1, sum)
				}
			}
			loss /= float64(n)
			// The first round's estimates can know little; the later
			// rounds' must know much more.
			want := []float64{0.97, 0.85, 0.7}[r] * math.Log(float64(players))
			if loss > want {
				t.Errorf("%d players, round %d: log loss %.4f on %d held-out positions, want at most %.4f (%.4f knowing nothing)",
					players, r+1, loss, n, want, math.Log(float64(players)))
			}
		}
	}
}

// TestAfterMix checks mix=X: with mix=1 a leaf's reward is the afterstate
// value alone, so a root move visited once is worth, to the mover, what
// the value gives the position after it.
func TestAfterMix(t *testing.T) {
	g := newGame(t, 3, "after-mix")
	h := NewHeuristic(1)
	for st := g.State(); st.Phase() != razzia.PhaseAuction || len(st.LegalMoves(nil)) < 3; st = g.State() {
		if g.Over() {
			t.Fatal("no auction with three moves or more")
		}
		v := g.View(g.ToMove())
		if err := g.Play(h.Choose(v)); err != nil {
			t.Fatal(err)
		}
	}
	st := g.State()
	me, legal := st.ToMove(), st.LegalMoves(nil)
	for _, mix := range []float64{0, 1} {
		m := NewMCTS(5, len(legal), 0, 1)
		m.mix = mix
		m.search(context.Background(), &st, legal, -1, false)
		var j judge
		worst := 0.0
		for i, mv := range legal {
			after := st
			after.Apply(mv)
			v := afterValue(&after, &j, m.w, &trainedAfter)
			worst = math.Max(worst, math.Abs(m.means[i]-float64(v[me])))
		}
		if same := worst < 1e-6; same != (mix == 1) {
			t.Errorf("mix=%g: the root moves' rewards are %g at most from the afterstate values", mix, worst)
		}
	}
}
