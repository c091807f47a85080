package bot

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot/internal/frozen"
)

// DefaultIters is the number of iterations an mcts spec without iters or
// time runs.
const DefaultIters = 6000

// MCTS is Monte Carlo tree search for several players.
//
// The only hidden information in Razzia is the order of the undrawn cards,
// so an information set is a public state and the search needs no
// determinised deals: every draw in the tree is a chance node whose outcome
// is sampled, per iteration, from the public composition of the undrawn
// cards, and whose children are keyed by the kind drawn. Each decision
// node selects by UCT for the seat to move there, using that seat's own
// reward, so every player is modelled as playing for itself; the move the
// heuristic would make gets a bonus that fades as the node's moves are
// tried (progressive bias). Rewards are a vector over the seats: a share
// of the win (1/k for k tied winners) plus a small term for the score
// margin over the best opponent. The playouts of NewMCTS's bots are those
// of hard and expert (rollout=auto,light=5,policy=flat,cut=none): below 5
// seats they follow the yardstick's policy to the game's end, with noise
// on its values so that they vary; at 5, b971414's light rules of thumb.
// With mix=X, a new leaf's reward is the playout's mixed with the
// afterstate value of the leaf (see after.go).
//
// With several workers, each searches its own tree from the same root
// (root parallelism) and the roots' statistics are summed: the result
// depends on the seed, the iterations and the number of workers, not on
// how the workers were scheduled. A search of one worker bounded by
// iterations stops once its most visited move is sure to stay so, which
// saves time and changes no choice. Nodes and edges live in pools that are
// reused from one decision to the next, so a decision allocates little
// once the pools have grown.
type MCTS struct {
	iters   int                        // iterations per decision, shared by the workers; 0: no limit
	itersBy [razzia.MaxPlayers + 1]int // iters by the players at the table, when given so (iters=N/N/N/N)
	limit   time.Duration              // 0: no time limit
	workers int
	c       float64     // exploration constant
	fpu     float64     // first-play urgency: see selectEdge; negative: every move tried first
	bias    float64     // weight of the heuristic's move
	noise   float64     // noise of the playout policy, in points
	noiseBy byPlayers   // noise by the players at the table, when given so (noise=X/X/X/X)
	rollout rollout     // the playouts' policy
	light   int         // with rollout=auto, the table size from which playouts are light
	cut     bool        // end playouts at the round's end with the value function
	crn     bool        // Choose compares the root's moves on shared deck orders (see runCRN); Evaluate searches as without
	dropSE  float64     // with crn, the standard errors behind the best that drop a root move; 0: none
	strat   bool        // chance nodes deal each kind its share of the visits (see drawKind) instead of sampling
	widen   float64     // chance nodes of n visits hold at most ⌈widen·√n⌉ kinds (see widenKind); 0: every kind that comes
	tt      bool        // the paths to one position share its node (see child)
	margin  float64     // the weight of the score margin in a playout's reward (see rewardsWith)
	mix     float64     // the weight of the afterstate value in a new leaf's reward, the playout's the rest (see after.go)
	mixBy   byPlayers   // mix by the players at the table, when given so (mix=X/X/X/X)
	values  *valueTable // that value function; nil: the embedded one
	w       *weights
	rng     *rand.Rand

	trees []*tree
	buf   []razzia.Move
	root  []razzia.Move
	means []float64 // the mover's mean reward by root move, of the last search
	last  int       // iterations of the last decision
}

// NewMCTS returns an MCTS bot seeded with seed that runs at most iters
// iterations per decision (0: no limit) and, when limit is positive,
// stops after limit, one of the two being set, with workers searching at
// once (at least 1). It searches as hard and expert do (rollout=auto,
// light=5, policy=flat, cut=none: playouts to the game's end by the
// yardstick's policy, by light rules at 5 players), so that analysis and
// hints judge as the levels play (a test compares it with hard's Fixed
// spec).
func NewMCTS(seed uint64, iters int, limit time.Duration, workers int) *MCTS {
	return &MCTS{iters: iters, limit: limit, workers: max(1, workers), c: 0.4, fpu: -1, bias: 1, noise: 2, dropSE: DropSE, margin: marginWeight,
		rollout: rolloutAuto, light: levelLightPlayers, w: &flatWeights, rng: newRand(seed)}
}

// levelLightPlayers is the table size from which the levels' playouts
// follow light rules (their light=5).
const levelLightPlayers = 5

// Choose implements Bot.
func (b *MCTS) Choose(v razzia.View) razzia.Move {
	b.last = 0
	legal := legalMoves(&v, &b.buf)
	switch len(legal) {
	case 0:
		return razzia.Move{}
	case 1:
		return legal[0]
	}
	b.root = prune(&v.State, append(b.root[:0], legal...))
	if len(b.root) == 1 {
		return b.root[0]
	}
	stats := b.search(context.Background(), &v.State, b.root, -1, true)
	best := 0
	for i := range stats {
		better := stats[i].Visits > stats[best].Visits
		if b.crn {
			// The moves still in the running have the most visits, alike
			// for each worker; the best mean among them is chosen.
			better = better || stats[i].Visits == stats[best].Visits && b.means[i] > b.means[best]
		}
		if better {
			best = i
		}
	}
	return b.root[best]
}

// A MoveValue is what a search found about one move.
type MoveValue struct {
	Move   razzia.Move
	Visits int // iterations that began with the move
	// Share is each seat's expected share of the win after the move (a
	// win shared by k counts 1/k), indexed by seat.
	Share [razzia.MaxPlayers]float64
	// Cards is set for a draw: what the search found after each kind of
	// card that may come, indexed by kind. Their visits sum to the draw's,
	// each kind having come about as often as its share of the undrawn
	// cards, so that a card's luck can be told against the draw's value
	// with the same samples.
	Cards []CardValue
}

// A CardValue is what a search found after one kind of card was drawn.
type CardValue struct {
	Visits int                        // iterations in which the kind came
	Share  [razzia.MaxPlayers]float64 // each seat's expected share of the win
}

// Evaluate searches s, as Choose would, and returns what it found about
// the moves of the seat to move worth making (the legal moves less the
// bids that pay more than needed, see prune) and about played, when it is
// a legal move, the most visited first; ties keep the order of
// LegalMoves. When the search gave played fewer than a quarter of the
// iterations, more are run through it until it has them, so that its
// value is nearly as sure as the best move's. Evaluate stops early,
// returning ctx's error, when ctx is done. It is deterministic given the
// bot's seed, its iterations and workers, and the calls made before, when
// the bot is not limited by time.
func (b *MCTS) Evaluate(ctx context.Context, s *razzia.State, played razzia.Move) ([]MoveValue, error) {
	all := s.LegalMoves(nil)
	if len(all) == 0 {
		return nil, nil
	}
	legal := prune(s, slices.Clone(all))
	if slices.Contains(all, played) && !slices.Contains(legal, played) {
		legal = append(legal, played)
		slices.SortStableFunc(legal, func(x, y razzia.Move) int { return slices.Index(all, x) - slices.Index(all, y) })
	}
	force := slices.Index(legal, played)
	stats := b.search(ctx, s, legal, force, false)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	slices.SortStableFunc(stats, func(x, y MoveValue) int { return y.Visits - x.Visits })
	return stats, nil
}

// search runs the workers' trees from s and returns the statistics of
// each root move, in the order of legal. When force is the index of a
// move, that move is searched until it has at least a quarter of the
// iterations. With settle, a search of one worker bounded by iterations
// stops as soon as its most visited move can no longer be overtaken by
// the iterations left: the move it chooses is the same, in less time,
// but the statistics are not those of the whole search.
func (b *MCTS) search(ctx context.Context, s *razzia.State, legal []razzia.Move, force int, settle bool) []MoveValue {
	for len(b.trees) < b.workers {
		b.trees = append(b.trees, &tree{})
	}
	var deadline time.Time
	if b.limit > 0 {
		deadline = time.Now().Add(b.limit)
	}
	budget := b.iters
	if n := b.itersBy[s.Players()]; n > 0 {
		budget = n
	}
	var wg sync.WaitGroup
	for i, t := range b.trees[:b.workers] {
		iters := 0
		if budget > 0 {
			// Split the budget: the first workers take the remainder.
			iters = budget / b.workers
			if i < budget%b.workers {
				iters++
			}
		}
		t.reset(b, b.rng.Uint64(), ctx.Done(), s.Players())
		t.settle = settle && b.workers == 1 && iters > 0
		run := func() {
			if b.crn && force < 0 {
				t.runCRN(s, legal, iters, deadline)
				return
			}
			t.run(s, legal, iters, deadline)
			if force >= 0 {
				t.force(s, legal[force], max(iters, t.iterations())/4, deadline)
			}
		}
		if b.workers == 1 {
			run()
			continue
		}
		wg.Go(run)
	}
	wg.Wait()
	stats := make([]MoveValue, len(legal))
	b.last = 0
	for i, m := range legal {
		stats[i].Move = m
	}
	b.means = append(b.means[:0], make([]float64, len(legal))...)
	for _, t := range b.trees[:b.workers] {
		t.addStats(legal, stats, b.means)
		b.last += t.iterations()
	}
	for i := range stats {
		if n := float64(stats[i].Visits); n > 0 {
			for p := range stats[i].Share {
				stats[i].Share[p] /= n
			}
			b.means[i] /= n
		}
		for k := range stats[i].Cards {
			c := &stats[i].Cards[k]
			if n := float64(c.Visits); n > 0 {
				for p := range c.Share {
					c.Share[p] /= n
				}
			}
		}
	}
	return stats
}

// Iterations returns the iterations the last decision ran, over all
// workers, for benchmarks and logs.
func (b *MCTS) Iterations() int { return b.last }

// A tree is one worker's search.
type tree struct {
	b     *MCTS
	src   *rand.PCG
	rng   *rand.Rand
	done  <-chan struct{} // closed when the search must stop, or nil
	play  playout
	light *frozen.Light // light playouts' policy, drawing from rng
	leaf  judge         // the judge of the leaves' afterstate values (mix)
	mix   float32       // the search's mix at this table's size
	st    razzia.State  // the iteration's state, in the tree since the playout's judge points to it
	nodes []node
	edges []edge
	// table holds the decision node of each position below the root,
	// with tt: draws in another order reach the same node.
	table map[razzia.Position]int32
	path  []step
	buf   []razzia.Move
	// share sums each seat's share of the win over the iterations through
	// each root edge, by the edge's index from the root's first.
	share [][razzia.MaxPlayers]float64
	// cards sums, over the iterations through the root's draw, each
	// seat's share of the win by the kind that came first.
	cards  [numKinds]CardValue
	forced int32 // the root edge every iteration takes, or -1
	// With crn: the shared deck orders' generator, the deck of the
	// sample, the reward of each sample by root edge, and the root edges
	// still in the running.
	crnSrc  *rand.PCG
	crnRng  *rand.Rand
	deck    []razzia.Kind
	crnR    [][]float32
	alive   []bool
	settle  bool // stop when the most visited root edge is sure to stay so
	stopped bool
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
	prior  float32 // the heuristic's preference: 1 for its move, else 0
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

func (t *tree) reset(b *MCTS, seed uint64, done <-chan struct{}, players int) {
	t.b, t.done, t.forced, t.stopped = b, done, -1, false
	if t.rng == nil {
		t.src = rand.NewPCG(seed, 0)
		t.rng = rand.New(t.src)
		t.crnSrc = rand.NewPCG(seed, 1)
		t.crnRng = rand.New(t.crnSrc)
	} else {
		t.src.Seed(seed, 0)
		t.crnSrc.Seed(seed, 1)
	}
	r := b.rollout
	if r == rolloutAuto {
		r = rolloutHeuristic
		if players >= b.light {
			r = rolloutLight
		}
	}
	// Light playouts are played to the end: the value function was fitted
	// to the heuristic's games, and they are cheap enough not to need it.
	t.play = playout{w: b.w, rng: t.rng, noise: b.noiseBy.at(players, b.noise), rollout: r, cut: b.cut && r != rolloutLight, values: b.values}
	t.mix = float32(b.mixBy.at(players, b.mix))
	if r == rolloutLight {
		if t.light == nil {
			t.light = frozen.NewLight(t.rng)
		}
		t.play.light = t.light
	}
	t.nodes, t.edges = t.nodes[:0], t.edges[:0]
	clear(t.table)
}

// run searches from s, whose legal moves are legal, until it has run
// iters iterations (0: no limit) or the deadline (zero: none) has passed,
// or t.done is closed.
func (t *tree) run(s *razzia.State, legal []razzia.Move, iters int, deadline time.Time) {
	t.newNode()
	t.expand(0, s, legal)
	t.share = append(t.share[:0], make([][razzia.MaxPlayers]float64, len(legal))...)
	t.cards = [numKinds]CardValue{}
	t.loop(s, iters, deadline)
}

// runCRN searches from s as run does, but compares the root's moves as
// the yardstick (Flat) does, on common random numbers: each sample
// shuffles the undrawn cards by their public composition, and every root
// move still in the running gets one iteration in which the draws, in
// the tree and in the playout, come in that order and the playout's
// noise is the same; as samples come in, a move more than dropSE
// standard errors of the paired difference behind the best is dropped.
// Below the root the tree grows as in run, so that the later decisions
// of each move's line are searched rather than played by the policy.
func (t *tree) runCRN(s *razzia.State, legal []razzia.Move, iters int, deadline time.Time) {
	t.newNode()
	t.expand(0, s, legal)
	t.share = append(t.share[:0], make([][razzia.MaxPlayers]float64, len(legal))...)
	t.cards = [numKinds]CardValue{}
	root := t.nodes[0]
	n := int(root.n)
	for len(t.crnR) < n {
		t.crnR = append(t.crnR, nil)
	}
	t.alive = t.alive[:0]
	for k := range n {
		t.crnR[k] = t.crnR[k][:0]
		t.alive = append(t.alive, true)
	}
	me, left, done := s.ToMove(), n, 0
	for samples := 0; left > 1 && (iters == 0 || done+left <= iters); samples++ {
		if t.stop(deadline) {
			break
		}
		t.deck = shuffled(t.deck, s, t.crnRng)
		t.play.deck = t.deck
		seed := t.crnRng.Uint64()
		for k := range n {
			if !t.alive[k] {
				continue
			}
			t.src.Seed(seed, 0)
			t.forced = root.first + int32(k)
			t.st = *s
			r := t.iterate(&t.st)
			t.crnR[k] = append(t.crnR[k], r[me])
			done++
		}
		if t.b.dropSE > 0 && samples+1 >= flatWarmup && (samples+1)%4 == 0 {
			left = dropBehind(t.crnR[:n], t.alive, t.b.dropSE)
		}
	}
	t.forced, t.play.deck = -1, nil
}

// loop runs iterations from s as run does.
func (t *tree) loop(s *razzia.State, iters int, deadline time.Time) {
	for i := 0; iters == 0 || i < iters; i++ {
		if i%8 == 0 && (t.stop(deadline) || t.settle && t.settled(iters-i)) {
			break
		}
		t.st = *s
		t.iterate(&t.st)
	}
}

// stop reports whether the search must stop: its time is up or it was
// cancelled.
func (t *tree) stop(deadline time.Time) bool {
	if t.stopped {
		return true
	}
	select {
	case <-t.done:
		t.stopped = true
	default:
		t.stopped = !deadline.IsZero() && time.Now().After(deadline)
	}
	return t.stopped
}

// force runs iterations through the root edge of move m until it has been
// visited at least visits times.
func (t *tree) force(s *razzia.State, m razzia.Move, visits int, deadline time.Time) {
	root := t.nodes[0]
	for i := root.first; i < root.first+int32(root.n); i++ {
		if t.edges[i].move == m {
			t.forced = i
			if more := visits - int(t.edges[i].visits); more > 0 {
				t.loop(s, more, deadline)
			}
			t.forced = -1
			return
		}
	}
}

// settled reports whether the most visited root edge stays the most
// visited, strictly, whatever the next left iterations do: each adds one
// visit to one root edge.
func (t *tree) settled(left int) bool {
	root := t.nodes[0]
	first, second := int32(0), int32(0)
	for _, e := range t.edges[root.first : root.first+int32(root.n)] {
		switch {
		case e.visits > first:
			first, second = e.visits, first
		case e.visits > second:
			second = e.visits
		}
	}
	return int(first-second) > left
}

func (t *tree) iterations() int {
	if len(t.nodes) == 0 {
		return 0
	}
	return int(t.nodes[0].visits) - 1 // the expansion of the root is no iteration
}

// addStats adds the root edges' visits and share sums to stats, and
// their sums of the mover's rewards to means, by the index of their move
// in legal.
func (t *tree) addStats(legal []razzia.Move, stats []MoveValue, means []float64) {
	root := t.nodes[0]
	for k, e := range t.edges[root.first : root.first+int32(root.n)] {
		i := slices.Index(legal, e.move)
		stats[i].Visits += int(e.visits)
		means[i] += float64(e.reward)
		for p, v := range t.share[k] {
			stats[i].Share[p] += v
		}
		if e.move.Action == razzia.ActionDraw {
			if stats[i].Cards == nil {
				stats[i].Cards = make([]CardValue, numKinds)
			}
			for kind, c := range t.cards {
				stats[i].Cards[kind].Visits += c.Visits
				for p, v := range c.Share {
					stats[i].Cards[kind].Share[p] += v
				}
			}
		}
	}
}

// child returns the decision node of st, the state after a move or a
// draw, and whether it was in the tree already: with tt, the node of
// st's position if another path reached it, otherwise a new node. A
// shared node's edges gather the iterations of every path to it, so the
// search below it reaches as deep as their sum allows; each parent's edge
// keeps its own statistics.
func (t *tree) child(st *razzia.State) (int32, bool) {
	if !t.b.tt {
		return t.newNode(), false
	}
	if t.table == nil {
		t.table = make(map[razzia.Position]int32)
	}
	pos := st.Position()
	if ni, ok := t.table[pos]; ok {
		return ni, true
	}
	ni := t.newNode()
	t.table[pos] = ni
	return ni, false
}

func (t *tree) newNode() int32 {
	t.nodes = append(t.nodes, node{n: -1})
	return int32(len(t.nodes) - 1)
}

// expand gives node ni one edge per move: the heuristic's move first, with
// its prior, then the others in random order, so that untried moves are
// tried in that order.
func (t *tree) expand(ni int32, s *razzia.State, moves []razzia.Move) {
	first := int32(len(t.edges))
	for _, m := range moves {
		t.edges = append(t.edges, edge{move: m, child: -1})
	}
	es := t.edges[first:]
	for i := len(es) - 1; i > 0; i-- {
		k := t.rng.IntN(i + 1)
		es[i], es[k] = es[k], es[i]
	}
	if t.b.bias > 0 {
		pick := t.play.heuristic(s, moves)
		for i := range es {
			if es[i].move == pick {
				es[0], es[i] = es[i], es[0]
				es[0].prior = 1
				break
			}
		}
	}
	t.nodes[ni].first, t.nodes[ni].n, t.nodes[ni].visits = first, int16(len(moves)), 1
}

// expandChance gives chance node ni one edge per kind.
func (t *tree) expandChance(ni int32) {
	first := int32(len(t.edges))
	for k := range numKinds {
		t.edges = append(t.edges, edge{move: razzia.Draw(razzia.Kind(k)), child: -1})
	}
	t.nodes[ni].first, t.nodes[ni].n, t.nodes[ni].chance = first, int16(numKinds), true
}

// iterate runs one iteration from st: selection and expansion down the
// tree, a playout from the new leaf, and backpropagation.
func (t *tree) iterate(st *razzia.State) [razzia.MaxPlayers]float32 {
	t.path = t.path[:0]
	ni := int32(0)
	first := -1 // the kind drawn by the root's draw
	for !st.Over() {
		nd := &t.nodes[ni]
		if nd.chance {
			nd.visits++
			k := t.drawKind(ni, st)
			if len(t.path) == 1 && first < 0 {
				first = int(k) // the chance node under the root's draw
			}
			st.Apply(razzia.Draw(k))
			ei := nd.first + int32(k)
			if t.edges[ei].child < 0 {
				c, seen := t.child(st)
				t.edges[ei].child = c
				if !seen {
					break
				}
			}
			ni = t.edges[ei].child
			continue
		}
		if nd.n < 0 {
			t.buf = prune(st, st.LegalMoves(t.buf[:0]))
			t.expand(ni, st, t.buf)
			break
		}
		nd.visits++
		ei := t.selectEdge(nd)
		t.path = append(t.path, step{ei, int8(st.ToMove())})
		e := &t.edges[ei]
		if e.move.Action == razzia.ActionDraw {
			if e.child < 0 {
				c := t.newNode()
				t.edges[ei].child = c
				t.expandChance(c)
			}
			ni = t.edges[ei].child
			continue
		}
		st.Apply(e.move)
		if e.child < 0 {
			t.edges[ei].child, _ = t.child(st)
			ni = t.edges[ei].child
			continue // expanded on the next pass, then played out; a shared node is searched on
		}
		ni = e.child
	}
	var r, share, v [razzia.MaxPlayers]float32
	mix := t.mix
	if mix > 0 && !st.Over() {
		v = afterValue(st, &t.leaf, t.b.w, &trainedAfter)
	} else {
		mix = 0
	}
	switch {
	case mix == 1:
		r, share = v, v // the value alone: no playout
	case t.play.run(st):
		r, share = rewardsWith(st, t.b.margin)
	default:
		r = value(st, t.play.valueWeights(st))
		share = r
	}
	for p := range r {
		r[p] = (1-mix)*r[p] + mix*v[p]
	}
	for _, p := range t.path {
		e := &t.edges[p.edge]
		e.visits++
		e.reward += r[p.seat]
	}
	if len(t.path) > 0 {
		sh := &t.share[t.path[0].edge-t.nodes[0].first]
		for p, v := range share {
			sh[p] += float64(v)
		}
	}
	if first >= 0 {
		c := &t.cards[first]
		c.Visits++
		for p, v := range share {
			c.Share[p] += float64(v)
		}
	}
	return r
}

// drawKind returns the kind that comes at chance node ni, whose state is
// st. It samples the deck unless the search widens (widenKind) or
// stratifies: then it takes the kind furthest behind its share of the
// node's visits (its count in the deck over the cards left), the first
// such in kind order, so that a node of n visits has seen every kind
// within one visit of its expected count.
// The draw's value is then close to the exact average over the kinds,
// without the noise of which kinds the samples happened to bring; it still
// reads nothing of the deck's order.
func (t *tree) drawKind(ni int32, st *razzia.State) razzia.Kind {
	if t.b.widen > 0 {
		return t.widenKind(ni, st)
	}
	if !t.b.strat {
		return t.play.card(st)
	}
	nd := &t.nodes[ni]
	left := float64(st.DeckLeft())
	best, behind := razzia.NoKind, math.Inf(-1)
	for k := range numKinds {
		c := st.Remaining(razzia.Kind(k))
		if c == 0 {
			continue
		}
		e := &t.edges[nd.first+int32(k)]
		if d := float64(c)/left*float64(nd.visits) - float64(e.visits); d > behind {
			best, behind = razzia.Kind(k), d
		}
	}
	if best != razzia.NoKind {
		t.edges[nd.first+int32(best)].visits++
	}
	return best
}

// widenKind returns the kind that comes at chance node ni, whose state is
// st, by progressive widening: while the node has drawn fewer kinds than
// widen·√visits it samples the deck, and otherwise it takes one of the
// kinds it has drawn, in proportion to their counts in the deck. A node
// of few visits so averages over a few draws and searches each deeper,
// where sampling would spread them over every kind that comes; with more
// visits it comes to hold them all.
func (t *tree) widenKind(ni int32, st *razzia.State) razzia.Kind {
	nd := &t.nodes[ni]
	es := t.edges[nd.first : nd.first+int32(nd.n)]
	kinds, weight := 0, 0
	for k := range es {
		if es[k].visits > 0 {
			kinds++
			weight += st.Remaining(razzia.Kind(k))
		}
	}
	k := razzia.NoKind
	if kinds == 0 || float64(kinds) < t.b.widen*math.Sqrt(float64(nd.visits)) {
		k = t.play.card(st)
	} else {
		r := t.rng.IntN(weight)
		for i := range es {
			if es[i].visits == 0 {
				continue
			}
			if r -= st.Remaining(razzia.Kind(i)); r < 0 {
				k = razzia.Kind(i)
				break
			}
		}
	}
	es[k].visits++
	return k
}

// selectEdge picks the edge with the highest upper confidence bound for
// the seat to move, plus the heuristic's bias. An untried edge comes
// first, unless the search has a first-play urgency (fpu ≥ 0): then an
// untried edge counts as one visit worth the mean of the node's tried
// edges less fpu, so that moves are tried one by one as the node's visits
// grow, and a node of few visits plays much as the heuristic would
// instead of trying every move once.
func (t *tree) selectEdge(nd *node) int32 {
	if t.forced >= 0 && nd == &t.nodes[0] {
		return t.forced
	}
	logN := math.Log(float64(nd.visits))
	best, bestU := nd.first, math.Inf(-1)
	untried := int32(-1)
	var sum, tried float64
	for i := nd.first; i < nd.first+int32(nd.n); i++ {
		e := &t.edges[i]
		if e.visits == 0 {
			if t.b.fpu < 0 {
				return i
			}
			if untried < 0 || e.prior > t.edges[untried].prior {
				untried = i
			}
			continue
		}
		n := float64(e.visits)
		sum, tried = sum+float64(e.reward), tried+n
		u := float64(e.reward)/n + t.b.c*math.Sqrt(logN/n) + t.b.bias*float64(e.prior)/(n+1)
		if u > bestU {
			best, bestU = i, u
		}
	}
	if untried >= 0 {
		u := sum/tried - t.b.fpu + t.b.c*math.Sqrt(logN) + t.b.bias*float64(t.edges[untried].prior)/2
		if tried == 0 || u >= bestU {
			return untried
		}
	}
	return best
}

// rewards returns each seat's reward for a finished game, its share of
// the win plus a small term for its margin over the best other seat, and
// its share of the win alone.
func rewards(st *razzia.State) (reward, share [razzia.MaxPlayers]float32) {
	return rewardsWith(st, marginWeight)
}

// rewardsWith is rewards with the margin's weight mw.
func rewardsWith(st *razzia.State, mw float64) (reward, share [razzia.MaxPlayers]float32) {
	n, totals := st.Players(), totalsOf(st)
	t := totals[:n]
	top, winners := t[0], 0
	for _, v := range t {
		top = max(top, v)
	}
	for _, v := range t[:n] {
		if v == top {
			winners++
		}
	}
	for p := range n {
		other := math.MinInt
		for q, v := range t[:n] {
			if q != p {
				other = max(other, v)
			}
		}
		margin := max(-1, min(1, float64(t[p]-other)/marginScale))
		if t[p] == top {
			share[p] = 1 / float32(winners)
		}
		reward[p] = float32((1-mw)*float64(share[p]) + mw*(0.5+0.5*margin))
	}
	return reward, share
}

// A rollout is a playout policy.
type rollout uint8

const (
	rolloutHeuristic rollout = iota // the heuristic, with noise on its values
	rolloutRandom                   // uniform over the legal moves
	rolloutLight                    // b971414's rules of thumb (frozen.Light): cheap, bidding readily
	rolloutAuto                     // light from a table size (AutoLightPlayers unless light=N), else the heuristic
)

// AutoLightPlayers is the table size from which rollout=auto plays light
// playouts, unless a spec's light=N says otherwise. Against three
// searches of b971414, which play light playouts themselves, the
// heuristic's playouts lost in 4 players (docs/strength.md).
const AutoLightPlayers = 4

// A playout plays games to the end by the heuristic with noise on its
// values, or uniformly. It draws cards from the public composition, or,
// when deck is set, in the order of deck (a determinisation).
type playout struct {
	w       *weights
	rng     *rand.Rand
	noise   float64
	rollout rollout
	light   *frozen.Light // the policy of rollout=light
	cut     bool          // stop at the end of the round, when the value function can take over
	full    bool          // judge calls with the others' values too, as the heuristic does
	values  *valueTable   // the value function that ends a cut playout; nil: the embedded one
	deck    []razzia.Kind // the undrawn cards in the order they come, or nil
	buf     []razzia.Move
	err     func() float64
	// j judges the playout's moves. It is kept through an auction, whose
	// bids and passes change nothing a judge reads before the auction is
	// settled, so the lots and cheques are valued once per auction, not
	// once per bid.
	j      judge
	judged bool // j is the judge of the running auction
}

// valueWeights returns the weights of the playout's value function for
// s, or nil when there are none (see valueWeights).
func (p *playout) valueWeights(s *razzia.State) *[numFeatures]float64 {
	if p.values == nil {
		return valueWeights(s)
	}
	return weightsIn(p.values, s)
}

// heuristic returns the heuristic's move in s among legal, without noise.
func (p *playout) heuristic(s *razzia.State, legal []razzia.Move) razzia.Move {
	if len(legal) == 1 {
		return legal[0]
	}
	p.j.reset(s, p.w)
	p.judged = false
	return decide(&p.j, legal, noError)
}

func noError() float64 { return 0 }

// move returns the playout's move in st, a draw naming no card.
func (p *playout) move(st *razzia.State) razzia.Move {
	p.buf = st.LegalMoves(p.buf[:0])
	if len(p.buf) == 1 {
		return p.buf[0]
	}
	switch p.rollout {
	case rolloutRandom:
		return p.buf[p.rng.IntN(len(p.buf))]
	case rolloutLight:
		return p.light.Move(st)
	}
	if p.err == nil {
		p.err = func() float64 { return p.rng.NormFloat64() * p.noise }
	}
	if !p.judged {
		p.j.reset(st, p.w)
		p.j.quick = !p.full
		p.judged = st.Phase() == razzia.PhaseAuction
	}
	return decide(&p.j, p.buf, p.err)
}

// card returns the next card to come in st.
func (p *playout) card(st *razzia.State) razzia.Kind {
	if p.deck == nil {
		return st.RandomCard(p.rng)
	}
	return p.deck[len(p.deck)-st.DeckLeft()]
}

// apply plays m in st, resolving a draw.
func (p *playout) apply(st *razzia.State, m razzia.Move) {
	if m.Action == razzia.ActionDraw && m.Card == razzia.NoKind {
		m.Card = p.card(st)
	}
	st.Apply(m)
}

// run plays st to the end, or with cut to the end of its round when the
// value function knows the next, and reports whether the game is over.
func (p *playout) run(st *razzia.State) bool {
	round := st.Round()
	p.judged = false
	for !st.Over() {
		if p.cut && st.Round() != round && p.valueWeights(st) != nil {
			return false
		}
		m := p.move(st)
		p.apply(st, m)
		// A bid or pass that leaves the auction running keeps the judge;
		// anything else, settling the auction included, changes what it
		// reads.
		p.judged = p.judged && (m.Action == razzia.ActionBid || m.Action == razzia.ActionPass) &&
			st.Phase() == razzia.PhaseAuction
	}
	return true
}
