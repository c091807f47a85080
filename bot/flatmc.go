package bot

import (
	"math/rand/v2"
	"time"

	"github.com/razziagame/razzia"
)

// FlatMC is determinised flat Monte Carlo: it samples orders of the
// undrawn cards from their public composition, plays every legal move out
// over each sampled order to the end with the heuristic as the playout
// policy (with noise on its values), and chooses the move with the best
// mean reward. Every move meets the same sampled futures, and the same
// noise, so that the moves are compared on equal luck. It searches no
// tree: after its move everybody is assumed to play the heuristic. It is
// a yardstick for the tree search, written to be as strong as a flat
// search with a good playout policy can be.
type FlatMC struct {
	rounds int           // samples per move; 0: no limit
	limit  time.Duration // 0: no time limit
	noise  float64
	w      *weights
	rng    *rand.Rand

	play  playout
	st    razzia.State // the playout's state, here since the playout's judge points to it
	deck  []razzia.Kind
	buf   []razzia.Move
	root  []razzia.Move
	sum   []float64
	last  int
	seeds *rand.PCG
}

// DefaultFlatTime is the time a flatmc spec without rounds or time takes
// per decision.
const DefaultFlatTime = 300 * time.Millisecond

// NewFlatMC returns a FlatMC bot seeded with seed that plays each move
// out over at most rounds sampled futures (0: no limit) and, when limit is
// positive, stops after limit. One of the two must be set.
func NewFlatMC(seed uint64, rounds int, limit time.Duration) *FlatMC {
	b := &FlatMC{rounds: rounds, limit: limit, noise: 2, w: &defaultWeights, rng: newRand(seed),
		seeds: rand.NewPCG(0, 0)}
	b.play = playout{w: b.w, rng: rand.New(b.seeds), noise: b.noise}
	return b
}

// Close releases nothing: a FlatMC holds no resources.
func (b *FlatMC) Close() error { return nil }

// Rounds returns the sampled futures the last decision played each move over.
func (b *FlatMC) Rounds() int { return b.last }

// Choose implements Bot.
func (b *FlatMC) Choose(v razzia.View) razzia.Move {
	legal := legalMoves(&v, &b.buf)
	if len(legal) == 0 {
		return razzia.Move{}
	}
	s := &v.State
	legal = prune(s, append(b.root[:0], legal...))
	b.root = legal
	if len(legal) == 1 {
		return legal[0]
	}
	me := s.ToMove()
	b.sum = append(b.sum[:0], make([]float64, len(legal))...)
	var deadline time.Time
	if b.limit > 0 {
		deadline = time.Now().Add(b.limit)
	}
	b.last = 0
	for b.rounds == 0 || b.last < b.rounds {
		if b.last > 0 && !deadline.IsZero() && time.Now().After(deadline) {
			break
		}
		b.sample(s)
		seed := b.rng.Uint64()
		for i, m := range legal {
			b.seeds.Seed(seed, 0)
			b.st = *s
			b.play.apply(&b.st, m)
			b.play.run(&b.st)
			r, _ := rewards(&b.st)
			b.sum[i] += float64(r[me])
		}
		b.last++
	}
	best := 0
	for i := range legal {
		if b.sum[i] > b.sum[best] {
			best = i
		}
	}
	return legal[best]
}

// sample shuffles the undrawn cards of s, by their public composition,
// into b.deck, the order the playouts draw them in.
func (b *FlatMC) sample(s *razzia.State) {
	b.deck = shuffled(b.deck, s, b.rng)
	b.play.deck = b.deck
}
