package textreport_test

import (
	"fmt"
	"os"

	"github.com/razziagame/razzia/internal/textreport"
)

func ExampleColumns() {
	textreport.Columns(os.Stdout, [][]string{
		{"bot", "games", "win rate"},
		{"hard", "12", "58.3%"},
		{"easy", "12", "8.3%"},
	})
	// Output:
	// bot   games  win rate
	// hard     12     58.3%
	// easy     12      8.3%
}

func ExamplePlural() {
	for _, n := range []int{1, 2} {
		fmt.Println(textreport.Plural(n, "game", "games"))
	}
	// Output:
	// 1 game
	// 2 games
}
