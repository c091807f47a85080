package bot

import (
	"math"

	"github.com/razziagame/razzia"
)

// weights are the constants of the judge's model that the scoring rules do
// not fix. They were tuned by coordinate search in games against the bots
// of b971414 (TestTuneWeights; docs/strength.md tells how).
type weights struct {
	won      float64 // share of the loot still to come that somebody wins
	denial   float64 // weight of the points a lot brings the opponent who wants it most
	spare    float64 // points a face-up cheque can still buy in a whole round
	lastOne  float64 // extra weight of a seat's last face-up cheque this round
	rank     float64 // points per thousand a cheque is worth above the seat's lowest, in a whole round
	power    float64 // points per thousand of cheques held in each later round
	tau      float64 // spread of an opponent's decision to outbid, in points
	slack    float64 // points a bid may lose to the best bid and still be preferred for being lower
	callBase float64 // points a call must gain before it beats drawing on
	callSlot float64 // more points per place still free in the row
	thief    float64 // points a thief move must gain
	raid     float64 // share of the call margin gone when the police are one short of the raid (0 to 1)
	tempo    float64 // points a face-up cheque can still buy in a whole round, more, when no rival holds fewer
	alone    float64 // 1: a seat that alone holds face-up cheques draws on to fuller rows (see aloneMove); 0: it plays as with rivals; 2: as 1, but misreading the last auction's high bid as a rival's standing one, as until 2026-11-25 (to measure the fix)
	exact    bool    // count the final cheque majority exactly in the last round
}

// weightFields name the weights, for the specs of experiments that set
// them (heuristic:spare=3.2).
var weightFields = map[string]func(w *weights) *float64{
	"won":      func(w *weights) *float64 { return &w.won },
	"denial":   func(w *weights) *float64 { return &w.denial },
	"spare":    func(w *weights) *float64 { return &w.spare },
	"lastOne":  func(w *weights) *float64 { return &w.lastOne },
	"rank":     func(w *weights) *float64 { return &w.rank },
	"power":    func(w *weights) *float64 { return &w.power },
	"tau":      func(w *weights) *float64 { return &w.tau },
	"slack":    func(w *weights) *float64 { return &w.slack },
	"callBase": func(w *weights) *float64 { return &w.callBase },
	"callSlot": func(w *weights) *float64 { return &w.callSlot },
	"thief":    func(w *weights) *float64 { return &w.thief },
	"raid":     func(w *weights) *float64 { return &w.raid },
	"alone":    func(w *weights) *float64 { return &w.alone },
	"tempo":    func(w *weights) *float64 { return &w.tempo },
}

var defaultWeights = weights{
	won:      0.408,
	denial:   0.3,
	spare:    6.4,
	lastOne:  1.125,
	rank:     4.8,
	power:    0.6,
	tau:      2.4,
	slack:    0,
	callBase: 12.8,
	callSlot: 1,
	thief:    0,
}

// A judge values holdings, lots and cheques in one state, in expected
// points to the end of the game. It models what is still to come: the
// share of the undrawn loot that will be drawn this round and in the
// game, and each seat's share of it, from the face-up cheques it still
// holds. A first jewel or a first driver is then worth what it is likely
// to complete, and a bodyguard what it does to the majorities still to
// be scored.
//
// A judge works out what it needs about a seat on first use and keeps it,
// since a decision asks many questions about the same seats and a playout
// asks them at every move.
type judge struct {
	s     *razzia.State
	w     *weights
	quick bool // playouts: a turn weighs a call without the others' values
	n     int
	hold  [razzia.MaxPlayers]razzia.Holdings
	share [razzia.MaxPlayers]float64 // of the lots won this round, by face-up cheques
	sums  [razzia.MaxPlayers]int     // cheque totals, face up and face down
	rem   [numKinds]float64          // undrawn cards by kind
	now   float64                    // share of the undrawn loot drawn in this round
	all   float64                    // share of the undrawn loot drawn in the rest of the game
	left  float64                    // share of this round still to come, by police and cheques
	later int                        // rounds after this one

	carLater float64 // expected later rounds a seat has a driver in
	// Bodyguard counts expected at each scoring still to come: the mean and
	// variance each seat will add to what it holds now.
	scorings           int
	guardAdd, guardVar [razzia.Rounds][razzia.MaxPlayers]float64

	seats [razzia.MaxPlayers]seatModel

	// The seats' cheques and the centre, to tell reset what changed.
	up, down [razzia.MaxPlayers]razzia.Cheques
	centre   int

	// The chance terms of the cheque majority, normal((d+0.5)/sd) by the
	// difference d of two cheque totals, where majAt holds majGen: sd
	// changes only with the police and the rounds, so the table outlives
	// a reset while majSD stays the same.
	majSD  float64
	majGen uint32
	majAt  [2*maxSum + 1]uint32
	majVal [2*maxSum + 1]float64
}

// maxSum bounds a seat's cheque total: all the cheques of a game.
const maxSum = razzia.MaxCheque * (razzia.MaxCheque + 1) / 2

// maxGuards is the number of bodyguards in the game (R1).
const maxGuards = 16

// A seatModel is what a judge has worked out about one seat.
type seatModel struct {
	ready bool
	got   [numKinds]float64                  // the chance of winning at least one more of a kind this round
	more  [len(razzia.Businesses)][4]float64 // the chance of ending with at most i more of a business

	guards  [maxGuards + 1]float64 // guards by bodyguard count, where guardOK has the bit
	guardOK uint32
	jewels  [1 << len(razzia.Jewels)]float64 // jewels by the kinds held, where jewelOK has the bit
	jewelOK uint32

	now, share, game float64 // the factors of got and more (see seat)
	stale            uint32  // kinds whose got and more are out of date

	base, lot, want float64 // worth of the holdings, lotValue and want, where known
	known           uint8   // bits: 1 base, 2 lot, 4 want

	cheque   [razzia.MaxCheque + 1]float64 // chequeCost by cheque, where chequeOK has the bit
	chequeOK uint32
}

func newJudge(s *razzia.State, w *weights) judge {
	var j judge
	j.reset(s, w)
	return j
}

// reset makes j the judge of s, as newJudge does, in place. A playout
// judges every move, and from one move to the next most of what a judge
// works out stays the same (a card drawn changes what is still to come of
// its kind, not of the others), so reset keeps what does not depend on
// anything that changed: the seats' chances by kind, their jewel and
// bodyguard values and their cheque costs. What it keeps is what it would
// work out again, to the bit.
func (j *judge) reset(s *razzia.State, w *weights) {
	fresh := j.w != w || j.n != s.Players()
	oldLater := j.later
	j.s, j.w, j.quick, j.n, j.later = s, w, false, s.Players(), razzia.Rounds-s.Round()
	old := j.share
	oldNow, oldAll, oldLeft, oldCentre := j.now, j.all, j.left, j.centre
	j.share, j.centre = [razzia.MaxPlayers]float64{}, s.Centre()
	up, all := 0, 0
	sameCheques, sameGuards := true, true
	for p := range j.n {
		h := s.Holdings(p)
		sameGuards = sameGuards && h[razzia.Bodyguard] == j.hold[p][razzia.Bodyguard]
		j.hold[p] = h
		u, d := s.FaceUp(p), s.FaceDown(p)
		sameCheques = sameCheques && u == j.up[p] && d == j.down[p]
		j.up[p], j.down[p] = u, d
		c := u.Len()
		up += c
		all += c + d.Len()
		j.sums[p] = (u | d).Sum()
	}
	for p := range j.n {
		if up > 0 {
			j.share[p] = float64(s.FaceUp(p).Len()) / float64(up)
		}
	}
	var changed uint32 // kinds with fewer cards to come than before
	for _, k := range razzia.Kinds {
		r := float64(s.Remaining(k))
		if r != j.rem[k] {
			changed |= 1 << k
		}
		j.rem[k] = r
	}
	// The police still to come are spread evenly through the undrawn cards,
	// so the share of the loot drawn before the k-th of them is about
	// k/(police+1).
	limit := s.PoliceLimit()
	toEnd := float64(limit - s.Police())
	police := j.rem[razzia.Police]
	j.now = min(1, toEnd/(police+1))
	j.all = min(1, (toEnd+float64(j.later*limit))/(police+1))
	j.left = toEnd / float64(limit)
	if all > 0 {
		j.left = min(j.left, float64(up)/float64(all))
	}

	switch {
	case j.later == 0:
		j.carLater = 0
	case fresh || changed&(1<<razzia.Driver) != 0 || j.now != oldNow || j.all != oldAll || j.later != oldLater:
		perRound := j.rem[razzia.Driver] * (j.all - j.now) / float64(j.later)
		j.carLater = float64(j.later) * (1 - exp(-perRound*w.won/float64(j.n)))
	}

	scorings := 1 + j.later
	sameGuards = sameGuards && scorings == j.scorings
	j.scorings = scorings
	guards := j.rem[razzia.Bodyguard] * w.won
	for t := range j.scorings {
		for p := range j.n {
			add := guards * j.now * j.share[p]
			if t > 0 {
				add += guards * (j.all - j.now) * float64(t) / float64(j.later) / float64(j.n)
			}
			sameGuards = sameGuards && add == j.guardAdd[t][p]
			j.guardAdd[t][p], j.guardVar[t][p] = add, add
		}
	}
	if sd := 0.5 + 3*(float64(j.later)+j.left); sd != j.majSD || j.majGen == 0 {
		j.majSD, j.majGen = sd, j.majGen+1
	}

	// What each part of a seat's model reads: seat the shares and what is
	// to come, jewels the chances of the jewels, guards the bodyguards
	// and guardAdd, chequeCost the cheques and left.
	sameFactors := !fresh && j.now == oldNow && j.all == oldAll
	sameCheques = !fresh && sameCheques && j.left == oldLeft && j.centre == oldCentre && j.later == oldLater
	for p := range j.seats {
		m := &j.seats[p]
		m.known = 0
		if !sameFactors || j.share[p] != old[p] {
			m.ready, m.stale, m.jewelOK = false, 0, 0
		} else {
			m.stale |= changed
			if changed&jewelKinds != 0 {
				m.jewelOK = 0
			}
		}
		if fresh || !sameGuards {
			m.guardOK = 0
		}
		if !sameCheques {
			m.chequeOK = 0
		}
	}
}

// jewelKinds has the bits of the jewels' kinds.
var jewelKinds = func() uint32 {
	var b uint32
	for _, k := range razzia.Jewels {
		b |= 1 << k
	}
	return b
}()

// seat returns the model of seat p, working it out on first use, or again
// for the kinds of which fewer are to come than when it was.
func (j *judge) seat(p int) *seatModel {
	m := &j.seats[p]
	if m.ready {
		if m.stale != 0 {
			j.chances(m, m.stale)
			m.stale = 0
		}
		return m
	}
	m.ready, m.stale = true, 0
	// The cards of a kind still to come to the seat are about Poisson
	// with a mean of rem times a factor, so e^-mean is a power of e^-factor.
	m.now = exp(-j.now * j.share[p] * j.w.won)
	m.share = j.share[p]*j.now + (j.all-j.now)/float64(j.n)
	m.game = exp(-m.share * j.w.won)
	j.chances(m, ^uint32(0))
	return m
}

// chances works out the model's chances for the kinds with a bit in kinds.
func (j *judge) chances(m *seatModel, kinds uint32) {
	for _, k := range razzia.Kinds {
		if kinds&(1<<k) != 0 && (k.IsJewel() || k == razzia.Driver) {
			m.got[k] = 1 - pow(m.now, j.rem[k])
		}
	}
	for i, k := range razzia.Businesses {
		if kinds&(1<<k) == 0 {
			continue
		}
		lam := j.rem[k] * m.share * j.w.won
		term := pow(m.game, j.rem[k])
		m.more[i][0] = term
		for c := 1; c < 4; c++ {
			term *= lam / float64(c)
			m.more[i][c] = m.more[i][c-1] + term
		}
	}
}

// worth estimates the points holdings h bring seat p from now to the end
// of the game.
func (j *judge) worth(p int, h *razzia.Holdings) float64 {
	m := j.seat(p)
	v := 2*float64(h[razzia.Thief]) + 3*float64(h[razzia.Gold])

	// Cars score with a driver (R16); drivers leave after every round,
	// cars stay.
	cars := float64(h[razzia.Car])
	if h[razzia.Driver] > 0 {
		v += cars + float64(h[razzia.Driver])
	} else {
		v += m.got[razzia.Driver] * (cars + 1)
	}
	v += cars * j.carLater
	return v + j.jewels(p, h) + j.guards(p, int(h[razzia.Bodyguard])) + j.businesses(p, h)
}

// base is the worth of seat p's holdings as they are.
func (j *judge) base(p int) float64 {
	m := j.seat(p)
	if m.known&1 == 0 {
		m.base, m.known = j.worth(p, &j.hold[p]), m.known|1
	}
	return m.base
}

// jewelPoints is the score of 0..5 distinct jewels (R16).
var jewelPoints = [...]float64{-5, 0, 0, 5, 10, 15}

// jewels is the expected jewel score at the end of this round: the kinds
// held, and each kind not held with the chance it still comes to p.
func (j *judge) jewels(p int, h *razzia.Holdings) float64 {
	m := j.seat(p)
	mask := 0
	for i, k := range razzia.Jewels {
		if h[k] > 0 {
			mask |= 1 << i
		}
	}
	if m.jewelOK&(1<<mask) != 0 {
		return m.jewels[mask]
	}
	var dist [len(razzia.Jewels) + 1]float64 // distinct kinds still to come
	dist[0] = 1
	held := 0
	for i, k := range razzia.Jewels {
		if mask&(1<<i) != 0 {
			held++
			continue
		}
		q := m.got[k]
		for d := len(dist) - 1; d > 0; d-- {
			dist[d] = dist[d]*(1-q) + dist[d-1]*q
		}
		dist[0] *= 1 - q
	}
	v := 0.0
	for i, pr := range dist[:len(dist)-held] {
		v += pr * jewelPoints[held+i]
	}
	m.jewels[mask], m.jewelOK = v, m.jewelOK|1<<mask
	return v
}

// guards is the expected bodyguard score of seat p holding b bodyguards,
// over the scorings still to come (R16): most +5, fewest -2.
func (j *judge) guards(p, b int) float64 {
	m := &j.seats[p]
	b = min(b, maxGuards)
	if m.guardOK&(1<<b) != 0 {
		return m.guards[b]
	}
	v := 0.0
	for t := range j.scorings {
		mine := float64(b) + j.guardAdd[t][p]
		most, fewest := 1.0, 1.0
		equal := true
		for q := range j.n {
			if q == p {
				continue
			}
			theirs := float64(j.hold[q][razzia.Bodyguard]) + j.guardAdd[t][q]
			sd := math.Sqrt(j.guardVar[t][p] + j.guardVar[t][q] + 0.01)
			most *= normal((mine - theirs + 0.5) / sd)
			fewest *= normal((theirs - mine + 0.5) / sd)
			equal = equal && theirs == mine
		}
		if equal && j.guardVar[t][p] == 0 {
			continue // all equal: nobody scores
		}
		v += 5*most - 2*fewest
	}
	m.guards[b], m.guardOK = v, m.guardOK|1<<b
	return v
}

// pow returns x to the power of the whole number n >= 0.
func pow(x, n float64) float64 {
	r := 1.0
	for ; n > 0; n-- {
		r *= x
	}
	return r
}

// normal approximates the standard normal distribution function.
func normal(x float64) float64 { return 1 / (1 + exp(-1.702*x)) }

// exp is math.Exp to about 1e-7 relative error, for the arguments the
// judge uses, in a third of the time: playouts call it at every move.
func exp(x float64) float64 {
	switch {
	case x < -700:
		return 0
	case x > 700:
		return math.Inf(1)
	}
	// e^x = 2^k * 2^f with k whole and f in [-0.5, 0.5]; 2^f by its
	// Taylor series, whose 8th term is below 1e-7 there.
	t := x * math.Log2E
	k := int(t+1024.5) - 1024 // t rounded, without math.Floor's cost
	f := (t - float64(k)) * math.Ln2
	p := 1 + f*(1+f*(1.0/2+f*(1.0/6+f*(1.0/24+f*(1.0/120+f*(1.0/720+f*(1.0/5040)))))))
	return p * math.Float64frombits(uint64(k+1023)<<52)
}

// businesses is the expected business score at the end of the game
// (R17), with the businesses still to come shared out like the rest.
func (j *judge) businesses(p int, h *razzia.Holdings) float64 {
	m := j.seat(p)
	kinds, all, sets := 0.0, 1.0, 0.0
	for i, k := range razzia.Businesses {
		c := int(h[k])
		atLeast := func(t int) float64 {
			if c >= t {
				return 1
			}
			return 1 - m.more[i][t-c-1]
		}
		one := atLeast(1)
		kinds += one
		all *= one
		sets += 5*atLeast(3) + 5*atLeast(4)
	}
	return kinds + 3*all + sets
}

// lotValue is what the row adds to seat p's holdings, in points.
func (j *judge) lotValue(p int) float64 {
	m := j.seat(p)
	if m.known&2 == 0 {
		h := j.hold[p]
		for i := range j.s.RowLen() {
			h[j.s.RowCard(i)]++
		}
		m.lot, m.known = j.worth(p, &h)-j.base(p), m.known|2
	}
	return m.lot
}

// want is what winning the row is worth to seat p: its own gain and the
// gain it denies the opponent who wants the row most.
func (j *judge) want(p int) float64 {
	m := j.seat(p)
	if m.known&4 == 0 {
		most := 0.0
		for q := range j.n {
			if q != p {
				most = max(most, j.lotValue(q))
			}
		}
		m.want, m.known = j.lotValue(p)+j.w.denial*most/float64(j.n-1), m.known|4
	}
	return m.want
}

// chequeCost is what seat p gives up by winning with cheque c: what the
// cheque could still buy this round, and what trading it for the centre
// cheque does to p's cheques in the later rounds and to the final cheque
// majority (R17).
func (j *judge) chequeCost(p, c int) float64 {
	m := &j.seats[p]
	if m.chequeOK&(1<<c) != 0 {
		return m.cheque[c]
	}
	s := j.s
	up := s.FaceUp(p)
	spare := j.w.spare
	if j.w.tempo > 0 && up.Len() <= j.fewestRivalCheques(p) {
		// Spending it shortens the seat's round before the rivals':
		// they will buy alone with what they hold beyond it.
		spare += j.w.tempo
	}
	if up.Len() == 1 {
		spare *= 1 + j.w.lastOne
	}
	cost := j.left * (spare + j.w.rank*float64(c-up.Min())/razzia.MaxCheque)
	delta := s.Centre() - c // the change to p's cheques
	cost -= j.w.power * float64(delta*j.later)
	cost -= j.majority(p, j.sums[p]+delta) - j.majority(p, j.sums[p])
	m.cheque[c], m.chequeOK = cost, m.chequeOK|1<<c
	return cost
}

// fewestRivalCheques is the fewest face-up cheques a rival of seat p
// holds.
func (j *judge) fewestRivalCheques(p int) int {
	fewest := razzia.MaxCheque
	for q := range j.n {
		if q != p {
			fewest = min(fewest, j.up[q].Len())
		}
	}
	return fewest
}

// majority is seat p's expected cheque majority score at the end (R17)
// with a total of sum, the totals being what they are now and less
// certain the more rounds are left.
func (j *judge) majority(p, sum int) float64 {
	if j.w.exact && j.later == 0 {
		return j.finalMajority(p, sum)
	}
	most, fewest := 1.0, 1.0
	for q, v := range j.sums[:j.n] {
		if q == p {
			continue
		}
		most *= j.majTerm(sum - v)
		fewest *= j.majTerm(v - sum)
	}
	return 5*most - 5*fewest
}

// finalMajority is seat p's cheque majority score (R17) should the game
// end with p's total at sum and the others' as they are: in the last
// round only the auctions still to come change them.
func (j *judge) finalMajority(p, sum int) float64 {
	most, fewest, equal := true, true, true
	for q, v := range j.sums[:j.n] {
		if q == p {
			continue
		}
		most = most && sum >= v
		fewest = fewest && sum <= v
		equal = equal && sum == v
	}
	switch {
	case equal:
		return 0
	case most:
		return 5
	case fewest:
		return -5
	}
	return 0
}

// majTerm is the chance term of majority for a lead of d in cheques.
func (j *judge) majTerm(d int) float64 {
	i := d + maxSum
	if j.majAt[i] != j.majGen {
		j.majVal[i], j.majAt[i] = normal((float64(d)+0.5)/j.majSD), j.majGen
	}
	return j.majVal[i]
}

// winChance estimates the chance that seat p's bid c wins the running
// auction, or, when p is to call one (from a turn), that p wins it with c
// bidding last: each seat that bids after p and holds a higher cheque
// outbids it when the lot is worth its next cheque to it.
func (j *judge) winChance(p, c int) float64 {
	s := j.s
	chance := 1.0
	last := p // calling: p is the initiator and bids last
	if s.Phase() == razzia.PhaseAuction {
		last = s.Initiator()
	}
	for q := (p + 1) % j.n; q != p; q = (q + 1) % j.n {
		if s.Phase() != razzia.PhaseAuction || s.Bidding(q) == razzia.BiddingUndecided {
			if above := s.FaceUp(q).Above(c); above != 0 {
				chance *= 1 - normal((j.want(q)-j.chequeCost(q, above.Min()))/j.w.tau)
			}
		}
		if q == last {
			break
		}
	}
	return chance
}
