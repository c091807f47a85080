package premove

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/razziagame/razzia"
)

// The rulebook's table (RULES.md, E1): Miriam B (3 7 12), Felix C (4 8 11),
// Elke D (5 9 10) and Dennis A (2 6 13); Dennis holds the 13 and starts.
const (
	miriam = iota
	felix
	elke
	dennis
)

func newGame(t testing.TB, tokens ...string) *razzia.Game {
	t.Helper()
	return newTable(t, nil, tokens...)
}

// newTable starts a game with the cheque sets given (nil: the rulebook's
// table) and plays the tokens.
func newTable(t testing.TB, cheques [][]int, tokens ...string) *razzia.Game {
	t.Helper()
	setup := razzia.Setup{
		Players: []string{"Miriam", "Felix", "Elke", "Dennis"},
		Cheques: [][]int{{3, 7, 12}, {4, 8, 11}, {5, 9, 10}, {2, 6, 13}},
	}
	if cheques != nil {
		setup = razzia.Setup{Players: []string{"Anna", "Bert", "Cleo"}[:len(cheques)], Cheques: cheques}
	}
	g, err := razzia.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	play(t, g, tokens...)
	return g
}

func play(t testing.TB, g *razzia.Game, tokens ...string) {
	t.Helper()
	for _, tok := range tokens {
		if err := g.PlayToken(tok); err != nil {
			t.Fatalf("%s: %v", tok, err)
		}
	}
}

// policeAuction is Dennis's police card after a row of four: the auction
// asks Miriam, Felix, Elke, then Dennis (R7, R10).
var policeAuction = []string{"draw watch", "draw car", "draw bodyguard", "draw ring", "draw police"}

// forcedAuction is Dennis calling an auction on a row of four: it asks
// Miriam, Felix, Elke, then Dennis (R9).
var forcedAuction = []string{"draw watch", "draw car", "draw bodyguard", "draw ring", "call"}

// threePlayers seats B (3 6 9 12), A (2 5 8 13) and C (4 7 10 11): Bert
// starts, Cleo's police card starts an auction that asks Anna, Bert, then
// Cleo, and once Anna bids 12 Cleo can only be passed over (R4, R10).
var threePlayers = [][]int{{3, 6, 9, 12}, {2, 5, 8, 13}, {4, 7, 10, 11}}

func move(t testing.TB, token string) razzia.Move {
	t.Helper()
	m, err := razzia.ParseMove(token)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestEnter(t *testing.T) {
	tests := []struct {
		name    string
		cheques [][]int  // nil: the rulebook's table
		before  []string // played from the start
		seat    int
		move    string
		err     error // nil: accepted
	}{
		{"R10: a later bidder passes ahead", nil, policeAuction, felix, "pass", nil},
		{"R10: a later bidder bids ahead", nil, policeAuction, elke, "bid 9", nil},
		{"R10: the initiator, asked last, bids ahead", nil, policeAuction, dennis, "bid 13", nil},
		{"R10: a bid ahead above the highest bid", nil, append(policeAuction, "bid 3"), elke, "bid 5", nil},
		{"R9: the caller may pass ahead", nil, forcedAuction, dennis, "pass", nil},
		{"R9: the caller may bid ahead", nil, forcedAuction, dennis, "bid 2", nil},
		{"R2: a cheque the seat does not hold", nil, policeAuction, felix, "bid 9", razzia.ErrNotHeld},
		{"R11: a face-down cheque cannot be bid", nil, append(policeAuction, "bid 3", "pass", "pass", "pass", "draw police"), miriam, "bid 1", razzia.ErrNotHeld},
		{"R10: a bid not above the highest bid", nil, append(policeAuction, "bid 7"), elke, "bid 5", razzia.ErrBidTooLow},
		{"R10: a bid below the highest bid", nil, append(policeAuction, "bid 7", "bid 8"), dennis, "bid 6", razzia.ErrBidTooLow},
		{"R7: a bid at a turn", nil, nil, felix, "bid 8", razzia.ErrNoAuction},
		{"R7: a pass at a turn", nil, []string{"draw car"}, elke, "pass", razzia.ErrNoAuction},
		{"R7: a draw is not an auction choice", nil, policeAuction, felix, "draw", razzia.ErrInAuction},
		{"R8: thieves are not an auction choice", nil, policeAuction, felix, "thief car", razzia.ErrInAuction},
		{"R9: a call is not an auction choice", nil, policeAuction, felix, "call", razzia.ErrInAuction},
		{"R10: the seat to decide plays its move instead", nil, policeAuction, miriam, "pass", ErrYourTurn},
		{"R10: a seat that has passed", nil, append(policeAuction, "pass"), miriam, "bid 12", ErrDecided},
		{"R10: a seat that has bid", nil, append(policeAuction, "bid 3"), miriam, "bid 7", ErrDecided},
		{"R10, R13: a seat with no cheque above the highest bid is passed over", threePlayers, []string{"draw watch", "draw police", "bid 12"}, 2, "pass", ErrPassedOver},
		{"R10: a seat already passed over", nil, append(policeAuction, "bid 12"), elke, "pass", ErrDecided},
		{"a seat not at the table", nil, policeAuction, 4, "pass", ErrNoSeat},
		{"a negative seat", nil, policeAuction, -1, "pass", ErrNoSeat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTable(t, tt.cheques, tt.before...).State()
			before := s
			p, err := Enter(&s, tt.seat, move(t, tt.move))
			if !errors.Is(err, tt.err) {
				t.Fatalf("Enter(seat %d, %s) error = %v, want %v", tt.seat, tt.move, err, tt.err)
			}
			if s != before {
				t.Error("Enter changed the state")
			}
			if err != nil {
				var e *Error
				if !errors.As(err, &e) || e.Seat != tt.seat {
					t.Errorf("%v is not an *Error for seat %d", err, tt.seat)
				}
				if p != (PreMove{}) {
					t.Errorf("a refused pre-move came back as %+v", p)
				}
				return
			}
			if p.Seat != tt.seat || p.Move != move(t, tt.move) || p.Auction != AuctionOf(&s) {
				t.Errorf("Enter = %+v", p)
			}
		})
	}
}

func TestEnterMalformed(t *testing.T) {
	s := newGame(t, policeAuction...).State()
	for _, m := range []razzia.Move{{}, {Action: razzia.ActionBid}, {Action: razzia.ActionPass, Cheque: 3}, {Action: 99}} {
		if _, err := Enter(&s, felix, m); !errors.Is(err, razzia.ErrSyntax) {
			t.Errorf("Enter(%+v) error = %v, want ErrSyntax", m, err)
		}
	}
	over := finished(t)
	if _, err := Enter(&over, 0, razzia.Pass()); !errors.Is(err, razzia.ErrGameOver) {
		t.Errorf("Enter after the game: %v, want ErrGameOver", err)
	}
}

// finished plays a game to its end: every turn draws, every auction passes
// or bids the lowest cheque when it must.
func finished(t testing.TB) razzia.State {
	t.Helper()
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"A", "B", "C"}, Seed: []byte("premove")})
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		if err := g.Play(g.LegalMoves()[0]); err != nil {
			t.Fatal(err)
		}
	}
	return g.State()
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name    string
		before  []string // played from the start
		seat    int
		move    string
		after   []string // played once the pre-move is entered
		verdict Verdict
		err     error // the reason of a Drop
	}{
		{"R10: a pass waits for the seat's chance", policeAuction, elke, "pass", nil, Wait, nil},
		{"R10: a pass is played at the seat's chance", policeAuction, felix, "pass", []string{"bid 7"}, Play, nil},
		{"R10: a pass is played whatever was bid before", policeAuction, elke, "pass", []string{"bid 3", "bid 8"}, Play, nil},
		{"R10: a bid still above the highest is played", policeAuction, elke, "bid 9", []string{"bid 7", "pass"}, Play, nil},
		{"R10: a bid overtaken is dropped: the player is asked", policeAuction, dennis, "bid 6", []string{"bid 7", "pass", "pass"}, Drop, ErrOutbid},
		{"R10, R13: a seat passed over: the pre-move expires", policeAuction, elke, "bid 9", []string{"bid 7", "bid 11"}, Expire, nil},
		{"R10: the player decided themselves: the pre-move expires", policeAuction, felix, "pass", []string{"pass", "bid 4"}, Expire, nil},
		{"R11: once the auction is over the pre-move expires", policeAuction, elke, "bid 10", []string{"bid 3", "pass", "bid 9", "pass"}, Expire, nil},
		{"R9: the caller's pass after a bid is played", forcedAuction, dennis, "pass", []string{"bid 3", "pass", "pass"}, Play, nil},
		{"R9: the caller's pass when nobody bid is dropped: they must bid", forcedAuction, dennis, "pass", []string{"pass", "pass", "pass"}, Drop, razzia.ErrMustBid},
		{"R9: the caller's bid when nobody bid is played", forcedAuction, dennis, "bid 2", []string{"pass", "pass", "pass"}, Play, nil},
		// Dennis calls again after a circle in which everyone called, with
		// no card drawn: Felix's pass for the first forced auction (he was
		// passed over) must not be played when he is asked in the second.
		{"R9, R12: a pre-move never carries over to the caller's next auction", forcedAuction, felix, "pass",
			[]string{"bid 12", "pass", "call", "bid 4", "pass", "pass", "pass", "call", "pass", "bid 6", "pass", "pass", "call", "pass", "bid 7", "pass", "pass", "call", "pass"}, Expire, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t, tt.before...)
			s := g.State()
			p, err := Enter(&s, tt.seat, move(t, tt.move))
			if err != nil {
				t.Fatal(err)
			}
			play(t, g, tt.after...)
			s = g.State()
			before := s
			v, err := p.Resolve(&s)
			if v != tt.verdict || !errors.Is(err, tt.err) {
				t.Fatalf("Resolve = %v, %v; want %v, %v", v, err, tt.verdict, tt.err)
			}
			if s != before {
				t.Error("Resolve changed the state")
			}
			if v == Play {
				if err := s.Check(p.Move); err != nil {
					t.Errorf("played an illegal pre-move: %v", err)
				}
			}
		})
	}
}

// The claim behind Auction: no two auctions of a game look the same, so a
// pre-move can never be played in an auction it was not entered for.
func TestAuctionUnique(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for game := range 200 {
		players := razzia.MinPlayers + game%(razzia.MaxPlayers-razzia.MinPlayers+1)
		s, err := razzia.NewState(players, nil)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[Auction]bool{}
		var prev Auction
		for !s.Over() {
			if a := AuctionOf(&s); a != prev && a != (Auction{}) {
				if seen[a] {
					t.Fatalf("game %d: auction %+v seen twice", game, a)
				}
				seen[a] = true
			}
			prev = AuctionOf(&s)
			s.Apply(randomMove(r, &s))
		}
	}
}

// randomMove picks a legal move, calling and using thieves often enough
// that forced auctions follow each other.
func randomMove(r *rand.Rand, s *razzia.State) razzia.Move {
	moves := s.LegalMoves(nil)
	m := moves[r.IntN(len(moves))]
	if m.Action == razzia.ActionDraw {
		m.Card = s.RandomCard(r)
	}
	return m
}

// Over many random games with random pre-moves, Resolve plays only legal
// moves, and each accepted pre-move is resolved once: played, dropped or
// expired.
func TestResolveRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	played, dropped, expired := 0, 0, 0
	for game := range 300 {
		players := razzia.MinPlayers + game%(razzia.MaxPlayers-razzia.MinPlayers+1)
		s, _ := razzia.NewState(players, nil)
		pending := map[int]PreMove{}
		for !s.Over() {
			if s.Phase() == razzia.PhaseAuction {
				seat := r.IntN(players)
				m := razzia.Pass()
				if r.IntN(2) == 0 {
					m = razzia.Bid(1 + r.IntN(razzia.MaxCheque))
				}
				if p, err := Enter(&s, seat, m); err == nil {
					pending[seat] = p
				}
			}
			var next razzia.Move
			for seat, p := range pending {
				switch v, err := p.Resolve(&s); v {
				case Play:
					if err := s.Check(p.Move); err != nil {
						t.Fatalf("game %d: played an illegal pre-move %v: %v", game, p.Move, err)
					}
					next = p.Move
					played++
					delete(pending, seat)
				case Drop:
					if err == nil {
						t.Fatal("a drop without a reason")
					}
					dropped++
					delete(pending, seat)
				case Expire:
					expired++
					delete(pending, seat)
				}
			}
			if next == (razzia.Move{}) {
				next = randomMove(r, &s)
			}
			s.Apply(next)
		}
	}
	if played == 0 || dropped == 0 || expired == 0 {
		t.Errorf("played %d, dropped %d, expired %d: some verdict never came", played, dropped, expired)
	}
}

func FuzzEnter(f *testing.F) {
	f.Add(3, "bid 13", uint8(2))
	f.Add(1, "pass", uint8(0))
	f.Add(0, "draw car", uint8(7))
	f.Fuzz(func(t *testing.T, seat int, token string, steps uint8) {
		m, err := razzia.ParseMove(token)
		if err != nil {
			return
		}
		g := newGame(t, policeAuction...)
		s := g.State()
		p, err := Enter(&s, seat, m)
		if err != nil {
			return
		}
		r := rand.New(rand.NewPCG(uint64(steps), 0))
		for range steps {
			if s.Over() {
				break
			}
			if v, _ := p.Resolve(&s); v == Play && s.Check(p.Move) != nil {
				t.Fatalf("Resolve plays the illegal %v", p.Move)
			}
			s.Apply(randomMove(r, &s))
		}
	})
}

func ExamplePreMove_Resolve() {
	g, _ := razzia.NewGame(razzia.Setup{
		Players: []string{"Miriam", "Felix", "Elke", "Dennis"},
		Cheques: [][]int{{3, 7, 12}, {4, 8, 11}, {5, 9, 10}, {2, 6, 13}},
	})
	for _, tok := range []string{"draw watch", "draw car", "draw bodyguard", "draw ring", "draw police"} {
		g.PlayToken(tok)
	}
	// Miriam decides first; Elke enters "bid 9" and Dennis "bid 6" ahead.
	s := g.State()
	elke, _ := Enter(&s, 2, razzia.Bid(9))
	dennis, _ := Enter(&s, 3, razzia.Bid(6))
	_, err := Enter(&s, 1, razzia.Bid(9))
	fmt.Println(err)

	g.PlayToken("bid 7") // Miriam
	g.PlayToken("pass")  // Felix
	s = g.State()
	fmt.Println(elke.Resolve(&s))
	g.Play(elke.Move)
	s = g.State()
	fmt.Println(dennis.Resolve(&s))
	// Output:
	// seat 2: bid 9 ahead: their face-up cheques are 4 8 11
	// play <nil>
	// drop seat 4: bid 6 ahead: the highest bid is now 9; it is their decision
}
