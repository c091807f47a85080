package bot

import (
	"strings"
	"testing"

	"github.com/razziagame/razzia"
)

// replay plays the record tokens on a 3-player game with the rulebook
// cheque sets in seat order: seat 0 holds 2 5 8 13 and starts, seat 1
// holds 3 6 9 12, seat 2 holds 4 7 10 11 (R4).
func replay(t *testing.T, tokens string) *razzia.Game {
	t.Helper()
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob", "Cy"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range strings.Split(tokens, ",") {
		if err := g.PlayToken(strings.TrimSpace(tok)); err != nil {
			t.Fatalf("%s: %v", tok, err)
		}
	}
	return g
}

// TestHeuristicDriverForCars: a driver makes a seat's cars score (R16).
// Ann, holding five cars and no driver, bids for a lone driver in a police
// auction; holding five businesses instead, with the same cheques, she
// passes on the same driver.
func TestHeuristicDriverForCars(t *testing.T) {
	tests := []struct {
		name, tokens string
		bid          bool
	}{
		{"Ann holds the cars",
			"draw car, draw car, draw car, draw car, draw car, draw gold, call, pass, pass, bid 2, draw driver, draw police",
			true},
		{"Ann holds businesses",
			"draw casino, draw cinema, draw transport, draw racetrack, draw nightclub, draw gold, call, pass, pass, bid 2, draw driver, draw police",
			false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := replay(t, tt.tokens)
			st := g.State()
			if st.ToMove() != 0 || st.Phase() != razzia.PhaseAuction {
				t.Fatalf("setup: seat %d to move in phase %v", st.ToMove(), st.Phase())
			}
			m := NewHeuristic(1).Choose(g.View(0))
			if got := m.Action == razzia.ActionBid; got != tt.bid {
				t.Errorf("Ann chose %v; want a bid: %v", m, tt.bid)
			}
		})
	}
}

// TestHeuristicThief (R8): Ann holds a thief and two cars; the row holds a
// driver and a ring. Her first jewel lifts her jewel score from -5 to 0,
// more than the driver's 2 cars + 1 driver and more than the thief's own 2
// points (R16): she uses the thief on the ring. With a ring already and
// five cars, she takes the driver.
func TestHeuristicThief(t *testing.T) {
	tests := []struct {
		tokens string
		want   razzia.Move
	}{
		{"draw car, draw car, draw thief, call, pass, pass, bid 2, draw driver, draw ring", razzia.Thieves(razzia.Ring)},
		{"draw car, draw car, draw thief, draw car, draw car, draw car, call, pass, pass, bid 2, draw ring, draw police, bid 5, pass, pass, draw driver, draw ring, draw ring", razzia.Thieves(razzia.Driver)},
	}
	for _, tt := range tests {
		g := replay(t, tt.tokens)
		st := g.State()
		if st.ToMove() != 0 || st.Phase() != razzia.PhaseTurn {
			t.Fatalf("setup: seat %d to move in phase %v", st.ToMove(), st.Phase())
		}
		if m := NewHeuristic(1).Choose(g.View(0)); m != tt.want {
			t.Errorf("%s: Ann chose %v, want %v", tt.tokens, m, tt.want)
		}
	}
}

// TestHeuristicValues checks the judge's marginal values of single cards
// against the scoring rules at the start of a 4-player game.
func TestHeuristicValues(t *testing.T) {
	st, err := razzia.NewState(4, nil)
	if err != nil {
		t.Fatal(err)
	}
	j := newJudge(&st)
	gain := func(have []razzia.Kind, add razzia.Kind) float64 {
		var h razzia.Holdings
		for _, k := range have {
			h[k]++
		}
		before := j.worth(0, &h)
		h[add]++
		return j.worth(0, &h) - before
	}
	R := razzia.Ring
	tests := []struct {
		name string
		a, b float64 // want a > b + by
		by   float64
	}{
		{"R16 third distinct jewel beats a duplicate", gain([]razzia.Kind{R, razzia.Watch}, razzia.Brooch), gain([]razzia.Kind{R, razzia.Watch}, R), 3},
		{"R16 first jewel lifts -5", gain(nil, R), gain([]razzia.Kind{R}, R), 3},
		{"R16 driver with cars beats driver alone", gain([]razzia.Kind{razzia.Car, razzia.Car, razzia.Car}, razzia.Driver), gain(nil, razzia.Driver), 1.5},
		{"R16 car with a driver beats car without", gain([]razzia.Kind{razzia.Driver}, razzia.Car), gain(nil, razzia.Car), 0.5},
		{"R17 third casino beats a new kind", gain([]razzia.Kind{razzia.Casino, razzia.Casino}, razzia.Casino), gain([]razzia.Kind{razzia.Casino, razzia.Casino}, razzia.Cinema), 2},
		{"R17 seventh kind beats a third", gain(razzia.Businesses[:6], razzia.Restaurant), gain(razzia.Businesses[:2], razzia.Restaurant), 0.5},
		{"R16 gold beats a kept thief", gain(nil, razzia.Gold), gain(nil, razzia.Thief), 0.5},
		{"R16 bodyguards count", gain(nil, razzia.Bodyguard), 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.a <= tt.b+tt.by {
				t.Errorf("%.2f, want more than %.2f + %.1f", tt.a, tt.b, tt.by)
			}
		})
	}
}

// TestHeuristicChequeCost: in round 3 the cheque totals score (R17), so a
// bid that trades a high cheque for a low centre cheque costs more than
// one that does not.
func TestHeuristicChequeCost(t *testing.T) {
	g := replay(t, "draw police")
	st := g.State()
	j := newJudge(&st)
	if lo, hi := j.chequeCost(1, 3), j.chequeCost(1, 12); hi <= lo {
		t.Errorf("cost of 12 %.2f, of 3 %.2f: want the high cheque to cost more", hi, lo)
	}
}
