package httpapi

import (
	"errors"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/protocol"
)

// TestHintRefusal checks the rules of hints on views: a rated table
// (which only the accounts' tables make, so the API tests cannot reach it
// yet) is refused like a seat not to move or a game over.
func TestHintRefusal(t *testing.T) {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob"}, Seed: []byte("hints")})
	if err != nil {
		t.Fatal(err)
	}
	ann, bob := g.View(0), g.View(1)
	over, _ := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob"}, Seed: []byte("over")})
	for !over.Over() {
		over.Play(over.LegalMoves()[0])
	}
	casual, rated := protocol.GameInfo{}, protocol.GameInfo{Rated: true}
	cases := []struct {
		name string
		info protocol.GameInfo
		view razzia.View
		want error // nil: allowed
	}{
		{"casual, to move", casual, ann, nil},
		{"rated, to move", rated, ann, protocol.RatedTable},
		{"rated, not to move", rated, bob, protocol.RatedTable},
		{"casual, not to move", casual, bob, protocol.NotYourTurn},
		{"game over", casual, over.View(0), protocol.GameOver},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := hintRefusal(c.info, c.view)
			var ae *apiError
			switch {
			case c.want == nil && err != nil:
				t.Errorf("refused: %v", err)
			case c.want != nil && (!errors.As(err, &ae) || ae.obj.Code != c.want || ae.obj.Message == ""):
				t.Errorf("hintRefusal = %v, want %v", err, c.want)
			}
		})
	}
}
