package main

import (
	"slices"
	"testing"
)

func edges(n int, es ...[2]int) []map[int]bool {
	g := make([]map[int]bool, n)
	for i := range g {
		g[i] = map[int]bool{}
	}
	for _, e := range es {
		g[e[0]][e[1]] = true
	}
	return g
}

func backwards(g []map[int]bool) int {
	pos := map[int]int{}
	for i, v := range greedyOrder(g) {
		pos[v] = i
	}
	n := 0
	for a := range g {
		for b := range g[a] {
			if pos[b] < pos[a] {
				n++
			}
		}
	}
	return n
}

func TestGreedyOrder(t *testing.T) {
	tests := []struct {
		name string
		g    []map[int]bool
		back int
	}{
		{"chain reads one way", edges(3, [2]int{2, 1}, [2]int{1, 0}), 0},
		{"a cycle of three has one edge back", edges(3, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 0}), 1},
		{"two cycles through one file", edges(3, [2]int{0, 1}, [2]int{1, 0}, [2]int{1, 2}, [2]int{2, 1}), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := backwards(tt.g); got != tt.back {
				t.Errorf("backwards = %d, want %d (order %v)", got, tt.back, greedyOrder(tt.g))
			}
		})
	}
}

func TestComponents(t *testing.T) {
	c := components(edges(4, [2]int{0, 1}, [2]int{1, 0}, [2]int{1, 2}, [2]int{3, 2}))
	if c[0] != c[1] || c[1] == c[2] || c[2] == c[3] || c[3] == c[0] {
		t.Errorf("components = %v: want 0 and 1 together, 2 and 3 alone", c)
	}
	if got := greedyOrder(edges(2)); !slices.Equal(got, []int{0, 1}) && !slices.Equal(got, []int{1, 0}) {
		t.Errorf("order of two lone vertices = %v", got)
	}
}

// TestFilesReadOneWay: the files of the table's host and of its match
// depend on each other one way, so that a reader can take them in order
// (docs/architecture.md); a helper that two layers share goes below both.
func TestFilesReadOneWay(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks two packages against the go command's export data")
	}
	for _, dir := range []string{"../../table", "../../match"} {
		p, err := load(dir)
		if err != nil {
			t.Fatal(err)
		}
		g := p.graph()
		comp := components(g)
		for a := range g {
			for b := range g[a] {
				if comp[a] == comp[b] {
					t.Errorf("%s: %s and %s depend on each other (go run ./internal/tools/pkgmap -edges %s)", dir, p.names[a], p.names[b], dir)
				}
			}
		}
	}
}
