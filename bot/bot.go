// Package bot provides computer players for Razzia: random, heuristic and
// information-set Monte Carlo tree search, selected by a spec string.
//
// New builds a bot from a spec such as "random", "heuristic",
// "mcts:iters=2000" or "mcts:time=300ms"; SpecHelp lists them all, and a
// bad spec is an error wrapping ErrSpec before any game starts. People
// choose among a few levels instead, each standing for a spec: Levels
// lists them, weakest first, and NewLevel builds one.
//
// Every bot here plays in-process: nothing in this package starts a
// program. A bot that fails to choose a move (it panics, answers an illegal
// move or cannot be built) is replaced for that decision by Default, the
// one safe-move policy of every caller.
//
// Bots never read the order of the undrawn cards: a View holds the public
// state only, and the search samples the cards still to come from their
// public composition.
package bot

import (
	"fmt"

	"github.com/razziagame/razzia"
)

// A Bot chooses moves for the seat it plays. A Bot is deterministic given
// its seed (except when limited by time) and is not safe for concurrent use:
// give each game its own.
type Bot interface {
	// Choose returns one of v.Legal, the moves legal for v.Seat, which is to
	// move. A draw is returned as razzia.Draw(razzia.NoKind): which card
	// comes is chance, resolved by the caller. Choose reads only the view:
	// the public state, never the order of the undrawn cards.
	Choose(v razzia.View) razzia.Move
	// Close releases what the bot holds, such as a program it runs; the
	// bots of this package hold nothing and return nil. Call it when the
	// bot's game is over or abandoned.
	Close() error
}

// Close implements Bot: a Random holds nothing.
func (*Random) Close() error { return nil }

// Close implements Bot: a Heuristic holds nothing.
func (*Heuristic) Close() error { return nil }

// Close implements Bot: an MCTS holds nothing but memory.
func (*MCTS) Close() error { return nil }

// Default returns the move played for a bot that failed to choose one
// (it panicked, hung, crashed, answered something illegal, or could not be
// built), from legal, the moves legal for its seat:
//
//   - in an auction, pass: it spends no cheque;
//   - where passing is not allowed (the caller of a forced auction that
//     nobody bid in must bid, R9), the lowest bid: the least it can spend;
//   - otherwise draw: it takes nothing, spends no thief and starts no
//     auction;
//   - should none of these be legal, the first legal move.
//
// A failure thus costs its seat as little as the rules allow and never
// stalls the game. Default returns the zero Move when legal is empty.
func Default(legal []razzia.Move) razzia.Move {
	if len(legal) == 0 {
		return razzia.Move{}
	}
	bid := -1
	for i, m := range legal {
		switch {
		case m.Action == razzia.ActionPass:
			return m
		case m.Action == razzia.ActionBid && (bid < 0 || m.Cheque < legal[bid].Cheque):
			bid = i
		}
	}
	if bid >= 0 {
		return legal[bid]
	}
	for _, m := range legal {
		if m.Action == razzia.ActionDraw {
			return m
		}
	}
	return legal[0]
}

// DefaultMove is Default for move tokens, as a Snapshot's Legal lists
// them: it returns the token Default chooses, or legal[0] should no token
// parse, or "" for no tokens.
func DefaultMove(legal []string) string {
	moves := make([]razzia.Move, 0, len(legal))
	tokens := make([]string, 0, len(legal))
	for _, tok := range legal {
		if m, err := razzia.ParseMove(tok); err == nil {
			moves = append(moves, m)
			tokens = append(tokens, tok)
		}
	}
	d := Default(moves)
	for i, m := range moves {
		if m == d {
			return tokens[i]
		}
	}
	if len(legal) > 0 {
		return legal[0] // no token parses
	}
	return ""
}

// Fallback is a Bot that always plays Default. It stands in for a bot that
// cannot be built, so that a game never stalls.
type Fallback struct{}

// Choose implements Bot.
func (Fallback) Choose(v razzia.View) razzia.Move {
	var buf []razzia.Move
	return Default(legalMoves(&v, &buf))
}

// Close implements Bot.
func (Fallback) Close() error { return nil }

// A Fault is a decision a bot lost: it failed to choose a move, and Default
// was played instead.
type Fault struct {
	Game   string // the game, as its player names it
	Seat   int    // from 0
	Move   int    // the number of the move decided, from 1
	Played string // the move played instead, a token
	Err    error  // why the bot lost the decision
}

func (f *Fault) Error() string {
	return fmt.Sprintf("move %d: %v; played %s instead", f.Move, f.Err, f.Played)
}

func (f *Fault) Unwrap() error { return f.Err }
