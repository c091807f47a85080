package razzia_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
)

// drawn returns the state of a 3-player game after the first drawers drew
// the given cards, one each in turn.
func drawn(t *testing.T, cards ...razzia.Kind) razzia.State {
	t.Helper()
	s, err := razzia.NewState(3, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range cards {
		s.Apply(razzia.Draw(k))
	}
	return s
}

// TestR8R11PositionIgnoresRowOrder checks that the same row cards drawn
// in another order give the same Position, that other cards do not, and
// that two states of one Position play alike to the game's end: no rule
// reads the row's order (R8 takes cards by kind, R11 the whole row).
func TestR8R11PositionIgnoresRowOrder(t *testing.T) {
	a := drawn(t, razzia.Car, razzia.Ring, razzia.Thief)
	b := drawn(t, razzia.Thief, razzia.Car, razzia.Ring)
	if slices.Equal(a.Row(), b.Row()) {
		t.Fatalf("rows %v and %v alike: the test needs two orders", a.Row(), b.Row())
	}
	if a.Position() != b.Position() {
		t.Fatalf("rows %v and %v: Positions differ", a.Row(), b.Row())
	}
	if row := a.Row(); !slices.Equal(row, []razzia.Kind{razzia.Car, razzia.Ring, razzia.Thief}) {
		t.Fatalf("Position changed the state's row to %v", row)
	}
	for _, other := range []razzia.State{
		drawn(t, razzia.Car, razzia.Ring, razzia.Driver),
		drawn(t, razzia.Car, razzia.Ring),
		drawn(t, razzia.Car, razzia.Ring, razzia.Thief, razzia.Police),
	} {
		if other.Position() == a.Position() {
			t.Errorf("row %v after %d cards has the Position of row %v", other.Row(), razzia.DeckSize-other.DeckLeft(), a.Row())
		}
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for ply := 0; !a.Over(); ply++ {
		la, lb := a.LegalMoves(nil), b.LegalMoves(nil)
		slices.SortFunc(la, moveOrder)
		slices.SortFunc(lb, moveOrder)
		if !slices.Equal(la, lb) {
			t.Fatalf("ply %d: legal moves %v and %v differ", ply, la, lb)
		}
		m := la[rng.IntN(len(la))]
		if m.Action == razzia.ActionDraw {
			m.Card = a.RandomCard(rng)
		}
		a.Apply(m)
		b.Apply(m)
		if a.Position() != b.Position() {
			t.Fatalf("ply %d, after %v: Positions differ", ply, m)
		}
	}
	if !b.Over() || !slices.Equal(a.Totals(), b.Totals()) {
		t.Errorf("totals %v and %v, want the same game", a.Totals(), b.Totals())
	}
}

func moveOrder(x, y razzia.Move) int { return strings.Compare(x.String(), y.String()) }
