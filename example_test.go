package razzia_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/razziagame/razzia"
)

// A game starts with the holder of the highest cheque to move (R6), who
// may draw or call an auction; thieves come later.
func ExampleNewGame() {
	g, err := razzia.NewGame(razzia.Setup{
		Players: []string{"Miriam", "Felix", "Elke", "Dennis"},
		Cheques: nil, // the rulebook sets A, B, C, D in seat order
	})
	if err != nil {
		log.Fatal(err)
	}
	s := g.State()
	seat := s.ToMove()
	fmt.Printf("%s starts with cheques %v; the centre holds %d.\n", g.Players()[seat], s.FaceUp(seat), s.Centre())
	fmt.Println("Legal moves:", g.LegalMoves())
	// Output:
	// Miriam starts with cheques 2 6 13; the centre holds 1.
	// Legal moves: [draw call]
}

// NewSetup deals a game from a secret seed: the cheque sets by lot (R4)
// and, kept in the setup, the order of the deck. The same seed always
// deals the same game, so a server that keeps the seed can replay it.
func ExampleNewSetup() {
	seed := []byte("32 secret random bytes, normally")
	setup := razzia.NewSetup([]string{"Miriam", "Felix", "Elke"}, seed)
	fmt.Println("cheques:", setup.Cheques)
	g, err := razzia.NewGame(setup)
	if err != nil {
		log.Fatal(err)
	}
	starter := g.Players()[g.ToMove()] // the highest cheque starts (R6)
	// "draw" names no card: the seed does.
	if err := g.PlayToken("draw"); err != nil {
		log.Fatal(err)
	}
	fmt.Println(starter, "starts:", g.Moves()[0])
	// Output:
	// cheques: [[2 5 8 13] [3 6 9 12] [4 7 10 11]]
	// Miriam starts: draw realestate
}

// Moves are played as record tokens; a draw names the card revealed (or,
// in a game with a Seed, "draw" lets the game pick it). The event log
// tells what happened, in JSON as the server sends it.
func ExampleGame_PlayToken() {
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
	for _, e := range g.Events() {
		b, _ := json.Marshal(e)
		fmt.Println(string(b))
	}
	s := g.State()
	fmt.Println("Next:", g.Players()[s.ToMove()])
	// Output:
	// {"kind":"draw","seat":0,"card":"watch"}
	// {"kind":"draw","seat":1,"card":"car"}
	// {"kind":"draw","seat":2,"card":"bodyguard"}
	// {"kind":"draw","seat":3,"card":"police","police":1}
	// {"kind":"auction","seat":3,"cards":["watch","car","bodyguard"],"auction":"police"}
	// {"kind":"pass","seat":0}
	// {"kind":"bid","seat":1,"cheque":7}
	// {"kind":"pass","seat":2}
	// {"kind":"bid","seat":3,"cheque":9}
	// {"kind":"win","seat":3,"cards":["watch","car","bodyguard"],"cheque":9,"centre":1,"auction":"police"}
	// Next: Miriam
}

// Check tells whether a move is legal without playing it. In a game with a
// seed it names the card a draw would reveal, so a server can store the move
// before it plays it: Play of the checked move gives the same card.
func ExampleGame_Check() {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Miriam", "Felix", "Elke"}, Seed: []byte("example")})
	if err != nil {
		log.Fatal(err)
	}
	_, err = g.Check(razzia.Bid(9))
	fmt.Println(err)
	m, err := g.Check(razzia.Draw(razzia.NoKind))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("checked:", m, "- moves played:", g.Len())
	if err := g.Play(m); err != nil {
		log.Fatal(err)
	}
	fmt.Println("played:", g.Moves()[0], "- moves played:", g.Len())
	// Output:
	// Miriam cannot bid 9: no auction is running; draw, use thieves or call
	// checked: draw realestate - moves played: 0
	// played: draw realestate - moves played: 1
}

// A game answers whose turn it is, how long it is and whether it is over,
// without copying its state.
func ExampleGame_Over() {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob"}, Seed: []byte("example")})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("to move:", g.Players()[g.ToMove()])
	for !g.Over() {
		legal := g.LegalMoves() // the last: thieves, a call, or the highest bid
		if err := g.Play(legal[len(legal)-1]); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println("over after", g.Len(), "moves; to move:", g.ToMove(), "- winners:", g.Winners())
	// Output:
	// to move: Ann
	// over after 59 moves; to move: -1 - winners: [0]
}

// EventsSince returns what the moves from the n-th on caused, copying only
// those events: a viewer that follows a game move by move asks for the
// events of the move just played.
func ExampleGame_EventsSince() {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Miriam", "Felix", "Elke", "Dennis"}})
	if err != nil {
		log.Fatal(err)
	}
	for _, token := range []string{"draw watch", "draw car", "call", "pass", "pass", "bid 7", "pass"} {
		if err := g.PlayToken(token); err != nil {
			log.Fatal(err)
		}
		var kinds []string
		for _, e := range g.EventsSince(g.Len() - 1) {
			kinds = append(kinds, fmt.Sprintf("%v by seat %d", e.Kind, e.Seat))
		}
		fmt.Printf("%-11s %s\n", token+":", strings.Join(kinds, ", "))
	}
	// Output:
	// draw watch: draw by seat 0
	// draw car:   draw by seat 1
	// call:       auction by seat 2
	// pass:       pass by seat 3
	// pass:       pass by seat 0
	// bid 7:      bid by seat 1
	// pass:       pass by seat 2, win by seat 1
}

// An illegal move returns a *MoveError that names the player and the
// reason, matches its sentinel with errors.Is, and changes nothing.
func ExampleMoveError() {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Miriam", "Felix", "Elke", "Dennis"}})
	if err != nil {
		log.Fatal(err)
	}
	if err := g.PlayToken("draw police"); err != nil {
		log.Fatal(err)
	}
	before := g.State()
	err = g.PlayToken("bid 9") // Felix holds 3, 7 and 12
	fmt.Println(err)
	fmt.Println("not held:", errors.Is(err, razzia.ErrNotHeld), "too low:", errors.Is(err, razzia.ErrBidTooLow))
	var me *razzia.MoveError
	if errors.As(err, &me) {
		fmt.Printf("seat %d (%s), move %q\n", me.Seat, me.Player, me.Move)
	}
	fmt.Println("unchanged:", g.State() == before)
	// Output:
	// Felix cannot bid 9: their face-up cheques are 3, 7 and 12
	// not held: true too low: false
	// seat 1 (Felix), move "bid 9"
	// unchanged: true
}

// State is the fast path for bots: a plain value cloned by assignment,
// legal moves appended to a reused buffer, chance resolved by RandomCard,
// and Apply, which allocates nothing.
func ExampleState() {
	s, err := razzia.NewState(4, nil)
	if err != nil {
		log.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]razzia.Move, 0, 80)
	start := s // a clone
	for range 6 {
		buf = s.LegalMoves(buf[:0])
		m := buf[0] // a turn offers the draw first, an auction the pass
		if m.Action == razzia.ActionDraw {
			m.Card = s.RandomCard(r)
		}
		fmt.Printf("seat %d: %v\n", s.ToMove(), m) // seats are 0-based
		s.Apply(m)
	}
	fmt.Println("row:", s.Row(), "police:", s.Police(), "cards left:", s.DeckLeft())
	fmt.Println("the clone still has", start.DeckLeft())
	// Moves not taken from LegalMoves are checked first. A State knows no
	// names: its errors number the seats from 1.
	fmt.Println(s.Check(razzia.Bid(16)))
	// Output:
	// seat 0: draw casino
	// seat 1: draw driver
	// seat 2: draw casino
	// seat 3: draw transport
	// seat 0: draw watch
	// seat 1: draw police
	// row: [casino driver casino transport watch] police: 1 cards left: 114
	// the clone still has 120
	// seat 3 cannot bid 16: their face-up cheques are 4, 8 and 11
}

// A game's record lists every move, draws naming their cards.
func ExampleGame_Record() {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob"}})
	if err != nil {
		log.Fatal(err)
	}
	for _, token := range []string{"draw ring", "call", "bid 2", "pass"} {
		if err := g.PlayToken(token); err != nil {
			log.Fatal(err)
		}
	}
	if _, err := g.Record().WriteTo(os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// {
	//   "format": "razzia-record/1",
	//   "players": ["Ann", "Bob"],
	//   "moves": [
	//     "draw ring",
	//     "call",
	//     "bid 2",
	//     "pass"
	//   ]
	// }
}

// A record replays a game exactly; an illegal move in it is reported with
// its index and the player's reason.
func ExampleRecord_Game() {
	const file = `{
	  "format": "razzia-record/1",
	  "players": ["Miriam", "Felix", "Elke", "Dennis"],
	  "cheques": [[3, 7, 12], [4, 8, 11], [5, 9, 10], [2, 6, 13]],
	  "moves": ["draw watch", "draw car", "draw bodyguard", "draw ring", "draw police",
	            "bid 7", "pass", "bid 9", "pass"]
	}`
	rec, err := razzia.ReadRecord(strings.NewReader(file))
	if err != nil {
		log.Fatal(err)
	}
	g, err := rec.Game()
	if err != nil {
		log.Fatal(err)
	}
	s := g.State()
	cards := 0
	for _, n := range s.Holdings(2) {
		cards += int(n)
	}
	fmt.Printf("Elke holds %d cards and cheque %v face down; the centre holds %d; %s is next.\n",
		cards, s.FaceDown(2), s.Centre(), g.Players()[s.ToMove()])

	rec.Moves = append(rec.Moves, "draw police", "pass", "bid 13")
	_, err = rec.Game()
	fmt.Println(err)
	var re *razzia.RecordError
	if errors.As(err, &re) {
		fmt.Println("move", re.Move, "is illegal; not held:", errors.Is(err, razzia.ErrNotHeld))
	}
	// Output:
	// Elke holds 4 cards and cheque 1 face down; the centre holds 9; Miriam is next.
	// move 12 (bid 13): Elke cannot bid 13: their face-up cheques are 5 and 10
	// move 12 is illegal; not held: true
}

// ScoreRound scores holdings that might be, as a bot values them; the
// scores marshal as the replay output does.
func ExampleScoreRound() {
	holdings := make([]razzia.Holdings, 2) // one per player
	cheques := make([]razzia.Cheques, 2)
	holdings[0][razzia.Bodyguard] = 4
	holdings[0][razzia.Car] = 3
	holdings[0][razzia.Driver] = 1
	holdings[1][razzia.Ring] = 1
	holdings[1][razzia.Watch] = 2
	holdings[1][razzia.Diamond] = 1
	holdings[1][razzia.Thief] = 1
	cheques[0] = razzia.ChequesOf(2, 5, 6, 9)
	cheques[1] = razzia.ChequesOf(1, 3, 4, 7) // the 8 is in the centre
	for _, s := range razzia.ScoreRound(holdings, cheques, true) {
		b, err := json.Marshal(s)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(string(b))
	}
	// Output:
	// {"thieves":0,"bodyguards":5,"cars":4,"jewels":-5,"gold":0,"businesses":0,"cheques":5,"total":9}
	// {"thieves":2,"bodyguards":-2,"cars":0,"jewels":5,"gold":0,"businesses":0,"cheques":-5,"total":0}
}
