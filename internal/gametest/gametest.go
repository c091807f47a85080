// Package gametest makes games for tests: whole games of seeded random
// legal moves. It needs only the engine, so that tests of packages far
// from the server (the protocol, the page, the terminal) need not link the
// server to get a game, as they did through servertest. Only tests import
// it.
package gametest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/razziagame/razzia"
)

// Random plays a whole game of seeded random legal moves between players
// named Miriam, Felix, Elke, Dennis and Ann (as many as players). The same
// players and seed give the same game.
func Random(t testing.TB, players int, seed uint64) *razzia.Game {
	t.Helper()
	names := []string{"Miriam", "Felix", "Elke", "Dennis", "Ann"}[:players]
	g, err := razzia.NewGame(razzia.Setup{Players: names, Seed: fmt.Appendf(nil, "seed-%d", seed)})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 1))
	for !g.Over() {
		legal := g.LegalMoves()
		if err := g.Play(legal[r.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	return g
}
