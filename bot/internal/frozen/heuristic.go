package frozen

import (
	"math/rand/v2"

	"github.com/razziagame/razzia"
)

// Heuristic plays by valuing lots and cheques with the scoring rules. It
// values the row for each seat as the points the cards add to that seat's
// holdings (bodyguard majorities against everybody's holdings, cars with or
// without a driver, jewel and business sets, the rounds left), values each
// cheque by what it can still buy this round and by what trading it for the
// centre cheque does to the final cheque totals, and bids, passes, calls,
// uses thieves or draws to maximise the expected gain. It looks no further
// ahead than the current auction.
type Heuristic struct {
	rng   *rand.Rand
	noise float64 // standard deviation of the error added to lot values, in points
	buf   []razzia.Move
}

// NewHeuristic returns a Heuristic bot seeded with seed.
func NewHeuristic(seed uint64) *Heuristic {
	return &Heuristic{rng: newRand(seed)}
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
	j := newJudge(&v.State)
	if v.State.Phase() == razzia.PhaseAuction {
		return b.auction(&j, legal)
	}
	return b.turn(&j, legal)
}

// err returns a random error for a value, or 0 without noise.
func (b *Heuristic) err() float64 {
	if b.noise == 0 {
		return 0
	}
	return b.rng.NormFloat64() * b.noise
}

// auction bids the cheque that maximises the chance of winning times the
// net gain, or passes when no bid gains.
func (b *Heuristic) auction(j *judge, legal []razzia.Move) razzia.Move {
	me := j.s.ToMove()
	v := j.lotValue(me) + b.err()
	d := j.denial(me)
	best, bestGain := razzia.Move{}, 0.0
	for _, m := range legal {
		if m.Action != razzia.ActionBid {
			continue
		}
		c := int(m.Cheque)
		g := j.winChance(me, c) * (v + d - j.chequeCost(me, c))
		if best.Action == 0 || g > bestGain {
			best, bestGain = m, g
		}
	}
	if bestGain <= 0 && !j.s.MustBid() {
		return razzia.Pass()
	}
	return best
}

// turn uses thieves when they take more than they are worth, calls when
// the row is worth its price and unlikely to get better, and else draws.
func (b *Heuristic) turn(j *judge, legal []razzia.Move) razzia.Move {
	s, me := j.s, j.s.ToMove()
	var best razzia.Move
	bestGain := 0.0
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
			g := j.worth(me, &h) - j.worth(me, &j.hold[me]) + b.err()
			if g > 1 && g > bestGain {
				best, bestGain = m, g
			}
		}
	}
	if !canDraw {
		if best.Action != 0 {
			return best
		}
		return razzia.Call()
	}

	// Calling makes this seat the last to bid: it wins unless somebody
	// wants the row more than their cheque. Drawing on lets the row grow
	// but risks the police card that ends the round.
	if s.RowLen() > 0 && s.FaceUp(me) != 0 {
		c := s.FaceUp(me).Min()
		call := j.winChance(me, c)*(j.lotValue(me)+j.denial(me)+b.err()) - j.chequeCost(me, c)
		pEnd := 0.0
		if s.Police() == s.PoliceLimit()-1 && s.DeckLeft() > 0 {
			pEnd = float64(s.Remaining(razzia.Police)) / float64(s.DeckLeft())
		}
		threshold := (2 + float64(razzia.RowSize-1-s.RowLen())) * (1 - pEnd)
		if call > threshold && call > bestGain {
			return razzia.Call()
		}
	}
	if best.Action != 0 {
		return best
	}
	return razzia.Draw(razzia.NoKind)
}

// A judge values holdings, lots and cheques in one state.
type judge struct {
	s     *razzia.State
	n     int
	hold  [razzia.MaxPlayers]razzia.Holdings
	left  float64 // the fraction of this round still to come, 0..1
	later float64 // rounds after this one
}

func newJudge(s *razzia.State) judge {
	j := judge{s: s, n: s.Players(), later: float64(razzia.Rounds - s.Round())}
	up, all := 0, 0
	for p := range j.n {
		j.hold[p] = s.Holdings(p)
		up += s.FaceUp(p).Len()
		all += s.FaceUp(p).Len() + s.FaceDown(p).Len()
	}
	j.left = float64(s.PoliceLimit()-s.Police()) / float64(s.PoliceLimit())
	if all > 0 {
		j.left = min(j.left, float64(up)/float64(all))
	}
	return j
}

// jewelBase is the score of 0..5 distinct jewels (R16); jewelHope is what
// a seat with that many may still expect to add before the round ends.
var (
	jewelBase = [...]float64{-5, 0, 0, 5, 10, 15}
	jewelHope = [...]float64{2, 1, 2, 2, 2, 0}
)

// worth estimates the points holdings h will bring seat p from now to the
// end of the game: the coming scoring exactly where it is certain, plus what
// kept cards (bodyguards, cars, businesses) promise in the later rounds.
func (j *judge) worth(p int, h *razzia.Holdings) float64 {
	v := 2*float64(h[razzia.Thief]) + 3*float64(h[razzia.Gold])

	cars, drivers := float64(h[razzia.Car]), float64(h[razzia.Driver])
	if drivers > 0 {
		v += cars + drivers
	} else {
		v += cars * 0.4 * j.left // a driver may still come this round
	}
	v += cars * 0.6 * j.later // cars stay; later rounds need new drivers

	v += j.guards(p, int(h[razzia.Bodyguard]))

	kinds := 0
	for _, k := range razzia.Jewels {
		if h[k] > 0 {
			kinds++
		}
	}
	v += jewelBase[kinds] + j.left*jewelHope[kinds]

	// Businesses stay to the end and score then (R17): what they score as
	// they are is certain; pairs and near-complete sets promise more.
	prog := (j.later + j.left) / razzia.Rounds
	v += float64(h.BusinessPoints())
	distinct := 0
	for _, k := range razzia.Businesses {
		switch h[k] {
		case 0:
		case 1:
			v += 0.5 * prog
		case 2, 3:
			v += 2 * prog
		}
		if h[k] > 0 {
			distinct++
		}
	}
	if distinct == len(razzia.Businesses)-1 {
		v += 2 * prog
	}
	return v
}

// guards values n bodyguards for seat p against the others' (R16) over
// the rest of the game: the majority as it stands counts the more the
// closer the round is to its end; a lead over the others' mean counts
// while the round is young, and in the later rounds, since bodyguards stay.
func (j *judge) guards(p, n int) float64 {
	hi, lo, sum, equal := n, n, 0, true
	for q := range j.n {
		if q == p {
			continue
		}
		c := int(j.hold[q][razzia.Bodyguard])
		hi, lo, sum = max(hi, c), min(lo, c), sum+c
		equal = equal && c == n
	}
	exact := 0.0
	switch {
	case equal:
	case n == hi:
		exact = 5
	case n == lo:
		exact = -2
	}
	lead := max(-3, min(3, float64(n)-float64(sum)/float64(j.n-1)))
	now := (1-j.left)*exact + j.left*1.2*lead
	return now + j.later*(0.4*exact+0.8*lead)
}

// lotValue is what the row adds to seat p's holdings, in points.
func (j *judge) lotValue(p int) float64 {
	h := j.hold[p]
	for i := range j.s.RowLen() {
		h[j.s.RowCard(i)]++
	}
	return j.worth(p, &h) - j.worth(p, &j.hold[p])
}

// denial is what seat p gains by keeping the row from the opponent who
// wants it most: a point for an opponent costs p less the more opponents
// there are.
func (j *judge) denial(p int) float64 {
	most := 0.0
	_, high := j.s.HighBid()
	for q := range j.n {
		if q == p || j.s.FaceUp(q) == 0 && q != high {
			continue
		}
		most = max(most, j.lotValue(q))
	}
	return most / float64(j.n-1) * 0.7
}

// chequeCost is what seat p gives up by winning with cheque c: what the
// cheque could still buy this round, and the change to p's cheque total,
// which trades c for the centre cheque and counts at the end (R17).
func (j *judge) chequeCost(p, c int) float64 {
	s := j.s
	up := s.FaceUp(p)
	buy := 4 * j.left
	if up.Len() == 1 {
		buy *= 1.5 // out for the rest of the round: the others buy cheaply
	}
	buy += 0.15 * float64(c-up.Min()) * j.left
	delta := s.Centre() - c
	if s.Round() < razzia.Rounds {
		return buy - 0.3*float64(delta)
	}
	var sums [razzia.MaxPlayers]int
	for q := range j.n {
		sums[q] = (s.FaceUp(q) | s.FaceDown(q)).Sum()
	}
	before := chequeMajority(sums[:j.n], p)
	sums[p] += delta
	after := chequeMajority(sums[:j.n], p)
	return buy - float64(after-before) - 0.1*float64(delta)
}

// chequeMajority is seat p's R17 cheque score for the totals.
func chequeMajority(sums []int, p int) int {
	hi, lo := sums[p], sums[p]
	for _, v := range sums {
		hi, lo = max(hi, v), min(lo, v)
	}
	switch {
	case hi == lo:
		return 0
	case sums[p] == hi:
		return 5
	case sums[p] == lo:
		return -5
	}
	return 0
}

// winChance estimates the chance that seat p's bid c wins: each seat still
// to bid after p that holds a higher cheque outbids it when the lot is
// worth that cheque to it.
func (j *judge) winChance(p, c int) float64 {
	s := j.s
	chance := 1.0
	last := s.Initiator()
	if s.Phase() != razzia.PhaseAuction {
		last = p // calling: p is the initiator and bids last
	}
	for q := (p + 1) % j.n; q != p; q = (q + 1) % j.n {
		if s.Phase() == razzia.PhaseAuction && s.Bidding(q) != razzia.BiddingUndecided {
			if q == last {
				break
			}
			continue
		}
		if above := s.FaceUp(q).Above(c); above != 0 {
			if j.lotValue(q)+j.denial(q) > j.chequeCost(q, above.Min()) {
				chance *= 0.3
			} else {
				chance *= 0.9
			}
		}
		if q == last {
			break
		}
	}
	return chance
}
