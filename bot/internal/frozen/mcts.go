package frozen

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/razziagame/razzia"
)

// DefaultIters is the number of iterations an mcts spec without iters runs.
const DefaultIters = 6000

// MCTS is information-set Monte Carlo tree search for several players.
//
// The only hidden information in Razzia is the order of the undrawn cards,
// so an information set is a public state and the search needs no
// determinised deals: every draw in the tree is a chance node whose outcome
// is sampled, per iteration, from the public composition of the undrawn
// cards, and whose children are keyed by the kind drawn. Each decision
// node selects by UCT for the seat to move there, using that seat's own
// reward, so every player is modelled as playing for itself. Rewards are a
// vector over the seats: a share of the win (1/k for k tied winners) plus a
// small term for the score margin over the best opponent.
//
// Nodes and edges live in pools that are reused from one decision to the
// next, and the playouts run on the engine's allocation-free State, so a
// decision allocates nothing once the pools have grown.
type MCTS struct {
	iters int
	limit time.Duration // 0: no time limit
	c     float64       // exploration constant
	light bool          // light heuristic rollouts instead of uniform ones
	rng   *rand.Rand

	nodes []node
	edges []edge
	path  []step
	buf   []razzia.Move
	root  []razzia.Move
}

// A node is a decision node (its edges are the legal moves) or, after a
// draw, a chance node (its edges are the kinds that may come, indexed by
// kind).
type node struct {
	first  int32 // index of the first edge
	n      int16 // number of edges; -1 until expanded
	chance bool
	visits int32
}

type edge struct {
	move   razzia.Move
	child  int32   // node index, or -1 while unvisited
	visits int32   // times selected
	reward float32 // sum of the rewards of the seat that moves at the parent
}

// A step is one decision on an iteration's path, for backpropagation.
type step struct {
	edge int32
	seat int8
}

const numKinds = len(razzia.Holdings{})

// Reward weights: a win share counts most; the margin term breaks ties
// between lost (or won) games and is scaled by a typical score gap.
const (
	marginWeight = 0.1
	marginScale  = 30.0
)

// NewMCTS returns an MCTS bot seeded with seed that runs at most iters
// iterations and, when limit is positive, stops after limit.
func NewMCTS(seed uint64, iters int, limit time.Duration) *MCTS {
	return &MCTS{iters: iters, limit: limit, c: 0.7, light: true, rng: newRand(seed)}
}

// Choose implements Bot.
func (b *MCTS) Choose(v razzia.View) razzia.Move {
	legal := legalMoves(&v, &b.buf)
	switch len(legal) {
	case 0:
		return razzia.Move{}
	case 1:
		return legal[0]
	}
	b.root = append(b.root[:0], legal...) // b.buf is reused below
	root := b.search(&v.State, b.root)
	best, most := legal[0], int32(-1)
	for _, e := range b.edges[root.first : root.first+int32(root.n)] {
		if e.visits > most {
			best, most = e.move, e.visits
		}
	}
	return best
}

// search runs the iterations from s and returns the root.
func (b *MCTS) search(s *razzia.State, legal []razzia.Move) node {
	b.nodes, b.edges = b.nodes[:0], b.edges[:0]
	b.newNode()
	b.expand(0, legal)
	var deadline time.Time
	if b.limit > 0 {
		deadline = time.Now().Add(b.limit)
	}
	for i := range b.iters {
		if b.limit > 0 && i%16 == 0 && i > 0 && time.Now().After(deadline) {
			break
		}
		st := *s
		b.iterate(&st)
	}
	return b.nodes[0]
}

// Iterations returns the iterations the last decision ran (the root's
// visits), for benchmarks and logs.
func (b *MCTS) Iterations() int {
	if len(b.nodes) == 0 {
		return 0
	}
	return int(b.nodes[0].visits)
}

func (b *MCTS) newNode() int32 {
	b.nodes = append(b.nodes, node{n: -1})
	return int32(len(b.nodes) - 1)
}

// expand gives node ni one edge per move, in random order so that the
// untried moves are tried in random order.
func (b *MCTS) expand(ni int32, moves []razzia.Move) {
	first := int32(len(b.edges))
	for _, m := range moves {
		b.edges = append(b.edges, edge{move: m, child: -1})
	}
	es := b.edges[first:]
	for i := len(es) - 1; i > 0; i-- {
		k := b.rng.IntN(i + 1)
		es[i], es[k] = es[k], es[i]
	}
	b.nodes[ni].first, b.nodes[ni].n = first, int16(len(moves))
}

// expandChance gives chance node ni one edge per kind.
func (b *MCTS) expandChance(ni int32) {
	first := int32(len(b.edges))
	for k := range numKinds {
		b.edges = append(b.edges, edge{move: razzia.Draw(razzia.Kind(k)), child: -1})
	}
	b.nodes[ni].first, b.nodes[ni].n, b.nodes[ni].chance = first, int16(numKinds), true
}

// iterate runs one iteration from st: selection and expansion down the
// tree, a playout from the new leaf, and backpropagation.
func (b *MCTS) iterate(st *razzia.State) {
	b.path = b.path[:0]
	ni := int32(0)
	for !st.Over() {
		nd := &b.nodes[ni]
		nd.visits++
		if nd.chance {
			k := st.RandomCard(b.rng)
			st.Apply(razzia.Draw(k))
			e := &b.edges[nd.first+int32(k)]
			if e.child < 0 {
				c := b.newNode()
				b.edges[b.nodes[ni].first+int32(k)].child = c
				b.nodes[c].visits++
				break
			}
			ni = e.child
			continue
		}
		if nd.n < 0 {
			b.buf = st.LegalMoves(b.buf[:0])
			b.expand(ni, b.buf)
			nd = &b.nodes[ni]
		}
		ei := b.selectEdge(nd)
		seat := int8(st.ToMove())
		b.path = append(b.path, step{ei, seat})
		m := b.edges[ei].move
		leaf := b.edges[ei].child < 0
		if leaf {
			c := b.newNode()
			b.edges[ei].child = c
		}
		child := b.edges[ei].child
		if m.Action == razzia.ActionDraw {
			if b.nodes[child].n < 0 {
				b.expandChance(child)
			}
			if leaf {
				b.nodes[child].visits++
				st.Apply(razzia.Draw(st.RandomCard(b.rng)))
				break
			}
			ni = child
			continue
		}
		st.Apply(m)
		if leaf {
			b.nodes[child].visits++
			break
		}
		ni = child
	}
	b.playout(st)
	r := rewards(st)
	for _, p := range b.path {
		e := &b.edges[p.edge]
		e.visits++
		e.reward += r[p.seat]
	}
}

// selectEdge picks an untried edge first, then the edge with the highest
// upper confidence bound for the seat to move.
func (b *MCTS) selectEdge(nd *node) int32 {
	logN := math.Log(float64(nd.visits))
	best, bestU := nd.first, -1.0
	for i := nd.first; i < nd.first+int32(nd.n); i++ {
		e := &b.edges[i]
		if e.visits == 0 {
			return i
		}
		n := float64(e.visits)
		u := float64(e.reward)/n + b.c*math.Sqrt(logN/n)
		if u > bestU {
			best, bestU = i, u
		}
	}
	return best
}

// rewards returns each seat's reward for a finished game: its share of the
// win, plus a small term for its margin over the best other seat.
func rewards(st *razzia.State) [razzia.MaxPlayers]float32 {
	t := st.Totals()
	n := st.Players()
	top, winners := t[0], 0
	for _, v := range t[:n] {
		top = max(top, v)
	}
	for _, v := range t[:n] {
		if v == top {
			winners++
		}
	}
	var r [razzia.MaxPlayers]float32
	for p := range n {
		other := math.MinInt
		for q, v := range t[:n] {
			if q != p {
				other = max(other, v)
			}
		}
		margin := max(-1, min(1, float64(t[p]-other)/marginScale))
		share := 0.0
		if t[p] == top {
			share = 1 / float64(winners)
		}
		r[p] = float32((1-marginWeight)*share + marginWeight*(0.5+0.5*margin))
	}
	return r
}

// playout plays st to the end.
func (b *MCTS) playout(st *razzia.State) {
	for !st.Over() {
		var m razzia.Move
		if b.light {
			m = b.lightMove(st)
		} else {
			b.buf = st.LegalMoves(b.buf[:0])
			m = b.buf[b.rng.IntN(len(b.buf))]
		}
		if m.Action == razzia.ActionDraw {
			m.Card = st.RandomCard(b.rng)
		}
		st.Apply(m)
	}
}

// lightMove is the rollout policy: cheap rules of thumb that play more
// like people than uniform choice does. Players mostly draw and call
// when the row is long; they bid more readily the longer the row, mostly
// with their lowest cheque.
func (b *MCTS) lightMove(st *razzia.State) razzia.Move {
	r := b.rng.IntN(100)
	row := st.RowLen()
	if st.Phase() == razzia.PhaseTurn {
		if st.DeckLeft() == 0 {
			return razzia.Call()
		}
		if row >= 3 && r < 6*(row-2) {
			return razzia.Call()
		}
		if row > 0 && r >= 90 && st.Holdings(st.ToMove())[razzia.Thief] > 0 {
			b.buf = st.LegalMoves(b.buf[:0])
			return b.buf[2+b.rng.IntN(len(b.buf)-2)]
		}
		return razzia.Draw(razzia.NoKind)
	}
	high, _ := st.HighBid()
	up := st.FaceUp(st.ToMove()).Above(high)
	if !st.MustBid() && r >= 10+13*row {
		return razzia.Pass()
	}
	c := up.Min()
	if b.rng.IntN(3) == 0 {
		// Some other cheque above the high bid.
		k := b.rng.IntN(up.Len())
		for ; k > 0; k-- {
			up &= up - 1
		}
		c = up.Min()
	}
	return razzia.Bid(c)
}
