package tui

import (
	"slices"
	"testing"

	"github.com/razziagame/razzia"
)

// TestShortcutsExplain: a key whose move is not possible now says why.
func TestShortcutsExplain(t *testing.T) {
	// Ann wins the thief, then Cleo calls on an empty row and must bid.
	emptyRow := append(slices.Clone(auctionMoves), "bid 8", "pass", "call", "pass", "pass", "bid 4")
	for _, tc := range []struct {
		name  string
		moves []string
		key   string
		want  string
	}{
		{"t without thieves", nil, "t", "You hold no thief: thieves are won in auctions."},
		{"t with an empty row", emptyRow, "t", "The row is empty: your thieves have nothing to take."},
		{"t in an auction", auctionMoves, "t", "An auction is running: bid or pass."},
		{"d in an auction", auctionMoves, "d", "An auction is running: bid or pass."},
		{"c in an auction", auctionMoves, "c", "An auction is running: bid or pass."},
		{"p in a turn", nil, "p", "No auction is running: draw, call an auction or use thieves."},
		{"p when the caller must bid", []string{"call", "pass", "pass"}, "p", "Nobody has bid in the auction you called: you must bid."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := scripted(t, "en", tc.moves...)
			if !m.mine() {
				t.Fatalf("Ann is not to move:\n%s", screen(m))
			}
			n := m.game.Len()
			press(m, tc.key)
			contains(t, screen(m), "✗ "+tc.want)
			if m.game.Len() != n {
				t.Error("a move was played")
			}
		})
	}
}

// TestHotSeatHandOver: in hot-seat the enter that shows a person's
// choices selects the safe one, as every new position does, so that an
// arrow moves from it (→ the second choice) and an enter typed twice by
// habit plays nothing riskier than the safe move.
func TestHotSeatHandOver(t *testing.T) {
	m := newLocal(t, []string{"Ann", "Bob"}, nil, 3, "en")
	who := m.name(m.snap.ToMove)
	press(m, "enter")
	s := screen(m)
	contains(t, s, "Your turn, "+who+":", "▶ Draw a card")
	press(m, "right")
	contains(t, screen(m), "▶ Call an auction")
	press(m, "left", "enter")
	if moves := m.game.Moves(); len(moves) != 1 || moves[0].Action != razzia.ActionDraw {
		t.Fatalf("enter after the hand-over played %v, want the safe draw", moves)
	}
}
