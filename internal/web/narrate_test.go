package web

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/i18n"
)

// TestNarrateJS: narrate.js tells every event as the server's narrator
// does, in every language: the events of random games, and the rare ones
// (thieves, a seventh card's auction nobody bid on, a shared win, a seat
// the players do not name) made up.
func TestNarrateJS(t *testing.T) {
	t.Parallel() // mostly node starting
	players := []string{"Ann", `<b>Felix</b> & "co"`, "Zoë", "Ed"}
	var events []razzia.Event
	for i := range 3 {
		g, err := razzia.NewGame(razzia.Setup{Players: players, Seed: []byte{byte(i), 'n'}})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 3))
		for !g.Over() {
			legal := g.LegalMoves()
			if err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
		events = append(events, g.Events()...)
	}
	events = append(events,
		razzia.Event{Kind: razzia.EventThieves, Seat: 1, Cards: []razzia.Kind{razzia.Car, razzia.Car, razzia.Gold}},
		razzia.Event{Kind: razzia.EventThieves, Seat: 2, Cards: []razzia.Kind{razzia.Ring}},
		razzia.Event{Kind: razzia.EventNoWinner, Seat: -1, Auction: razzia.AuctionSeventh, Cards: []razzia.Kind{razzia.Car, razzia.Watch}},
		razzia.Event{Kind: razzia.EventNoWinner, Seat: -1, Auction: razzia.AuctionForced},
		razzia.Event{Kind: razzia.EventWin, Seat: 0, Cheque: 9, Centre: 3, Auction: razzia.AuctionPolice},
		razzia.Event{Kind: razzia.EventGameOver, Seat: -1, Winners: []int{0, 2, 3}},
		razzia.Event{Kind: razzia.EventBid, Seat: 7, Cheque: 12},
	)
	type told struct {
		Event json.RawMessage `json:"event"`
		Text  string          `json:"text"`
	}
	cases := map[string][]told{}
	cats := map[string]json.RawMessage{}
	for _, l := range i18n.Languages() {
		cat, _ := i18n.Lookup(l.Tag)
		b, err := i18n.JSON(l.Tag)
		if err != nil {
			t.Fatal(err)
		}
		cats[l.Tag] = b
		for _, e := range events {
			ej, err := e.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			cases[l.Tag] = append(cases[l.Tag], told{ej, cat.Narrate(e, players)})
		}
	}
	input, _ := json.Marshal(map[string]any{"players": players, "cats": cats, "cases": cases})
	runCases(t, "narrate.js", `import { narrate } from "./narrate.mjs";
import { translator } from "./i18n.mjs";
const input = `+string(input)+`;
const cases = [];
for (const [tag, list] of Object.entries(input.cases)) {
  const t = translator(input.cats[tag], input.cats.en);
  for (const c of list) cases.push([tag + ": " + narrate(t, c.event, input.players), tag + ": " + c.text]);
}
`)
}
