package bot

import (
	"fmt"
	"math"
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
// A lone driver in the row is worth more to Ann holding five cars and no
// driver than to Ann holding five businesses, with the same cheques.
func TestHeuristicDriverForCars(t *testing.T) {
	value := func(tokens string) float64 {
		g := replay(t, tokens)
		st := g.State()
		if st.ToMove() != 0 || st.Phase() != razzia.PhaseAuction {
			t.Fatalf("setup: seat %d to move in phase %v", st.ToMove(), st.Phase())
		}
		j := newJudge(&st, &defaultWeights)
		return j.lotValue(0)
	}
	cars := value("draw car, draw car, draw car, draw car, draw car, draw gold, call, pass, pass, bid 2, draw driver, draw police")
	businesses := value("draw casino, draw cinema, draw transport, draw racetrack, draw nightclub, draw gold, call, pass, pass, bid 2, draw driver, draw police")
	if cars < businesses+3 {
		t.Errorf("the driver is worth %.2f to Ann with cars, %.2f with businesses; want at least 3 more with cars", cars, businesses)
	}
}

// TestHeuristicPaysNoMore checks, over many games at every player count,
// that the heuristic never pays more than it must (R10, R11): when nobody
// after it can outbid it (it is the last to bid, or the others hold no
// higher cheque), any bid it makes is its lowest legal bid; and for an
// empty row, which wins only the centre cheque, it never bids a cheque
// worth more than the centre one, unless it called and must bid, when it
// bids its lowest.
func TestHeuristicPaysNoMore(t *testing.T) {
	checked := 0
	for players := razzia.MinPlayers; players <= razzia.MaxPlayers; players++ {
		for i := range 40 {
			g := newGame(t, players, fmt.Sprint("pays no more ", i))
			bots := make([]*Heuristic, players)
			for s := range bots {
				bots[s] = NewHeuristic(uint64(i*10 + s))
			}
			for st := g.State(); !st.Over(); st = g.State() {
				v := g.View(st.ToMove())
				m := bots[st.ToMove()].Choose(v)
				if m.Action == razzia.ActionBid {
					lowest := st.FaceUp(st.ToMove()).Above(bidOf(&st)).Min()
					switch {
					case (uncontested(&st) || st.MustBid()) && int(m.Cheque) != lowest:
						t.Errorf("%dp game %d: nobody can outbid it, yet %v, not its lowest %d", players, i, m, lowest)
					case st.RowLen() == 0 && !st.MustBid() && int(m.Cheque) > st.Centre():
						t.Errorf("%dp game %d: %v for an empty row and the centre %d", players, i, m, st.Centre())
					}
					checked++
				}
				if err := g.Play(m); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d bids checked", checked)
	}
}

func bidOf(s *razzia.State) int {
	c, _ := s.HighBid()
	return c
}

// uncontested reports whether no seat after the one to move in the running
// auction may still outbid its lowest legal bid.
func uncontested(s *razzia.State) bool {
	me := s.ToMove()
	lowest := s.FaceUp(me).Above(bidOf(s)).Min()
	for q := (me + 1) % s.Players(); q != me; q = (q + 1) % s.Players() {
		if s.Bidding(q) == razzia.BiddingUndecided && s.FaceUp(q).Above(lowest) != 0 {
			return false
		}
		if q == s.Initiator() {
			break
		}
	}
	return true
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
	j := newJudge(&st, &defaultWeights)
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
		{"R16 first jewel lifts -5", gain(nil, R), gain([]razzia.Kind{R}, R), 2},
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
	j := newJudge(&st, &defaultWeights)
	if lo, hi := j.chequeCost(1, 3), j.chequeCost(1, 12); hi <= lo {
		t.Errorf("cost of 12 %.2f, of 3 %.2f: want the high cheque to cost more", hi, lo)
	}
}

// TestCallMargin checks what a call must gain before it beats drawing
// on (R7, R9): with raid, the margin loses that share of itself as the
// police near the raid, in proportion, down to raid's share when one
// more police card ends the round; without, it does not depend on the
// police before the last; it shrinks by callSlot for each card in the row.
func TestCallMargin(t *testing.T) {
	base := defaultWeights
	base.callBase, base.callSlot = 4, 1
	raid := base
	raid.raid = 0.8
	police := 0
	for players := razzia.MinPlayers; players <= razzia.MaxPlayers; players++ {
		g := newGame(t, players, fmt.Sprint("call margin ", players))
		for st := g.State(); !st.Over(); st = g.State() {
			if st.Phase() == razzia.PhaseTurn {
				plain, nearing := newJudge(&st, &base), newJudge(&st, &raid)
				limit := float64(st.PoliceLimit() - 1)
				pEnd := 0.0
				if st.Police() == st.PoliceLimit()-1 && st.DeckLeft() > 0 {
					pEnd = float64(st.Remaining(razzia.Police)) / float64(st.DeckLeft())
				}
				want := (4 + float64(razzia.RowSize-1-st.RowLen())) * (1 - pEnd)
				if got := callMargin(&plain); math.Abs(got-want) > 1e-9 {
					t.Fatalf("%dp, police %d, row %d: margin %v, want %v", players, st.Police(), st.RowLen(), got, want)
				}
				want *= 1 - 0.8*float64(st.Police())/limit
				if got := callMargin(&nearing); math.Abs(got-want) > 1e-9 {
					t.Fatalf("%dp, police %d of %d: margin with raid %v, want %v", players, st.Police(), st.PoliceLimit(), got, want)
				}
				if st.Police() > 0 {
					police++
				}
			}
			if err := g.Play(must(New("heuristic", 1)).Choose(g.View(st.ToMove()))); err != nil {
				t.Fatal(err)
			}
		}
	}
	if police < 50 {
		t.Errorf("only %d turns with police on the track: the raid's part is hardly checked", police)
	}
}
