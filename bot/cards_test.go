package bot

import (
	"context"
	"math"
	"testing"

	"github.com/razziagame/razzia"
)

// TestDrawCards checks the statistics by card of a search's draw: their
// visits sum to the draw's, each kind came about as often as its share of
// the undrawn cards (and a kind with none left never), and the draw's
// value is their mean.
func TestDrawCards(t *testing.T) {
	tests := []struct {
		name    string
		players int
		workers int
	}{
		{"2p", 2, 1},
		{"4p two workers", 4, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := midGame(t, tt.players)
			s := &v.State
			b := NewMCTS(3, 4000, 0, tt.workers)
			stats, err := b.Evaluate(context.Background(), s, razzia.Draw(razzia.NoKind))
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, mv := range stats {
				if mv.Move.Action != razzia.ActionDraw {
					if mv.Cards != nil {
						t.Errorf("%v has statistics by card", mv.Move)
					}
					continue
				}
				found = true
				visits := 0
				var mean [razzia.MaxPlayers]float64
				for k, c := range mv.Cards {
					visits += c.Visits
					for p := range mean {
						mean[p] += c.Share[p] * float64(c.Visits)
					}
					want := float64(mv.Visits) * float64(s.Remaining(razzia.Kind(k))) / float64(s.DeckLeft())
					if math.Abs(float64(c.Visits)-want) > 4*math.Sqrt(want)+1 {
						t.Errorf("%v came %d times in %d draws, want about %.0f", razzia.Kind(k), c.Visits, mv.Visits, want)
					}
				}
				if visits != mv.Visits {
					t.Errorf("the cards have %d visits, the draw %d", visits, mv.Visits)
				}
				for p := range tt.players {
					if d := mean[p]/float64(visits) - mv.Share[p]; math.Abs(d) > 1e-9 {
						t.Errorf("seat %d: the cards' mean share is %v off the draw's", p, d)
					}
				}
			}
			if !found {
				t.Fatal("no draw among the moves")
			}
		})
	}
}
