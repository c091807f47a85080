package razzia_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
)

// The rule tests are written from RULES.md, one or more per rule id, each
// scenario played through the checked Game with explicit draws. Unless a
// test says otherwise the table is the four players below with the
// rulebook's sets in seat order: Miriam A (2 6 13), Felix B (3 7 12),
// Elke C (4 8 11), Dennis D (5 9 10); Miriam holds the 13 and starts.

var rulesFour = []string{"Miriam", "Felix", "Elke", "Dennis"}

// Seats of rulesFour.
const (
	miriam = iota
	felix
	elke
	dennis
)

// ruleGame is a checked game driven by record tokens that fails the test on
// any illegal token, so the tests read as the scenarios they check.
type ruleGame struct {
	t *testing.T
	g *razzia.Game
}

func newRuleGame(t *testing.T, players []string, cheques [][]int) *ruleGame {
	t.Helper()
	g, err := razzia.NewGame(razzia.Setup{Players: players, Cheques: cheques})
	if err != nil {
		t.Fatalf("NewGame(%v, %v): %v", players, cheques, err)
	}
	return &ruleGame{t: t, g: g}
}

// play plays the tokens in order.
func (r *ruleGame) play(tokens ...string) {
	r.t.Helper()
	for _, tok := range tokens {
		if err := r.g.PlayToken(tok); err != nil {
			r.t.Fatalf("%q: %v", tok, err)
		}
	}
}

func (r *ruleGame) state() razzia.State { return r.g.State() }

// name returns the seat's name, or "nobody" for -1.
func (r *ruleGame) name(seat int) string {
	if seat < 0 {
		return "nobody"
	}
	return r.g.Players()[seat]
}

// wantToMove checks who makes the next decision.
func (r *ruleGame) wantToMove(want string) {
	r.t.Helper()
	s := r.state()
	if got := r.name(s.ToMove()); got != want {
		r.t.Fatalf("to move: %s, want %s", got, want)
	}
}

// passAll passes for everybody until the running auction ends.
func (r *ruleGame) passAll() {
	r.t.Helper()
	for s := r.state(); s.Phase() == razzia.PhaseAuction; s = r.state() {
		r.play("pass")
	}
}

// endRoundByPolice draws police, everybody passing each police auction,
// until the police limit ends the round (R7, R14).
func (r *ruleGame) endRoundByPolice() {
	r.t.Helper()
	s := r.state()
	round := s.Round()
	for s := r.state(); !s.Over() && s.Round() == round; s = r.state() {
		r.play("draw police")
		r.passAll()
	}
}

// illegal plays the token, checks that it fails with the sentinel and the
// message, and that it changed nothing.
func (r *ruleGame) illegal(token string, sentinel error, message string) {
	r.t.Helper()
	before, moves, events := r.state(), r.g.Len(), len(r.g.Events())
	err := r.g.PlayToken(token)
	if err == nil {
		r.t.Fatalf("%q was accepted, want %v", token, sentinel)
	}
	if !errors.Is(err, sentinel) {
		r.t.Errorf("%q: error %q does not match %v", token, err, sentinel)
	}
	if message != "" && err.Error() != message {
		r.t.Errorf("%q: message\n%q\nwant\n%q", token, err, message)
	}
	if r.state() != before || r.g.Len() != moves || len(r.g.Events()) != events {
		r.t.Errorf("%q: the illegal move changed the game", token)
	}
}

// holdings builds a Holdings from counts by kind.
func holdings(counts map[razzia.Kind]int) razzia.Holdings {
	var h razzia.Holdings
	for k, n := range counts {
		h[k] = uint8(n)
	}
	return h
}

// wantHoldings checks the seat's holdings exactly.
func (r *ruleGame) wantHoldings(seat int, want map[razzia.Kind]int) {
	r.t.Helper()
	s := r.state()
	if got := s.Holdings(seat); got != holdings(want) {
		r.t.Errorf("%s holds %v, want %v", r.name(seat), describeHoldings(got), describeHoldings(holdings(want)))
	}
}

func describeHoldings(h razzia.Holdings) string {
	var parts []string
	for _, k := range razzia.Kinds {
		if h[k] > 0 {
			parts = append(parts, k.Plural(int(h[k])))
		}
	}
	if parts == nil {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// wantCheques checks the seat's face-up and face-down cheques.
func (r *ruleGame) wantCheques(seat int, up, down []int) {
	r.t.Helper()
	s := r.state()
	if got := s.FaceUp(seat); got != razzia.ChequesOf(up...) {
		r.t.Errorf("%s face up: %v, want %v", r.name(seat), got, razzia.ChequesOf(up...))
	}
	if got := s.FaceDown(seat); got != razzia.ChequesOf(down...) {
		r.t.Errorf("%s face down: %v, want %v", r.name(seat), got, razzia.ChequesOf(down...))
	}
}

func TestR1CardComposition(t *testing.T) {
	want := map[razzia.Kind]struct {
		count   int
		crossed bool
	}{
		razzia.Police: {21, false},
		razzia.Ring:   {4, true}, razzia.Watch: {4, true}, razzia.Brooch: {4, true},
		razzia.Necklace: {4, true}, razzia.Diamond: {4, true},
		razzia.Bodyguard: {16, false},
		razzia.Car:       {16, false},
		razzia.Driver:    {10, true},
		razzia.Thief:     {6, true},
		razzia.Gold:      {3, true},
		razzia.Casino:    {4, false}, razzia.Transport: {4, false}, razzia.Cinema: {4, false},
		razzia.Racetrack: {4, false}, razzia.RealEstate: {4, false}, razzia.Nightclub: {4, false},
		razzia.Restaurant: {4, false},
	}
	if len(razzia.Kinds) != len(want) {
		t.Fatalf("%d kinds, want %d", len(razzia.Kinds), len(want))
	}
	s, err := razzia.NewState(4, nil)
	if err != nil {
		t.Fatal(err)
	}
	total, loot := 0, 0
	for _, k := range razzia.Kinds {
		w := want[k]
		t.Run(k.String(), func(t *testing.T) {
			if k.Count() != w.count {
				t.Errorf("Count = %d, want %d", k.Count(), w.count)
			}
			if s.Remaining(k) != w.count {
				t.Errorf("Remaining at the start = %d, want %d", s.Remaining(k), w.count)
			}
			if k.Crossed() != w.crossed {
				t.Errorf("Crossed = %v, want %v", k.Crossed(), w.crossed)
			}
			if k.IsLoot() != (k != razzia.Police) {
				t.Errorf("IsLoot = %v", k.IsLoot())
			}
		})
		total += w.count
		if k != razzia.Police {
			loot += w.count
		}
	}
	if total != 120 || loot != 99 || razzia.DeckSize != 120 || s.DeckLeft() != 120 {
		t.Errorf("%d cards (%d loot), DeckSize %d, DeckLeft %d; want 120 (99 loot)", total, loot, razzia.DeckSize, s.DeckLeft())
	}
}

// TestR1CrossedCardsLeaveAfterScoring: jewels, drivers, thieves and gold
// leave the holdings after scoring; bodyguards, cars and businesses stay.
func TestR1CrossedCardsLeaveAfterScoring(t *testing.T) {
	r := newRuleGame(t, rulesFour, nil)
	r.play("draw ring", "draw driver", "draw thief", "draw gold", "draw bodyguard", "draw car", "draw casino")
	// Elke drew the seventh card: Dennis starts the auction, Miriam wins.
	r.play("pass", "bid 2", "pass", "pass")
	r.wantHoldings(miriam, map[razzia.Kind]int{razzia.Ring: 1, razzia.Driver: 1, razzia.Thief: 1, razzia.Gold: 1,
		razzia.Bodyguard: 1, razzia.Car: 1, razzia.Casino: 1})
	r.endRoundByPolice()
	s := r.state()
	if s.Round() != 2 {
		t.Fatalf("round %d, want 2", s.Round())
	}
	r.wantHoldings(miriam, map[razzia.Kind]int{razzia.Bodyguard: 1, razzia.Car: 1, razzia.Casino: 1})
	for _, k := range []razzia.Kind{razzia.Ring, razzia.Driver, razzia.Thief, razzia.Gold} {
		if s.Discarded(k) != 1 {
			t.Errorf("%s: %d discarded, want 1", k, s.Discarded(k))
		}
	}
	for _, k := range []razzia.Kind{razzia.Bodyguard, razzia.Car, razzia.Casino} {
		if s.Discarded(k) != 0 {
			t.Errorf("%s: %d discarded, want 0", k, s.Discarded(k))
		}
	}
}

func TestR2SixteenCheques(t *testing.T) {
	if razzia.MaxCheque != 16 {
		t.Errorf("MaxCheque = %d, want 16", razzia.MaxCheque)
	}
	// The sets and the centre's 1 use the cheques 1..top, each once (R2, R4).
	for players, top := range map[int]int{2: 9, 3: 13, 4: 13, 5: 16} {
		var all razzia.Cheques
		n := 1
		all = razzia.ChequesOf(1)
		for _, set := range razzia.ChequeSets(players) {
			all |= razzia.ChequesOf(set...)
			n += len(set)
		}
		want := razzia.Cheques(1<<top - 1)
		if all != want || n != top {
			t.Errorf("%d players: cheques in play %v (%d), want 1..%d", players, all, n, top)
		}
	}
}

func TestR3ClockwiseSeatOrder(t *testing.T) {
	r := newRuleGame(t, []string{"Ann", "Bob", "Cid"}, nil)
	for _, want := range []string{"Ann", "Bob", "Cid", "Ann", "Bob"} {
		r.wantToMove(want)
		r.play("draw car")
	}
}

func TestR4ChequeSets(t *testing.T) {
	want := map[int][][]int{
		2: {{2, 5, 6, 9}, {3, 4, 7, 8}},
		3: {{2, 5, 8, 13}, {3, 6, 9, 12}, {4, 7, 10, 11}},
		4: {{2, 6, 13}, {3, 7, 12}, {4, 8, 11}, {5, 9, 10}},
		5: {{2, 7, 16}, {3, 8, 15}, {4, 9, 14}, {5, 10, 13}, {6, 11, 12}},
	}
	for players := razzia.MinPlayers - 1; players <= razzia.MaxPlayers+1; players++ {
		got := razzia.ChequeSets(players)
		if !slices.EqualFunc(got, want[players], slices.Equal) {
			t.Errorf("ChequeSets(%d) = %v, want %v", players, got, want[players])
		}
	}
	t.Run("sets in seat order and the 1 in the centre", func(t *testing.T) {
		for players, sets := range want {
			s, err := razzia.NewState(players, nil)
			if err != nil {
				t.Fatal(err)
			}
			if s.Centre() != 1 {
				t.Errorf("%d players: centre %d, want 1", players, s.Centre())
			}
			for seat, set := range sets {
				if s.FaceUp(seat) != razzia.ChequesOf(set...) || s.FaceDown(seat) != 0 {
					t.Errorf("%d players, seat %d: %v face up, %v face down; want %v", players, seat, s.FaceUp(seat), s.FaceDown(seat), set)
				}
			}
		}
	})
	t.Run("a permutation is accepted", func(t *testing.T) {
		s, err := razzia.NewState(3, [][]int{{11, 10, 7, 4}, {2, 5, 8, 13}, {3, 6, 9, 12}})
		if err != nil {
			t.Fatal(err)
		}
		if s.FaceUp(0) != razzia.ChequesOf(4, 7, 10, 11) {
			t.Errorf("seat 0: %v", s.FaceUp(0))
		}
	})
	bad := []struct {
		name    string
		players int
		cheques [][]int
	}{
		{"not a rulebook set", 4, [][]int{{2, 6, 13}, {3, 7, 12}, {4, 8, 11}, {5, 9, 14}}},
		{"a set twice", 4, [][]int{{2, 6, 13}, {2, 6, 13}, {4, 8, 11}, {5, 9, 10}}},
		{"too few sets", 4, [][]int{{2, 6, 13}, {3, 7, 12}, {4, 8, 11}}},
		{"another player count's set", 2, [][]int{{2, 5, 8, 13}, {3, 4, 7, 8}}},
		{"a cheque twice", 4, [][]int{{2, 6, 13, 13}, {3, 7, 12}, {4, 8, 11}, {5, 9, 10}}},
		{"one player", 1, nil},
		{"six players", 6, nil},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			if _, err := razzia.NewState(c.players, c.cheques); !errors.Is(err, razzia.ErrSetup) {
				t.Errorf("NewState: %v, want ErrSetup", err)
			}
		})
	}
	t.Run("drawn by lot", func(t *testing.T) {
		seen := map[string]bool{}
		for seed := range uint64(200) {
			deal := razzia.DealCheques(3, rand.New(rand.NewPCG(seed, 1)))
			if _, err := razzia.NewState(3, deal); err != nil {
				t.Fatalf("seed %d: DealCheques gave %v: %v", seed, deal, err)
			}
			var key strings.Builder
			for _, set := range deal {
				key.WriteString(razzia.ChequesOf(set...).String() + "|")
			}
			seen[key.String()] = true
		}
		if len(seen) != 6 {
			t.Errorf("200 deals gave %d of the 6 seatings of 3 sets", len(seen))
		}
	})
}

func TestR5DrawsOnlyUndrawnKinds(t *testing.T) {
	r := newRuleGame(t, rulesFour, nil)
	r.play("draw gold", "draw gold", "draw gold")
	s := r.state()
	if s.Remaining(razzia.Gold) != 0 || s.DeckLeft() != 117 {
		t.Fatalf("Remaining(gold) %d, DeckLeft %d; want 0, 117", s.Remaining(razzia.Gold), s.DeckLeft())
	}
	r.illegal("draw gold", razzia.ErrUsedUp, "Dennis cannot draw gold: all 3 gold coins have been drawn")
	if !slices.Contains(r.g.LegalMoves(), razzia.Draw(razzia.NoKind)) {
		t.Errorf("the draw is no longer offered")
	}

	t.Run("chance never reveals a used-up kind", func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(5, 6))
		count := map[razzia.Kind]int{}
		for range 4000 {
			k := s.RandomCard(rnd)
			if s.Remaining(k) == 0 {
				t.Fatalf("RandomCard gave %v, none left", k)
			}
			count[k]++
		}
		// Uniform over the 117 undrawn cards: police are 21 of them.
		if p := count[razzia.Police]; p < 500 || p > 940 {
			t.Errorf("%d police in 4000 draws, want about 718", p)
		}
	})
	t.Run("a seeded game names the card it draws", func(t *testing.T) {
		var cards [2][]razzia.Move
		for i := range cards {
			g, err := razzia.NewGame(razzia.Setup{Players: rulesFour, Seed: []byte("r5")})
			if err != nil {
				t.Fatal(err)
			}
			for range 5 {
				if err := g.Play(razzia.Draw(razzia.NoKind)); err != nil {
					t.Fatal(err)
				}
				if s := g.State(); s.Phase() == razzia.PhaseAuction {
					break
				}
			}
			cards[i] = g.Moves()
		}
		for _, m := range cards[0] {
			if m.Action != razzia.ActionDraw || m.Card == razzia.NoKind {
				t.Errorf("recorded %v, want a draw naming its card", m)
			}
		}
		if !slices.Equal(cards[0], cards[1]) {
			t.Errorf("the same seed drew %v and %v", cards[0], cards[1])
		}
	})
}

func TestR6HighestChequeStartsEachRound(t *testing.T) {
	cases := []struct {
		name    string
		players []string
		cheques [][]int
		starter string
	}{
		{"4 players, sets in order", rulesFour, nil, "Miriam"},
		{"4 players, 13 at the last seat", rulesFour, [][]int{{3, 7, 12}, {4, 8, 11}, {5, 9, 10}, {2, 6, 13}}, "Dennis"},
		{"5 players, 16 at seat 3", []string{"A", "B", "C", "D", "E"},
			[][]int{{3, 8, 15}, {4, 9, 14}, {2, 7, 16}, {5, 10, 13}, {6, 11, 12}}, "C"},
		{"2 players, 9 at seat 2", []string{"A", "B"}, [][]int{{3, 4, 7, 8}, {2, 5, 6, 9}}, "B"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			newRuleGame(t, c.players, c.cheques).wantToMove(c.starter)
		})
	}
	t.Run("the 13 changes hands in round 1", func(t *testing.T) {
		r := newRuleGame(t, rulesFour, nil)
		r.play("draw police", "pass", "pass", "pass", "bid 13")  // Miriam wins the 1
		r.play("draw police", "pass", "pass", "bid 6", "bid 12") // Felix wins the 13
		r.wantCheques(felix, []int{3, 7}, []int{13})
		r.endRoundByPolice()
		if s := r.state(); s.Round() != 2 {
			t.Fatalf("round %d, want 2", s.Round())
		}
		r.wantToMove("Felix")
	})
}

func TestR7SeventhLootCardStartsAuction(t *testing.T) {
	seven := []string{"draw ring", "draw watch", "draw car", "draw driver", "draw bodyguard", "draw gold", "draw casino"}
	start := func(t *testing.T) *ruleGame {
		r := newRuleGame(t, rulesFour, nil)
		r.play(seven[:6]...)
		if s := r.state(); s.Phase() != razzia.PhaseTurn || s.RowLen() != 6 {
			t.Fatalf("after six loot cards: phase %v, row %d; want a turn, 6", s.Phase(), s.RowLen())
		}
		r.play(seven[6]) // Elke draws the seventh
		s := r.state()
		if s.Phase() != razzia.PhaseAuction || s.Auction() != razzia.AuctionSeventh || s.Initiator() != elke {
			t.Fatalf("after the seventh: phase %v, auction %v, initiator %d; want a seventh auction by Elke",
				s.Phase(), s.Auction(), s.Initiator())
		}
		r.wantToMove("Dennis")
		return r
	}
	t.Run("the winner takes all seven", func(t *testing.T) {
		r := start(t)
		r.play("bid 5", "pass", "pass", "pass")
		r.wantHoldings(dennis, map[razzia.Kind]int{razzia.Ring: 1, razzia.Watch: 1, razzia.Car: 1, razzia.Driver: 1,
			razzia.Bodyguard: 1, razzia.Gold: 1, razzia.Casino: 1})
		if s := r.state(); s.RowLen() != 0 {
			t.Errorf("row %v, want empty", s.Row())
		}
	})
	t.Run("everybody passes: all seven leave the game", func(t *testing.T) {
		r := start(t)
		r.play("pass", "pass", "pass", "pass")
		s := r.state()
		if s.Phase() != razzia.PhaseTurn || s.RowLen() != 0 {
			t.Fatalf("phase %v, row %v; want a turn and an empty row", s.Phase(), s.Row())
		}
		for _, tok := range seven {
			k, _ := razzia.ParseKind(strings.TrimPrefix(tok, "draw "))
			if s.Discarded(k) != 1 || s.Remaining(k) != k.Count()-1 {
				t.Errorf("%s: %d discarded, %d remaining; want 1, %d", k, s.Discarded(k), s.Remaining(k), k.Count()-1)
			}
		}
		for seat := range 4 {
			r.wantHoldings(seat, nil)
		}
		if s.Centre() != 1 {
			t.Errorf("centre %d, want 1", s.Centre())
		}
		r.wantToMove("Dennis")
	})
}

func TestR7PoliceCardStartsAuction(t *testing.T) {
	r := newRuleGame(t, rulesFour, nil)
	r.play("draw car", "draw police") // Felix draws police
	s := r.state()
	if s.Phase() != razzia.PhaseAuction || s.Auction() != razzia.AuctionPolice || s.Initiator() != felix || s.Police() != 1 {
		t.Fatalf("phase %v, auction %v, initiator %d, police %d; want a police auction by Felix, 1 police",
			s.Phase(), s.Auction(), s.Initiator(), s.Police())
	}
	r.wantToMove("Elke")

	// Everybody passes: the row stays.
	r.play("pass", "pass", "pass", "pass")
	s = r.state()
	if !slices.Equal(s.Row(), []razzia.Kind{razzia.Car}) || s.Discarded(razzia.Car) != 0 || s.Police() != 1 {
		t.Errorf("row %v, %d cars discarded, %d police; want [car], 0, 1", s.Row(), s.Discarded(razzia.Car), s.Police())
	}
	if s.Centre() != 1 {
		t.Errorf("centre %d, want 1", s.Centre())
	}
	r.wantToMove("Elke")
}

func TestR7PoliceLimitEndsRoundWithoutAuction(t *testing.T) {
	cases := []struct {
		name    string
		players []string
		limit   int
		win     []string // after "draw bodyguard", "draw police": the auction, won
		winner  int
		centre  int
	}{
		{"4 players: the 7th police", rulesFour, 7, []string{"bid 4", "pass", "pass", "pass"}, elke, 4},
		{"2 players: the 5th police", []string{"Ann", "Bob"}, 5, []string{"bid 2", "pass"}, 0, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRuleGame(t, c.players, nil)
			r.play("draw bodyguard", "draw police")
			r.play(c.win...)
			for police := 2; police < c.limit; police++ {
				r.play("draw police")
				if s := r.state(); s.Auction() != razzia.AuctionPolice {
					t.Fatalf("police %d: no auction", police)
				}
				r.passAll()
			}
			r.play("draw car")
			s := r.state()
			if s.Police() != c.limit-1 || s.PoliceLimit() != c.limit || s.Round() != 1 {
				t.Fatalf("police %d of %d in round %d; want %d of %d in round 1", s.Police(), s.PoliceLimit(), s.Round(), c.limit-1, c.limit)
			}
			events := len(r.g.Events())
			r.play("draw police")
			s = r.state()
			if s.Round() != 2 || s.Phase() != razzia.PhaseTurn || s.Auction() != razzia.AuctionNone {
				t.Fatalf("round %d, phase %v, auction %v; want round 2 at once, no auction", s.Round(), s.Phase(), s.Auction())
			}
			for _, e := range r.g.Events()[events:] {
				if e.Kind == razzia.EventAuction {
					t.Errorf("an auction was held after the last police card")
				}
			}
			// R14: row cards and police leave the game; the centre cheque stays.
			if s.Police() != 0 || s.Discarded(razzia.Police) != c.limit {
				t.Errorf("%d police on the track, %d discarded; want 0, %d", s.Police(), s.Discarded(razzia.Police), c.limit)
			}
			if s.RowLen() != 0 || s.Discarded(razzia.Car) != 1 {
				t.Errorf("row %v, %d cars discarded; want empty, 1", s.Row(), s.Discarded(razzia.Car))
			}
			if s.Centre() != c.centre {
				t.Errorf("centre %d, want %d", s.Centre(), c.centre)
			}
			r.wantHoldings(c.winner, map[razzia.Kind]int{razzia.Bodyguard: 1})
		})
	}
}

// thiefGame gives Miriam two thieves, won in a police auction of round 1,
// and leaves Dennis to move with an empty row.
func thiefGame(t *testing.T) *ruleGame {
	r := newRuleGame(t, rulesFour, nil)
	r.play("draw thief", "draw thief", "draw police", "pass", "bid 2", "pass", "pass")
	r.wantHoldings(miriam, map[razzia.Kind]int{razzia.Thief: 2})
	r.wantToMove("Dennis")
	return r
}

func TestR8Thieves(t *testing.T) {
	t.Run("the row must hold the cards", func(t *testing.T) {
		r := thiefGame(t)
		r.play("draw car")
		r.wantToMove("Miriam")
		var thiefMoves []string
		for _, m := range r.g.LegalMoves() {
			if m.Action == razzia.ActionThieves {
				thiefMoves = append(thiefMoves, m.String())
			}
		}
		if !slices.Equal(thiefMoves, []string{"thief car"}) {
			t.Errorf("thief moves %v with two thieves and one car in the row, want [thief car]", thiefMoves)
		}
		r.illegal("thief car driver", razzia.ErrNotInRow, "Miriam cannot use thieves on car and driver: the row holds no driver")
		r.illegal("thief car car", razzia.ErrNotInRow, "Miriam cannot use thieves on car and car: the row holds only 1 car")
		r.illegal("thief ring", razzia.ErrNotInRow, "Miriam cannot use a thief on ring: the row holds no ring")
	})
	t.Run("one thief per card: no more cards than thieves", func(t *testing.T) {
		r := thiefGame(t)
		r.play("draw car", "draw driver", "draw ring", "draw watch", "draw bodyguard")
		r.wantToMove("Miriam")
		r.illegal("thief car driver ring", razzia.ErrNoThief, "Miriam cannot use thieves on ring, car and driver: they hold only 2 thieves")
		r.play("thief car driver")
		r.wantHoldings(miriam, map[razzia.Kind]int{razzia.Car: 1, razzia.Driver: 1})
	})
	t.Run("several at once, a thief taken is owned at once, used ones leave", func(t *testing.T) {
		r := thiefGame(t)
		r.play("draw car", "draw driver", "draw thief", "draw ring") // Dennis, Miriam, Felix, Elke
		r.play("draw car")                                           // Dennis
		r.wantToMove("Miriam")
		r.play("thief car thief")
		s := r.state()
		r.wantHoldings(miriam, map[razzia.Kind]int{razzia.Thief: 1, razzia.Car: 1})
		if s.Discarded(razzia.Thief) != 2 {
			t.Errorf("%d thieves discarded, want the 2 used", s.Discarded(razzia.Thief))
		}
		// Gaps are closed and the order kept; either car may have gone.
		if got := s.Row(); !slices.Equal(got, []razzia.Kind{razzia.Car, razzia.Driver, razzia.Ring}) &&
			!slices.Equal(got, []razzia.Kind{razzia.Driver, razzia.Ring, razzia.Car}) {
			t.Errorf("row %v, want car, driver, ring or driver, ring, car", got)
		}
		r.wantToMove("Felix") // the thief move was Miriam's turn
		r.play("draw watch", "draw bodyguard", "draw gold")
		r.play("thief driver") // the thief taken with a thief
		r.wantHoldings(miriam, map[razzia.Kind]int{razzia.Car: 1, razzia.Driver: 1})
		if s := r.state(); s.Discarded(razzia.Thief) != 3 {
			t.Errorf("%d thieves discarded, want 3", s.Discarded(razzia.Thief))
		}
		r.illegal("thief ring", razzia.ErrNoThief, "Felix cannot use a thief on ring: they hold no thief")
	})
	t.Run("a thief won this round is usable and unused ones score", func(t *testing.T) {
		r := thiefGame(t)
		r.play("draw ring")
		r.play("thief ring") // Miriam uses one of the two thieves won this round
		r.wantHoldings(miriam, map[razzia.Kind]int{razzia.Thief: 1, razzia.Ring: 1})
		r.endRoundByPolice()
		s := r.state()
		if got := s.Scores(1)[miriam][razzia.CategoryThieves]; got != 2 {
			t.Errorf("Miriam scored %d for thieves, want 2 for the unused one", got)
		}
	})
	t.Run("no thief", func(t *testing.T) {
		r := newRuleGame(t, rulesFour, nil)
		r.play("draw car")
		r.illegal("thief car", razzia.ErrNoThief, "Felix cannot use a thief on car: they hold no thief")
	})
}

func TestR9ForcedAuction(t *testing.T) {
	t.Run("the caller must bid if nobody has", func(t *testing.T) {
		r := newRuleGame(t, rulesFour, nil)
		r.play("draw car", "call") // Felix calls
		s := r.state()
		if s.Auction() != razzia.AuctionForced || s.Initiator() != felix {
			t.Fatalf("auction %v by %d, want forced by Felix", s.Auction(), s.Initiator())
		}
		r.wantToMove("Elke")
		r.play("pass", "pass", "pass")
		r.wantToMove("Felix")
		s = r.state()
		if !s.MustBid() {
			t.Errorf("MustBid is false for the caller nobody outbid")
		}
		legal := r.g.LegalMoves()
		if slices.Contains(legal, razzia.Pass()) {
			t.Errorf("pass offered to the caller who must bid: %v", legal)
		}
		if want := []razzia.Move{razzia.Bid(3), razzia.Bid(7), razzia.Bid(12)}; !slices.Equal(legal, want) {
			t.Errorf("legal %v, want %v", legal, want)
		}
		r.illegal("pass", razzia.ErrMustBid, "Felix cannot pass: nobody has bid in the forced auction they called, so they must bid")
		r.play("bid 12") // any face-up cheque
		r.wantHoldings(felix, map[razzia.Kind]int{razzia.Car: 1})
		r.wantCheques(felix, []int{3, 7}, []int{1})
	})
	t.Run("the caller may pass if someone bid", func(t *testing.T) {
		r := newRuleGame(t, rulesFour, nil)
		r.play("draw car", "call", "pass", "bid 5", "pass")
		r.wantToMove("Felix")
		if s := r.state(); s.MustBid() {
			t.Errorf("MustBid after a bid")
		}
		r.play("pass")
		r.wantHoldings(dennis, map[razzia.Kind]int{razzia.Car: 1})
	})
	t.Run("an empty row may be called", func(t *testing.T) {
		r := newRuleGame(t, rulesFour, nil)
		if !slices.Contains(r.g.LegalMoves(), razzia.Call()) {
			t.Fatalf("call not offered with an empty row")
		}
		r.play("call", "bid 3", "pass", "pass", "pass")
		r.wantHoldings(felix, nil)
		r.wantCheques(felix, []int{7, 12}, []int{1})
		if s := r.state(); s.Centre() != 3 {
			t.Errorf("centre %d, want 3", s.Centre())
		}
	})
	t.Run("a police auction on an empty row is held", func(t *testing.T) {
		r := newRuleGame(t, rulesFour, nil)
		r.play("draw police")
		if s := r.state(); s.Auction() != razzia.AuctionPolice {
			t.Fatalf("auction %v, want police", s.Auction())
		}
		r.play("bid 7", "pass", "pass", "pass")
		r.wantCheques(felix, []int{3, 12}, []int{1})
	})
}

func TestR10OneChanceEachClockwiseInitiatorLast(t *testing.T) {
	r := newRuleGame(t, rulesFour, nil)
	r.play("draw car", "draw police") // Felix initiates
	steps := []struct {
		who, token string
		want       razzia.Bidding
	}{
		{"Elke", "bid 4", 4},
		{"Dennis", "pass", razzia.BiddingPassed},
		{"Miriam", "bid 6", 6},
		{"Felix", "bid 7", 7},
	}
	for i, st := range steps {
		r.wantToMove(st.who)
		r.play(st.token)
		s := r.state()
		seat := slices.Index(rulesFour, st.who)
		if i < len(steps)-1 {
			if got := s.Bidding(seat); got != st.want {
				t.Errorf("%s's bidding %v, want %v", st.who, got, st.want)
			}
		}
	}
	// Each had one chance: the auction is over after the initiator.
	s := r.state()
	if s.Phase() != razzia.PhaseTurn {
		t.Fatalf("phase %v after the initiator's chance, want a turn", s.Phase())
	}
	r.wantHoldings(felix, map[razzia.Kind]int{razzia.Car: 1})
}

func TestR10PassedOverWithoutHighEnoughCheque(t *testing.T) {
	t.Run("players without a higher cheque", func(t *testing.T) {
		r := newRuleGame(t, rulesFour, nil)
		r.play("draw police", "bid 12") // Felix; Elke's 11 and Dennis's 10 are too low
		s := r.state()
		if s.Bidding(elke) != razzia.BiddingPassedOver || s.Bidding(dennis) != razzia.BiddingPassedOver {
			t.Errorf("Elke %v, Dennis %v; want both passed over", s.Bidding(elke), s.Bidding(dennis))
		}
		r.wantToMove("Miriam")
		if want := []razzia.Move{razzia.Pass(), razzia.Bid(13)}; !slices.Equal(r.g.LegalMoves(), want) {
			t.Errorf("legal %v, want %v", r.g.LegalMoves(), want)
		}
		r.play("pass")
		r.wantCheques(felix, []int{3, 7}, []int{1})
		// Nothing is recorded for the players passed over.
		if got := r.g.Record().Moves; !slices.Equal(got, []string{"draw police", "bid 12", "pass"}) {
			t.Errorf("record %v", got)
		}
		for _, e := range r.g.Events() {
			if (e.Kind == razzia.EventPass || e.Kind == razzia.EventBid) && (e.Seat == elke || e.Seat == dennis) {
				t.Errorf("event %+v for a player passed over", e)
			}
		}
	})
	t.Run("the initiator too: the auction ends at once", func(t *testing.T) {
		r := newRuleGame(t, rulesFour, nil)
		r.play("draw car", "draw police", "bid 11", "bid 13") // Felix draws; Dennis's 10 and Felix's 12 are too low
		s := r.state()
		if s.Phase() != razzia.PhaseTurn {
			t.Fatalf("phase %v, want the auction over", s.Phase())
		}
		r.wantHoldings(miriam, map[razzia.Kind]int{razzia.Car: 1})
		r.wantCheques(miriam, []int{2, 6}, []int{1})
		r.wantCheques(elke, []int{4, 8, 11}, nil)
		r.wantToMove("Elke")
	})
}

func TestR10BidsAreFaceUpAndHigher(t *testing.T) {
	r := newRuleGame(t, rulesFour, nil)
	r.play("draw police", "bid 12", "pass") // Felix wins with 12 and gets the 1
	r.play("draw police")                   // Felix draws; Elke starts
	r.illegal("bid 2", razzia.ErrNotHeld, "Elke cannot bid 2: their face-up cheques are 4, 8 and 11")
	r.play("bid 4", "pass")
	r.illegal("bid 2", razzia.ErrBidTooLow, "Miriam cannot bid 2: the highest bid is 4")
	r.play("pass")
	r.illegal("bid 9", razzia.ErrNotHeld, "Felix cannot bid 9: their face-up cheques are 3 and 7")
	r.illegal("bid 1", razzia.ErrNotHeld, "Felix cannot bid 1: their face-up cheques are 3 and 7") // face down
	r.illegal("bid 3", razzia.ErrBidTooLow, "Felix cannot bid 3: the highest bid is 4")
	r.play("bid 7")
}

func TestR11WinnerTakesRowAndCentre(t *testing.T) {
	r := newRuleGame(t, rulesFour, nil)
	r.play("draw car", "draw ring", "draw police") // Elke draws; Dennis starts
	r.play("bid 5", "bid 6", "pass", "pass")       // Miriam wins with 6
	s := r.state()
	r.wantHoldings(miriam, map[razzia.Kind]int{razzia.Car: 1, razzia.Ring: 1})
	r.wantCheques(miriam, []int{2, 13}, []int{1})
	if s.Centre() != 6 {
		t.Errorf("centre %d, want the winning 6", s.Centre())
	}
	// Between auctions the state still tells the last one's winning bid.
	if c, w := s.HighBid(); s.Phase() != razzia.PhaseTurn || c != 6 || w != miriam {
		t.Errorf("phase %v, high bid %d by seat %d; want a turn, and 6 by Miriam (seat %d)", s.Phase(), c, w, miriam)
	}
	r.wantCheques(dennis, []int{5, 9, 10}, nil) // outbid, keeps his cheques
	r.wantCheques(felix, []int{3, 7, 12}, nil)
	r.wantCheques(elke, []int{4, 8, 11}, nil)
	if s.RowLen() != 0 || s.Police() != 1 || s.Discarded(razzia.Police) != 0 {
		t.Errorf("row %v, %d police on the track, %d discarded; want empty, 1, 0", s.Row(), s.Police(), s.Discarded(razzia.Police))
	}
	// The next winner takes the 6 face down.
	r.wantToMove("Dennis")
	r.play("call", "pass", "pass", "pass", "bid 5") // Dennis calls and must bid
	r.wantCheques(dennis, []int{9, 10}, []int{6})
	r.wantCheques(miriam, []int{2, 13}, []int{1})
	if s := r.state(); s.Centre() != 5 {
		t.Errorf("centre %d, want 5", s.Centre())
	}
}

func TestR12PlayResumesLeftOfInitiator(t *testing.T) {
	cases := []struct {
		name   string
		tokens []string
		next   string
	}{
		{"police auction won by another", []string{"draw car", "draw police", "pass", "bid 5", "pass", "pass"}, "Elke"},
		{"police auction, all pass", []string{"draw car", "draw police", "pass", "pass", "pass", "pass"}, "Elke"},
		{"seventh loot card", []string{"draw car", "draw car", "draw car", "draw car", "draw car", "draw car", "draw car",
			"pass", "bid 2", "pass", "pass"}, "Dennis"},
		{"forced auction won by another", []string{"draw car", "call", "pass", "pass", "bid 2", "pass"}, "Elke"},
		{"forced auction won by the caller", []string{"draw car", "call", "pass", "pass", "pass", "bid 3"}, "Elke"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRuleGame(t, rulesFour, nil)
			r.play(c.tokens...)
			if s := r.state(); s.Phase() != razzia.PhaseTurn {
				t.Fatalf("phase %v, want a turn", s.Phase())
			}
			r.wantToMove(c.next)
		})
	}
}

// bobOutGame plays a 3-player game until Bob has spent all his cheques in
// forced auctions; Ann called the last one.
func bobOutGame(t *testing.T) *ruleGame {
	r := newRuleGame(t, []string{"Ann", "Bob", "Cid"}, nil) // Ann 2 5 8 13, Bob 3 6 9 12, Cid 4 7 10 11
	r.play("call", "bid 3", "pass", "pass")                 // Bob wins the 1
	r.play("call", "pass", "pass", "bid 6")                 // Bob calls and must bid
	r.play("call", "pass", "bid 9", "pass")                 // Cid calls, Bob wins
	r.play("call", "bid 12", "pass")                        // Ann calls; Cid's 11 is too low
	r.wantCheques(1, nil, []int{1, 3, 6, 9})
	return r
}

func TestR12NextAfterInitiatorIsOut(t *testing.T) {
	r := bobOutGame(t)
	r.wantToMove("Cid") // Ann's left neighbour Bob is out
}

func TestR13OutPlayersAreSkipped(t *testing.T) {
	r := bobOutGame(t)
	r.play("draw car") // Cid
	r.wantToMove("Ann")
	r.play("draw police") // Ann: Bob is passed over
	s := r.state()
	if s.Bidding(1) != razzia.BiddingPassedOver {
		t.Errorf("Bob %v, want passed over", s.Bidding(1))
	}
	r.wantToMove("Cid")
	r.play("pass", "pass")
	r.wantToMove("Cid")
}

func TestR13LonePlayerPlaysOn(t *testing.T) {
	r := newRuleGame(t, []string{"Ann", "Bob"}, nil) // Ann 2 5 6 9, Bob 3 4 7 8
	r.play("call", "pass", "bid 2")
	r.play("call", "bid 5", "pass")
	r.play("call", "pass", "bid 6")
	r.play("call", "bid 9") // Bob's cheques are all below 9: Ann wins and is out
	r.wantCheques(0, nil, []int{1, 2, 5, 6})
	r.wantToMove("Bob")
	r.play("draw car")
	r.wantToMove("Bob") // alone, Bob moves again
	r.play("draw thief", "draw police")
	s := r.state()
	if s.Auction() != razzia.AuctionPolice || s.Bidding(0) != razzia.BiddingPassedOver {
		t.Fatalf("auction %v, Ann %v; want a police auction with Ann passed over", s.Auction(), s.Bidding(0))
	}
	r.wantToMove("Bob")
	if want := []razzia.Move{razzia.Pass(), razzia.Bid(3), razzia.Bid(4), razzia.Bid(7), razzia.Bid(8)}; !slices.Equal(r.g.LegalMoves(), want) {
		t.Errorf("legal %v, want %v", r.g.LegalMoves(), want)
	}
	r.play("bid 3") // alone in his auction, Bob wins it
	r.wantHoldings(1, map[razzia.Kind]int{razzia.Car: 1, razzia.Thief: 1})
	r.wantCheques(1, []int{4, 7, 8}, []int{9})
	r.wantToMove("Bob")
	r.play("draw watch", "draw ring")
	r.wantToMove("Bob")
	r.play("thief watch") // A, B and C: Bob plays on normally
	r.wantToMove("Bob")
	r.play("call")
	if s := r.state(); !s.MustBid() {
		t.Errorf("alone in his forced auction, Bob need not bid")
	}
	r.play("bid 4")
	r.wantHoldings(1, map[razzia.Kind]int{razzia.Car: 1, razzia.Watch: 1, razzia.Ring: 1})
	r.wantCheques(1, []int{7, 8}, []int{9, 3})
}

func TestR14RoundEndsWhenChequesAreGone(t *testing.T) {
	r := newRuleGame(t, []string{"Ann", "Bob"}, nil)
	r.play("call", "pass", "bid 2", "call", "bid 5", "pass", "call", "pass", "bid 6", "call", "bid 9")
	r.play("draw car", "draw police", "bid 3") // Bob alone
	r.play("call", "bid 4", "call", "bid 7")
	if s := r.state(); s.Round() != 1 {
		t.Fatalf("round %d with Bob's 8 face up, want 1", s.Round())
	}
	r.play("draw bodyguard", "call", "bid 8") // the last face-up cheque
	s := r.state()
	if s.Round() != 2 || s.Phase() != razzia.PhaseTurn {
		t.Fatalf("round %d, phase %v; want round 2", s.Round(), s.Phase())
	}
	if s.Centre() != 8 {
		t.Errorf("centre %d, want 8: it stays", s.Centre())
	}
	if s.Police() != 0 || s.Discarded(razzia.Police) != 1 {
		t.Errorf("%d police on the track, %d discarded; want 0, 1", s.Police(), s.Discarded(razzia.Police))
	}
	r.wantHoldings(1, map[razzia.Kind]int{razzia.Car: 1, razzia.Bodyguard: 1})
	// R15: all cheques face up again, as many as at the start; the 9 starts.
	r.wantCheques(0, []int{1, 2, 5, 6}, nil)
	r.wantCheques(1, []int{3, 4, 7, 9}, nil)
	r.wantToMove("Bob")
}

func TestR15NextRoundSetup(t *testing.T) {
	r := newRuleGame(t, rulesFour, nil)
	r.play("draw ring", "draw car", "draw police", "pass", "bid 13") // Miriam wins the 1
	r.play("draw thief", "draw bodyguard", "draw police", "bid 4", "pass", "pass", "pass")
	// Felix drew police; Elke's 4 won the 13 face down.
	r.wantCheques(elke, []int{8, 11}, []int{13})
	r.endRoundByPolice()
	s := r.state()
	if s.Round() != 2 {
		t.Fatalf("round %d, want 2", s.Round())
	}
	r.wantHoldings(miriam, map[razzia.Kind]int{razzia.Car: 1})
	r.wantHoldings(elke, map[razzia.Kind]int{razzia.Bodyguard: 1})
	want := [][]int{{1, 2, 6}, {3, 7, 12}, {8, 11, 13}, {5, 9, 10}}
	for seat, up := range want {
		r.wantCheques(seat, up, nil)
		if n := s.FaceUp(seat).Len(); n != 3 {
			t.Errorf("%s holds %d cheques, want 3 as at the start", rulesFour[seat], n)
		}
	}
	if s.Centre() != 4 {
		t.Errorf("centre %d, want 4", s.Centre())
	}
	r.wantToMove("Elke") // she holds the 13 now
}

// scoreOf scores the holdings and cheques with ScoreRound.
func scoreOf(hold []map[razzia.Kind]int, cheques [][]int, final bool) []razzia.Score {
	h := make([]razzia.Holdings, len(hold))
	c := make([]razzia.Cheques, len(cheques))
	for i, m := range hold {
		h[i] = holdings(m)
	}
	for i, set := range cheques {
		c[i] = razzia.ChequesOf(set...)
	}
	return razzia.ScoreRound(h, c, final)
}

type scoreCase struct {
	name  string
	hold  []map[razzia.Kind]int
	cheq  [][]int
	final bool
	cat   razzia.Category
	want  []int
}

func runScoreCases(t *testing.T, cases []scoreCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cheq := c.cheq
			if cheq == nil {
				cheq = make([][]int, len(c.hold))
			}
			scores := scoreOf(c.hold, cheq, c.final)
			for seat, want := range c.want {
				if got := scores[seat][c.cat]; got != want {
					t.Errorf("seat %d: %s %d, want %d", seat, c.cat, got, want)
				}
			}
			if len(scores) != len(c.hold) {
				t.Errorf("%d scores for %d players", len(scores), len(c.hold))
			}
		})
	}
}

type cardCounts = map[razzia.Kind]int

func TestR16RoundScoring(t *testing.T) {
	B := razzia.Bodyguard
	runScoreCases(t, []scoreCase{
		{"thieves: 2 per unused thief", []cardCounts{{razzia.Thief: 0}, {razzia.Thief: 1}, {razzia.Thief: 3}}, nil, false, razzia.CategoryThieves, []int{0, 2, 6}},

		{"bodyguards: most +5, fewest -2", []cardCounts{{B: 3}, {B: 1}, {B: 2}, {B: 0}}, nil, false, razzia.CategoryBodyguards, []int{5, 0, 0, -2}},
		{"bodyguards: tie for most", []cardCounts{{B: 3}, {B: 3}, {B: 2}, {B: 1}}, nil, false, razzia.CategoryBodyguards, []int{5, 5, 0, -2}},
		{"bodyguards: tie for fewest", []cardCounts{{B: 3}, {B: 1}, {B: 2}, {B: 1}}, nil, false, razzia.CategoryBodyguards, []int{5, -2, 0, -2}},
		{"bodyguards: none count as fewest", []cardCounts{{}, {B: 1}, {}}, nil, false, razzia.CategoryBodyguards, []int{-2, 5, -2}},
		{"bodyguards: all equal, nobody scores", []cardCounts{{B: 2}, {B: 2}, {B: 2}}, nil, false, razzia.CategoryBodyguards, []int{0, 0, 0}},
		{"bodyguards: all none, nobody scores", []cardCounts{{}, {}, {}, {}, {}}, nil, false, razzia.CategoryBodyguards, []int{0, 0, 0, 0, 0}},
		{"bodyguards: two players", []cardCounts{{B: 1}, {B: 4}}, nil, false, razzia.CategoryBodyguards, []int{-2, 5}},

		{"cars: 1 per car and driver", []cardCounts{{razzia.Car: 3, razzia.Driver: 2}, {razzia.Driver: 1}, {}}, nil, false, razzia.CategoryCars, []int{5, 1, 0}},
		{"cars: no driver, no points", []cardCounts{{razzia.Car: 5}, {razzia.Car: 1, razzia.Driver: 1}}, nil, false, razzia.CategoryCars, []int{0, 2}},

		{"jewels: distinct kinds", []cardCounts{
			{},
			{razzia.Ring: 4},
			{razzia.Ring: 1, razzia.Watch: 3},
			{razzia.Ring: 1, razzia.Watch: 1, razzia.Brooch: 1},
			{razzia.Ring: 2, razzia.Watch: 1, razzia.Brooch: 1, razzia.Diamond: 4},
		}, nil, false, razzia.CategoryJewels, []int{-5, 0, 0, 5, 10}},
		{"jewels: all five", []cardCounts{
			{razzia.Ring: 1, razzia.Watch: 1, razzia.Brooch: 1, razzia.Necklace: 1, razzia.Diamond: 1},
			{razzia.Necklace: 2, razzia.Diamond: 1},
		}, nil, false, razzia.CategoryJewels, []int{15, 0}},

		{"gold: 3 per coin", []cardCounts{{razzia.Gold: 1}, {razzia.Gold: 2}, {}}, nil, false, razzia.CategoryGold, []int{3, 6, 0}},

		{"no businesses before round 3", []cardCounts{{razzia.Casino: 4, razzia.Cinema: 1}, {}}, nil, false, razzia.CategoryBusinesses, []int{0, 0}},
		{"no cheques before round 3", []cardCounts{{}, {}}, [][]int{{2, 5, 6, 9}, {3, 4}}, false, razzia.CategoryCheques, []int{0, 0}},
	})
	t.Run("every category every round", func(t *testing.T) {
		scores := scoreOf([]cardCounts{
			{razzia.Thief: 1, B: 2, razzia.Car: 2, razzia.Driver: 1, razzia.Ring: 1, razzia.Watch: 1, razzia.Brooch: 1, razzia.Gold: 1, razzia.Casino: 1},
			{},
		}, [][]int{{9}, {3}}, false)
		if want := (razzia.Score{2, 5, 3, 5, 3, 0, 0}); scores[0] != want || scores[0].Total() != 18 {
			t.Errorf("seat 0: %v (total %d), want %v (18)", scores[0], scores[0].Total(), want)
		}
		if want := (razzia.Score{0, -2, 0, -5, 0, 0, 0}); scores[1] != want {
			t.Errorf("seat 1: %v, want %v", scores[1], want)
		}
	})
	t.Run("scored in play, rounds 1 and 2", func(t *testing.T) {
		r := newRuleGame(t, []string{"Ann", "Bob"}, nil)
		r.play("draw bodyguard", "draw gold", "draw police", "pass", "bid 2") // Ann wins
		r.endRoundByPolice()
		r.endRoundByPolice()
		s := r.state()
		if s.ScoredRounds() != 2 || s.Round() != 3 {
			t.Fatalf("%d rounds scored, round %d; want 2, 3", s.ScoredRounds(), s.Round())
		}
		round1 := s.Scores(1)
		if want := (razzia.Score{0, 5, 0, -5, 3, 0, 0}); round1[0] != want {
			t.Errorf("Ann round 1: %v, want %v", round1[0], want)
		}
		if want := (razzia.Score{0, -2, 0, -5, 0, 0, 0}); round1[1] != want {
			t.Errorf("Bob round 1: %v, want %v", round1[1], want)
		}
		// The gold coin left after round 1; the bodyguard stayed.
		if want := (razzia.Score{0, 5, 0, -5, 0, 0, 0}); s.Scores(2)[0] != want {
			t.Errorf("Ann round 2: %v, want %v", s.Scores(2)[0], want)
		}
		if got := s.Totals(); got[0] != 3 || got[1] != -14 {
			t.Errorf("totals %v, want Ann 3, Bob -14", got[:2])
		}
	})
}

func TestR17FinalScoring(t *testing.T) {
	runScoreCases(t, []scoreCase{
		{"businesses: distinct kinds", []cardCounts{
			{},
			{razzia.Casino: 1},
			{razzia.Casino: 2, razzia.Transport: 1},
			{razzia.Casino: 1, razzia.Transport: 1, razzia.Cinema: 1, razzia.Racetrack: 1, razzia.RealEstate: 1, razzia.Nightclub: 1},
			{razzia.Casino: 1, razzia.Transport: 1, razzia.Cinema: 1, razzia.Racetrack: 1, razzia.RealEstate: 1, razzia.Nightclub: 1, razzia.Restaurant: 1},
		}, nil, true, razzia.CategoryBusinesses, []int{0, 1, 2, 6, 10}},
		{"businesses: 3 and 4 alike", []cardCounts{
			{razzia.Casino: 3},
			{razzia.Casino: 4},
			{razzia.Casino: 3, razzia.Cinema: 4, razzia.Nightclub: 2},
			{razzia.Casino: 4, razzia.Transport: 3, razzia.Cinema: 1, razzia.Racetrack: 1, razzia.RealEstate: 1, razzia.Nightclub: 1, razzia.Restaurant: 1},
		}, nil, true, razzia.CategoryBusinesses, []int{6, 11, 18, 25}},

		{"cheques: highest +5, lowest -5", []cardCounts{{}, {}, {}, {}}, [][]int{{2, 6, 13}, {3, 7, 12}, {4, 8, 11}, {1, 9, 10}}, true, razzia.CategoryCheques, []int{0, 0, 5, -5}},
		{"cheques: ties all score", []cardCounts{{}, {}, {}, {}}, [][]int{{13, 8}, {12, 9}, {1, 2, 5}, {4, 3, 10}}, true, razzia.CategoryCheques, []int{5, 5, -5, 0}},
		{"cheques: all equal, nobody scores", []cardCounts{{}, {}}, [][]int{{2, 5, 6, 9}, {3, 4, 7, 8}}, true, razzia.CategoryCheques, []int{0, 0}},
		{"cheques: two players", []cardCounts{{}, {}}, [][]int{{1, 2, 6, 9}, {3, 4, 7, 8}}, true, razzia.CategoryCheques, []int{-5, 5}},
	})
	t.Run("face-down cheques count", func(t *testing.T) {
		r := newRuleGame(t, rulesFour, nil)
		r.play("draw police", "pass", "pass", "bid 10", "pass") // Dennis wins with 10, takes the 1
		r.endRoundByPolice()
		r.endRoundByPolice()
		r.wantToMove("Miriam")
		r.play("call", "pass", "pass", "pass", "bid 2") // Miriam takes the 10 face down
		r.wantCheques(miriam, []int{6, 13}, []int{10})
		r.endRoundByPolice()
		s := r.state()
		if !s.Over() {
			t.Fatalf("the game is not over after round 3")
		}
		// Sums: Miriam 6+13+10 = 29, Felix 22, Elke 23, Dennis 5+9+1 = 15.
		got := s.Scores(3)
		for seat, want := range []int{5, 0, 0, -5} {
			if got[seat][razzia.CategoryCheques] != want {
				t.Errorf("%s: cheques %d, want %d", rulesFour[seat], got[seat][razzia.CategoryCheques], want)
			}
		}
		// R18: with nothing else won, Miriam wins alone.
		if w := s.Winners(); !slices.Equal(w, []int{miriam}) {
			t.Errorf("winners %v, want [Miriam]", w)
		}
		if s.Scores(1)[miriam][razzia.CategoryCheques] != 0 || s.Scores(2)[dennis][razzia.CategoryCheques] != 0 {
			t.Errorf("cheques scored before round 3")
		}
	})
}

func TestR18MostPointsWins(t *testing.T) {
	t.Run("a tie is a shared win", func(t *testing.T) {
		// Nobody wins anything; the 2-player sets both sum to 22.
		r := newRuleGame(t, []string{"Ann", "Bob"}, nil)
		for range 3 {
			if s := r.state(); s.Winners() != nil {
				t.Fatalf("winners %v before the end", s.Winners())
			}
			r.endRoundByPolice()
		}
		s := r.state()
		if !s.Over() || s.ToMove() != -1 || s.Phase() != razzia.PhaseOver {
			t.Fatalf("over %v, to move %d, phase %v", s.Over(), s.ToMove(), s.Phase())
		}
		if got := s.Totals(); got[0] != -15 || got[1] != -15 {
			t.Errorf("totals %v, want -15 each (jewels)", got[:2])
		}
		if w := s.Winners(); !slices.Equal(w, []int{0, 1}) {
			t.Errorf("winners %v, want both", w)
		}
		events := r.g.Events()
		last := events[len(events)-1]
		if last.Kind != razzia.EventGameOver || !slices.Equal(last.Winners, []int{0, 1}) {
			t.Errorf("last event %+v, want the game over, both winning", last)
		}
		r.illegal("draw car", razzia.ErrGameOver, "cannot draw car: the game is over")
		r.illegal("pass", razzia.ErrGameOver, "")
	})
	t.Run("most points", func(t *testing.T) {
		r := newRuleGame(t, []string{"Ann", "Bob"}, nil)
		r.play("draw gold", "draw police", "bid 2", "pass") // Bob draws police, Ann wins the gold
		for range 3 {
			r.endRoundByPolice()
		}
		s := r.state()
		// Ann: +3 gold in round 1; cheques Ann 22-2+1 = 21, Bob 22 in round 3.
		if got := s.Totals(); got[0] != -15+3-5 || got[1] != -15+5 {
			t.Errorf("totals %v, want Ann -17, Bob -10", got[:2])
		}
		if w := s.Winners(); !slices.Equal(w, []int{1}) {
			t.Errorf("winners %v, want [1]", w)
		}
	})
}

// TestRuleErrorsSentinels checks that each sentinel of errors.go comes in
// its situation, names the player and the reason, and changes nothing.
func TestRuleErrorsSentinels(t *testing.T) {
	cases := []struct {
		name     string
		setup    []string
		token    string
		sentinel error
		message  string
	}{
		{"no auction: bid", nil, "bid 13", razzia.ErrNoAuction, "Miriam cannot bid 13: no auction is running; draw, use thieves or call"},
		{"no auction: pass", nil, "pass", razzia.ErrNoAuction, "Miriam cannot pass: no auction is running; draw, use thieves or call"},
		{"in auction: draw", []string{"draw police"}, "draw car", razzia.ErrInAuction, "Felix cannot draw car: an auction is running; bid or pass"},
		{"in auction: call", []string{"draw police"}, "call", razzia.ErrInAuction, "Felix cannot call: an auction is running; bid or pass"},
		{"in auction: thieves", []string{"draw car", "draw police"}, "thief car", razzia.ErrInAuction, ""},
		{"not held", []string{"draw police"}, "bid 13", razzia.ErrNotHeld, "Felix cannot bid 13: their face-up cheques are 3, 7 and 12"},
		{"too low", []string{"draw police", "bid 7"}, "bid 4", razzia.ErrBidTooLow, "Elke cannot bid 4: the highest bid is 7"},
		{"lower than the highest", []string{"draw police", "bid 7", "bid 8", "bid 9"}, "bid 6", razzia.ErrBidTooLow, "Miriam cannot bid 6: the highest bid is 9"},
		{"must bid", []string{"call", "pass", "pass", "pass"}, "pass", razzia.ErrMustBid, ""},
		{"used up", []string{"draw gold", "draw gold", "draw gold"}, "draw gold", razzia.ErrUsedUp, "Dennis cannot draw gold: all 3 gold coins have been drawn"},
		{"no thief", []string{"draw car"}, "thief car", razzia.ErrNoThief, "Felix cannot use a thief on car: they hold no thief"},
		{"not in row", []string{"draw thief", "draw police", "bid 4", "pass", "pass", "pass"}, "thief car", razzia.ErrNotInRow, "Elke cannot use a thief on car: the row holds no car"},
		{"no chance without a seed", nil, "draw", razzia.ErrNoChance, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRuleGame(t, rulesFour, nil)
			r.play(c.setup...)
			r.illegal(c.token, c.sentinel, c.message)
			err := r.g.PlayToken(c.token)
			var me *razzia.MoveError
			if !errors.As(err, &me) {
				t.Fatalf("%T is not a *MoveError", err)
			}
			s := r.state()
			if me.Seat != s.ToMove() || me.Player != rulesFour[s.ToMove()] || !strings.HasPrefix(err.Error(), me.Player+" cannot ") {
				t.Errorf("error %q names seat %d (%q), want %s", err, me.Seat, me.Player, rulesFour[s.ToMove()])
			}
			for _, other := range []error{razzia.ErrNotHeld, razzia.ErrBidTooLow, razzia.ErrMustBid, razzia.ErrNoThief, razzia.ErrNotInRow} {
				if other != c.sentinel && errors.Is(err, other) {
					t.Errorf("error %q also matches %v", err, other)
				}
			}
		})
	}
	t.Run("fewer thieves than cards", func(t *testing.T) {
		r := newRuleGame(t, rulesFour, nil)
		r.play("draw thief", "draw police", "bid 4", "pass", "pass", "pass", "draw car", "draw ring", "draw watch", "draw driver")
		r.wantToMove("Elke")
		r.illegal("thief car ring", razzia.ErrNoThief, "Elke cannot use thieves on ring and car: they hold only 1 thief")
	})
	t.Run("syntax and unknown cards", func(t *testing.T) {
		r := newRuleGame(t, rulesFour, nil)
		r.illegal("jump", razzia.ErrSyntax, "")
		r.illegal("bid 17", razzia.ErrSyntax, "")
		r.illegal("draw dragon", razzia.ErrUnknownCard, "")
		r.illegal("thief police", razzia.ErrSyntax, "")
		before := r.state()
		for _, c := range []struct {
			m        razzia.Move
			sentinel error
		}{
			{razzia.Move{}, razzia.ErrSyntax},
			{razzia.Thieves(), razzia.ErrSyntax},
			{razzia.Thieves(razzia.Police), razzia.ErrUnknownCard},
			{razzia.Draw(razzia.Kind(99)), razzia.ErrUnknownCard},
		} {
			if err := r.g.Play(c.m); !errors.Is(err, c.sentinel) {
				t.Errorf("Play(%v): %v, want %v", c.m, err, c.sentinel)
			}
			if err := before.Check(c.m); !errors.Is(err, c.sentinel) {
				t.Errorf("Check(%v): %v, want %v", c.m, err, c.sentinel)
			}
		}
		if r.state() != before {
			t.Errorf("malformed moves changed the game")
		}
	})
	t.Run("setup", func(t *testing.T) {
		for _, players := range [][]string{{"Solo"}, {"A", "B", "C", "D", "E", "F"}, {"A", ""}, {"A", "B\x00"}, {"A", strings.Repeat("x", 65)}} {
			if _, err := razzia.NewGame(razzia.Setup{Players: players}); !errors.Is(err, razzia.ErrSetup) {
				t.Errorf("NewGame(%q): %v, want ErrSetup", players, err)
			}
		}
		if _, err := razzia.NewGame(razzia.Setup{Players: rulesFour, Cheques: [][]int{{1, 2, 3}}}); !errors.Is(err, razzia.ErrSetup) {
			t.Errorf("bad cheques: %v, want ErrSetup", err)
		}
	})
	t.Run("record", func(t *testing.T) {
		_, err := razzia.ReadRecord(strings.NewReader(`{"format": "razzia-record/9", "players": ["A", "B"], "moves": []}`))
		if !errors.Is(err, razzia.ErrRecord) {
			t.Errorf("wrong format: %v, want ErrRecord", err)
		}
		rec := &razzia.Record{Format: razzia.RecordFormat, Players: rulesFour, Moves: []string{"draw police", "bid 9"}}
		_, err = rec.Game()
		var re *razzia.RecordError
		if !errors.As(err, &re) || re.Move != 2 || !errors.Is(err, razzia.ErrNotHeld) {
			t.Errorf("illegal move in a record: %v, want move 2 not held", err)
		}
	})
}
