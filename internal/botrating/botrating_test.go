package botrating

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/rating"
)

// TestEmbedded: the embedded calibration rates every level, each as its
// Fixed spec is today (a level changed since must be calibrated again),
// and the command that made it is recorded.
// TestLevelsSure: the levels people are rated against are the embedded
// ones whose sigma is at most MaxSigma, with their ratings.
func TestLevelsSure(t *testing.T) {
	c, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	got := Levels()
	for l, r := range c.Levels {
		g, ok := got[l]
		switch {
		case r.Sigma <= MaxSigma && (!ok || g != r):
			t.Errorf("%s (sigma %.2f): Levels gives %v, %t; want %v", l, r.Sigma, g, ok, r)
		case r.Sigma > MaxSigma && ok:
			t.Errorf("%s, sigma %.2f over %v, is rated against", l, r.Sigma, MaxSigma)
		}
	}
}

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
	for _, l := range bot.Levels() {
		if _, ok := c.Levels[l.Name]; !ok {
			t.Errorf("levels.json does not rate %s", l.Name)
		}
		if c.Specs[l.Name] != l.Fixed {
			t.Errorf("levels.json played %s as %q; its Fixed spec is %q: calibrate again", l.Name, c.Specs[l.Name], l.Fixed)
		}
	}
	if !strings.HasPrefix(c.Command, "razzia calibrate ") {
		t.Errorf("levels.json was made by %q", c.Command)
	}
}

// TestSpec: a level is calibrated with its Fixed spec, which has no time
// limit, so that a busy machine plays the same games.
func TestSpec(t *testing.T) {
	for _, l := range bot.Levels() {
		s, err := Spec(l.Name)
		if err != nil {
			t.Fatal(err)
		}
		if s != l.Fixed || s == "" || strings.Contains(s, "time=") {
			t.Errorf("%s (%s, fixed %s) is calibrated as %q", l.Name, l.Spec, l.Fixed, s)
		}
		if _, err := bot.New(s, 1); err != nil {
			t.Errorf("%s: %q is not a spec: %v", l.Name, s, err)
		}
	}
	if s, _ := Spec("hard"); s == "hard" || strings.Contains(s, "time=") {
		t.Errorf("hard is calibrated as %q, which is bounded by time", s)
	}
	if _, err := Spec("grandmaster"); err == nil {
		t.Error("an unknown level has a spec")
	}
}

// TestLineups: tables of 2 to 5 seats, never one level alone, at least
// the games asked for, the same from the same seed.
func TestLineups(t *testing.T) {
	levels := []string{"easy", "medium", "hard"}
	a, b := Lineups(levels, nil, 100, 7), Lineups(levels, nil, 100, 7)
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

// TestLineupsWeights: a level's seats follow its weight, and a level
// not named weighs 1.
func TestLineupsWeights(t *testing.T) {
	levels := []string{"easy", "medium", "hard", "expert"}
	seats := map[string]float64{}
	for _, l := range Lineups(levels, map[string]float64{"expert": 0.25, "easy": 2}, 20000, 3) {
		for _, x := range l {
			seats[x]++
		}
	}
	// Against hard (weight 1); easy loses a little to the tables of easy
	// alone, which are drawn again, more often than the others.
	for l, want := range map[string]float64{"medium": 1, "expert": 0.25, "easy": 1.9} {
		if got := seats[l] / seats["hard"]; math.Abs(got-want) > 0.1*want {
			t.Errorf("%s has %.3f times the seats of hard, want %.3f", l, got, want)
		}
	}
}

// TestCalibrateBadWeights: a weight for a level not rated, or one that is
// not above 0, is refused before any game is played.
func TestCalibrateBadWeights(t *testing.T) {
	for name, w := range map[string]map[string]float64{
		"not rated": {"expert": 0.5},
		"zero":      {"medium": 0},
		"negative":  {"medium": -1},
		"NaN":       {"medium": math.NaN()},
		"infinite":  {"medium": math.Inf(1)},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Calibrate(context.Background(), Config{Games: 4, Levels: []string{"easy", "medium"}, Weights: w})
			if err == nil || !strings.Contains(err.Error(), "weight") {
				t.Errorf("weights %v: %v, want an error about the weight", w, err)
			}
		})
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

// TestLineupsExtend: the tables of a run begin those of a run with more
// games, so that a log of the smaller run serves the larger one.
func TestLineupsExtend(t *testing.T) {
	levels := []string{"easy", "medium", "hard", "expert"}
	w := map[string]float64{"expert": 0.1}
	few, more := Lineups(levels, w, 60, 5), Lineups(levels, w, 200, 5)
	if len(more) <= len(few) {
		t.Fatalf("%d tables for 200 games, %d for 60", len(more), len(few))
	}
	for i, l := range few {
		if !slices.Equal(l, more[i]) {
			t.Fatalf("table %d: %v with 60 games, %v with 200", i, l, more[i])
		}
	}
}

// TestPlayLog: a run takes the games of a table in the log when the
// table, seed and specs match, plays the others (and a line that does not
// parse) again, and logs what it played.
func TestPlayLog(t *testing.T) {
	c := Config{Seed: 2, Workers: 1, Levels: []string{"easy", "medium"}, Log: filepath.Join(t.TempDir(), "log")}
	lineups := Lineups(c.Levels, nil, 16, c.Seed)
	first, err := Play(t.Context(), c, lineups)
	if err != nil {
		t.Fatal(err)
	}
	past, err := readLog(c.Log)
	if err != nil || len(past) != len(lineups) || len(past) < 3 {
		t.Fatalf("the log holds %d tables (%v); want %d", len(past), err, len(lineups))
	}
	// Mark table 0's games, make table 1 another seed's, and cut the last
	// line short.
	p0, p1 := past[0], past[1]
	p0.Games = slices.Clone(p0.Games)
	p0.Games[0] = Game{Levels: p0.Games[0].Levels, Totals: slices.Repeat([]int{-99}, len(p0.Games[0].Totals))}
	p1.Seed++
	rewriteLog(t, c.Log, p0, p1)
	f, _ := os.OpenFile(c.Log, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"table":2,"seed":`)
	f.Close()

	again, err := Play(t.Context(), c, lineups)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again[0].Totals, p0.Games[0].Totals) {
		t.Errorf("table 0 was played again: %v, want the log's %v", again[0].Totals, p0.Games[0].Totals)
	}
	for i := 1; i < len(first); i++ {
		if !slices.Equal(again[i].Totals, first[i].Totals) || !slices.Equal(again[i].Levels, first[i].Levels) {
			t.Errorf("game %d: %v %v, want %v %v as first played", i, again[i].Levels, again[i].Totals, first[i].Levels, first[i].Totals)
		}
	}
	if past, err = readLog(c.Log); err != nil || len(past) != len(lineups) || past[1].Seed != p1.Seed-1 {
		t.Errorf("after the second run the log holds %d tables, table 1 of seed %d (%v)", len(past), past[1].Seed, err)
	}
}

// logTables plays the tables of 8 games of c's levels into c.Log and
// returns their lineups and the tables logged.
func logTables(t *testing.T, c Config) ([][]string, map[int]logged) {
	t.Helper()
	lineups := Lineups(c.Levels, nil, 8, c.Seed)
	if _, err := Play(t.Context(), c, lineups); err != nil {
		t.Fatal(err)
	}
	past, err := readLog(c.Log)
	if err != nil || len(past) < 2 {
		t.Fatalf("the log holds %d tables (%v)", len(past), err)
	}
	return lineups, past
}

// rewriteLog makes the log at path hold the tables ls alone.
func rewriteLog(t *testing.T, path string, ls ...logged) {
	t.Helper()
	os.Remove(path)
	for _, l := range ls {
		if err := appendLog(path, l); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPlayLogSamePlay: a table logged with a spec that plays there as
// the level's does (bot.SamePlay) is taken from the log; one whose spec
// plays otherwise is played again.
func TestPlayLogSamePlay(t *testing.T) {
	c := Config{Seed: 2, Workers: 1, Levels: []string{"easy", "medium"}, Log: filepath.Join(t.TempDir(), "log")}
	lineups, past := logTables(t, c)
	medium, _ := Spec("medium")
	// Mark both tables' first games, so that a table played again shows.
	p0, p1 := past[0], past[1]
	for _, p := range []*logged{&p0, &p1} {
		p.Games = slices.Clone(p.Games)
		p.Games[0] = Game{Levels: p.Games[0].Levels, Totals: slices.Repeat([]int{-99}, len(p.Games[0].Totals))}
		p.Specs = slices.Clone(p.Specs)
		for i, s := range p.Specs {
			if s == medium {
				p.Specs[i] = map[int]string{0: medium + ":noise=0", 1: medium + ":noise=1"}[p.Table]
			}
		}
		if slices.Equal(p.Specs, past[p.Table].Specs) {
			t.Fatalf("table %d has no medium seat: %v", p.Table, p.Specs)
		}
	}
	rewriteLog(t, c.Log, p0, p1)
	games, err := Play(t.Context(), c, lineups)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(games[0].Totals, p0.Games[0].Totals) {
		t.Errorf("table 0, logged with medium:noise=0, was played again: %v, want the log's %v", games[0].Totals, p0.Games[0].Totals)
	}
	if g := games[len(p0.Games)]; slices.Equal(g.Totals, p1.Games[0].Totals) {
		t.Errorf("table 1, logged with medium:noise=1, was taken from the log: %v", g.Totals)
	}
}

// TestPlayLogOtherBuild: a table taken from the log that another build,
// or an unnamed one, played is reported (a bot's fix may have changed its
// play, not its spec); the tables this build logged are not, and each
// logged table keeps the build that played it.
func TestPlayLogOtherBuild(t *testing.T) {
	c := Config{Seed: 2, Workers: 1, Levels: []string{"easy", "medium"}, Log: filepath.Join(t.TempDir(), "log"), Build: "aaaa"}
	lineups, past := logTables(t, c)
	for k, l := range past {
		if l.Build != "aaaa" {
			t.Errorf("table %d logged as played by %q, want aaaa", k, l.Build)
		}
	}
	other := map[int]string{}
	c.OtherBuild = func(table int, build string) { other[table] = build }
	if _, err := Play(t.Context(), c, lineups); err != nil || len(other) > 0 {
		t.Fatalf("the same build: reported %v (%v), want none", other, err)
	}
	p0, p1 := past[0], past[1]
	p0.Build, p1.Build = "bbbb", ""
	rewriteLog(t, c.Log, p0, p1)
	if _, err := Play(t.Context(), c, lineups); err != nil {
		t.Fatal(err)
	}
	if want := map[int]string{0: "bbbb", 1: ""}; !maps.Equal(other, want) {
		t.Errorf("reported %v, want %v", other, want)
	}
}

// TestPlayResumesATable checks that a run stopped in the middle of a table
// keeps the games it finished there, beside the log, and that the next run
// reads them instead of playing them again.
func TestPlayResumesATable(t *testing.T) {
	lineups := [][]string{{"easy", "medium", "medium"}}
	c := Config{Seed: 3, Workers: 1, Levels: []string{"easy", "medium"}}
	want, err := Play(t.Context(), c, lineups)
	if err != nil {
		t.Fatal(err)
	}

	c.Log = filepath.Join(t.TempDir(), "log")
	first := filepath.Join(c.Log+".games", "0", "game-0001.json")
	ctx, cancel := context.WithCancel(t.Context())
	c.Progress = func(done, _ int) {
		if done == 1 {
			cancel()
		}
	}
	if _, err := Play(ctx, c, lineups); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped: %v, want context.Canceled", err)
	}
	kept, err := os.Stat(first)
	if err != nil {
		t.Fatalf("the table's first game was not kept: %v", err)
	}

	c.Progress = func(done, _ int) {
		if done != 1 {
			return
		}
		if now, err := os.Stat(first); err != nil || !os.SameFile(now, kept) {
			t.Errorf("the first game was played again (%v)", err)
		}
	}
	got, err := Play(t.Context(), c, lineups)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("resumed %v, want %v", got, want)
	}
	if _, err := os.Stat(c.Log + ".games"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the records of the tables logged are still there: %v", err)
	}
}
