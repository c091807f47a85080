package bot

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/razziagame/razzia"
)

// TestAutoRollout checks that rollout=auto searches exactly as
// rollout=heuristic below AutoLightPlayers players, or the table size
// light=N names, and as rollout=light from there on, and that the two
// policies search differently.
func TestAutoRollout(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		auto string
		from int
	}{
		{"auto", AutoLightPlayers},
		{"auto,light=5", 5},
		{"auto,light=6", 6},
	} {
		for players := razzia.MinPlayers; players <= razzia.MaxPlayers; players++ {
			t.Run(fmt.Sprintf("%s/%dp", tt.auto, players), func(t *testing.T) {
				want, other := "heuristic", "light"
				if players >= tt.from {
					want, other = other, want
				}
				v := midGame(t, players)
				search := func(rollout string) []MoveValue {
					m := must(New("mcts:iters=300,rollout="+rollout, 3)).(*MCTS)
					stats, err := m.Evaluate(context.Background(), &v.State, razzia.Move{})
					if err != nil {
						t.Fatal(err)
					}
					return stats
				}
				auto := search(tt.auto)
				if !reflect.DeepEqual(auto, search(want)) {
					t.Errorf("rollout=%s searched unlike rollout=%s", tt.auto, want)
				}
				if reflect.DeepEqual(auto, search(other)) {
					t.Errorf("rollout=%s searched like rollout=%s: the test cannot tell them apart", other, want)
				}
			})
		}
	}
}
