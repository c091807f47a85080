package bot

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia"
)

// TestTranspositions checks tt=1: two cards drawn by two seats in either
// order lead the search to one node, whose edges are the moves of the
// position; without tt each order has its own node.
func TestTranspositions(t *testing.T) {
	g := newGame(t, 3, "tt")
	st := g.State()
	a, b := razzia.Car, razzia.Driver
	after := st
	after.Apply(razzia.Draw(a))
	after.Apply(razzia.Draw(b))
	want := prune(&after, after.LegalMoves(nil))
	for _, tt := range []bool{true, false} {
		m := NewMCTS(1, 0, 0, 1)
		m.tt = tt
		tr := &tree{}
		tr.reset(m, 7, nil, st.Players())
		tr.run(&st, st.LegalMoves(nil), 6000, time.Time{})
		ab, ba := tr.drawn(t, a, b), tr.drawn(t, b, a)
		if shared := ab == ba; shared != tt {
			t.Fatalf("tt=%v: the two orders share a node: %v", tt, shared)
		}
		for _, ni := range []int32{ab, ba} {
			nd := tr.nodes[ni]
			var moves []razzia.Move
			for _, e := range tr.edges[nd.first : nd.first+int32(nd.n)] {
				moves = append(moves, e.move)
			}
			if !sameMoves(moves, want) {
				t.Fatalf("tt=%v: node %d has the moves %v, want those of the position, %v", tt, ni, moves, want)
			}
		}
	}
}

// drawn returns the node the tree reached when the seat to move at the
// root drew x and the next seat y, failing when the search never went
// there or did not expand it.
func (t *tree) drawn(tb testing.TB, x, y razzia.Kind) int32 {
	tb.Helper()
	ni := int32(0)
	for _, k := range []razzia.Kind{x, y} {
		c := t.drawEdge(ni)
		if c < 0 || t.edges[t.nodes[c].first+int32(k)].child < 0 {
			tb.Fatalf("the search never drew %v then %v", x, y)
		}
		ni = t.edges[t.nodes[c].first+int32(k)].child
	}
	if t.nodes[ni].n < 0 {
		tb.Fatalf("the node after %v then %v was never expanded", x, y)
	}
	return ni
}

// drawEdge returns the chance node under decision node ni's draw, or -1.
func (t *tree) drawEdge(ni int32) int32 {
	nd := t.nodes[ni]
	for _, e := range t.edges[nd.first : nd.first+int32(nd.n)] {
		if e.move.Action == razzia.ActionDraw {
			return e.child
		}
	}
	return -1
}

func sameMoves(x, y []razzia.Move) bool {
	x, y = slices.Clone(x), slices.Clone(y)
	order := func(p, q razzia.Move) int { return strings.Compare(p.String(), q.String()) }
	slices.SortFunc(x, order)
	slices.SortFunc(y, order)
	return slices.Equal(x, y)
}
