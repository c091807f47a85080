// Package frozen keeps the bots of commit b971414 exactly as they played
// then, so that the strength of today's bots can be measured against a
// fixed yardstick: the heuristic ("medium" at b971414) and the tree search
// ("hard" at b971414 was NewMCTS(seed, 6000, 500ms)).
//
// heuristic.go and mcts.go are byte for byte the files of b971414 but for
// their package clause; do not edit them. TestDecisions replays decisions
// recorded from b971414's code (testdata/b971414.json) and fails if a
// single one has drifted. Package bot offers these bots as the specs
// medium@b971414, hard@b971414 and mcts@b971414.
package frozen

import (
	"math/rand/v2"

	"github.com/razziagame/razzia"
)

// newRand returns the source of a bot's decisions, as bot did at b971414.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x7261_7a7a_6961_626f))
}

// legalMoves returns v.Legal, or the state's legal moves when the caller
// built the view without them.
func legalMoves(v *razzia.View, buf *[]razzia.Move) []razzia.Move {
	if len(v.Legal) > 0 {
		return v.Legal
	}
	*buf = v.State.LegalMoves((*buf)[:0])
	return *buf
}

// Close releases nothing: a Heuristic holds no resources.
func (b *Heuristic) Close() error { return nil }

// Close releases nothing: an MCTS holds no resources.
func (b *MCTS) Close() error { return nil }

// Light is b971414's light playout policy: cheap rules of thumb for
// drawing, calling and bidding, with no judge of lots or cheques. Package
// bot offers it to today's search as rollout=light.
type Light struct{ m MCTS }

// NewLight returns the light policy drawing its choices from rng.
func NewLight(rng *rand.Rand) *Light { return &Light{MCTS{rng: rng}} }

// Move returns the policy's move in st, which must not be over; a draw
// names no card.
func (l *Light) Move(st *razzia.State) razzia.Move { return l.m.lightMove(st) }
