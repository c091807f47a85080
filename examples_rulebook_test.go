package razzia_test

import (
	"testing"

	"github.com/razziagame/razzia"
)

// The rulebook's worked examples E1..E10 of RULES.md. The players sit
// Miriam, Felix, Elke, Dennis, so Miriam is Dennis's left neighbour, and
// hold the sets Miriam B (3 7 12), Felix C (4 8 11), Elke D (5 9 10) and
// Dennis A (2 6 13): Dennis holds the 13 and starts, Miriam can bid 7 and
// 3, Elke 9, and Felix and Dennis hold higher cheques, so they pass by
// choice rather than being passed over.

var (
	rulebookPlayers = []string{"Miriam", "Felix", "Elke", "Dennis"}
	rulebookCheques = [][]int{{3, 7, 12}, {4, 8, 11}, {5, 9, 10}, {2, 6, 13}}
)

func newRulebookGame(t *testing.T) *ruleGame {
	t.Helper()
	r := newRuleGame(t, rulebookPlayers, rulebookCheques)
	r.wantToMove("Dennis")
	return r
}

// step plays one token after checking who makes it.
func (r *ruleGame) step(who, token string) {
	r.t.Helper()
	r.wantToMove(who)
	r.play(token)
}

func TestE1NormalAuction(t *testing.T) {
	r := newRulebookGame(t)
	// A row first, so that Dennis draws the police card on his next turn.
	r.step("Dennis", "draw watch")
	r.step("Miriam", "draw car")
	r.step("Felix", "draw bodyguard")
	r.step("Elke", "draw ring")
	r.step("Dennis", "draw police")
	if s := r.state(); s.Auction() != razzia.AuctionPolice || s.Initiator() != dennis {
		t.Fatalf("auction %v by seat %d, want a police auction by Dennis", s.Auction(), s.Initiator())
	}
	r.step("Miriam", "bid 7")
	r.step("Felix", "pass")
	r.step("Elke", "bid 9")
	r.step("Dennis", "pass")

	s := r.state()
	r.wantHoldings(elke, map[razzia.Kind]int{razzia.Watch: 1, razzia.Car: 1, razzia.Bodyguard: 1, razzia.Ring: 1})
	r.wantCheques(elke, []int{5, 10}, []int{1})
	if s.Centre() != 9 {
		t.Errorf("centre %d, want Elke's 9", s.Centre())
	}
	r.wantCheques(miriam, []int{3, 7, 12}, nil) // Miriam keeps her 7
	r.wantCheques(felix, []int{4, 8, 11}, nil)
	r.wantCheques(dennis, []int{2, 6, 13}, nil)
	if s.RowLen() != 0 || s.Police() != 1 {
		t.Errorf("row %v, police %d; want empty, 1", s.Row(), s.Police())
	}
	r.wantToMove("Miriam")
}

func TestE2Thief(t *testing.T) {
	r := newRulebookGame(t)
	// Elke wins a thief in a police auction.
	r.step("Dennis", "draw thief")
	r.step("Miriam", "draw police")
	r.step("Felix", "pass")
	r.step("Elke", "bid 5")
	r.step("Dennis", "pass")
	r.step("Miriam", "pass")
	r.wantHoldings(elke, map[razzia.Kind]int{razzia.Thief: 1})
	r.step("Felix", "draw driver")

	r.step("Elke", "thief driver")
	s := r.state()
	r.wantHoldings(elke, map[razzia.Kind]int{razzia.Driver: 1})
	if s.RowLen() != 0 || s.Discarded(razzia.Thief) != 1 {
		t.Errorf("row %v, %d thieves discarded; want empty, 1", s.Row(), s.Discarded(razzia.Thief))
	}
	if s.Phase() != razzia.PhaseTurn {
		t.Errorf("phase %v, want a turn", s.Phase())
	}
	r.wantToMove("Dennis")
}

func TestE3ForcedAuction(t *testing.T) {
	r := newRulebookGame(t)
	r.step("Dennis", "draw car")
	r.step("Miriam", "call")
	if s := r.state(); s.Auction() != razzia.AuctionForced {
		t.Fatalf("auction %v, want forced", s.Auction())
	}
	r.step("Felix", "pass")
	r.step("Elke", "pass")
	r.step("Dennis", "pass")
	r.wantToMove("Miriam")
	if s := r.state(); !s.MustBid() {
		t.Errorf("Miriam need not bid")
	}
	r.illegal("pass", razzia.ErrMustBid, "Miriam cannot pass: nobody has bid in the forced auction they called, so they must bid")
	r.step("Miriam", "bid 3")

	s := r.state()
	r.wantHoldings(miriam, map[razzia.Kind]int{razzia.Car: 1})
	r.wantCheques(miriam, []int{7, 12}, []int{1})
	if s.Centre() != 3 {
		t.Errorf("centre %d, want 3", s.Centre())
	}
	r.wantToMove("Felix")
}

func TestE4Thieves(t *testing.T) {
	r := newRulebookGame(t)
	r.step("Dennis", "draw thief")
	r.step("Miriam", "draw thief")
	r.step("Felix", "draw police")
	r.step("Elke", "bid 5")
	r.play("pass", "pass", "pass")
	r.wantHoldings(elke, map[razzia.Kind]int{razzia.Thief: 2})
	r.endRoundByPolice()
	s := r.state()
	scores := s.Scores(1)
	for seat, want := range []int{0, 0, 4, 0} {
		if got := scores[seat][razzia.CategoryThieves]; got != want {
			t.Errorf("%s: thieves %d, want %d", rulebookPlayers[seat], got, want)
		}
	}
	r.wantHoldings(elke, nil) // thieves carry the cross
}

// rulebookScores scores the holdings of Miriam, Felix, Elke and Dennis.
func rulebookScores(hold [4]cardCounts, cheques [][]int, final bool) []razzia.Score {
	if cheques == nil {
		cheques = rulebookCheques
	}
	return scoreOf(hold[:], cheques, final)
}

// wantCategory checks one category for the four players.
func wantCategory(t *testing.T, scores []razzia.Score, c razzia.Category, want [4]int) {
	t.Helper()
	for seat, w := range want {
		if got := scores[seat][c]; got != w {
			t.Errorf("%s: %s %d, want %d", rulebookPlayers[seat], c, got, w)
		}
	}
}

func TestE5Bodyguards(t *testing.T) {
	scores := rulebookScores([4]cardCounts{
		{razzia.Bodyguard: 4}, {razzia.Bodyguard: 4}, {razzia.Bodyguard: 1}, {razzia.Bodyguard: 2},
	}, nil, false)
	wantCategory(t, scores, razzia.CategoryBodyguards, [4]int{5, 5, -2, 0})
}

func TestE6Cars(t *testing.T) {
	scores := rulebookScores([4]cardCounts{
		{razzia.Driver: 2},
		{razzia.Car: 1, razzia.Driver: 3},
		{razzia.Car: 5},
		{razzia.Car: 3, razzia.Driver: 1},
	}, nil, false)
	wantCategory(t, scores, razzia.CategoryCars, [4]int{2, 4, 0, 4})
}

func TestE7Jewels(t *testing.T) {
	scores := rulebookScores([4]cardCounts{
		{},
		{razzia.Watch: 2, razzia.Necklace: 3, razzia.Ring: 2},
		{razzia.Brooch: 2, razzia.Ring: 1},
		{},
	}, nil, false)
	wantCategory(t, scores, razzia.CategoryJewels, [4]int{-5, 5, 0, -5})
}

func TestE8Gold(t *testing.T) {
	scores := rulebookScores([4]cardCounts{{}, {}, {}, {razzia.Gold: 2}}, nil, false)
	wantCategory(t, scores, razzia.CategoryGold, [4]int{0, 0, 0, 6})
}

func TestE9Businesses(t *testing.T) {
	hold := [4]cardCounts{{}, {}, {}, {
		razzia.Restaurant: 4, razzia.Casino: 3, razzia.Cinema: 1, razzia.Transport: 1, razzia.Nightclub: 2,
	}}
	wantCategory(t, rulebookScores(hold, nil, true), razzia.CategoryBusinesses, [4]int{0, 0, 0, 20})
	// Businesses score at the end of round 3 only (R17).
	wantCategory(t, rulebookScores(hold, nil, false), razzia.CategoryBusinesses, [4]int{0, 0, 0, 0})
}

func TestE10Cheques(t *testing.T) {
	// 25,000, 21,000, 17,000 and 17,000, face up or down; the 11 is in the centre.
	cheques := [][]int{{2, 10, 13}, {1, 8, 12}, {3, 5, 9}, {4, 6, 7}}
	scores := rulebookScores([4]cardCounts{}, cheques, true)
	wantCategory(t, scores, razzia.CategoryCheques, [4]int{5, 0, -5, -5})
	// Cheques score at the end of round 3 only (R17).
	wantCategory(t, rulebookScores([4]cardCounts{}, cheques, false), razzia.CategoryCheques, [4]int{0, 0, 0, 0})
}
