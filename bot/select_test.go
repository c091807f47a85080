package bot

import "testing"

// TestFirstPlayUrgency checks how a decision node picks between a tried
// move and untried ones: without a first-play urgency every move is tried
// once before any is tried twice; with one, an untried move waits until
// the node's visits make it worth a try, and the heuristic's move comes
// first among the untried.
func TestFirstPlayUrgency(t *testing.T) {
	node := func(fpu float64, visits int32, tried float32, heuristic int) (*tree, *node) {
		m := NewMCTS(1, 100, 0, 1)
		m.fpu = fpu
		tr := &tree{b: m, forced: -1}
		// Edge 0 tried visits times with a mean reward of tried; edges 1
		// and 2 untried; the heuristic's move is edge heuristic.
		tr.edges = []edge{{visits: visits, reward: tried * float32(visits)}, {}, {}}
		tr.edges[heuristic].prior = 1
		tr.nodes = []node{{first: 0, n: 3, visits: visits + 1}}
		return tr, &tr.nodes[0]
	}
	tests := []struct {
		name   string
		fpu    float64
		visits int32
		mean   float32
		heur   int
		want   int32
	}{
		{"no urgency: an untried move first", -1, 1, 0.9, 0, 1},
		{"no urgency: an untried move first after many visits", -1, 50, 0.9, 0, 1},
		{"urgency: the heuristic's move of few visits is kept", 0.1, 2, 0.6, 0, 0},
		{"urgency: an untried move once the visits make it worth a try", 0.1, 50, 0.6, 0, 1},
		{"urgency: the heuristic's move first among the untried", 0.1, 2, 0.6, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, nd := node(tt.fpu, tt.visits, tt.mean, tt.heur)
			if got := tr.selectEdge(nd); got != tt.want {
				t.Errorf("picked edge %d, want %d", got, tt.want)
			}
		})
	}
}
