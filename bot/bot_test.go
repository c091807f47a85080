package bot

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/race"
)

// newGame starts a game for the specs' seats whose deck order comes from seed.
func newGame(t testing.TB, players int, seed string) *razzia.Game {
	t.Helper()
	names := make([]string, players)
	for i := range names {
		names[i] = fmt.Sprintf("P%d", i+1)
	}
	g, err := razzia.NewGame(razzia.Setup{Players: names, Seed: []byte(seed)})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// play plays g to the end (or for at most limit moves when limit > 0) with
// one bot per seat built from specs, checking that every move a bot
// chooses is one of the legal moves its view offered, exactly.
func play(t testing.TB, g *razzia.Game, specs []string, seed uint64, limit int) {
	t.Helper()
	bots := make([]Bot, len(specs))
	for i, spec := range specs {
		b, err := New(spec, seed+uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		bots[i] = b
	}
	for n := 0; limit <= 0 || n < limit; n++ {
		st := g.State()
		if st.Over() {
			return
		}
		seat := st.ToMove()
		v := g.View(seat)
		m := bots[seat].Choose(v)
		if !slices.Contains(v.Legal, m) {
			t.Fatalf("%s (seat %d) chose %v, not among the legal moves %v", specs[seat], seat, m, v.Legal)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("%s (seat %d): %v", specs[seat], seat, err)
		}
	}
}

// TestLegalOnly plays many games at every player count with every kind of
// bot at the table and checks each move is legal (R7-R10).
func TestLegalOnly(t *testing.T) {
	t.Parallel() // deterministic searches: on both cores
	kinds := []struct {
		spec  string
		games int // per player count
	}{
		// The cheap bots play many games, so that rare positions come
		// up (and the engine's own random games, 2,500 a player count,
		// cover the rest); a search bot picks only among the moves the engine lists,
		// so a few games per option prove its bookkeeping (its costly
		// playouts made these 80% of the package's time).
		{"random", 100},
		{"heuristic", 100},
		{"easy", 100},
		{"mcts:iters=3", 12},
		{"mcts:iters=20,rollout=random,c=2,cut=none", 8},
		{"mcts:iters=20,workers=2", 4},
		{"flatmc:rounds=1", 4},
		{"flat:samples=2", 4},
	}
	for players := razzia.MinPlayers; players <= razzia.MaxPlayers; players++ {
		for _, k := range kinds {
			t.Run(fmt.Sprintf("%dp/%s", players, k.spec), func(t *testing.T) {
				games := k.games
				if testing.Short() || (race.Enabled && !strings.Contains(k.spec, "workers=")) {
					// A search of one goroutine gives the race detector
					// nothing to watch: a tenth proves the bookkeeping.
					games = max(1, games/10)
				}
				for i := range games {
					// The bot under test sits at a rotating seat among
					// random and heuristic opponents.
					specs := make([]string, players)
					for s := range specs {
						specs[s] = []string{"random", "heuristic"}[(i+s)%2]
					}
					specs[i%players] = k.spec
					g := newGame(t, players, fmt.Sprint("legal", i))
					play(t, g, specs, uint64(i), 0)
					if !g.Over() {
						t.Fatalf("game %d did not end", i)
					}
				}
			})
		}
	}
}

// TestDeterministic checks that a bot's decisions depend only on its seed
// and the views: the same bots replay the same game.
func TestDeterministic(t *testing.T) {
	t.Parallel() // deterministic searches: on both cores
	for _, spec := range []string{"random", "heuristic", "easy", "mcts:iters=10", "mcts:iters=10,workers=3", "mcts:iters=40,crn=1,policy=flat", "mcts:iters=40,crn=1,workers=2", "mcts:iters=40,chance=strat", "mcts:iters=40,tt=1", "mcts:iters=40,widen=1", "flatmc:rounds=2", "flat:samples=2"} {
		t.Run(spec, func(t *testing.T) {
			if !strings.Contains(spec, "workers=") {
				skipUnderRace(t, "a bot of one goroutine")
			}
			specs := []string{spec, spec, spec}
			var records [2][]razzia.Move
			for i := range records {
				g := newGame(t, len(specs), "same deck")
				play(t, g, specs, 42, 0)
				records[i] = g.Moves()
			}
			if !slices.Equal(records[0], records[1]) {
				t.Fatal("the same seeds gave different games")
			}
			g := newGame(t, len(specs), "same deck")
			play(t, g, specs, 43, 0)
			if spec != "heuristic" && slices.Equal(records[0], g.Moves()) {
				t.Error("another seed gave the same game: the seed is not used")
			}
		})
	}
}

// hiddenOrderSpecs are the bots TestHiddenOrder checks, each with a fixed
// budget so that it is deterministic.
var hiddenOrderSpecs = []string{"heuristic", "easy", "mcts:iters=100", "mcts:iters=100,workers=2",
	"mcts:iters=100,rollout=auto", "mcts:iters=100,chance=strat", "mcts:iters=100,tt=1", "mcts:iters=100,mix=0.5", "mcts:iters=300,mix=1", "mcts:iters=100,policy=flat,crn=1,cut=none", "flatmc:rounds=4", "flat:samples=20", "flat:samples=20,cut=round,rollout=light",
	"medium@b971414", "mcts@b971414:iters=100"}

// TestHiddenOrder checks that no bot reads the order of the deck: two
// games with different seeds (deck orders) but the same moves give equal
// views, and every bot makes the same decision in both, at many points of
// a game and at every player count.
func TestHiddenOrder(t *testing.T) {
	t.Parallel() // deterministic searches: on both cores
	skipUnderRace(t, "heuristic bots, one goroutine")
	for players := razzia.MinPlayers; players <= razzia.MaxPlayers; players++ {
		t.Run(fmt.Sprintf("%dp", players), func(t *testing.T) {
			specs := slices.Repeat([]string{"heuristic"}, players)
			g := newGame(t, players, "deck one")
			play(t, g, specs, 1, 0)
			moves := g.Moves()
			differ := false
			for _, at := range []int{5, 20, 41, 60, 90, 130} {
				if at >= len(moves) {
					break
				}
				a, b := newGame(t, players, "deck one"), newGame(t, players, "deck two")
				for _, m := range moves[:at] {
					if err := a.Play(m); err != nil {
						t.Fatal(err)
					}
					if err := b.Play(m); err != nil {
						t.Fatal(err)
					}
				}
				sa := a.State()
				seat := sa.ToMove()
				va, vb := a.View(seat), b.View(seat)
				if !reflect.DeepEqual(va, vb) {
					t.Fatalf("move %d: the views differ", at)
				}
				for _, spec := range hiddenOrderSpecs {
					ma := must(New(spec, 9)).Choose(va)
					mb := must(New(spec, 9)).Choose(vb)
					if ma != mb {
						t.Errorf("move %d: %s decided %v with one deck order and %v with the other", at, spec, ma, mb)
					}
				}
				// The two decks really are in different orders.
				if sa.Phase() == razzia.PhaseTurn && sa.DeckLeft() > 0 {
					for range 3 {
						a.Play(razzia.Draw(razzia.NoKind))
						b.Play(razzia.Draw(razzia.NoKind))
					}
					ca, cb := a.Moves(), b.Moves()
					differ = differ || !slices.Equal(ca[len(ca)-3:], cb[len(cb)-3:])
				}
			}
			if !differ {
				t.Error("the two seeds drew the same cards: the test proves nothing")
			}
		})
	}
}

// TestChooseViewWithoutLegal checks that a bot given a view without its
// legal moves (a caller that built it by hand) still moves legally.
func TestChooseViewWithoutLegal(t *testing.T) {
	for _, spec := range []string{"random", "heuristic", "mcts:iters=10"} {
		t.Run(spec, func(t *testing.T) {
			b, err := New(spec, 1)
			if err != nil {
				t.Fatal(err)
			}
			g := newGame(t, 3, "no legal")
			st := g.State()
			v := g.View(st.ToMove())
			legal := v.Legal
			v.Legal = nil
			if m := b.Choose(v); !slices.Contains(legal, m) {
				t.Errorf("chose %v, not among %v", m, legal)
			}
		})
	}
}
