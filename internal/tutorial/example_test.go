package tutorial_test

import (
	"fmt"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/tutorial"
)

// The prepared deal is an ordinary setup from a seed: the same for every
// learner but for the name.
func ExampleSetup() {
	setup := tutorial.Setup("Cy")
	g, err := razzia.NewGame(setup)
	if err != nil {
		panic(err)
	}
	fmt.Println(g.Players(), string(setup.Seed))
	fmt.Println("the learner's cheques:", setup.Cheques[tutorial.Learner])
	// Output:
	// [Cy Miriam Felix] tutorial-00000010
	// the learner's cheques: [4 7 10 11]
}
