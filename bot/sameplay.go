package bot

import "reflect"

// SamePlay reports whether the bots of specs a and b, given the same seed,
// play the same games at a table of players seats: the same spec, or two
// heuristics or two searches whose options differ only in what they do at
// other table sizes (the iterations, noise or mix given by table size, the size from
// which rollout=auto plays light). A calibration played with a level's
// old spec can so keep the games of the table sizes a change did not
// touch. It is conservative: a spec that does not parse plays like no
// other, and bots of other kinds only like their own spec.
func SamePlay(a, b string, players int) bool {
	if a == b {
		return true
	}
	x, err := New(a, 0)
	if err != nil {
		return false
	}
	y, err := New(b, 0)
	if err != nil {
		return false
	}
	px, ok := x.(sized)
	if !ok {
		return false
	}
	py, ok := y.(sized)
	if !ok {
		return false
	}
	return reflect.DeepEqual(px.playsAt(players), py.playsAt(players))
}

// A sized bot says how it plays at a table of players seats: a value that
// two bots share exactly when, from the same seed, they choose alike.
type sized interface {
	playsAt(players int) any
}

// playsAt is the search as it runs at a table of players: its iterations
// and playouts for that size, without the pools and generator one
// decision fills. Every other field is kept, so that an option added
// later tells two searches apart until this says otherwise.
func (b *MCTS) playsAt(players int) any {
	c := *b
	c.rng, c.trees, c.buf, c.root, c.means, c.last = nil, nil, nil, nil, nil, 0
	if n := c.itersBy[players]; n > 0 {
		c.iters = n
	}
	c.itersBy = [len(c.itersBy)]int{}
	c.noise, c.mix = c.noiseBy.at(players, c.noise), c.mixBy.at(players, c.mix)
	c.noiseBy, c.mixBy = byPlayers{}, byPlayers{}
	if c.rollout == rolloutAuto {
		c.rollout = rolloutHeuristic
		if players >= c.light {
			c.rollout = rolloutLight
		}
	}
	c.light = 0
	if c.rollout == rolloutLight {
		c.cut = false // light playouts are played to the end (tree.reset)
	}
	return c
}

// playsAt is the heuristic's options; it plays alike at every size.
func (b *Heuristic) playsAt(int) any {
	c := *b
	c.rng, c.buf, c.j = nil, nil, judge{}
	return c
}
