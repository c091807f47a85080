package bot

import (
	"math/rand/v2"

	"github.com/razziagame/razzia"
)

// Heuristic plays by valuing lots and cheques as a good player does, with
// the model of a judge: what the row adds to each seat's expected points
// to the end of the game (the first jewel or driver by what it is likely
// to complete, bodyguards by the majorities still to be scored, businesses
// by the sets they may make), what each cheque can still buy this round,
// and what trading it for the centre cheque does to the later rounds and
// the final cheque majority. It bids the lowest cheque that is likely
// enough to win, or passes; it uses thieves, calls or draws by the same
// values. It looks no further ahead than the current auction.
type Heuristic struct {
	rng   *rand.Rand
	w     *weights
	noise float64 // standard deviation of the error added to lot values, in points
	buf   []razzia.Move
	st    razzia.State
	j     judge
}

// NewHeuristic returns a Heuristic bot seeded with seed.
func NewHeuristic(seed uint64) *Heuristic {
	return &Heuristic{rng: newRand(seed), w: &defaultWeights}
}

// Choose implements Bot.
func (b *Heuristic) Choose(v razzia.View) razzia.Move {
	legal := legalMoves(&v, &b.buf)
	switch len(legal) {
	case 0:
		return razzia.Move{}
	case 1:
		return legal[0]
	}
	b.st = v.State // the judge points to it: here, v stays on the stack
	b.j.reset(&b.st, b.w)
	return decide(&b.j, legal, b.err)
}

// err returns a random error for a value, or 0 without noise.
func (b *Heuristic) err() float64 {
	if b.noise == 0 {
		return 0
	}
	return b.rng.NormFloat64() * b.noise
}

// decide chooses among legal by the judge's values; err adds misjudgement.
func decide(j *judge, legal []razzia.Move, err func() float64) razzia.Move {
	if j.w.alone > 0 && alone(j.s, j.w.alone == 2) {
		if m, ok := aloneMove(j, legal, err); ok {
			return m
		}
	}
	if j.s.Phase() == razzia.PhaseAuction {
		return bid(j, legal, err())
	}
	return turn(j, legal, err)
}

// alone reports whether the seat to move is the only one with face-up
// cheques: nobody else can take the row before it for the rest of the
// round (R13). A rival who bid its last cheque in the running auction is
// not out: the cheque stays face up until the auction is settled, and
// the rival takes the row should the seat pass. The state's high bid is
// no guide: between auctions it still holds the last one's. With
// misread, a rival's high bid counts as standing between auctions too,
// as the policy once read it.
func alone(s *razzia.State, misread bool) bool {
	me := s.ToMove()
	if _, w := s.HighBid(); misread && w >= 0 && w != me {
		return false
	}
	for q := range s.Players() {
		if q != me && s.FaceUp(q) != 0 {
			return false
		}
	}
	return true
}

// aloneMove is the move of a seat alone with face-up cheques, when it is
// not the judge's usual one. Unspent cheques are kept for the next round
// (R15) and nobody else can take the row, so the seat draws on while
// nothing but a full row can end the row's growth, and buys the row only
// when it is full or when the next card may end the round: then when the
// chance of losing the row to the raid outweighs what one more card
// brings, about the row's value shared by its cards. It reports false
// when the usual judgement applies (a forced bid, thieves that gain).
func aloneMove(j *judge, legal []razzia.Move, err func() float64) (razzia.Move, bool) {
	s := j.s
	if s.MustBid() {
		return razzia.Move{}, false
	}
	pEnd := 0.0
	if s.Police() == s.PoliceLimit()-1 && s.DeckLeft() > 0 {
		pEnd = float64(s.Remaining(razzia.Police)) / float64(s.DeckLeft())
	}
	buy := s.RowLen() >= razzia.RowSize || pEnd*float64(s.RowLen()+1) >= 1
	if s.Phase() == razzia.PhaseAuction {
		if buy {
			return razzia.Move{}, false
		}
		return razzia.Pass(), true
	}
	for _, m := range legal {
		if m.Action == razzia.ActionThieves {
			return razzia.Move{}, false // the usual judgement weighs them
		}
	}
	if buy && callGain(j, err(), 0) > 0 {
		return razzia.Call(), true
	}
	for _, m := range legal {
		if m.Action == razzia.ActionDraw {
			return m, true
		}
	}
	return razzia.Move{}, false
}

// bid bids the cheque with the best expected gain, the chance of winning
// times the gain, preferring the lowest of the bids within w.slack of the
// best, or passes when no bid gains.
func bid(j *judge, legal []razzia.Move, err float64) razzia.Move {
	me := j.s.ToMove()
	v := j.want(me) + err
	best, bestGain := -1, 0.0
	var gains [razzia.MaxCheque + 1]float64
	for i, m := range legal {
		if m.Action != razzia.ActionBid {
			continue
		}
		c := int(m.Cheque)
		g := j.winChance(me, c) * (v - j.chequeCost(me, c))
		gains[i] = g
		if best < 0 || g > bestGain {
			best, bestGain = i, g
		}
	}
	if best < 0 || bestGain <= 0 && !j.s.MustBid() {
		return razzia.Pass()
	}
	for i, m := range legal {
		if m.Action == razzia.ActionBid && gains[i] >= bestGain-j.w.slack {
			return m // legal lists the bids lowest first
		}
	}
	return legal[best]
}

// turn uses thieves when they take more than they are worth, calls when
// the row is worth its price and unlikely to get better, and else draws.
func turn(j *judge, legal []razzia.Move, err func() float64) razzia.Move {
	me := j.s.ToMove()
	var best razzia.Move
	bestGain := j.w.thief
	canDraw := false
	for _, m := range legal {
		switch m.Action {
		case razzia.ActionDraw:
			canDraw = true
		case razzia.ActionThieves:
			h := j.hold[me]
			h[razzia.Thief] -= uint8(m.Taken())
			for _, k := range m.Take[:m.Taken()] {
				h[k]++
			}
			if g := j.worth(me, &h) - j.worth(me, &j.hold[me]) + err(); g > bestGain {
				best, bestGain = m, g
			}
		}
	}
	threshold := callMargin(j)
	if !canDraw {
		threshold = 0
	}
	call := callGain(j, err(), max(threshold, bestGain))
	if !canDraw {
		if best.Action != 0 && bestGain > call {
			return best
		}
		return razzia.Call()
	}
	if call > threshold && call > bestGain {
		return razzia.Call()
	}
	if best.Action != 0 {
		return best
	}
	return razzia.Draw(razzia.NoKind)
}

// callMargin is what calling must gain before it beats drawing on.
// Calling makes the seat the last to bid; drawing on lets the row grow
// but risks the police card that ends the round. The margin shrinks as
// the row fills (callSlot a free place), as the police near the raid
// (raid: the share gone when one more police card ends the round) and
// with the chance that the next card is that one.
func callMargin(j *judge) float64 {
	s := j.s
	pEnd := 0.0
	if s.Police() == s.PoliceLimit()-1 && s.DeckLeft() > 0 {
		pEnd = float64(s.Remaining(razzia.Police)) / float64(s.DeckLeft())
	}
	m := (j.w.callBase + j.w.callSlot*float64(razzia.RowSize-1-s.RowLen())) * (1 - pEnd)
	if s.PoliceLimit() > 1 {
		m *= 1 - j.w.raid*float64(s.Police())/float64(s.PoliceLimit()-1)
	}
	return m
}

// callGain is the expected gain of calling an auction: the best of the
// seat's cheques, bidding last. Gains that could not reach at least are
// not worked out: they are returned as at most at least.
func callGain(j *judge, err, atLeast float64) float64 {
	me := j.s.ToMove()
	up := j.s.FaceUp(me)
	if j.quick {
		// Without the others' values: the seat's own, as though the
		// opponent who wants the row most wanted it as much.
		v := j.lotValue(me)*(1+j.w.denial/float64(j.n-1)) + err
		bound := 0.0
		for c := up; c != 0; c &= c - 1 {
			bound = max(bound, v-j.chequeCost(me, c.Min()))
		}
		if bound <= atLeast {
			return bound
		}
	}
	v := j.want(me) + err
	bound := 0.0
	for c := up; c != 0; c &= c - 1 {
		bound = max(bound, v-j.chequeCost(me, c.Min()))
	}
	if bound <= atLeast {
		return bound
	}
	best := 0.0
	for ; up != 0; up &= up - 1 {
		c := up.Min()
		best = max(best, j.winChance(me, c)*(v-j.chequeCost(me, c)))
	}
	return best
}
