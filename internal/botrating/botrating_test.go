package botrating

import (
	"testing"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/rating"
)

func TestEmbedded(t *testing.T) {
	c, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for l, r := range c.Levels {
		if _, ok := bot.LookupLevel(l); !ok {
			t.Errorf("levels.json rates %q, which is not a level", l)
		}
		if r.Sigma <= 0 {
			t.Errorf("%s: sigma %v", l, r.Sigma)
		}
	}
}

// TestSpec: a level is calibrated with its spec less its time limit, so
// that a busy machine plays the same games.
func TestSpec(t *testing.T) {
	for _, l := range bot.Levels() {
		s, err := Spec(l.Name)
		if err != nil {
			t.Fatal(err)
		}
		if s == "" || containsTime(s) {
			t.Errorf("%s (%s) is calibrated as %q", l.Name, l.Spec, s)
		}
		if _, err := bot.New(s, 1); err != nil {
			t.Errorf("%s: %q is not a spec: %v", l.Name, s, err)
		}
	}
	if _, err := Spec("grandmaster"); err == nil {
		t.Error("an unknown level has a spec")
	}
}

func containsTime(s string) bool {
	for i := 0; i+5 <= len(s); i++ {
		if s[i:i+5] == "time=" {
			return true
		}
	}
	return false
}

// TestLineups: tables of 2 to 5 seats, never one level alone, at least
// the games asked for, the same from the same seed.
func TestLineups(t *testing.T) {
	levels := []string{"easy", "medium", "hard"}
	a, b := Lineups(levels, 100, 7), Lineups(levels, 100, 7)
	n := 0
	for i, l := range a {
		if len(l) < 2 || len(l) > 5 {
			t.Errorf("a table of %d", len(l))
		}
		alone := true
		for _, x := range l {
			alone = alone && x == l[0]
		}
		if alone {
			t.Errorf("a table of %s alone", l[0])
		}
		if len(b[i]) != len(l) || b[i][0] != l[0] {
			t.Fatal("the same seed gave other tables")
		}
		n += len(l)
	}
	if n < 100 || n > 104 {
		t.Errorf("%d games for 100 asked", n)
	}
}

// TestFit: a level that always finishes ahead is rated above, the
// anchor sits at a new player's Mu, and a level's uncertainty shrinks.
func TestFit(t *testing.T) {
	m := rating.Default()
	var games []Game
	for range 30 {
		games = append(games, Game{Levels: []string{"easy", "medium", "hard"}, Totals: []int{10, 20, 30}},
			Game{Levels: []string{"hard", "medium"}, Totals: []int{25, 25}})
	}
	r, err := Fit(m, games, []string{"easy", "medium", "hard"}, "medium")
	if err != nil {
		t.Fatal(err)
	}
	if r["medium"].Mu != m.Mu || !(r["easy"].Mu < r["medium"].Mu && r["medium"].Mu < r["hard"].Mu) {
		t.Errorf("ratings %+v: want easy < medium (= %v) < hard", r, m.Mu)
	}
	for l, x := range r {
		if x.Sigma >= m.Sigma {
			t.Errorf("%s: sigma %v did not shrink", l, x.Sigma)
		}
	}
}

// TestGroupsMatter: a gap between two levels that changes with the
// table size by more than twice its uncertainty calls for groups; one
// within it does not.
func TestGroupsMatter(t *testing.T) {
	levels := []string{"easy", "hard"}
	by := func(gap3 float64) map[string]map[string]rating.Rating {
		return map[string]map[string]rating.Rating{
			"2": {"easy": {Mu: 20, Sigma: 1}, "hard": {Mu: 30, Sigma: 1}},
			"3": {"easy": {Mu: 25, Sigma: 1}, "hard": {Mu: 25 + gap3, Sigma: 1}},
		}
	}
	if GroupsMatter(by(9), levels) {
		t.Error("gaps of 10 and 9 (uncertainty 2) call for groups")
	}
	if !GroupsMatter(by(3), levels) {
		t.Error("gaps of 10 and 3 (uncertainty 2) do not call for groups")
	}
}
