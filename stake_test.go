package razzia

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/razziagame/razzia/internal/race"
)

// stakeSeat and stakeState build a state in round round with the row and the centre cheque,
// each seat holding the cards and cheques given; a seat's cheques are face
// up unless listed in down.
type stakeSeat struct {
	cards []Kind
	up    []int
	down  []int
}

func stakeState(t *testing.T, round int, row []Kind, centre int, seats ...stakeSeat) State {
	t.Helper()
	s := State{players: uint8(len(seats)), round: uint8(round), centre: uint8(centre), deck: composition, deckLeft: DeckSize}
	for _, k := range row {
		s.row[s.rowLen] = k
		s.rowLen++
	}
	for i, seat := range seats {
		for _, k := range seat.cards {
			s.seats[i].holdings[k]++
		}
		s.seats[i].faceUp = ChequesOf(seat.up...)
		s.seats[i].faceDown = ChequesOf(seat.down...)
	}
	return s
}

// gain builds a Score from category/points pairs.
func gain(pairs ...int) Score {
	var g Score
	for i := 0; i < len(pairs); i += 2 {
		g[pairs[i]] = pairs[i+1]
	}
	return g
}

// TestStakeByRule checks hand-computed stakes, each the seat's score after
// winning the lot (R11) minus its score now, scored as the round's end would
// (R14, R16, R17).
func TestStakeByRule(t *testing.T) {
	none := stakeSeat{up: []int{3}}
	for _, tc := range []struct {
		name  string
		state func(t *testing.T) State
		seat  int
		bid   int
		want  Score
	}{
		{
			// Everybody holds one bodyguard: nobody scores (R16). With a
			// second one the winner has the most: +5. Jewels: none before
			// and after, −5 both times, no change.
			name: "R16 bodyguards: a bodyguard breaks the tie of everybody",
			state: func(t *testing.T) State {
				b := stakeSeat{cards: []Kind{Bodyguard}, up: []int{2}}
				return stakeState(t, 1, []Kind{Bodyguard}, 1, b, b, b)
			},
			seat: 0, bid: 2,
			want: gain(int(CategoryBodyguards), 5),
		},
		{
			// Seat 0 has 0 and the fewest (−2), seat 1 two (most, +5), seat
			// 2 one. With one more, seat 0 ties seat 2 at one, both fewest:
			// still −2 (ties all score, R16). Nothing gained.
			name: "R16 bodyguards: a tie for the fewest still scores −2",
			state: func(t *testing.T) State {
				return stakeState(t, 1, []Kind{Bodyguard}, 1,
					stakeSeat{up: []int{2}},
					stakeSeat{cards: []Kind{Bodyguard, Bodyguard}, up: []int{3}},
					stakeSeat{cards: []Kind{Bodyguard}, up: []int{4}})
			},
			seat: 0, bid: 2,
			want: Score{},
		},
		{
			// Seat 2 has one (neither most nor fewest: 0); two bodyguards
			// tie seat 1 for the most: +5 each (R16).
			name: "R16 bodyguards: two bodyguards tie for the most",
			state: func(t *testing.T) State {
				return stakeState(t, 1, []Kind{Bodyguard, Bodyguard}, 1,
					stakeSeat{up: []int{2}},
					stakeSeat{cards: []Kind{Bodyguard, Bodyguard, Bodyguard}, up: []int{3}},
					stakeSeat{cards: []Kind{Bodyguard}, up: []int{4}})
			},
			seat: 2, bid: 4,
			want: gain(int(CategoryBodyguards), 5),
		},
		{
			// Seat 0, fewest with none (−2), takes three: 3 against 2 and 1,
			// the most (+5): a swing of 7 (R16).
			name: "R16 bodyguards: from the fewest to the most",
			state: func(t *testing.T) State {
				return stakeState(t, 2, []Kind{Bodyguard, Bodyguard, Bodyguard}, 1,
					stakeSeat{up: []int{2}},
					stakeSeat{cards: []Kind{Bodyguard, Bodyguard}, up: []int{3}},
					stakeSeat{cards: []Kind{Bodyguard}, up: []int{4}})
			},
			seat: 0, bid: 2,
			want: gain(int(CategoryBodyguards), 7),
		},
		{
			// Three cars without a driver score 0; with the row's driver,
			// 3 + 1 = 4 (R16).
			name: "R16 cars: the first driver makes the cars count",
			state: func(t *testing.T) State {
				return stakeState(t, 1, []Kind{Driver}, 1,
					stakeSeat{cards: []Kind{Car, Car, Car}, up: []int{2}}, none)
			},
			seat: 0, bid: 2,
			want: gain(int(CategoryCars), 4),
		},
		{
			// Ring and watch: two kinds, 0 points. A brooch makes three, 5
			// points; a second ring adds no kind (R16).
			name: "R16 jewels: a third kind is worth 5, a second ring nothing",
			state: func(t *testing.T) State {
				return stakeState(t, 1, []Kind{Brooch, Ring}, 1,
					stakeSeat{cards: []Kind{Ring, Watch}, up: []int{2}}, none)
			},
			seat: 0, bid: 2,
			want: gain(int(CategoryJewels), 5),
		},
		{
			// No jewel is −5; one kind is 0: a single ring is worth 5 (R16).
			name: "R16 jewels: the first jewel lifts the −5",
			state: func(t *testing.T) State {
				return stakeState(t, 1, []Kind{Diamond}, 1, stakeSeat{up: []int{2}}, none)
			},
			seat: 0, bid: 2,
			want: gain(int(CategoryJewels), 5),
		},
		{
			// A thief is 2 points, a gold coin 3 (R16); the other seat has
			// no bodyguards either, so nobody scores them. Jewels: −5 both
			// before and after.
			name: "R16 thieves and gold",
			state: func(t *testing.T) State {
				return stakeState(t, 1, []Kind{Thief, Gold, Gold}, 1, stakeSeat{up: []int{2}}, none)
			},
			seat: 0, bid: 2,
			want: gain(int(CategoryThieves), 2, int(CategoryGold), 6),
		},
		{
			// Businesses and cheques score in round 3 only (R17): in round 2
			// a casino is worth nothing now.
			name: "R17 businesses do not score before round 3",
			state: func(t *testing.T) State {
				return stakeState(t, 2, []Kind{Casino}, 1,
					stakeSeat{cards: []Kind{Casino, Casino}, up: []int{2}}, none)
			},
			seat: 0, bid: 2,
			want: Score{},
		},
		{
			// Round 3: casino ×2 and a cinema are 2 kinds, 2 points. A third
			// casino adds 5 (3 alike); the centre cheque 1 for the bid 2
			// leaves the sum at 2 + 1 − 2 = 1 against the other seat's 3:
			// the lowest before and after, −5 both times (R17).
			name: "R17 businesses: a third alike is worth 5 in round 3",
			state: func(t *testing.T) State {
				return stakeState(t, 3, []Kind{Casino}, 1,
					stakeSeat{cards: []Kind{Casino, Casino, Cinema}, up: []int{2}}, none)
			},
			seat: 0, bid: 2,
			want: gain(int(CategoryBusinesses), 5),
		},
		{
			// Seven distinct kinds score 10 instead of 6 (R17).
			name: "R17 businesses: the seventh kind is worth 4",
			state: func(t *testing.T) State {
				return stakeState(t, 3, []Kind{Restaurant}, 1,
					stakeSeat{cards: []Kind{Casino, Transport, Cinema, Racetrack, RealEstate, Nightclub}, up: []int{2}},
					stakeSeat{up: []int{3}, down: []int{16}}) // the other seat keeps the highest sum
			},
			seat: 0, bid: 2,
			want: gain(int(CategoryBusinesses), 4),
		},
		// Round 3 cheques, three players with the sets of R4: sums 28, 30
		// and 32, the centre 1. Before: seat 2 highest +5, seat 0 lowest −5.
		{
			// 32 − 4 + 1 = 29 < 30: seat 2 loses the highest (R17).
			name:  "R17 cheques: the lowest bid loses the highest sum",
			state: func(t *testing.T) State { return threeSets(t) },
			seat:  2, bid: 4,
			want: gain(int(CategoryCheques), -5),
		},
		{
			// 32 − 11 + 1 = 22 < 28: from the highest to the lowest, −10.
			name:  "R17 cheques: a high bid falls to the lowest sum",
			state: func(t *testing.T) State { return threeSets(t) },
			seat:  2, bid: 11,
			want: gain(int(CategoryCheques), -10),
		},
		{
			// 30 − 3 + 1 = 28 ties seat 0 for the lowest: −5 (ties all score).
			name:  "R17 cheques: a tie for the lowest sum scores −5",
			state: func(t *testing.T) State { return threeSets(t) },
			seat:  1, bid: 3,
			want: gain(int(CategoryCheques), -5),
		},
		{
			// A bid the seat does not hold face up is not paid: the centre
			// cheque alone, 30 + 1 = 31 < 32, changes nothing.
			name:  "R17 cheques: a cheque not held is not paid",
			state: func(t *testing.T) State { return threeSets(t) },
			seat:  1, bid: 16,
			want: Score{},
		},
		{
			// The centre 16 for the bid 2: 28 + 14 = 42, the highest (+5)
			// instead of the lowest (−5), +10; with an empty row only the
			// cheques change (R9 Decision: an auction on an empty row).
			name: "R17 cheques: the centre cheque alone, on an empty row",
			state: func(t *testing.T) State {
				s := threeSets(t)
				s.centre = 16
				return s
			},
			seat: 0, bid: 2,
			want: gain(int(CategoryCheques), 10),
		},
		{
			// Face-down cheques count in the sum (R17: face up and down):
			// seat 0's 28 with a 15 face down is 43, the highest; paying 13
			// for the centre 1 makes it 31, the middle: −5.
			name: "R17 cheques: face-down cheques count",
			state: func(t *testing.T) State {
				s := threeSets(t)
				s.seats[0].faceDown = ChequesOf(15)
				return s
			},
			seat: 0, bid: 13,
			want: gain(int(CategoryCheques), -5),
		},
		{
			name:  "a seat the game does not have gains nothing",
			state: func(t *testing.T) State { return threeSets(t) },
			seat:  3, bid: 2,
			want: Score{},
		},
		{
			name:  "a negative seat gains nothing",
			state: func(t *testing.T) State { return threeSets(t) },
			seat:  -1, bid: 2,
			want: Score{},
		},
		{
			name: "nothing is at stake once the game is over (R18)",
			state: func(t *testing.T) State {
				s := threeSets(t)
				s.phase = PhaseOver
				return s
			},
			seat: 0, bid: 2,
			want: Score{},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.state(t)
			before := s
			if got := s.Stake(tc.seat, tc.bid); got != tc.want {
				t.Errorf("Stake(%d, %d) = %v, want %v", tc.seat, tc.bid, got, tc.want)
			}
			if s != before {
				t.Error("Stake changed the state")
			}
		})
	}
}

// threeSets is round 3 of a three-player game with the rulebook's sets
// (R4) all face up, an empty row and the centre cheque 1.
func threeSets(t *testing.T) State {
	return stakeState(t, 3, nil, 1,
		stakeSeat{up: []int{2, 5, 8, 13}}, stakeSeat{up: []int{3, 6, 9, 12}}, stakeSeat{up: []int{4, 7, 10, 11}})
}

// TestLowestBid checks the cheque Stakes prices the lot at (R10).
func TestLowestBid(t *testing.T) {
	s := threeSets(t)
	for _, tc := range []struct {
		name       string
		high, seat int
		want       int
	}{
		{"outside an auction, the lowest face-up cheque", 0, 1, 3},
		{"above the highest bid", 7, 0, 8},
		{"none high enough", 13, 1, 0},
		{"no such seat", 0, 3, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := s
			s.highBid = uint8(tc.high)
			if tc.high > 0 {
				s.phase, s.auction = PhaseAuction, AuctionForced
			}
			if got := s.LowestBid(tc.seat); got != tc.want {
				t.Errorf("LowestBid(%d) with the highest bid %d = %d, want %d", tc.seat, tc.high, got, tc.want)
			}
		})
	}
	// After an auction its winning bid no longer counts: the next turn's
	// lowest bid is the lowest face-up cheque (R10, R12).
	g, err := NewGame(Setup{Players: []string{"Ann", "Bob", "Cy"}, Cheques: [][]int{{2, 5, 8, 13}, {3, 6, 9, 12}, {4, 7, 10, 11}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{"draw car", "call", "pass", "pass", "bid 9"} { // Bob must bid, and wins with 9
		if err := g.PlayToken(tok); err != nil {
			t.Fatal(err)
		}
	}
	if st := g.State(); st.Phase() != PhaseTurn || st.LowestBid(2) != 4 || st.LowestBid(0) != 2 {
		t.Errorf("after the auction: phase %v, LowestBid = %d and %d, want 4 and 2", st.Phase(), st.LowestBid(2), st.LowestBid(0))
	}
}

// TestRaidRisk checks the risk by hand (R1, R7, R14).
func TestRaidRisk(t *testing.T) {
	for _, tc := range []struct {
		name   string
		risk   RaidRisk
		toRaid int
		chance float64
	}{
		{"the start: 21 police in 120 cards, 7 to the raid", RaidRisk{0, 7, 21, 120}, 7, 21.0 / 120},
		{"two players: the 5th is the raid", RaidRisk{3, 5, 15, 60}, 2, 0.25},
		{"the next police card is the raid", RaidRisk{6, 7, 10, 40}, 1, 0.25},
		{"no card left", RaidRisk{2, 7, 0, 0}, 5, 0},
		{"past the limit counts as none", RaidRisk{8, 7, 1, 4}, 0, 0.25},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.risk.ToRaid(); got != tc.toRaid {
				t.Errorf("ToRaid() = %d, want %d", got, tc.toRaid)
			}
			if got := tc.risk.Chance(); got != tc.chance {
				t.Errorf("Chance() = %v, want %v", got, tc.chance)
			}
		})
	}
	t.Run("JSON carries what the methods derive", func(t *testing.T) {
		b, err := json.Marshal(RaidRisk{6, 7, 10, 40})
		if err != nil {
			t.Fatal(err)
		}
		want := `{"police":6,"limit":7,"policeLeft":10,"cardsLeft":40,"toRaid":1,"chance":0.25}`
		if string(b) != want {
			t.Errorf("got %s, want %s", b, want)
		}
		var back RaidRisk
		if err := json.Unmarshal(b, &back); err != nil || back != (RaidRisk{6, 7, 10, 40}) {
			t.Errorf("decoded %+v, %v", back, err)
		}
	})
	t.Run("a new game", func(t *testing.T) {
		for n := MinPlayers; n <= MaxPlayers; n++ {
			s, err := NewState(n, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := RaidRisk{0, 7, 21, 120}
			if n == 2 {
				want.Limit = 5
			}
			if got := s.RaidRisk(); got != want {
				t.Errorf("%d players: %+v, want %+v", n, got, want)
			}
		}
	})
}

// TestStakeIsProjectedAfterWinning plays random games and, in every auction,
// checks each bid the seat to move may make against the game itself: the
// stake equals the seat's Projected score after it bids and everybody else
// passes, minus its Projected score now; when winning empties the last
// cheques, the round's recorded score stands for Projected (R14). It also
// checks that Stakes prices every seat at its lowest bid, and the raid risk
// against the next police card: it ends the round exactly when ToRaid is 1
// (R7), and the deck always holds enough police for the raid.
func TestStakeIsProjectedAfterWinning(t *testing.T) {
	t.Parallel() // random games: on both cores
	games := 300
	if race.Enabled {
		games = 30
	}
	var checked, raids int
	for n := MinPlayers; n <= MaxPlayers; n++ {
		r := rand.New(rand.NewPCG(uint64(n), 0x57a4e))
		buf := make([]Move, 0, 80)
		stakes := make([]Stake, 0, MaxPlayers)
		for game := range games {
			s, err := NewState(n, DealCheques(n, r))
			if err != nil {
				t.Fatal(err)
			}
			for !s.Over() {
				where := fmt.Sprintf("%d players, game %d, round %d", n, game, s.round)
				checkRisk(t, &s, where, &raids)
				stakes = s.Stakes(stakes[:0])
				if len(stakes) != n {
					t.Fatalf("%s: %d stakes", where, len(stakes))
				}
				for i, st := range stakes {
					if st.Seat != i || st.Bid != s.LowestBid(i) || st.Gain != s.Stake(i, st.Bid) {
						t.Fatalf("%s: Stakes()[%d] = %+v, want seat %d at its lowest bid %d", where, i, st, i, s.LowestBid(i))
					}
				}
				if s.phase == PhaseAuction {
					seat := int(s.toMove)
					for bids := s.seats[seat].faceUp.Above(int(s.highBid)); bids != 0; bids &= bids - 1 {
						bid := bids.Min()
						if got, want := s.Stake(seat, bid), wonWith(&s, bid); got != want {
							t.Fatalf("%s: seat %d bidding %d: Stake = %v, winning gives %v", where, seat, bid, got, want)
						}
						checked++
					}
				}
				buf = s.LegalMoves(buf[:0])
				m := buf[r.IntN(len(buf))]
				if m.Action == ActionDraw {
					m.Card = s.RandomCard(r)
				}
				s.Apply(m)
			}
			if got := s.Stakes(stakes[:0]); len(got) != 0 {
				t.Fatalf("%d players, game %d: %d stakes after the game", n, game, len(got))
			}
		}
	}
	if checked == 0 || raids == 0 {
		t.Fatalf("%d bids and %d raids checked", checked, raids)
	}
	t.Logf("%d bids and %d raids checked", checked, raids)
}

// wonWith returns the gain of the seat to move from bidding bid and winning:
// its score when the auction is over, everybody else passing, minus its
// Projected score now.
func wonWith(s *State, bid int) Score {
	seat := int(s.toMove)
	now := s.Projected()[seat]
	won := *s
	won.Apply(Bid(bid))
	for won.phase == PhaseAuction {
		won.Apply(Pass())
	}
	after := won.Projected()[seat]
	if won.ScoredRounds() > s.ScoredRounds() {
		after = won.Scores(s.Round())[seat]
	}
	var g Score
	for i := range g {
		g[i] = after[i] - now[i]
	}
	return g
}

// checkRisk checks the raid risk of a state before a move against drawing a
// police card.
func checkRisk(t *testing.T, s *State, where string, raids *int) {
	t.Helper()
	r := s.RaidRisk()
	if r.Police != s.Police() || r.Limit != s.PoliceLimit() || r.PoliceLeft != s.Remaining(Police) || r.CardsLeft != s.DeckLeft() {
		t.Fatalf("%s: RaidRisk %+v disagrees with the state", where, r)
	}
	if r.PoliceLeft < r.ToRaid() {
		t.Fatalf("%s: %d police left, %d needed for the raid", where, r.PoliceLeft, r.ToRaid())
	}
	if s.phase != PhaseTurn {
		return
	}
	next := *s
	next.Apply(Draw(Police))
	if raid := next.ScoredRounds() > s.ScoredRounds(); raid != (r.ToRaid() == 1) {
		t.Fatalf("%s: ToRaid %d, and the next police card ends the round: %v", where, r.ToRaid(), raid)
	}
	if r.ToRaid() == 1 {
		*raids++
	}
}

// TestStakeAllocatesNothing: bots may value lots in their inner loop.
func TestStakeAllocatesNothing(t *testing.T) {
	s := threeSets(t)
	s.row[0], s.rowLen = Bodyguard, 1
	dst := make([]Stake, 0, MaxPlayers)
	if n := testing.AllocsPerRun(100, func() {
		_ = s.Stake(1, 3)
		dst = s.Stakes(dst[:0])
		_ = s.RaidRisk().Chance()
	}); n != 0 {
		t.Errorf("%v allocations per run", n)
	}
}
