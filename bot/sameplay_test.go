package bot

import (
	"slices"
	"testing"

	"github.com/razziagame/razzia"
)

// TestSamePlay: two specs play alike at a table size when they are the
// same, or differ only in what they do at other sizes; anything else
// that changes a choice, or a spec that does not parse, tells them apart.
func TestSamePlay(t *testing.T) {
	const (
		search = "mcts:iters=300/200/100/50,workers=1,rollout=auto,policy=flat,cut=none"
		at4    = "mcts:iters=300/200/70/50,workers=1,rollout=auto,light=5,policy=flat,cut=none"
	)
	tests := []struct {
		name    string
		a, b    string
		players int
		want    bool
	}{
		{"the same spec", search, search, 4, true},
		{"another size's iterations and light playouts, at 2 players", search, at4, 2, true},
		{"the same at 3", search, at4, 3, true},
		{"the same at 5, light for both", search, at4, 5, true},
		{"at 4, where they differ", search, at4, 4, false},
		{"one budget for all against the same by size", "mcts:iters=300,workers=1", "mcts:iters=300/300/300/300,workers=1", 3, true},
		{"mix by size, at a size where it is the one value", "mcts:iters=300,mix=0.5/0.5/0/0", "mcts:iters=300,mix=0.5", 3, true},
		{"mix by size, at a size where it is none", "mcts:iters=300,mix=0.5/0.5/0/0", "mcts:iters=300", 4, true},
		{"mix by size, where it differs", "mcts:iters=300,mix=0.5/0.5/0/0", "mcts:iters=300,mix=0.5", 4, false},
		{"noise by size", "mcts:iters=300,noise=2/2/3/3", "mcts:iters=300,noise=3", 5, true},
		{"noise by size, where it differs", "mcts:iters=300,noise=2/2/3/3", "mcts:iters=300,noise=3", 2, false},
		{"options in another order", "mcts:iters=300,c=0.7", "mcts:c=0.7,iters=300", 2, true},
		{"another exploration constant", "mcts:iters=300,c=0.7", "mcts:iters=300,c=0.4", 2, false},
		{"another weight of the policy", "mcts:iters=300", "mcts:iters=300,raid=0.9", 2, false},
		{"time against iterations", "mcts:iters=300", "mcts:iters=300,time=1s", 2, false},
		{"light playouts cut or not", "mcts:iters=300,rollout=light", "mcts:iters=300,rollout=light,cut=none", 2, true},
		{"heuristic playouts cut or not", "mcts:iters=300", "mcts:iters=300,cut=none", 2, false},
		{"a heuristic's default noise spelt out", "heuristic", "heuristic:noise=0", 2, true},
		{"a heuristic's noise", "heuristic", "heuristic:noise=6", 2, false},
		{"a level and its spec", "hard", levelSpec(t, "hard"), 4, true},
		{"kinds of bot", "heuristic", "mcts:iters=300", 2, false},
		{"flat bots, only by their spec", "flat:samples=50", "flat:samples=50", 2, true},
		{"flat bots of other strings", "flat:samples=50", " flat:samples=50", 2, false},
		{"a spec that does not parse", "mcts:iters=0", "mcts:iters=0,c=0.4", 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SamePlay(tt.a, tt.b, tt.players); got != tt.want {
				t.Errorf("SamePlay(%q, %q, %d) = %v, want %v", tt.a, tt.b, tt.players, got, tt.want)
			}
			if got := SamePlay(tt.b, tt.a, tt.players); got != tt.want {
				t.Errorf("SamePlay(%q, %q, %d) = %v, want %v", tt.b, tt.a, tt.players, got, tt.want)
			}
		})
	}
}

func levelSpec(t *testing.T, name string) string {
	l, ok := LookupLevel(name)
	if !ok {
		t.Fatalf("no level %q", name)
	}
	return l.Spec
}

// TestSamePlayGames: specs SamePlay calls alike at a table size play the
// same game there, move for move, from the same seeds.
func TestSamePlayGames(t *testing.T) {
	a := "mcts:iters=60/40/30/20,workers=1,rollout=auto,policy=flat,cut=none"
	b := "mcts:iters=60/40/90/20,workers=1,rollout=auto,light=5,policy=flat,cut=none"
	for _, players := range []int{2, 3, 5} {
		if !SamePlay(a, b, players) {
			t.Fatalf("%d players: SamePlay says the specs differ", players)
		}
		ma, mb := gameMoves(t, players, a), gameMoves(t, players, b)
		if !slices.Equal(ma, mb) {
			t.Errorf("%d players: %d moves and %d, first apart at %d", players, len(ma), len(mb), firstApart(ma, mb))
		}
	}
	// The check can fail: at 4 players the two search differently.
	if slices.Equal(gameMoves(t, 4, a), gameMoves(t, 4, b)) {
		t.Error("4 players: the specs played the same game, so this test shows nothing")
	}
}

// gameMoves plays a game of players seats, every seat spec, and returns
// its moves.
func gameMoves(t *testing.T, players int, spec string) []razzia.Move {
	t.Helper()
	g := newGame(t, players, "same play")
	bots := make([]Bot, players)
	for i := range bots {
		bots[i] = must(New(spec, uint64(10+i)))
	}
	var moves []razzia.Move
	for !g.Over() {
		seat := g.ToMove()
		m := bots[seat].Choose(g.View(seat))
		if err := g.Play(m); err != nil {
			t.Fatalf("%s (seat %d): %v", spec, seat, err)
		}
		moves = append(moves, m)
	}
	return moves
}

func firstApart(a, b []razzia.Move) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
