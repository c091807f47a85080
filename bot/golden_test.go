package bot

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/razziagame/razzia"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden.json from the bots as they are")

// goldenFile holds the decisions recorded by TestGoldenDecisions.
const goldenFile = "testdata/golden.json"

// goldenSearches are the searches whose every number TestGoldenDecisions
// pins: the default search with two seeds, the variants of its options
// that take other paths through the playouts, and root parallelism.
var goldenSearches = []struct {
	spec string
	seed uint64
}{
	{"mcts:iters=300", 1},
	{"mcts:iters=300", 2},
	{"mcts:iters=200,cut=none", 3},
	{"mcts:iters=200,rollout=random", 4},
	{"mcts:iters=300,workers=2", 5},
	{"mcts:iters=200,bias=0,noise=1", 6},
}

// A goldenPosition is what the bots decided in one position.
type goldenPosition struct {
	Players int    `json:"players"`
	At      int    `json:"at"` // moves played before, in the game of goldenGame
	Phase   string `json:"phase"`
	// Searches has, per goldenSearches entry, the move Choose made and the
	// statistics Evaluate returned (visits and each seat's share, exactly).
	Searches []goldenSearch `json:"searches"`
	FlatMC   razzia.Move    `json:"flatmc"` // flatmc:rounds=3, seed 7
}

type goldenSearch struct {
	Spec   string      `json:"spec"`
	Seed   uint64      `json:"seed"`
	Choice razzia.Move `json:"choice"`
	Stats  []MoveValue `json:"stats"`
}

// goldenRecord is the content of goldenFile.
type goldenRecord struct {
	Positions []goldenPosition `json:"positions"`
	// Games are whole games of heuristic bots (medium, and easy with its
	// noise), by player count, as the moves played.
	Games map[string][]razzia.Move `json:"games"`
}

// goldenGame plays the game the golden positions come from.
func goldenGame(t testing.TB, players int) []razzia.Move {
	g := newGame(t, players, "golden")
	play(t, g, slices.Repeat([]string{"heuristic"}, players), 3, 0)
	return g.Moves()
}

// recordGolden makes every decision goldenFile records, with the bots as
// they are.
func recordGolden(t *testing.T) goldenRecord {
	rec := goldenRecord{Games: map[string][]razzia.Move{}}
	for players := razzia.MinPlayers; players <= razzia.MaxPlayers; players++ {
		moves := goldenGame(t, players)
		g := newGame(t, players, "golden")
		found := 0
		for at, m := range moves {
			st := g.State()
			pruned := prune(&st, st.LegalMoves(nil))
			if at%7 == 3 && len(pruned) > 1 && found < 3 {
				found++
				v := g.View(st.ToMove())
				pos := goldenPosition{Players: players, At: at, Phase: st.Phase().String()}
				for _, gs := range goldenSearches {
					choice := must(New(gs.spec, gs.seed)).Choose(v)
					stats, err := must(New(gs.spec, gs.seed)).(*MCTS).Evaluate(t.Context(), &st, razzia.Move{})
					if err != nil {
						t.Fatal(err)
					}
					pos.Searches = append(pos.Searches, goldenSearch{gs.spec, gs.seed, choice, stats})
				}
				pos.FlatMC = must(New("flatmc:rounds=3", 7)).Choose(v)
				rec.Positions = append(rec.Positions, pos)
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		for _, spec := range []string{"heuristic", "easy"} {
			g := newGame(t, players, "golden games")
			play(t, g, slices.Repeat([]string{spec}, players), 11, 0)
			rec.Games[fmt.Sprintf("%dp/%s", players, spec)] = g.Moves()
		}
	}
	return rec
}

// TestGoldenDecisions checks that the bots make exactly the decisions
// recorded in testdata/golden.json: at positions of every player count,
// the tree search's choice and its statistics (every root move's visits
// and shares, to the last bit) for several options and seeds, flat Monte
// Carlo's choice, and whole games of the heuristic with and without
// noise. Work that makes the bots faster must leave all of them as they
// were; a change meant to alter decisions rewrites the file with
// -update-golden and says so.
func TestGoldenDecisions(t *testing.T) {
	t.Parallel() // deterministic searches: on both cores
	if testing.Short() {
		t.Skip("plays some 150 searches; skipped with -short")
	}
	skipUnderRace(t, "searches of one goroutine but 5 decisions; the parallel search runs under -race in TestDeterministic and TestLegalOnly")
	got := recordGolden(t)
	if *updateGolden {
		data, err := json.MarshalIndent(got, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenFile, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	var want goldenRecord
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if len(got.Positions) != len(want.Positions) {
		t.Fatalf("%d positions, want %d", len(got.Positions), len(want.Positions))
	}
	for i, w := range want.Positions {
		g := got.Positions[i]
		where := fmt.Sprintf("%dp move %d (%s)", w.Players, w.At, w.Phase)
		if g.Players != w.Players || g.At != w.At {
			t.Fatalf("position %d is %dp move %d, want %s", i, g.Players, g.At, where)
		}
		for k, ws := range w.Searches {
			gs := g.Searches[k]
			for i := range gs.Stats {
				gs.Stats[i].Cards = nil // recorded before the statistics by card
			}
			if gs.Choice != ws.Choice {
				t.Errorf("%s: %s seed %d chose %v, want %v", where, ws.Spec, ws.Seed, gs.Choice, ws.Choice)
			}
			if !reflect.DeepEqual(gs.Stats, ws.Stats) {
				t.Errorf("%s: %s seed %d found\n%v\nwant\n%v", where, ws.Spec, ws.Seed, gs.Stats, ws.Stats)
			}
		}
		if g.FlatMC != w.FlatMC {
			t.Errorf("%s: flatmc chose %v, want %v", where, g.FlatMC, w.FlatMC)
		}
	}
	for name, w := range want.Games {
		if g := got.Games[name]; !slices.Equal(g, w) {
			t.Errorf("%s: the game went otherwise (%d moves, want %d)", name, len(g), len(w))
		}
	}
}
