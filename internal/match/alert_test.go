package match_test

import (
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/match"
)

// TestTurnAlert: the seat told of its turn while away is the person to
// move, unless they moved last, the game moved on, or a bot plays for
// them.
func TestTurnAlert(t *testing.T) {
	m := started(t, "untimed")
	s := m.Game.ToMove()
	tests := []struct {
		name string
		turn match.Turn
		seat int
		ok   bool
	}{
		{"the first turn", match.Turn{Moves: 0, Mover: -1}, s, true},
		{"after another seat's move", match.Turn{Moves: 0, Mover: 1 - s}, s, true},
		{"the same seat moved last", match.Turn{Moves: 0, Mover: s}, s, false},
		{"a move was made since", match.Turn{Moves: 3, Mover: -1}, -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if seat, ok := m.TurnAlert(tt.turn); ok != tt.ok || ok && seat != tt.seat {
				t.Errorf("TurnAlert(%+v) = %d, %v; want %d, %v", tt.turn, seat, ok, tt.seat, tt.ok)
			}
		})
	}
	t.Run("a bot stands in", func(t *testing.T) {
		must(t, m, match.Command{Kind: match.Leave, Hash: hash(m.Seats[s].Name)}, t0.Add(time.Second))
		if _, ok := m.TurnAlert(match.Turn{Moves: 0, Mover: -1}); ok {
			t.Error("the seat a bot plays for is told of its turn")
		}
	})
	t.Run("a bot's seat", func(t *testing.T) {
		m := newMatch(t, "untimed", false, "", "easy")
		must(t, m, join("Ann", 0), t0)
		if seat, ok := m.TurnAlert(match.Turn{Moves: 0, Mover: -1}); ok != (m.Game.ToMove() == 0) || ok && seat != 0 {
			t.Errorf("TurnAlert = %d, %v with seat %d to move; want only Ann told", seat, ok, m.Game.ToMove())
		}
	})
}

// TestAlerted: only a signed-in person hears of a table while away.
func TestAlerted(t *testing.T) {
	m := newMatch(t, "untimed", false, "", "", "easy")
	must(t, m, match.Command{Kind: match.Join, Name: "Ann", Hash: hash("Ann"), Seat: 0, Account: "acct-ann"}, t0)
	must(t, m, join("Bob", 1), t0)
	for seat, want := range map[int]bool{0: true, 1: false, 2: false, -1: false, 3: false} {
		if got := m.Alerted(seat); got != want {
			t.Errorf("Alerted(%d) = %v, want %v (seats %+v)", seat, got, want, m.Seats)
		}
	}
}
