package razzia

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/razziagame/razzia/internal/race"
)

// The invariants below are written from RULES.md, not from the engine: the
// card table of R1 and the cheque sets of R4 are spelled out again here so a
// wrong table in the engine cannot agree with itself.

// rulesComposition is the card table of R1.
var rulesComposition = [numKinds]int{
	Police: 21,
	Ring:   4, Watch: 4, Brooch: 4, Necklace: 4, Diamond: 4,
	Bodyguard: 16, Car: 16, Driver: 10, Thief: 6, Gold: 3,
	Casino: 4, Transport: 4, Cinema: 4, Racetrack: 4, RealEstate: 4, Nightclub: 4, Restaurant: 4,
}

// rulesSets are the cheque sets A, B, ... of R4 by player count.
var rulesSets = map[int][][]int{
	2: {{2, 5, 6, 9}, {3, 4, 7, 8}},
	3: {{2, 5, 8, 13}, {3, 6, 9, 12}, {4, 7, 10, 11}},
	4: {{2, 6, 13}, {3, 7, 12}, {4, 8, 11}, {5, 9, 10}},
	5: {{2, 7, 16}, {3, 8, 15}, {4, 9, 14}, {5, 10, 13}, {6, 11, 12}},
}

// allCheques holds every cheque in play by player count: the sets of R4
// and the 1 in the centre.
var allCheques = func() (all [MaxPlayers + 1]Cheques) {
	for n, sets := range rulesSets {
		all[n] = ChequesOf(1)
		for _, set := range sets {
			all[n] |= ChequesOf(set...)
		}
	}
	return all
}()

// maxMoves bounds the record tokens of a game. Draws: at most the 120 cards.
// Thief moves: at most the 6 thieves. Calls: each forced auction costs some
// player a face-up cheque (the caller must bid if nobody does, R9), and at
// most 16 cheques are face up per round, so at most 3*16. Every auction
// follows a draw or a call and asks each of at most 5 players once (R10).
const maxMoves = DeckSize + 6 + Rounds*MaxCheque + MaxPlayers*(DeckSize+Rounds*MaxCheque)

// checkState checks the invariants that hold in every reachable state and
// returns a description of the first one broken, or "".
func checkState(s *State) string {
	n := int(s.players)
	if n < MinPlayers || n > MaxPlayers {
		return fmt.Sprintf("%d players", n)
	}

	// R1, R5, R7, R8, R14: every card is in exactly one place.
	var row [numKinds]int
	for i := range RowSize {
		k := s.row[i]
		switch {
		case i < int(s.rowLen) && !k.IsLoot():
			return fmt.Sprintf("row[%d] = %v is not loot", i, k)
		case i >= int(s.rowLen) && k != NoKind:
			return fmt.Sprintf("row[%d] = %v beyond the row's length %d", i, k, s.rowLen)
		}
		if k < numKinds {
			row[k]++
		}
	}
	deckLeft := 0
	for _, k := range Kinds {
		places := int(s.deck[k]) + row[k] + int(s.out[k])
		if k == Police {
			places += int(s.police)
		}
		for i := range n {
			places += int(s.seats[i].holdings[k])
		}
		if places != rulesComposition[k] {
			return fmt.Sprintf("%d %v cards in deck %d, row %d, out %d, police %d, holdings; R1 has %d",
				places, k, s.deck[k], row[k], s.out[k], s.police, rulesComposition[k])
		}
		deckLeft += int(s.deck[k])
	}
	for i := range n {
		if h := s.seats[i].holdings[Police]; h != 0 {
			return fmt.Sprintf("seat %d holds %d police", i, h)
		}
	}
	if deckLeft != int(s.deckLeft) {
		return fmt.Sprintf("deckLeft %d but the deck holds %d cards", s.deckLeft, deckLeft)
	}
	if int(s.police) >= s.PoliceLimit() {
		return fmt.Sprintf("%d police on the track, limit %d (R7)", s.police, s.PoliceLimit())
	}

	// R2, R4, R11, R15: cheques are conserved and each is in one place.
	if s.centre < 1 || s.centre > MaxCheque {
		return fmt.Sprintf("centre cheque %d", s.centre)
	}
	seen := ChequesOf(int(s.centre))
	for i := range n {
		up, down := s.seats[i].faceUp, s.seats[i].faceDown
		if seen&up != 0 || seen&down != 0 || up&down != 0 {
			return fmt.Sprintf("seat %d holds cheques %v up and %v down; some are also elsewhere", i, up, down)
		}
		seen |= up | down
	}
	if want := allCheques[n]; seen != want {
		return fmt.Sprintf("cheques in play %v, want %v", seen, want)
	}

	switch s.phase {
	case PhaseOver:
		if s.ToMove() != -1 || s.round != Rounds {
			return fmt.Sprintf("game over with toMove %d, round %d", s.ToMove(), s.round)
		}
		if s.rowLen != 0 || s.police != 0 {
			return "game over with cards on the table (R14)"
		}
	case PhaseTurn:
		if s.rowLen >= RowSize {
			return fmt.Sprintf("a turn with %d cards in the row (R7)", s.rowLen)
		}
		if s.auction != AuctionNone {
			return "a turn during an auction"
		}
		// R13: only a player with a face-up cheque takes a turn.
		if s.seats[s.toMove].faceUp == 0 {
			return fmt.Sprintf("seat %d takes a turn without a face-up cheque (R13)", s.toMove)
		}
	case PhaseAuction:
		if s.auction == AuctionNone {
			return "an auction of no kind"
		}
		// R10: the seat asked can bid a face-up cheque above the highest bid.
		if s.seats[s.toMove].faceUp.Above(int(s.highBid)) == 0 {
			return fmt.Sprintf("seat %d asked to bid with no cheque above %d (R10)", s.toMove, s.highBid)
		}
		if s.bids[s.toMove] != BiddingUndecided {
			return fmt.Sprintf("seat %d asked twice in one auction (R10)", s.toMove)
		}
	default:
		return fmt.Sprintf("phase %v", s.phase)
	}
	if s.round < 1 || s.round > Rounds {
		return fmt.Sprintf("round %d", s.round)
	}
	return ""
}

// checkRoundStart checks R6 and R15 at the start of a round: every player
// holds as many cheques as at the start of the game, all face up, and the
// holder of the highest cheque is to move.
func checkRoundStart(s *State, startLen [MaxPlayers]int) string {
	best := 0
	for i := range int(s.players) {
		seat := &s.seats[i]
		if seat.faceDown != 0 || seat.faceUp.Len() != startLen[i] {
			return fmt.Sprintf("round %d starts with seat %d holding %v up, %v down; it was dealt %d cheques (R15)",
				s.round, i, seat.faceUp, seat.faceDown, startLen[i])
		}
		best = max(best, seat.faceUp.Max())
	}
	if s.phase != PhaseTurn || s.rowLen != 0 || s.police != 0 {
		return fmt.Sprintf("round %d starts in phase %v with row %d, police %d", s.round, s.phase, s.rowLen, s.police)
	}
	if s.seats[s.toMove].faceUp.Max() != best {
		return fmt.Sprintf("round %d starts with seat %d, not the holder of %d (R6)", s.round, s.toMove, best)
	}
	for i := range int(s.players) {
		for _, k := range Kinds {
			if k.Crossed() && s.seats[i].holdings[k] != 0 && s.round > 1 {
				return fmt.Sprintf("seat %d keeps %v after scoring (R1 Decision, R15)", i, k)
			}
		}
	}
	return ""
}

// rulesScore scores one round from RULES.md R16 and, when final, R17.
func rulesScore(n int, h []Holdings, cheques []Cheques, final bool) []Score {
	out := make([]Score, n)
	guards := make([]int, n)
	sums := make([]int, n)
	for i := range n {
		out[i][CategoryThieves] = 2 * int(h[i][Thief])
		if h[i][Driver] > 0 {
			out[i][CategoryCars] = int(h[i][Car]) + int(h[i][Driver])
		}
		jewels := 0
		for _, k := range []Kind{Ring, Watch, Brooch, Necklace, Diamond} {
			if h[i][k] > 0 {
				jewels++
			}
		}
		out[i][CategoryJewels] = [...]int{-5, 0, 0, 5, 10, 15}[jewels]
		out[i][CategoryGold] = 3 * int(h[i][Gold])
		guards[i] = int(h[i][Bodyguard])
		if final {
			kinds, pts := 0, 0
			for _, k := range []Kind{Casino, Transport, Cinema, Racetrack, RealEstate, Nightclub, Restaurant} {
				switch c := h[i][k]; {
				case c >= 4:
					pts += 10
				case c == 3:
					pts += 5
				}
				if h[i][k] > 0 {
					kinds++
				}
			}
			if kinds == 7 {
				pts += 10
			} else {
				pts += kinds
			}
			out[i][CategoryBusinesses] = pts
			sums[i] = cheques[i].Sum()
		}
	}
	most := func(counts []int, c Category, hi, lo int) {
		top, bottom := slices.Max(counts), slices.Min(counts)
		if top == bottom {
			return
		}
		for i, v := range counts {
			if v == top {
				out[i][c] = hi
			} else if v == bottom {
				out[i][c] = lo
			}
		}
	}
	most(guards, CategoryBodyguards, 5, -2)
	if final {
		most(sums, CategoryCheques, 5, -5)
	}
	return out
}

// checkScores checks the scores recorded so far: each round's total is the
// sum of its categories, businesses and cheques score in round 3 only (R17),
// a round not scored has no scores, results have one entry per player, and
// Totals and Total add the rounds up.
func checkScores(s *State) string {
	n := int(s.players)
	totals := make([]int, n)
	for r := 1; r <= Rounds; r++ {
		sc := s.Scores(r)
		if r > s.ScoredRounds() {
			if sc != nil {
				return fmt.Sprintf("round %d not scored yet but has scores %v", r, sc)
			}
			continue
		}
		if len(sc) != n {
			return fmt.Sprintf("round %d: %d scores for %d players", r, len(sc), n)
		}
		for i := range n {
			sum := 0
			for c := range NumCategories {
				sum += sc[i][c]
			}
			if sc[i].Total() != sum {
				return fmt.Sprintf("round %d seat %d: total %d, categories add to %d", r, i, sc[i].Total(), sum)
			}
			if r < Rounds && (sc[i][CategoryBusinesses] != 0 || sc[i][CategoryCheques] != 0) {
				return fmt.Sprintf("round %d seat %d scores businesses or cheques (R17)", r, i)
			}
			totals[i] += sum
		}
	}
	if got := s.Totals(); !slices.Equal(got, totals) {
		return fmt.Sprintf("Totals %v, rounds add to %v", got, totals)
	}
	for i, want := range totals {
		if got := s.Total(i); got != want {
			return fmt.Sprintf("Total(%d) = %d, rounds add to %d", i, got, want)
		}
	}
	if p := s.Projected(); len(p) != n {
		return fmt.Sprintf("Projected: %d scores for %d players", len(p), n)
	}
	return ""
}

// offered reports whether Check must accept m in s: the move is one of the
// legal moves, a draw counting as legal with any card not yet all drawn.
func offered(legal []Move, s *State, m Move) bool {
	if m.Action == ActionDraw && m.Card != NoKind {
		return m.Card < numKinds && s.deck[m.Card] > 0 && slices.Contains(legal, Draw(NoKind))
	}
	return slices.Contains(legal, m)
}

// rejects checks that Check refuses m with the sentinel want (nil: any
// sentinel) and leaves s unchanged.
func rejects(s *State, m Move, want error) string {
	before := *s
	err := s.Check(m)
	if *s != before {
		return fmt.Sprintf("Check(%v) changed the state", m)
	}
	if err == nil {
		return fmt.Sprintf("Check accepts %v (%#v), which is not legal", m, m)
	}
	me, ok := err.(*MoveError)
	if !ok {
		return fmt.Sprintf("Check(%v) = %T %v, want a *MoveError", m, err, err)
	}
	if want != nil && me.Err != want {
		return fmt.Sprintf("Check(%v) = %v, want %v", m, err, want)
	}
	if want == nil && !slices.Contains(sentinels, me.Err) {
		return fmt.Sprintf("Check(%v) = %v matches no sentinel", m, err)
	}
	if me.Err == nil || me.Seat != s.ToMove() {
		return fmt.Sprintf("Check(%v): error %+v names seat %d, not %d", m, me, me.Seat, s.ToMove())
	}
	return ""
}

var sentinels = []error{ErrSyntax, ErrUnknownCard, ErrSetup, ErrGameOver, ErrNoAuction, ErrInAuction,
	ErrNotHeld, ErrBidTooLow, ErrMustBid, ErrUsedUp, ErrDeckEmpty, ErrNoThief, ErrNotInRow, ErrNoChance}

func isSentinel(err error) bool {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// checkMoves checks that Check accepts every move LegalMoves offers and
// rejects a sample of others with the right sentinel, changing nothing.
func checkMoves(s *State, legal []Move, r *rand.Rand) string {
	if s.Over() != (len(legal) == 0) {
		return fmt.Sprintf("over %v with %d legal moves", s.Over(), len(legal))
	}
	before := *s
	for i, m := range legal {
		if slices.Contains(legal[:i], m) {
			return fmt.Sprintf("LegalMoves offers %v twice", m)
		}
		if err := s.Check(m); err != nil {
			return fmt.Sprintf("LegalMoves offers %v but Check says %v", m, err)
		}
	}
	if *s != before {
		return "Check of a legal move changed the state"
	}
	seat := &s.seats[s.toMove]

	// Every other step, a move from the whole space of well-formed moves:
	// Check accepts it exactly when it is offered. (The engine formats every
	// error it returns, so rejections are what makes this test slow.)
	if r.IntN(2) == 0 {
		m := randomMove(r, s)
		if offered(legal, s, m) {
			if err := s.Check(m); err != nil {
				return fmt.Sprintf("Check(%v) = %v, but it is legal", m, err)
			}
			return ""
		}
		return rejects(s, m, nil)
	}

	// Moves with a known reason to fail; an array keeps the hot loop free
	// of allocations.
	var arr [48]bad
	bads := arr[:0]
	switch s.phase {
	case PhaseOver:
		bads = append(bads, bad{Draw(NoKind), ErrGameOver}, bad{Pass(), ErrGameOver},
			bad{Call(), ErrGameOver}, bad{Bid(16), ErrGameOver}, bad{Thieves(Car), ErrGameOver})
		return checkBads(s, bads)
	case PhaseTurn:
		bads = append(bads, bad{Pass(), ErrNoAuction}, bad{Bid(seat.faceUp.Max()), ErrNoAuction},
			bad{Draw(Kind(numKinds) + Kind(r.IntN(3))), ErrUnknownCard}, bad{Thieves(Police), nil},
			bad{Thieves(Car, Car, Car, Car, Car, Car, Car), nil})
		for _, k := range Kinds {
			if s.deck[k] == 0 {
				bads = append(bads, bad{Draw(k), ErrUsedUp}) // R5: the composition is public
			}
		}
		held := int(seat.holdings[Thief])
		if int(s.rowLen) > held && held < MaxTake {
			// R8: one thief per card taken.
			bads = append(bads, bad{Thieves(s.row[:held+1]...), ErrNoThief})
		}
		if held > 0 {
			var inRow [numKinds]int
			for _, k := range s.row[:s.rowLen] {
				inRow[k]++
			}
			for k := Ring; k < numKinds; k++ {
				if inRow[k] == 0 {
					bads = append(bads, bad{Thieves(k), ErrNotInRow})
					break
				}
			}
			for k := Ring; k < numKinds && held >= 2; k++ {
				if inRow[k] == 1 {
					bads = append(bads, bad{Thieves(k, k), ErrNotInRow})
					break
				}
			}
		}
	case PhaseAuction:
		bads = append(bads, bad{Draw(NoKind), ErrInAuction}, bad{Draw(Police), ErrInAuction},
			bad{Call(), ErrInAuction}, bad{Thieves(Car), ErrInAuction})
		for v := 1; v <= MaxCheque; v++ {
			switch {
			case !seat.faceUp.Has(v):
				bads = append(bads, bad{Bid(v), ErrNotHeld})
			case v <= int(s.highBid):
				bads = append(bads, bad{Bid(v), ErrBidTooLow}) // R10
			}
		}
		bads = append(bads, bad{Bid(0), nil}, bad{Bid(MaxCheque + 1), nil})
		if s.MustBid() {
			bads = append(bads, bad{Pass(), ErrMustBid}) // R9
		}
	}
	// Else one move with a known reason to fail; every kind still comes up
	// thousands of times over the games.
	b := bads[r.IntN(len(bads))]
	return rejects(s, b.m, b.want)
}

// A bad is a move that is not legal and the sentinel Check must give for
// it (nil: any sentinel).
type bad struct {
	m    Move
	want error
}

func checkBads(s *State, bads []bad) string {
	for _, b := range bads {
		if msg := rejects(s, b.m, b.want); msg != "" {
			return msg
		}
	}
	return ""
}

// randomMove returns a well-formed move (one a record token can spell),
// legal or not, biased towards the moves that might be legal in s.
func randomMove(r *rand.Rand, s *State) Move {
	switch r.IntN(6) {
	case 0:
		return Draw(Kind(r.IntN(int(numKinds))))
	case 1:
		return Call()
	case 2:
		return Pass()
	case 3:
		return Bid(1 + r.IntN(MaxCheque))
	default:
		n := 1 + r.IntN(MaxTake)
		kinds := make([]Kind, n)
		for i := range kinds {
			if s.rowLen > 0 && r.IntN(4) > 0 {
				kinds[i] = s.row[r.IntN(int(s.rowLen))]
			} else {
				kinds[i] = Ring + Kind(r.IntN(int(numKinds-Ring)))
			}
		}
		return Thieves(kinds...)
	}
}

// playChecked plays one random game from s, choosing uniformly among the
// legal moves with chance from RandomCard, and checks every invariant at
// every step. It returns the number of moves, or an error.
func playChecked(s State, r *rand.Rand, buf []Move) (int, []Move, error) {
	var startLen [MaxPlayers]int
	for i := range int(s.players) {
		startLen[i] = s.seats[i].faceUp.Len()
	}
	fail := func(step int, m Move, msg string) (int, []Move, error) {
		if m.Action == ActionNone {
			return step, buf, fmt.Errorf("before move %d, round %d: %s", step, s.round, msg)
		}
		return step, buf, fmt.Errorf("move %d (%v), round %d: %s", step, m, s.round, msg)
	}
	if msg := checkRoundStart(&s, startLen); msg != "" {
		return fail(0, Move{}, msg)
	}
	for step := 1; ; step++ {
		if msg := checkState(&s); msg != "" {
			return fail(step, Move{}, msg)
		}
		buf = s.LegalMoves(buf[:0])
		if msg := checkMoves(&s, buf, r); msg != "" {
			return fail(step, Move{}, msg)
		}
		if s.Over() {
			if msg := checkScores(&s); msg != "" {
				return fail(step, Move{}, msg)
			}
			return step - 1, buf, nil
		}
		if step > maxMoves {
			return fail(step, Move{}, fmt.Sprintf("the game has not ended after %d moves", maxMoves))
		}
		m := buf[r.IntN(len(buf))]
		if m.Action == ActionDraw {
			m.Card = s.RandomCard(r)
			if m.Card == NoKind || s.Check(m) != nil {
				return fail(step, m, "RandomCard drew a card that cannot be drawn")
			}
		}
		before := s
		s.Apply(m)
		if s.ScoredRounds() != before.ScoredRounds() {
			if msg := checkScores(&s); msg != "" {
				return fail(step, m, msg)
			}
			// A round that ends by the police limit (R7, R14) is scored on the
			// table as it stood: the draw itself changes no holdings.
			if m == Draw(Police) && int(before.police)+1 == before.PoliceLimit() {
				n := int(s.players)
				h := make([]Holdings, n)
				c := make([]Cheques, n)
				for i := range n {
					h[i] = before.seats[i].holdings
					c[i] = before.seats[i].faceUp | before.seats[i].faceDown
				}
				want := rulesScore(n, h, c, before.round == Rounds)
				got := s.Scores(int(before.round))
				if !slices.Equal(got, want) {
					return fail(step, m, fmt.Sprintf("round %d scored %v, R16/R17 give %v", before.round, got, want))
				}
			}
			if !s.Over() {
				if msg := checkRoundStart(&s, startLen); msg != "" {
					return fail(step, m, msg)
				}
			}
		}
	}
}

// TestRandomGamesInvariants plays 10,000 seeded random games per player
// count (1,000 under -race) and checks the invariants of R1-R18 at every step.
func TestRandomGamesInvariants(t *testing.T) {
	t.Parallel() // random games: on both cores
	// 2,500 games a player count check the invariants after some
	// 1,500,000 moves; the fuzz tests and the reference's cases look where
	// random play rarely goes.
	games := 2_500
	if race.Enabled {
		games = 500
	}
	for n := MinPlayers; n <= MaxPlayers; n++ {
		t.Run(fmt.Sprintf("%dplayers", n), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(n), 0x5eed))
			buf := make([]Move, 0, 80)
			total, longest := 0, 0
			for g := range games {
				// Half the games use the default sets, half a deal by lot (R4).
				var sets [][]int
				if g%2 == 1 {
					sets = DealCheques(n, r)
				}
				s, err := NewState(n, sets)
				if err != nil {
					t.Fatalf("NewState(%d, %v): %v", n, sets, err)
				}
				var moves int
				moves, buf, err = playChecked(s, r, buf)
				if err != nil {
					t.Fatalf("game %d (%d players, cheques %v): %v", g, n, sets, err)
				}
				total += moves
				longest = max(longest, moves)
			}
			t.Logf("%d games, %.1f moves per game, longest %d (bound %d)", games, float64(total)/float64(games), longest, maxMoves)
		})
	}
}

// TestCheckRejectsAtTheStart spells out a few rejections in the first state,
// so a failure names its rule plainly.
func TestCheckRejectsAtTheStart(t *testing.T) {
	s, err := NewState(4, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		m    Move
		want error
	}{
		{"R10 pass outside an auction", Pass(), ErrNoAuction},
		{"R10 bid outside an auction", Bid(13), ErrNoAuction},
		{"R8 thief without thieves", Thieves(Car), ErrNoThief},
		{"unknown card", Draw(Kind(numKinds)), ErrUnknownCard},
		{"thief takes police", Thieves(Police), nil},
		{"zero move", Move{}, ErrSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if msg := rejects(&s, tt.m, tt.want); msg != "" {
				t.Error(msg)
			}
		})
	}
}

// playSeeded plays a game of n players with the given seed, choosing moves
// with a PCG from choice, and returns it. Draws name no card: the game's
// seed resolves them.
func playSeeded(tb testing.TB, n int, seed []byte, choice uint64) *Game {
	tb.Helper()
	g, err := NewGame(Setup{Players: []string{"Ann", "Bob", "Cy", "Di", "Ed"}[:n], Seed: seed})
	if err != nil {
		tb.Fatal(err)
	}
	r := rand.New(rand.NewPCG(choice, 1))
	for !g.Over() {
		legal := g.LegalMoves()
		if err := g.Play(legal[r.IntN(len(legal))]); err != nil {
			tb.Fatalf("playing a legal move: %v", err)
		}
	}
	return g
}

// TestSeedDeterministic: a seed and the same choices always give the same
// cards, so the same record (Setup.Seed).
func TestSeedDeterministic(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		for i := range 5 {
			seed := fmt.Appendf(nil, "seed %d", i)
			a := playSeeded(t, n, seed, uint64(i))
			b := playSeeded(t, n, seed, uint64(i))
			if !reflect.DeepEqual(a.Record(), b.Record()) {
				t.Errorf("%d players, seed %q: two games with the same seed and choices differ", n, seed)
			}
			if a.State() != b.State() {
				t.Errorf("%d players, seed %q: final states differ", n, seed)
			}
			c := playSeeded(t, n, []byte("another seed"), uint64(i))
			if reflect.DeepEqual(a.Record().Moves, c.Record().Moves) {
				t.Errorf("%d players: seeds %q and %q deal the same cards", n, seed, "another seed")
			}
		}
	}
}

// TestViewHidesSeed: two games with different seeds that follow the same
// record show every seat and the spectator the same View at every step;
// the deck order is never part of a View.
func TestViewHidesSeed(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		a := playSeeded(t, n, []byte("seed one"), uint64(n))
		b, err := NewGame(Setup{Players: a.Players(), Seed: []byte("seed two, a different deck")})
		if err != nil {
			t.Fatal(err)
		}
		replay, err := NewGame(Setup{Players: a.Players(), Seed: []byte("seed one")})
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range a.Moves() {
			for _, g := range []*Game{b, replay} {
				if err := g.Play(m); err != nil {
					t.Fatalf("%d players, move %d (%v): %v", n, i+1, m, err)
				}
			}
			for seat := -1; seat < n; seat++ {
				if vb, vr := b.View(seat), replay.View(seat); !reflect.DeepEqual(vb, vr) {
					t.Fatalf("%d players, after move %d: seat %d sees %+v with one seed, %+v with another",
						n, i+1, seat, vb, vr)
				}
			}
		}
		if b.State() != a.State() {
			t.Errorf("%d players: replaying the moves under another seed ends in another state", n)
		}
	}
}

// TestViewSharesNames: a View copies no names, so that a server's views
// of every seat at every move cost no allocation but the seat to move's
// legal moves; a caller that changes a view's names changes none the game
// gives in its errors or its Players.
func TestViewSharesNames(t *testing.T) {
	g, err := NewGame(Setup{Players: []string{"Ann", "Bob", "Cy"}, Seed: []byte("names")})
	if err != nil {
		t.Fatal(err)
	}
	waiting := (g.ToMove() + 1) % 3
	for _, seat := range []int{-1, waiting} {
		if n := testing.AllocsPerRun(100, func() { g.View(seat) }); n != 0 {
			t.Errorf("the view of seat %d allocates %v times, want 0", seat, n)
		}
	}
	v := g.View(-1)
	v.Players[g.ToMove()] = "Mallory"
	v.Players = append(v.Players, "Eve")
	var e *MoveError
	if err := g.Play(Move{Action: ActionBid, Cheque: 99}); !errors.As(err, &e) || e.Player == "Mallory" {
		t.Errorf("an illegal move's error after a view's names changed: %v, want one naming the seat's player", err)
	}
	if p := g.Players(); !reflect.DeepEqual(p, []string{"Ann", "Bob", "Cy"}) {
		t.Errorf("Players() = %q after a view's names changed", p)
	}
	if p := g.View(-1).Players; len(p) != 3 {
		t.Errorf("a view's names = %q after one view's were appended to, want 3", p)
	}
}

// TestParseMoveAllocates: parsing a move allocates nothing: a server
// parses every move it is sent.
func TestParseMoveAllocates(t *testing.T) {
	for _, token := range []string{"draw", "bid 9", "thief car watch", "call", "pass"} {
		if n := testing.AllocsPerRun(100, func() { ParseMove(token) }); n != 0 {
			t.Errorf("ParseMove(%q) allocates %v times, want 0", token, n)
		}
	}
}

// TestBidTokens: a bid's token is spelled as ParseMove reads it and,
// for every cheque a game has, made without an allocation: a server
// names every legal bid at every change.
func TestBidTokens(t *testing.T) {
	for c := 1; c <= MaxCheque; c++ {
		m := Move{Action: ActionBid, Cheque: uint8(c)}
		if tok := m.String(); tok != "bid "+strconv.Itoa(c) {
			t.Errorf("cheque %d: %q", c, tok)
		} else if back, err := ParseMove(tok); err != nil || back != m {
			t.Errorf("ParseMove(%q) = %v, %v", tok, back, err)
		}
		if n := testing.AllocsPerRun(10, func() { _ = m.String() }); n != 0 {
			t.Errorf("cheque %d: %v allocations, want 0", c, n)
		}
	}
	if tok := (Move{Action: ActionBid, Cheque: 0}).String(); tok != "bid 0" {
		t.Errorf("cheque 0: %q", tok)
	}
}

// TestRoundScore: RoundScore is Scores' entry at every moment of random
// games, and zero for a round not scored or a seat not at the table.
func TestRoundScore(t *testing.T) {
	for seed := range uint64(20) {
		s, err := NewState(3+int(seed%3), nil)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.NewPCG(seed, 7)
		var buf []Move
		for {
			for round := 0; round <= Rounds+1; round++ {
				scores := s.Scores(round)
				for seat := -1; seat <= s.Players(); seat++ {
					want := Score{}
					if seat >= 0 && seat < len(scores) {
						want = scores[seat]
					}
					if got := s.RoundScore(round, seat); got != want {
						t.Fatalf("seed %d, round %d, seat %d: %v, Scores says %v", seed, round, seat, got, want)
					}
				}
			}
			if s.Over() {
				break
			}
			buf = s.LegalMoves(buf[:0])
			m := buf[uniform(r, len(buf))]
			if m.Action == ActionDraw {
				m.Card = s.CardAt(uniform(r, s.DeckLeft()))
			}
			s.Apply(m)
		}
	}
}
