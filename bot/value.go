package bot

import (
	"math"

	"github.com/razziagame/razzia"
)

// The value function estimates each seat's chance of winning at the start
// of round 2 or 3, from what the seats carry into it: the points scored,
// the cards that stay (bodyguards, cars, businesses) and the cheques. The
// search ends its playouts there instead of playing the game out: the
// estimate is an average over the later rounds' luck, so it varies less
// than one playout does.
//
// The model is a softmax over the seats of a linear score of each seat's
// features, one weight vector per player count and round, fitted to the
// outcomes of games of the heuristic against itself by TestTrainValue
// (see value_weights.go for the command).

// numFeatures is the length of a seat's feature vector.
const numFeatures = 13

// features writes seat p's features in s, at the start of a round, to f.
// Majorities are scored by rank, so the lead over the best and the worst
// other seat in bodyguards and cheques are features of their own.
func features(s *razzia.State, p int, totals *[razzia.MaxPlayers]int, f *[numFeatures]float64) {
	n := s.Players()
	h := s.Holdings(p)
	sum := func(q int) int { return (s.FaceUp(q) | s.FaceDown(q)).Sum() }
	guards, cheques := int(h[razzia.Bodyguard]), sum(p)
	gHi, gLo, cHi, cLo := math.MinInt, math.MaxInt, math.MinInt, math.MaxInt
	for q := range n {
		if q == p {
			continue
		}
		g := int(s.Holdings(q)[razzia.Bodyguard])
		c := sum(q)
		gHi, gLo, cHi, cLo = max(gHi, g), min(gLo, g), max(cHi, c), min(cLo, c)
	}
	pairs, triples, kinds := 0, 0, 0
	for _, k := range razzia.Businesses {
		switch {
		case h[k] >= 3:
			triples++
		case h[k] == 2:
			pairs++
		}
		if h[k] > 0 {
			kinds++
		}
	}
	clip := func(x int) float64 { return float64(max(-4, min(4, x))) }
	*f = [numFeatures]float64{
		float64(totals[p]),
		float64(guards),
		clip(guards - gHi),
		clip(guards - gLo),
		float64(h[razzia.Car]),
		float64(h.BusinessPoints()),
		float64(kinds),
		float64(pairs),
		float64(triples),
		float64(cheques),
		float64(max(-8, min(8, cheques-cHi))),
		float64(max(-8, min(8, cheques-cLo))),
		float64(s.FaceUp(p).Max()),
	}
}

// A valueTable holds the value function's weights by player count (2 to
// 5) and round (2 and 3).
type valueTable [razzia.MaxPlayers - razzia.MinPlayers + 1][razzia.Rounds - 1][numFeatures]float64

// valueTables are the value functions a spec names (value=NAME).
var valueTables = map[string]*valueTable{
	"heuristic": &trainedValue,
}

// valueWeights returns the weights of the embedded value function for
// the state's player count and round, or nil when there are none (round
// 1, or the game over).
func valueWeights(s *razzia.State) *[numFeatures]float64 { return weightsIn(&trainedValue, s) }

// weightsIn is valueWeights of the table t.
func weightsIn(t *valueTable, s *razzia.State) *[numFeatures]float64 {
	r := s.Round()
	if s.Over() || r < 2 {
		return nil
	}
	return &t[s.Players()-razzia.MinPlayers][r-2]
}

// totalsOf returns the seats' points so far: Total, not Totals, since a
// playout allocates nothing.
func totalsOf(s *razzia.State) [razzia.MaxPlayers]int {
	var totals [razzia.MaxPlayers]int
	for p := range s.Players() {
		totals[p] = s.Total(p)
	}
	return totals
}

// value returns each seat's estimated chance of winning s, which is at the
// start of round 2 or 3 (valueWeights is not nil).
func value(s *razzia.State, w *[numFeatures]float64) [razzia.MaxPlayers]float32 {
	n, totals := s.Players(), totalsOf(s)
	var score [razzia.MaxPlayers]float64
	top := math.Inf(-1)
	for p := range n {
		var f [numFeatures]float64
		features(s, p, &totals, &f)
		for i, x := range f {
			score[p] += w[i] * x
		}
		top = max(top, score[p])
	}
	return softmax(n, &score, top)
}
