package i18n_test

import (
	"fmt"
	"log"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/i18n"
)

// The catalogue tells a game's events in its language: the server sends
// these sentences with the events, and "razzia replay" prints the
// English ones.
func ExampleCatalogue_Narrate() {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Miriam", "Felix", "Elke", "Dennis"}})
	if err != nil {
		log.Fatal(err)
	}
	for _, token := range []string{
		"draw watch", "draw car", "draw bodyguard", "draw police", // Dennis's police card starts an auction
		"pass", "bid 7", "pass", "bid 9", // Miriam, Felix, Elke, and Dennis last
	} {
		if err := g.PlayToken(token); err != nil {
			log.Fatal(err)
		}
	}
	en, de := i18n.Default(), must(i18n.Lookup("de"))
	for _, e := range g.Events() {
		fmt.Println(en.Narrate(e, g.Players()))
	}
	fmt.Println(de.Narrate(g.Events()[0], g.Players()))
	// Output:
	// Miriam draws a watch.
	// Felix draws a car.
	// Elke draws a bodyguard.
	// Dennis draws police (1 on the track).
	// Police auction.
	// Miriam passes.
	// Felix bids 7.
	// Elke passes.
	// Dennis bids 9.
	// Dennis wins with 9: takes 1 watch, 1 bodyguard and 1 car and cheque 1 face down.
	// Miriam zieht eine Uhr.
}

func must(c *i18n.Catalogue, ok bool) *i18n.Catalogue {
	if !ok {
		log.Fatal("no such language")
	}
	return c
}
