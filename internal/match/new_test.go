package match_test

import (
	"errors"
	"testing"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/tutorial"
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
	// A tournament's table keeps that it is one with its clock: the
	// rematch asks it.
	for _, tournament := range []bool{false, true} {
		s.Tournament = tournament
		g, _ := match.NewTable(s)
		if tm, err := match.DecodeTiming(g.Clock, len(g.Seats)); err != nil || tm.Tournament != tournament {
			t.Errorf("a table of Setup.Tournament %v stores Timing.Tournament %v (%v)", tournament, tm.Tournament, err)
		}
	}
}

// TestCheckLearner: the name of the person who starts the tutorial.
func TestCheckLearner(t *testing.T) {
	for _, tt := range []struct {
		name string
		want error
	}{
		{"Ann", nil},
		{"", match.ErrBadName},
		{"Bot 2 (hard)", match.ErrBadName},
		{"MIRIAM", match.ErrNameTaken}, // one of the tutorial's bots, told apart without case
		{"Felix", match.ErrNameTaken},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := match.CheckLearner(tt.name)
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if reason(t, err) != tt.want {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

// TestNewTutorial: the learner sits at tutorial.Learner with their token,
// the tutorial's bots at the others, and the game starts at once.
func TestNewTutorial(t *testing.T) {
	g := match.NewTutorial("g1", "Ann", hash("Ann"), t0)
	if g.Status != store.StatusPlaying || g.Seats[tutorial.Learner].Name != "Ann" || g.Seats[tutorial.Learner].Bot != "" ||
		match.SeatOf(g.Seats, hash("Ann")) != tutorial.Learner || !g.Created.Equal(t0) {
		t.Fatalf("tutorial %+v", g)
	}
	for i, s := range g.Seats {
		if i != tutorial.Learner && s.Bot != tutorial.Bot {
			t.Errorf("seat %d: %+v, want a tutorial bot", i, s)
		}
	}
	if _, err := match.Load(g); err != nil {
		t.Errorf("the tutorial does not load: %v", err)
	}
}

// TestCheckTablePace: the pace a table is created at, the default
// untimed at a casual table (the match's side of the Hub's
// TestPaceChosenAtCreation).
func TestCheckTablePace(t *testing.T) {
	for _, tc := range []struct {
		name, pace string
		rated      bool
		want       string
	}{
		{"default is untimed at a casual table", "", false, "untimed"},
		{"live preset", "rapid", false, "rapid"},
		{"correspondence preset", "day2", false, "day2"},
		{"untimed at a casual table", "untimed", false, "untimed"},
		{"a live preset at a rated table", "blitz", true, "blitz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := match.CheckTable([]string{"", "easy"}, tc.pace, tc.rated)
			if err != nil || p.ID != tc.want {
				t.Errorf("CheckTable(%q) = %s, %v; want %s", tc.pace, p.ID, err, tc.want)
			}
		})
	}
}
