package arena

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// TestDuplicate checks that with Duplicate the rotations of a deal share
// their luck: the same cheque sets at the same seats and the same cards in
// the same order, whoever sits where; and that the next deal is another.
func TestDuplicate(t *testing.T) {
	dir := t.TempDir()
	seats := []string{"first", "last", "rand"}
	_, err := Run(context.Background(), Config{Seats: seats, Games: 6, Seed: 3, Records: dir, New: fakeNew(nil), Duplicate: true})
	if err != nil {
		t.Fatal(err)
	}
	draws := func(moves []string) []string {
		var out []string
		for _, m := range moves {
			if strings.HasPrefix(m, "draw") {
				out = append(out, m)
			}
		}
		return out
	}
	var deals [2][]string
	for i := range 6 {
		rec := readRecord(t, filepath.Join(dir, RecordName(i, 6)))
		d := draws(rec.Moves)
		first := readRecord(t, filepath.Join(dir, RecordName(i/3*3, 6)))
		if !reflect.DeepEqual(rec.Cheques, first.Cheques) {
			t.Errorf("game %d: cheques %v, the deal's first game %v", i+1, rec.Cheques, first.Cheques)
		}
		f := draws(first.Moves)
		n := min(len(d), len(f))
		if !slices.Equal(d[:n], f[:n]) {
			t.Errorf("game %d drew %v, the deal's first game %v", i+1, d[:n], f[:n])
		}
		deals[i/3] = f
	}
	if slices.Equal(deals[0], deals[1]) {
		t.Error("the two deals drew the same cards")
	}
}

func TestLadder(t *testing.T) {
	c := LadderConfig{Bots: []string{"rand", "first", "last"}, Players: 2, Deals: 6, Seed: 5, New: fakeNew(nil)}
	r, err := RunLadder(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Tables) != 3 || r.Games != 3*6*2 {
		t.Fatalf("tables %v, games %d; want 3 tables of 12 games", r.Tables, r.Games)
	}
	for i, rg := range r.Rungs {
		if rg.Games != 24 {
			t.Errorf("%s played %d games, want 24", rg.Spec, rg.Games)
		}
		if i > 0 && rg.Ordinal > r.Rungs[i-1].Ordinal {
			t.Errorf("rungs not sorted: %v", r.Rungs)
		}
		if rg.Low >= rg.Rating.Mu || rg.High <= rg.Rating.Mu {
			t.Errorf("%s: interval %.2f..%.2f does not hold mu %.2f", rg.Spec, rg.Low, rg.High, rg.Rating.Mu)
		}
	}
	// The same configuration rates the same, however many workers play.
	c.Workers = 1
	again, err := RunLadder(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Rungs, again.Rungs) {
		t.Errorf("one worker rated %v, several %v", again.Rungs, r.Rungs)
	}
}

// TestLadderCheap gives the table of the cheap bots alone more deals:
// its first deals are those of a ladder without cheap bots, its others
// are rated after every other table's, and the report says so and gives
// the gap between neighbours' intervals.
func TestLadderCheap(t *testing.T) {
	even := LadderConfig{Bots: []string{"rand", "first", "last"}, Players: 2, Deals: 2, Seed: 5, New: fakeNew(nil)}
	c := even
	c.Cheap, c.CheapDeals = 2, 5
	r, base := ladderAndBase(t, c, even, 5*2+2*2*2)
	for i, want := range []int{10, 4, 4} { // rand-first, rand-last, first-last
		run := r.Runs[i]
		if run.Games != want {
			t.Errorf("table %v played %d games, want %d", r.Tables[i], run.Games, want)
			continue
		}
		if !reflect.DeepEqual(run.Outcomes[:4], base.Runs[i].Outcomes) {
			t.Errorf("table %v: its first 2 deals are not the even ladder's", r.Tables[i])
		}
	}
	if games, want := gamesByBot(r), map[string]int{"rand": 14, "first": 14, "last": 8}; !reflect.DeepEqual(games, want) {
		t.Errorf("games by bot %v, want %v", games, want)
	}
	if reflect.DeepEqual(r.Rungs, base.Rungs) {
		t.Error("the cheap table's extra deals changed no rating")
	}
	if r.Games != 18 || r.Cheap != 2 || r.CheapDeals != 5 {
		t.Errorf("result: %d games, cheap %d with %d deals; want 18, 2 with 5", r.Games, r.Cheap, r.CheapDeals)
	}

	var out strings.Builder
	r.WriteText(&out, ReportOptions{Workers: 1})
	gap := fmt.Sprintf("%+.1f", r.Rungs[0].Low-r.Rungs[1].High)
	for _, want := range []string{"2 duplicate deals each (5 at the 1 table of the first 2 bots alone), 18 games", " gap ", " " + gap + " "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
}

// TestLadderSpan plays only the tables of neighbours in the list: each
// the same games as in the ladder of every table, its records in the
// directory it has there.
func TestLadderSpan(t *testing.T) {
	all := LadderConfig{Bots: []string{"rand", "first", "last"}, Players: 2, Deals: 2, Seed: 7, New: fakeNew(nil)}
	c := all
	c.Span, c.Records = 1, t.TempDir()
	r, whole := ladderAndBase(t, c, all, 8)
	if want := [][]string{{"rand", "first"}, {"first", "last"}}; !reflect.DeepEqual(r.Tables, want) {
		t.Fatalf("tables %v, want %v", r.Tables, want)
	}
	for i, j := range []int{0, 2} {
		if !reflect.DeepEqual(r.Runs[i].Outcomes, whole.Runs[j].Outcomes) {
			t.Errorf("table %v: other games than in the ladder of every table", r.Tables[i])
		}
	}
	for _, dir := range []string{"table-01", "table-03"} {
		if files, _ := filepath.Glob(filepath.Join(c.Records, dir, "game-*.json")); len(files) != 4 {
			t.Errorf("%s holds %d records, want 4", dir, len(files))
		}
	}
	if games, want := gamesByBot(r), map[string]int{"rand": 4, "first": 8, "last": 4}; !reflect.DeepEqual(games, want) {
		t.Errorf("games by bot %v, want %v", games, want)
	}
	var out strings.Builder
	r.WriteText(&out, ReportOptions{Workers: 1})
	if want := "2 tables of 2 players (bots at most 1 apart in the list), 2 duplicate deals each, 8 games"; !strings.Contains(out.String(), want) {
		t.Errorf("the report lacks %q:\n%s", want, out.String())
	}
}

// ladderAndBase checks that the ladder c plans games games, and plays it
// and the ladder base it is compared with.
func ladderAndBase(t *testing.T, c, base LadderConfig, games int) (r, b *LadderResult) {
	t.Helper()
	if got := c.Games(); got != games {
		t.Errorf("Games() = %d, want %d", got, games)
	}
	var err error
	if r, err = RunLadder(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if b, err = RunLadder(context.Background(), base); err != nil {
		t.Fatal(err)
	}
	return r, b
}

// gamesByBot returns the games each bot of r played.
func gamesByBot(r *LadderResult) map[string]int {
	games := map[string]int{}
	for _, rg := range r.Rungs {
		games[rg.Spec] = rg.Games
	}
	return games
}

// TestLadderResume stops a ladder in its second table, then starts it
// again with Resume: only the games without a record are played, each
// table's records are in its own directory, and the ratings are those of
// a ladder that never stopped.
func TestLadderResume(t *testing.T) {
	c := LadderConfig{Bots: []string{"rand", "first", "last"}, Players: 2, Deals: 3, Seed: 8, Workers: 1, New: fakeNew(nil)}
	whole, err := RunLadder(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}

	c.Records = t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const stopAt = 8 // of 3 tables of 6 games: the second table's second game
	c.Progress = func(done, _ int) {
		if done == stopAt {
			cancel()
		}
	}
	if _, err := RunLadder(ctx, c); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped ladder: error %v, want context.Canceled", err)
	}
	played := func(table int) int {
		files, _ := filepath.Glob(filepath.Join(c.Records, TableDir(table, 3), "game-*.json"))
		return len(files)
	}
	// A game may end while the stop is being told: the records are of
	// the games that ended, the second table's first two at least.
	kept := played(0) + played(1) + played(2)
	if played(0) != 6 || played(1) < 2 || played(1) == 6 || played(2) != 0 {
		t.Fatalf("records by table %d, %d, %d after %d games, want 6, 2 to 5, 0", played(0), played(1), played(2), stopAt)
	}

	var made atomic.Int64
	c.New, c.Resume, c.Progress = fakeNew(&made), true, nil
	r, err := RunLadder(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := made.Load(), int64((18-kept)*c.Players); got != want {
		t.Errorf("%d bots made for games, want %d: only the %d games without a record are played", got, want, 18-kept)
	}
	if r.Resumed != kept || r.Games != 18 {
		t.Errorf("resumed %d of %d games, want %d of 18", r.Resumed, r.Games, kept)
	}
	if !reflect.DeepEqual(r.Rungs, whole.Rungs) {
		t.Errorf("resumed ladder rated %v, the ladder without records %v", r.Rungs, whole.Rungs)
	}
	for table := range 3 {
		if n := played(table); n != 6 {
			t.Errorf("table %d has %d records, want 6", table+1, n)
		}
	}
	var out strings.Builder
	r.WriteText(&out, ReportOptions{Workers: 1})
	if want := fmt.Sprintf("%d games read from the records of an earlier run, not played: the decision times are of the other %d", kept, 18-kept); !strings.Contains(out.String(), want) {
		t.Errorf("the report does not say which games were played:\n%s", out.String())
	}

	// A ladder of other bots finds records of other games there.
	c.Bots = []string{"rand", "last", "first"}
	if _, err := RunLadder(context.Background(), c); err == nil || !strings.Contains(err.Error(), "table-01") {
		t.Errorf("a ladder of other tables resumed from these records: error %v, want one naming table-01", err)
	}
}

func TestTableDir(t *testing.T) {
	for _, tt := range []struct {
		i, n int
		want string
	}{{0, 3, "table-01"}, {9, 10, "table-10"}, {4, 120, "table-005"}} {
		if got := TableDir(tt.i, tt.n); got != tt.want {
			t.Errorf("TableDir(%d, %d) = %q, want %q", tt.i, tt.n, got, tt.want)
		}
	}
}

func TestLadderErrors(t *testing.T) {
	tests := []struct {
		name string
		c    LadderConfig
		want string
	}{
		{"too few bots", LadderConfig{Bots: []string{"rand"}, Players: 2}, "cannot fill a table"},
		{"twice", LadderConfig{Bots: []string{"rand", "rand"}, Players: 2}, "listed twice"},
		{"one seat", LadderConfig{Bots: []string{"rand", "first"}, Players: 1}, "Razzia is for 2 to 5"},
		{"bad spec", LadderConfig{Bots: []string{"rand", "nope"}, Players: 2}, "unknown bot"},
		{"negative deals", LadderConfig{Bots: []string{"rand", "first"}, Players: 2, Deals: -1}, "negative"},
		{"cheap cannot fill a table", LadderConfig{Bots: []string{"rand", "first"}, Players: 2, Cheap: 1, CheapDeals: 20}, "1 cheap bots cannot fill a table of 2"},
		{"more cheap than bots", LadderConfig{Bots: []string{"rand", "first"}, Players: 2, Cheap: 3, CheapDeals: 20}, "want 0 to the 2 bots"},
		{"negative cheap", LadderConfig{Bots: []string{"rand", "first"}, Players: 2, Cheap: -1}, "want 0 to the 2 bots"},
		{"cheap bots without cheap deals", LadderConfig{Bots: []string{"rand", "first"}, Players: 2, Cheap: 2}, "no cheap deals"},
		{"cheap deals without cheap bots", LadderConfig{Bots: []string{"rand", "first"}, Players: 2, CheapDeals: 20}, "no cheap bots"},
		{"fewer cheap deals", LadderConfig{Bots: []string{"rand", "first"}, Players: 2, Cheap: 2, CheapDeals: 5}, "fewer than the 10"},
		{"negative cheap deals", LadderConfig{Bots: []string{"rand", "first"}, Players: 2, Cheap: 2, CheapDeals: -5}, "cannot be negative"},
		{"span too short", LadderConfig{Bots: []string{"rand", "first", "last"}, Players: 3, Span: 1}, "a span of 1 cannot seat 3 players"},
		{"negative span", LadderConfig{Bots: []string{"rand", "first"}, Players: 2, Span: -1}, "a span of -1"},
		{"resume without records", LadderConfig{Bots: []string{"rand", "first"}, Players: 2, Resume: true}, "directory of the records"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.c.New = fakeNew(nil)
			_, err := RunLadder(context.Background(), tt.c)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestTables(t *testing.T) {
	got := Tables([]string{"a", "b", "c", "d"}, 3)
	want := [][]string{{"a", "b", "c"}, {"a", "b", "d"}, {"a", "c", "d"}, {"b", "c", "d"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestOutcomeRanks(t *testing.T) {
	o := Outcome{Totals: []int{30, 45, 30, 12}}
	if got, want := o.Ranks(), []int{2, 1, 2, 4}; !slices.Equal(got, want) {
		t.Errorf("ranks %v, want %v", got, want)
	}
}
