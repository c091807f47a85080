package bot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot/internal/frozen"
)

// Flat is the yardstick of the tree search: determinised flat Monte Carlo
// as strong as a flat search with a good policy can be. Each sample
// shuffles the undrawn cards by their public composition and plays every
// move still in the running over that same order (common random numbers),
// to the end of the game, with the heuristic's policy for every seat and
// the same noise on its values, calling readier than the heuristic does
// (flatWeights); the cheque majority, which the last round settles, is
// counted exactly there. A sample's reward is mostly the
// mover's share of the win, with a little of its score margin over the
// best rival. As samples come in, a move whose mean falls more than
// DropSE standard errors of the paired difference behind the best is
// dropped, so that the samples go to the moves that may still be best.
// It chooses the move with the best mean.
type Flat struct {
	samples int           // samples per decision; 0: no limit
	limit   time.Duration // 0: no time limit
	noise   float64
	dropSE  float64 // standard errors behind the best that drop a move; 0: none
	margin  float64 // the weight of the score margin in a sample's reward
	rng     *rand.Rand

	play   playout
	st     razzia.State // the playout's state, here since the playout's judge points to it
	deck   []razzia.Kind
	buf    []razzia.Move
	root   []razzia.Move
	reward [][]float32 // by move, the reward of each sample
	alive  []bool
	seeds  *rand.PCG
	last   int // samples of the last decision
	runs   int // playouts of the last decision
}

// DropSE is how many standard errors behind the best a Flat bot's move
// may fall before it is dropped, unless its spec says otherwise.
const DropSE = 2.5

// flatWarmup is the samples every move gets before any is dropped, so
// that the standard errors mean something.
const flatWarmup = 16

// flatWeights are the heuristic's weights with the final cheque majority
// counted exactly in the last round, calls readier than the
// heuristic's, the more so as the police near the raid (tuned by
// self-play of the yardstick), and a seat left alone with face-up
// cheques drawing on to fuller rows, so that the playouts price running
// out of cheques first (docs/strength.md).
var flatWeights = func() weights {
	w := defaultWeights
	w.exact = true
	w.callBase, w.raid = 4, 0.8
	w.alone = 1
	return w
}()

// NewFlat returns a Flat bot seeded with seed that takes at most samples
// samples a decision (0: no limit) and, when limit is positive, stops
// after limit; with neither, it takes DefaultFlatTime, so that a decision
// between moves that play out alike still ends.
func NewFlat(seed uint64, samples int, limit time.Duration) *Flat {
	if samples <= 0 && limit <= 0 {
		samples, limit = 0, DefaultFlatTime
	}
	b := &Flat{samples: samples, limit: limit, noise: 2, dropSE: DropSE, margin: marginWeight, rng: newRand(seed), seeds: rand.NewPCG(0, 0)}
	b.play = playout{w: &flatWeights, rng: rand.New(b.seeds), noise: b.noise}
	return b
}

// Close releases nothing: a Flat holds no resources.
func (b *Flat) Close() error { return nil }

// Samples returns the samples the last decision took.
func (b *Flat) Samples() int { return b.last }

// Iterations returns the playouts the last decision ran, over all its
// samples and moves, for benchmarks and the arena's logs.
func (b *Flat) Iterations() int { return b.runs }

// Choose implements Bot.
func (b *Flat) Choose(v razzia.View) razzia.Move {
	b.last, b.runs = 0, 0
	legal := legalMoves(&v, &b.buf)
	if len(legal) == 0 {
		return razzia.Move{}
	}
	s := &v.State
	b.root = prune(s, append(b.root[:0], legal...))
	if len(b.root) == 1 {
		return b.root[0]
	}
	n := len(b.root)
	for len(b.reward) < n {
		b.reward = append(b.reward, nil)
	}
	b.alive = b.alive[:0]
	for i := range n {
		b.reward[i] = b.reward[i][:0]
		b.alive = append(b.alive, true)
	}
	var deadline time.Time
	if b.limit > 0 {
		deadline = time.Now().Add(b.limit)
	}
	me, left := s.ToMove(), n
	for left > 1 && (b.samples == 0 || b.last < b.samples) {
		if b.last > 0 && !deadline.IsZero() && time.Now().After(deadline) {
			break
		}
		b.shuffle(s)
		seed := b.rng.Uint64()
		for i, m := range b.root {
			if !b.alive[i] {
				continue
			}
			b.seeds.Seed(seed, 0)
			b.st = *s
			b.play.apply(&b.st, m)
			var r [razzia.MaxPlayers]float32
			if b.play.run(&b.st) {
				r, _ = rewardsWith(&b.st, b.margin)
			} else {
				r = value(&b.st, b.play.valueWeights(&b.st))
			}
			b.reward[i] = append(b.reward[i], r[me])
			b.runs++
		}
		b.last++
		if b.dropSE > 0 && b.last >= flatWarmup && b.last%4 == 0 {
			left = b.drop()
		}
	}
	return b.root[b.best()]
}

// best returns the index of the move in the running with the best mean.
func (b *Flat) best() int { return bestAlive(b.reward, b.alive) }

// drop takes out of the running the moves more than dropSE standard
// errors behind the best and returns how many are left (see dropBehind).
func (b *Flat) drop() int { return dropBehind(b.reward, b.alive, b.dropSE) }

// bestAlive returns the index of the move in the running (alive) with the
// best mean reward.
func bestAlive(reward [][]float32, alive []bool) int {
	best, bestMean := -1, 0.0
	for i, ok := range alive {
		if !ok {
			continue
		}
		if m := mean(reward[i]); best < 0 || m > bestMean {
			best, bestMean = i, m
		}
	}
	return best
}

// dropBehind takes out of the running the moves more than se standard
// errors behind the best, by the paired differences of their samples
// (every move in the running met every sample), and returns how many are
// left.
func dropBehind(reward [][]float32, alive []bool, se float64) int {
	best := bestAlive(reward, alive)
	r0 := reward[best]
	left := 0
	for i, ok := range alive {
		if !ok {
			continue
		}
		left++
		if i == best {
			continue
		}
		var sum, sq float64
		for k, x := range reward[i] {
			d := float64(r0[k] - x)
			sum += d
			sq += d * d
		}
		n := float64(len(reward[i]))
		m := sum / n
		sd := math.Sqrt(max(0, sq/n-m*m) / (n - 1))
		if m > se*sd && m > 0 {
			alive[i] = false
			left--
		}
	}
	return left
}

func mean(xs []float32) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += float64(x)
	}
	return sum / float64(len(xs))
}

// shuffle orders the undrawn cards of s, by their public composition, into
// the deck the playouts draw from.
func (b *Flat) shuffle(s *razzia.State) {
	b.deck = shuffled(b.deck, s, b.rng)
	b.play.deck = b.deck
}

// shuffled returns the undrawn cards of s, by their public composition,
// in an order drawn from rng, in deck's storage: a determinisation.
func shuffled(deck []razzia.Kind, s *razzia.State, rng *rand.Rand) []razzia.Kind {
	deck = deck[:0]
	for _, k := range razzia.Kinds {
		for range s.Remaining(k) {
			deck = append(deck, k)
		}
	}
	rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	return deck
}

// newFlatSpec builds the Flat bot of a flat spec's options.
func newFlatSpec(seed uint64, name, opts string, hasOpts bool) (Bot, error) {
	f := NewFlat(seed, 0, DefaultFlatTime)
	given, err := setOptions(f, name, opts, hasOpts, flatOptions, "samples=N, time=DURATION, noise=X, drop=X, cut=round|none, rollout=heuristic|light, full=0|1, margin=X, value=NAME, the policy's weights")
	if err != nil {
		return nil, err
	}
	if given["samples"] && !given["time"] {
		f.limit = 0 // bounded by samples alone
	}
	return f, nil
}

var flatOptions = map[string]setter[*Flat]{
	"samples": func(f *Flat, key, val string) error { return parseCount(key, val, &f.samples) },
	"time":    func(f *Flat, _, val string) error { return parseTime(val, &f.limit) },
	"noise": func(f *Flat, key, val string) error {
		err := setFloat(&f.noise, key, val, 0, 100)
		f.play.noise = f.noise
		return err
	},
	"drop":   func(f *Flat, key, val string) error { return setFloat(&f.dropSE, key, val, 0, 100) },
	"margin": func(f *Flat, key, val string) error { return setFloat(&f.margin, key, val, 0, 1) },
	"rollout": func(f *Flat, _, val string) error {
		switch val {
		case "heuristic":
			f.play.rollout = rolloutHeuristic
		case "light":
			f.play.rollout = rolloutLight
			f.play.light = frozen.NewLight(f.play.rng)
		default:
			return fmt.Errorf("rollout=%s: want heuristic or light", val)
		}
		return nil
	},
	"cut":   func(f *Flat, _, val string) error { return parseCut(val, &f.play.cut) },
	"value": func(f *Flat, _, val string) error { return parseValue(val, &f.play.values) },
	"full": func(f *Flat, _, val string) error {
		if val != "0" && val != "1" {
			return fmt.Errorf("full=%s: want 0 or 1", val)
		}
		f.play.full = val == "1"
		return nil
	},
}
