// Package bot provides computer players for Razzia: random, heuristic and
// information-set Monte Carlo tree search, selected by a spec string.
//
// New builds a bot from a spec such as "random", "heuristic",
// "mcts:iters=2000" or "mcts:time=300ms"; SpecHelp lists them all, and a
// bad spec is an error wrapping ErrSpec before any game starts. People
// choose among three levels instead (see Levels):
//
//	easy    heuristic:noise=6            the heuristic with a lot of misjudgement
//	medium  heuristic                    values lots and cheques by the scoring rules
//	hard    mcts:iters=6000,time=500ms   tree search, under a second per decision
//
// Bots never read the order of the undrawn cards: a View holds the public
// state only, and the search samples the cards still to come from their
// public composition.
package bot

import "github.com/razziagame/razzia"

// A Bot chooses moves for the seat it plays. A Bot is deterministic given
// its seed (except when limited by time) and is not safe for concurrent use:
// give each game its own.
type Bot interface {
	// Choose returns one of v.Legal, the moves legal for v.Seat, which is to
	// move. A draw is returned as razzia.Draw(razzia.NoKind): which card
	// comes is chance, resolved by the caller. Choose reads only the view:
	// the public state, never the order of the undrawn cards.
	Choose(v razzia.View) razzia.Move
}
