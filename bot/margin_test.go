package bot

import (
	"context"
	"math"
	"testing"
)

// TestMarginWeight checks margin=X: with no weight a search's rewards are
// the shares of the win, so each root move's mean reward is the mover's
// share; with the default weight the margin moves it.
func TestMarginWeight(t *testing.T) {
	g := newGame(t, 2, "margin")
	st := g.State()
	me := st.ToMove()
	for _, margin := range []float64{0, marginWeight} {
		m := NewMCTS(3, 400, 0, 1)
		m.margin = margin
		stats := m.search(context.Background(), &st, st.LegalMoves(nil), -1, false)
		worst := 0.0
		for i, s := range stats {
			worst = math.Max(worst, math.Abs(m.means[i]-s.Share[me]))
		}
		if same := worst < 1e-6; same != (margin == 0) {
			t.Errorf("margin=%g: the mean rewards are %g at most from the shares of the win", margin, worst)
		}
	}
}
