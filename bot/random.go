package bot

import (
	"math/rand/v2"

	"github.com/razziagame/razzia"
)

// Random chooses uniformly among the legal moves.
type Random struct {
	rng *rand.Rand
	buf []razzia.Move
}

// NewRandom returns a Random bot seeded with seed.
func NewRandom(seed uint64) *Random {
	return &Random{rng: newRand(seed)}
}

// Choose implements Bot.
func (b *Random) Choose(v razzia.View) razzia.Move {
	legal := legalMoves(&v, &b.buf)
	if len(legal) == 0 {
		return razzia.Move{}
	}
	return legal[b.rng.IntN(len(legal))]
}

// newRand returns the source of a bot's decisions; the second PCG word
// keeps bot streams apart from other users of the same seed.
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
