package rating

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

func TestForfeit(t *testing.T) {
	tests := []struct {
		name      string
		ranks     []int
		forfeited []bool
		want      []int
	}{
		{"nobody forfeited: the order by score stands", []int{2, 1, 3}, []bool{false, false, false}, []int{2, 1, 3}},
		{"nobody forfeited: ranks made dense", []int{1, 4, 4, 9}, []bool{false, false, false, false}, []int{1, 2, 2, 3}},
		{"the winner by score timed out: a loss, the others move up", []int{1, 2, 3}, []bool{true, false, false}, []int{3, 1, 2}},
		{"the last by score left: nothing changes", []int{1, 2, 3}, []bool{false, false, true}, []int{1, 2, 3}},
		{"two forfeited: they share the last place", []int{1, 2, 3, 4}, []bool{true, false, true, false}, []int{3, 1, 3, 2}},
		{"a tie among those who stayed is kept", []int{2, 1, 2}, []bool{false, true, false}, []int{1, 2, 1}},
		{"everybody forfeited: all share one rank", []int{1, 2}, []bool{true, true}, []int{1, 1}},
		{"two players, one left", []int{1, 2}, []bool{true, false}, []int{2, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := slices.Clone(tt.ranks)
			got, err := Forfeit(tt.ranks, tt.forfeited)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Forfeit(%v, %v) = %v, want %v", tt.ranks, tt.forfeited, got, tt.want)
			}
			if !slices.Equal(tt.ranks, in) {
				t.Errorf("the input ranks changed to %v", tt.ranks)
			}
		})
	}
}

func TestForfeitBadInput(t *testing.T) {
	tests := []struct {
		name      string
		ranks     []int
		forfeited []bool
	}{
		{"lengths differ", []int{1, 2}, []bool{false}},
		{"rank 0", []int{0, 1}, []bool{false, false}},
		{"negative rank of a forfeiter", []int{1, -3}, []bool{false, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Forfeit(tt.ranks, tt.forfeited); !errors.Is(err, ErrGame) {
				t.Errorf("err = %v, want ErrGame", err)
			}
		})
	}
}

// A forfeit costs the player who left and only them: the one who timed
// out loses rating although the bot won by score.
func TestForfeitRated(t *testing.T) {
	m := Default()
	players := []Rating{m.New(), m.New(), m.New()}
	ranks, err := Forfeit([]int{1, 2, 3}, []bool{true, false, false})
	if err != nil {
		t.Fatal(err)
	}
	after, err := m.Rate(players, ranks)
	if err != nil {
		t.Fatal(err)
	}
	if !(after[0].Mu < m.Mu) || !(after[1].Mu > m.Mu) || !(after[1].Mu > after[2].Mu) {
		t.Errorf("after a forfeit by the winner by score: %v", after)
	}
}

func ExampleForfeit() {
	// Miriam won by score, but timed out and a bot finished her game.
	ranks, _ := Forfeit([]int{1, 2, 3, 3}, []bool{true, false, false, false})
	fmt.Println(ranks)
	// Output: [3 1 2 2]
}
