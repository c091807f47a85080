package frozen

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/razziagame/razzia"
)

// A recordedGame is a game played at b971414 and the decisions the bots of
// that commit made in it: at move At (the number of moves played before),
// the bot built from Spec with Seed, fresh, chose Move for the seat to move.
type recordedGame struct {
	Players   []string `json:"players"`
	Cheques   [][]int  `json:"cheques"`
	Moves     []string `json:"moves"`
	Decisions []struct {
		At   int    `json:"at"`
		Spec string `json:"spec"` // "heuristic" or "mcts:iters=6000", as named at b971414
		Seed uint64 `json:"seed"`
		Move string `json:"move"`
	} `json:"decisions"`
}

// TestDecisions replays decisions recorded from the code of commit b971414
// (8 games of 2 to 5 players, 1589 heuristic and 317 tree search
// decisions): the same seed and the same view must give the same move.
// Every heuristic decision is replayed and a quarter of the tree search
// ones (each costs 6,000 playouts; a change of the engine that the frozen
// code depends on shows in many decisions, not in one). The tree search is run without its 500ms limit, which at b971414 it
// never reached on an idle machine but would under the race detector.
func TestDecisions(t *testing.T) {
	if raceEnabled {
		t.Skip("SKIPPED under -race: the frozen bots run in one goroutine, so the race detector has nothing to watch; the decisions were replayed in full without -race")
	}
	data, err := os.ReadFile("testdata/b971414.json")
	if err != nil {
		t.Fatal(err)
	}
	var games []recordedGame
	if err := json.Unmarshal(data, &games); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	checked := map[string]int{}
	// The games in parallel, on both cores; the count once all are done.
	t.Run("games", func(t *testing.T) {
		for gi, rg := range games {
			t.Run(fmt.Sprint(gi+1), func(t *testing.T) {
				t.Parallel()
				n := replay(t, gi, rg)
				mu.Lock()
				defer mu.Unlock()
				for spec, k := range n {
					checked[spec] += k
				}
			})
		}
	})
	if checked["heuristic"] < 1000 || checked["mcts:iters=6000"] < 50 {
		t.Errorf("checked %v: the recording is incomplete", checked)
	}
}

// replay replays the decisions of the recorded game number gi (from 0)
// and returns how many of each spec it checked.
func replay(t *testing.T, gi int, rg recordedGame) map[string]int {
	checked := map[string]int{}
	g, err := razzia.NewGame(razzia.Setup{Players: rg.Players, Cheques: rg.Cheques})
	if err != nil {
		t.Fatal(err)
	}
	next := 0
	for at, tok := range rg.Moves {
		for ; next < len(rg.Decisions) && rg.Decisions[next].At == at; next++ {
			d := rg.Decisions[next]
			if d.Spec != "heuristic" && next%4 != 0 {
				continue
			}
			st := g.State()
			v := g.View(st.ToMove())
			var m razzia.Move
			switch d.Spec {
			case "heuristic":
				m = NewHeuristic(d.Seed).Choose(v)
			case "mcts:iters=6000":
				m = NewMCTS(d.Seed, 6000, 0).Choose(v)
			default:
				t.Fatalf("game %d: unknown spec %q", gi+1, d.Spec)
			}
			if m.String() != d.Move {
				t.Errorf("game %d, move %d: %s with seed %d chose %v; at b971414 it chose %s",
					gi+1, at+1, d.Spec, d.Seed, m, d.Move)
			}
			checked[d.Spec]++
		}
		if err := g.PlayToken(tok); err != nil {
			t.Fatalf("game %d, move %d: %v", gi+1, at+1, err)
		}
	}
	return checked
}
