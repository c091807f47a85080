package razzia_test

import (
	"fmt"
	"log"

	"github.com/razziagame/razzia"
)

// What the lot is worth to each player if the round ended now, and how close
// the raid is. Dennis already holds two bodyguards, the most: for him the
// row's bodyguard adds nothing to that, only the car and driver count. For
// the others it also lifts them off the fewest bodyguards (−2, R16).
func ExampleState_Stakes() {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Miriam", "Felix", "Elke", "Dennis"}})
	if err != nil {
		log.Fatal(err)
	}
	for _, token := range []string{
		"draw bodyguard", "draw bodyguard", "call", // Miriam, Felix; Elke calls
		"bid 5", "pass", "pass", "pass", // Dennis wins both bodyguards
		"draw bodyguard", "draw car", "draw driver", "draw police", // Dennis, Miriam, Felix, Elke
	} {
		if err := g.PlayToken(token); err != nil {
			log.Fatal(err)
		}
	}
	s := g.State()
	for _, st := range s.Stakes(nil) {
		fmt.Printf("%-6s bidding %2d gains %d: bodyguards %+d, cars %+d\n", g.Players()[st.Seat], st.Bid,
			st.Gain.Total(), st.Gain[razzia.CategoryBodyguards], st.Gain[razzia.CategoryCars])
	}
	r := s.RaidRisk()
	fmt.Printf("Police %d/%d: %d of %d cards left are police (%.0f%%); %d more end the round.\n",
		r.Police, r.Limit, r.PoliceLeft, r.CardsLeft, 100*r.Chance(), r.ToRaid())
	// Output:
	// Miriam bidding  2 gains 4: bodyguards +2, cars +2
	// Felix  bidding  3 gains 4: bodyguards +2, cars +2
	// Elke   bidding  4 gains 4: bodyguards +2, cars +2
	// Dennis bidding  9 gains 2: bodyguards +0, cars +2
	// Police 1/7: 20 of 114 cards left are police (18%); 6 more end the round.
}
