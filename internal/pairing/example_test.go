package pairing_test

import (
	"fmt"
	"time"

	"github.com/razziagame/razzia/internal/pairing"
)

// Three people want a rapid table; Cy asks for three or four players,
// Ann and Bob for three. Dee, who came last, wants blitz: nobody pairs
// with her yet.
func ExamplePair() {
	at := time.Date(2026, 3, 14, 19, 40, 0, 0, time.UTC)
	reqs := []pairing.Request{
		{ID: "a", Person: "ann", Min: 3, Max: 3, Pace: "rapid", Finish: -1, Created: at},
		{ID: "b", Person: "bob", Min: 3, Max: 3, Pace: "rapid", Finish: -1, Created: at.Add(time.Second)},
		{ID: "c", Person: "cy", Min: 3, Max: 4, Pace: "rapid", Finish: -1, Created: at.Add(2 * time.Second)},
		{ID: "d", Person: "dee", Min: 2, Max: 2, Pace: "blitz", Finish: -1, Created: at.Add(3 * time.Second),
			BotsAfter: 30 * time.Second},
	}
	for _, t := range pairing.Pair(reqs, at.Add(10*time.Second), nil) {
		fmt.Println(t.Requests, "and", t.Bots, "bots")
	}
	// Half a minute later Dee's wait for bots is over.
	for _, t := range pairing.Pair(reqs[3:], at.Add(33*time.Second), nil) {
		fmt.Println(t.Requests, "and", t.Bots, "bots")
	}
	// Output:
	// [a b c] and 0 bots
	// [d] and 1 bots
}
