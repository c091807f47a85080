package match_test

import (
	"errors"
	"testing"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/store"
)

// TestCheckTable: the tables a creator may ask for.
func TestCheckTable(t *testing.T) {
	tests := []struct {
		name  string
		seats []string
		pace  string
		rated bool
		want  error // nil: allowed
		cause error // what the refusal wraps too
	}{
		{name: "people and a bot", seats: []string{"", "easy", ""}},
		{name: "bots alone", seats: []string{"easy", "hard"}},
		{name: "rated with a person", seats: []string{"", "easy"}, rated: true},
		{name: "rated bots alone", seats: []string{"easy", "hard"}, rated: true, want: match.ErrBadRequest},
		{name: "an unknown pace", seats: []string{"", ""}, pace: "bullet", want: match.ErrBadRequest, cause: pace.ErrUnknown},
		{name: "untimed and rated", seats: []string{"", ""}, pace: "untimed", rated: true, want: match.ErrBadRequest, cause: pace.ErrUntimedRated},
		{name: "one seat", seats: []string{""}, want: match.ErrBadRequest},
		{name: "six seats", seats: []string{"", "", "", "", "", ""}, want: match.ErrBadRequest},
		{name: "an unknown level", seats: []string{"", "godlike"}, want: match.ErrBadRequest},
		{name: "a yardstick, not a level", seats: []string{"", "mcts:1000"}, want: match.ErrBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := match.CheckTable(tt.seats, tt.pace, tt.rated)
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if reason(t, err) != tt.want || tt.cause != nil && !errors.Is(err, tt.cause) {
				t.Errorf("err = %v, want %v (wrapping %v)", err, tt.want, tt.cause)
			}
		})
	}
}

// TestNewTable: a new table is open while a seat waits for a person, its
// bots are named by seat, and it is dealt from its seed.
func TestNewTable(t *testing.T) {
	p, err := match.CheckTable([]string{"", "easy", "easy"}, "", false)
	if err != nil {
		t.Fatal(err)
	}
	s := match.Setup{Seats: []string{"", "easy", "easy"}, Pace: p, ID: "g1", Seed: []byte("seed"), CreatorHash: hash("creator"), At: t0}
	g, err := match.NewTable(s)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != store.StatusOpen || g.Seats[0].Name != "" || g.Seats[1].Name == g.Seats[2].Name || g.Seats[1].Bot != "easy" ||
		!g.Created.Equal(t0) || len(g.Cheques) != 3 || g.Clock == nil {
		t.Errorf("new table %+v", g)
	}
	again, _ := match.NewTable(s)
	if len(again.Cheques) != len(g.Cheques) || again.Cheques[0][0] != g.Cheques[0][0] {
		t.Error("the same seed dealt other cheques")
	}
	s.Seats = []string{"easy", "easy"}
	if g, _ := match.NewTable(s); g.Status != store.StatusPlaying {
		t.Errorf("a table of bots is %s, want playing at once", g.Status)
	}
	if _, err := match.Load(g); err != nil {
		t.Errorf("the new table does not load: %v", err)
	}
}
