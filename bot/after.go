package bot

import (
	"math"

	"github.com/razziagame/razzia"
)

// The afterstate value estimates each seat's chance of winning from any
// position of a game, mid-round included, where the value function of
// value.go knows only the starts of rounds. A search with mix=X mixes it
// with the playout's result at each new leaf: the playout's result is
// one game's luck, the estimate an average over it, so the leaves'
// values vary less and the deeper nodes, which see few iterations, choose
// better on them.
//
// The model is a softmax over the seats of a linear score of each seat's
// features: those of the value function, and the judge's view of the
// round in play (the points the seat's holdings are likely worth by the
// game's end, what the row would add to them, the cheques that can still
// buy, the standing bid). It has one weight vector per player count and
// round, fitted to games the playouts' own policy plays against itself
// (TestTrainAfter; see after_weights.go for the command), so it estimates
// what a playout from the position would bring, without its noise.

// numAfter is the length of a seat's afterstate feature vector.
const numAfter = numFeatures + 5

// An afterTable holds the afterstate value's weights by player count (2
// to 5) and round (1 to 3).
type afterTable [razzia.MaxPlayers - razzia.MinPlayers + 1][razzia.Rounds][numAfter]float64

// afterFeatures writes seat p's features in s to f; j is the judge of s.
func afterFeatures(s *razzia.State, j *judge, p int, totals *[razzia.MaxPlayers]int, f *[numAfter]float64) {
	var v [numFeatures]float64
	features(s, p, totals, &v)
	copy(f[:], v[:])
	up := s.FaceUp(p)
	lot, standing := 0.0, 0.0
	if up != 0 || s.Phase() == razzia.PhaseAuction {
		lot = j.lotValue(p)
	}
	if _, seat := s.HighBid(); seat == p && s.Phase() == razzia.PhaseAuction {
		standing = lot // the row is the seat's unless someone outbids it
	}
	f[numFeatures] = j.base(p)
	f[numFeatures+1] = lot
	f[numFeatures+2] = float64(up.Len())
	f[numFeatures+3] = float64(up.Sum())
	f[numFeatures+4] = standing
}

// afterValue returns each seat's estimated chance of winning s, a game
// not over, by the weights t; j is reset to s with the policy's weights w.
func afterValue(s *razzia.State, j *judge, w *weights, t *afterTable) [razzia.MaxPlayers]float32 {
	j.reset(s, w)
	n, totals := s.Players(), totalsOf(s)
	wt := &t[n-razzia.MinPlayers][s.Round()-1]
	var score [razzia.MaxPlayers]float64
	top := math.Inf(-1)
	for p := range n {
		var f [numAfter]float64
		afterFeatures(s, j, p, &totals, &f)
		for i, x := range f {
			score[p] += wt[i] * x
		}
		top = max(top, score[p])
	}
	return softmax(n, &score, top)
}

// softmax returns exp(score[p]) normalised over the n seats; top is the
// highest score, taken out before the exponent so that none overflows.
func softmax(n int, score *[razzia.MaxPlayers]float64, top float64) [razzia.MaxPlayers]float32 {
	sum := 0.0
	for p := range n {
		score[p] = math.Exp(score[p] - top)
		sum += score[p]
	}
	var r [razzia.MaxPlayers]float32
	for p := range n {
		r[p] = float32(score[p] / sum)
	}
	return r
}
