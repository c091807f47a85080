package tui

import (
	"slices"
	"testing"
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

// TestHotSeatDoubleEnter: in hot-seat the enter that shows a person's
// choices selects none of them, so a second enter plays nothing; an arrow
// selects, and enter then plays.
func TestHotSeatDoubleEnter(t *testing.T) {
	m := newLocal(t, []string{"Ann", "Bob"}, nil, 3, "en")
	who := m.name(m.snap.ToMove)
	press(m, "enter", "enter")
	if m.game.Len() != 0 {
		t.Fatalf("a double enter played %v", m.game.Moves())
	}
	s := screen(m)
	contains(t, s, "Your turn, "+who+":", "Choose a move first with ←→ or its key, then press enter.")
	lacks(t, s, "▶ Draw a card")
	press(m, "right")
	contains(t, screen(m), "▶ Draw a card")
	press(m, "enter")
	if m.game.Len() != 1 {
		t.Fatalf("enter after choosing played %d moves", m.game.Len())
	}
}
