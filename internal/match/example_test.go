package match_test

import (
	"fmt"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/store"
)

// A host decides a command, stores the result's write with its lease's
// fence, and only then applies it; a refusal changes nothing.
func Example() {
	now := time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC)
	g := &store.Game{ID: "g1", Status: store.StatusOpen, Seats: make([]store.Seat, 2),
		Seed: []byte("a seed"), Created: now, Updated: now}
	g.Cheques = razzia.NewSetup(match.PlayerNames(g.Seats), g.Seed).Cheques
	m, err := match.Load(g)
	if err != nil {
		panic(err)
	}

	r, err := m.Decide(match.Command{Kind: match.Join, Name: "Ann", Hash: []byte("hash of Ann's token"), Seat: -1}, now)
	fmt.Println(r.Write.Kind, r.Write.Seat, err)
	m.Apply(r, now) // once the write is stored

	_, err = m.Decide(match.Command{Kind: match.Join, Name: "ANN", Hash: []byte("hash of another token"), Seat: -1}, now)
	fmt.Println(err)

	r, _ = m.Decide(match.Command{Kind: match.Join, Name: "Bob", Hash: []byte("hash of Bob's token"), Seat: -1}, now)
	m.Apply(r, now)
	fmt.Println(m.Status, r.StartGame)
	// Output:
	// take seat 0 <nil>
	// Ann is already at this table: choose another name
	// playing true
}
