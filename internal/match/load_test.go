package match_test

import (
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/tutorial"
)

// TestLoadBotLevels: a stored game is run only when each of its bots is
// a level (or the tutorial's): the store is not trusted to name a spec
// that would build any bot (the match's side of the Hub's
// TestStoredBotNotLevel).
func TestLoadBotLevels(t *testing.T) {
	p, _ := pace.Lookup("untimed")
	for _, tc := range []struct {
		name string
		bot  string
		ok   bool
	}{
		{"a level", "easy", true},
		{"the tutorial's bot", tutorial.Bot, true},
		{"a spec", "mcts:iters=1000000000", false},
		{"a program", "exec:/bin/sh", false},
		{"an unknown name", "godlike", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &store.Game{ID: "g1", Status: store.StatusPlaying, Seed: []byte("the seed of the match tests"),
				Seats: []store.Seat{{Name: "Ann"}, {Name: "Bot 1", Bot: tc.bot}}, Created: t0, Updated: t0}
			g.Cheques = razzia.NewSetup(match.PlayerNames(g.Seats), g.Seed).Cheques
			var err error
			if g.Clock, err = match.NewTiming(p, len(g.Seats)); err != nil {
				t.Fatal(err)
			}
			if _, err := match.Load(g); (err == nil) != tc.ok {
				t.Errorf("Load = %v, want loaded %v", err, tc.ok)
			}
		})
	}
}
