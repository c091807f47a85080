package bot

import (
	"slices"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
)

// TestPrune (R9, R10, R11): in a 3-player game of Ann (2 5 8 13), Bob
// (3 6 9 12) and Cy (4 7 10 11), each case plays the moves and names the
// moves prune leaves to the seat to move.
func TestPrune(t *testing.T) {
	tests := []struct {
		name, tokens string
		want         string
	}{
		// Cy draws police: Ann bids first, Bob and Cy may answer. Every gap
		// between Ann's cheques holds an answer, so all her bids stay.
		{"contested", "draw car, draw bodyguard, draw police", "pass, bid 2, bid 5, bid 8, bid 13"},
		// Bob draws police; Cy and Ann pass: Bob, the initiator, bids last,
		// and only his lowest bid is worth making.
		{"last to bid", "draw car, draw police, pass, pass", "pass, bid 3"},
		// Ann draws police on an empty row; Bob and Cy pass. The centre
		// cheque 1 is all there is to win: no bid is worth more than it.
		{"empty row", "draw police, pass, pass", "pass"},
		// Ann called and nobody bid: she must bid, and bids her lowest.
		{"must bid", "call, pass, pass", "bid 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := replay(t, tt.tokens)
			st := g.State()
			legal := st.LegalMoves(nil)
			got := prune(&st, slices.Clone(legal))
			var names []string
			for _, m := range got {
				names = append(names, m.String())
			}
			if s := strings.Join(names, ", "); s != tt.want {
				t.Errorf("seat %d with %v: kept %s, want %s", st.ToMove(), legal, s, tt.want)
			}
		})
	}
}

// TestPruneAlike: in a 2-player game Bob (3 4 7 8) draws police and Ann
// (2 5 6 9) bids first. Bob's 7 and 8 outbid her 5 and her 6 alike, so of
// those two only the 5 is kept; her 2, 5 and 9 each face other answers.
func TestPruneAlike(t *testing.T) {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{"draw car", "draw police"} {
		if err := g.PlayToken(tok); err != nil {
			t.Fatal(err)
		}
	}
	st := g.State()
	got := prune(&st, st.LegalMoves(nil))
	if want := []razzia.Move{razzia.Pass(), razzia.Bid(2), razzia.Bid(5), razzia.Bid(9)}; !slices.Equal(got, want) {
		t.Errorf("Ann kept %v, want %v", got, want)
	}
}
