// Package bot provides computer players for Razzia: random, heuristic and
// information-set Monte Carlo tree search, selected by a spec string.
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
