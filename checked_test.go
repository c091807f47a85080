package razzia

import (
	"errors"
	"reflect"
	"testing"
)

// TestPlayChecked: a move checked once plays as Play plays it; a Checked
// of another position or game is refused and changes nothing.
func TestPlayChecked(t *testing.T) {
	newGame := func() *Game {
		g, err := NewGame(Setup{Players: []string{"Ann", "Bob", "Cy"}, Seed: []byte("checked")})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	played, checked := newGame(), newGame()
	for i := 0; i < 40 && !played.Over(); i++ {
		m := played.LegalMoves()[0]
		if err := played.Play(m); err != nil {
			t.Fatal(err)
		}
		c, err := checked.CheckMove(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := checked.PlayChecked(c); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		if !reflect.DeepEqual(played.State(), checked.State()) || !reflect.DeepEqual(played.Moves(), checked.Moves()) {
			t.Fatalf("move %d: PlayChecked played %v to %+v, Play %v to %+v", i, checked.Moves(), checked.State(), played.Moves(), played.State())
		}
	}

	g, other := newGame(), newGame()
	c, err := g.CheckMove(g.LegalMoves()[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := other.PlayChecked(c); !errors.Is(err, ErrNotChecked) || other.Len() != 0 {
		t.Errorf("a Checked of another game: %v, %d moves", err, other.Len())
	}
	if err := g.PlayChecked(c); err != nil {
		t.Fatal(err)
	}
	before := g.State()
	if err := g.PlayChecked(c); !errors.Is(err, ErrNotChecked) || g.Len() != 1 || g.State() != before {
		t.Errorf("a Checked played twice: %v, %d moves", err, g.Len())
	}
	if _, err := g.CheckMove(Bid(99)); err == nil {
		t.Error("CheckMove took an illegal move")
	}
}
