package razzia

import (
	"fmt"
	"testing"
)

// TestResultsSizedToPlayers: every result has one entry per player, never
// zeros for seats the game does not have, and a round not scored yet has
// no scores at all.
func TestResultsSizedToPlayers(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		t.Run(fmt.Sprintf("%dplayers", n), func(t *testing.T) {
			start, err := NewGame(Setup{Players: []string{"Ann", "Bob", "Cy", "Di", "Ed"}[:n]})
			if err != nil {
				t.Fatal(err)
			}
			s := start.State()
			if got := s.Scores(1); got != nil {
				t.Errorf("at the start Scores(1) = %v, want nil: round 1 is not scored", got)
			}
			if got := len(s.Totals()); got != n {
				t.Errorf("at the start %d totals", got)
			}
			if got := len(s.Projected()); got != n {
				t.Errorf("at the start %d projected scores", got)
			}

			g := playSeeded(t, n, fmt.Appendf(nil, "sized %d", n), uint64(n))
			s = g.State()
			for r := range Rounds + 2 {
				want := n
				if r < 1 || r > Rounds {
					want = 0
				}
				if got := len(s.Scores(r)); got != want {
					t.Errorf("Scores(%d): %d scores, want %d", r, got, want)
				}
			}
			totals := s.Totals()
			if len(totals) != n {
				t.Errorf("Totals: %d for %d players", len(totals), n)
			}
			for seat := -1; seat <= MaxPlayers; seat++ {
				want := 0
				if seat >= 0 && seat < n {
					want = totals[seat]
				}
				if got := s.Total(seat); got != want {
					t.Errorf("Total(%d) = %d, want %d", seat, got, want)
				}
			}
			if got := len(s.Projected()); got != n {
				t.Errorf("Projected: %d for %d players", got, n)
			}
			for _, w := range s.Winners() {
				if w < 0 || w >= n {
					t.Errorf("winner %d is not a seat", w)
				}
			}
			rounds := 0
			for _, e := range g.Events() {
				if e.Kind == EventRoundEnd {
					rounds++
					if len(e.Scores) != n {
						t.Errorf("round %d's end: %d scores", e.Round, len(e.Scores))
					}
				}
			}
			if rounds != Rounds {
				t.Errorf("%d round ends", rounds)
			}
			hold := make([]Holdings, n)
			if got := len(ScoreRound(hold, nil, true)); got != n {
				t.Errorf("ScoreRound: %d scores for %d players", got, n)
			}
		})
	}
	for _, bad := range []int{0, 1, MaxPlayers + 1} {
		if got := ScoreRound(make([]Holdings, bad), nil, false); got != nil {
			t.Errorf("ScoreRound for %d players = %v, want nil", bad, got)
		}
	}
}
