package tournament_test

import (
	"fmt"

	"github.com/razziagame/razzia/internal/tournament"
)

// Seven people at tables of four sit at a table of four and one of three;
// an odd number at tables of two seat the last three together.
func ExampleSizes() {
	for _, c := range [][2]int{{7, 4}, {29, 4}, {12, 5}, {7, 2}} {
		s, _ := tournament.Sizes(c[0], c[1])
		fmt.Println(c[0], "at", c[1], "→", s)
	}
	// Output:
	// 7 at 4 → [4 3]
	// 29 at 4 → [4 4 4 4 4 3 3 3]
	// 12 at 5 → [4 4 4]
	// 7 at 2 → [3 2 2]
}

// A table of four: two share the win, and a bot stood in for the last
// seat, whose total counts for nothing.
func ExampleShares() {
	shares := tournament.Shares([]int{30, 30, 12, 41}, []bool{false, false, false, true})
	for _, s := range shares {
		fmt.Print(s, " ")
	}
	fmt.Println()
	// Output: 0.83 0.83 0.33 0
}

// Two rounds of a Swiss tournament of four at tables of two.
func ExampleStandings() {
	games := []tournament.Game{
		{Round: 1, Table: 1, Seats: []string{"Ann", "Bea"}, Totals: []int{30, 20}},
		{Round: 1, Table: 2, Seats: []string{"Cy", "Dan"}, Totals: []int{25, 25}},
		{Round: 2, Table: 1, Seats: []string{"Ann", "Cy"}, Totals: []int{10, 40}},
		{Round: 2, Table: 2, Seats: []string{"Bea", "Dan"}, Totals: []int{15, 22}},
	}
	for _, s := range tournament.Standings(tournament.Swiss, []string{"Ann", "Bea", "Cy", "Dan"}, games) {
		fmt.Printf("%d. %s %v (Buchholz %v)\n", s.Rank, s.ID, s.Points, s.Buchholz)
	}
	// Output:
	// 1. Cy 1.5 (Buchholz 2.5)
	// 2. Dan 1.5 (Buchholz 1.5)
	// 3. Ann 1 (Buchholz 1.5)
	// 4. Bea 0 (Buchholz 2.5)
}
