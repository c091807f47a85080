package arena

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
)

// Fake bots, so that these tests do not depend on the real ones.
type (
	firstBot struct{}               // always the first legal move: draw, or pass
	lastBot  struct{}               // always the last: the most thieves, the highest bid
	randBot  struct{ r *rand.Rand } // uniform
	badBot   struct{}               // bids a cheque nobody has
	panicBot struct{}
)

func (firstBot) Choose(v razzia.View) razzia.Move  { return v.Legal[0] }
func (lastBot) Choose(v razzia.View) razzia.Move   { return v.Legal[len(v.Legal)-1] }
func (b randBot) Choose(v razzia.View) razzia.Move { return v.Legal[b.r.IntN(len(v.Legal))] }
func (badBot) Choose(v razzia.View) razzia.Move {
	if v.State.Phase() == razzia.PhaseAuction {
		return razzia.Bid(razzia.MaxCheque + 1)
	}
	return v.Legal[0]
}
func (panicBot) Choose(razzia.View) razzia.Move { panic("no idea") }

func (firstBot) Close() error { return nil }
func (lastBot) Close() error  { return nil }
func (randBot) Close() error  { return nil }
func (badBot) Close() error   { return nil }
func (panicBot) Close() error { return nil }

const fakeSpecs = "valid specs: first, last, rand, bad, panic"

// fakeNew is a Factory for the fake bots; it counts the bots made with a
// non-zero seed, that is, for games.
func fakeNew(made *atomic.Int64) Factory {
	return func(spec string, seed uint64) (bot.Bot, error) {
		if seed != 0 && made != nil {
			made.Add(1)
		}
		switch spec {
		case "first":
			return firstBot{}, nil
		case "last":
			return lastBot{}, nil
		case "rand":
			return randBot{rand.New(rand.NewPCG(seed, 1))}, nil
		case "bad":
			return badBot{}, nil
		case "panic":
			return panicBot{}, nil
		case "crash":
			if seed != 0 {
				panic("cannot make a crash bot")
			}
			return firstBot{}, nil
		}
		return nil, fmt.Errorf("%w: unknown bot %q; %s", bot.ErrSpec, spec, fakeSpecs)
	}
}

func TestLineup(t *testing.T) {
	tests := []struct {
		name    string
		bots    []string
		players int
		want    []string
		err     string
	}{
		{"two bots, four seats", []string{"a", "b"}, 4, []string{"a", "b", "a", "b"}, ""},
		{"two bots, three seats", []string{"a", "b"}, 3, []string{"a", "b", "a"}, ""},
		{"one bot fills the table", []string{"a"}, 5, []string{"a", "a", "a", "a", "a"}, ""},
		{"as many bots as seats", []string{"a", "b", "c"}, 3, []string{"a", "b", "c"}, ""},
		{"too many bots", []string{"a", "b", "c"}, 2, nil, "3 bots cannot all sit"},
		{"no bots", nil, 4, nil, "no bots"},
		{"one player", []string{"a"}, 1, nil, "Razzia is for 2 to 5"},
		{"six players", []string{"a"}, 6, nil, "Razzia is for 2 to 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Lineup(tt.bots, tt.players)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("got %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestNames(t *testing.T) {
	got := names([]string{"heuristic", "hard", "heuristic", "heuristic"})
	want := []string{"heuristic", "hard", "heuristic#2", "heuristic#3"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestRotationFair plays a multiple of the player count and checks, from
// the records, that every bot sat in every position equally often.
func TestRotationFair(t *testing.T) {
	dir := t.TempDir()
	seats := []string{"first", "last", "rand", "rand"}
	r, err := Run(context.Background(), Config{Seats: seats, Games: 8, Seed: 1, Records: dir, New: fakeNew(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Balanced {
		t.Error("8 games of 4 reported unbalanced")
	}
	count := map[string][4]int{} // spec -> games in each position
	for i := range 8 {
		rec := readRecord(t, filepath.Join(dir, RecordName(i, 8)))
		for pos, name := range rec.Players {
			spec, _, _ := strings.Cut(name, "#")
			c := count[spec]
			c[pos]++
			count[spec] = c
		}
		if want := names(Rotation(seats, i)); !slices.Equal(rec.Players, want) {
			t.Errorf("game %d seats %v, want %v", i+1, rec.Players, want)
		}
	}
	want := map[string][4]int{"first": {2, 2, 2, 2}, "last": {2, 2, 2, 2}, "rand": {4, 4, 4, 4}}
	if !reflect.DeepEqual(count, want) {
		t.Errorf("positions %v, want %v", count, want)
	}
	for _, b := range r.Bots {
		if want := 8 * b.Seats; b.Games != want {
			t.Errorf("%s played %d seat-games, want %d", b.Spec, b.Games, want)
		}
	}
}

func readRecord(t *testing.T, name string) *razzia.Record {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := razzia.ReadRecord(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return rec
}

// stable drops what varies between identical runs: the timings.
func stable(r *Result) Result {
	out := *r
	out.Elapsed = 0
	out.times = nil // decision times vary
	out.Bots = slices.Clone(r.Bots)
	for i := range out.Bots {
		out.Bots[i].Decisions = Timing{Decisions: out.Bots[i].Decisions.Decisions}
	}
	return out
}

// TestReproducible runs the same configuration with one worker and with
// several: the results and the records must be identical, and another seed
// must give other games.
func TestReproducible(t *testing.T) {
	run := func(seed uint64, workers int) (Result, map[string][]byte) {
		dir := t.TempDir()
		r, err := Run(context.Background(), Config{
			Seats: []string{"rand", "last", "rand"}, Games: 12, Seed: seed,
			Workers: workers, Records: dir, New: fakeNew(nil),
		})
		if err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			files[e.Name()], _ = os.ReadFile(filepath.Join(dir, e.Name()))
		}
		return stable(r), files
	}
	r1, f1 := run(42, 1)
	r2, f2 := run(42, 3)
	if !reflect.DeepEqual(r1, r2) {
		t.Errorf("same seed, different results:\n%+v\n%+v", r1, r2)
	}
	if len(f1) != 12 || !reflect.DeepEqual(f1, f2) {
		t.Errorf("same seed: %d and %d records, equal %v", len(f1), len(f2), reflect.DeepEqual(f1, f2))
	}
	_, f3 := run(43, 2)
	if bytes.Equal(f1[RecordName(0, 12)], f3[RecordName(0, 12)]) {
		t.Error("seeds 42 and 43 played the same first game")
	}
}

// TestRecordsReplay replays every record written and checks that the
// scores and wins it gives add up to what the run reported.
func TestRecordsReplay(t *testing.T) {
	dir := t.TempDir()
	const games = 7
	seats := []string{"rand", "first", "last", "rand", "last"}
	r, err := Run(context.Background(), Config{Seats: seats, Games: games, Seed: 5, Records: dir, New: fakeNew(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Balanced {
		t.Error("7 games of 5 players reported balanced")
	}
	total := map[string]int{}
	wins := map[string]float64{}
	var cats = map[string]Categories{}
	for i := range games {
		rec := readRecord(t, filepath.Join(dir, RecordName(i, games)))
		g, err := rec.Game()
		if err != nil {
			t.Fatalf("game %d does not replay: %v", i+1, err)
		}
		st := g.State()
		if !st.Over() {
			t.Fatalf("game %d is unfinished", i+1)
		}
		totals := st.Totals()
		for s, name := range rec.Players {
			spec, _, _ := strings.Cut(name, "#")
			total[spec] += totals[s]
			c := cats[spec]
			for rd := 1; rd <= razzia.Rounds; rd++ {
				for k, v := range st.Scores(rd)[s] {
					c[k] += float64(v)
				}
			}
			cats[spec] = c
		}
		for _, s := range st.Winners() {
			spec, _, _ := strings.Cut(rec.Players[s], "#")
			wins[spec] += 1 / float64(len(st.Winners()))
		}
	}
	for _, b := range r.Bots {
		if got := float64(total[b.Spec]) / float64(b.Games); got != b.MeanScore {
			t.Errorf("%s: records give mean score %v, run reported %v", b.Spec, got, b.MeanScore)
		}
		if !near(wins[b.Spec], b.Wins, 1e-9) {
			t.Errorf("%s: records give %v wins, run reported %v", b.Spec, wins[b.Spec], b.Wins)
		}
		for k := range razzia.NumCategories {
			if got := cats[b.Spec][k] / float64(b.Games); !near(got, b.MeanByCategory[k], 1e-9) {
				t.Errorf("%s %v: records give mean %v, run reported %v", b.Spec, razzia.Category(k), got, b.MeanByCategory[k])
			}
		}
	}
}

// TestBadSpecRejectedBeforePlay checks that a bad spec or configuration
// stops the run before any bot is made for a game, any progress is
// reported or the records directory is created.
func TestBadSpecRejectedBeforePlay(t *testing.T) {
	tests := []struct {
		name  string
		seats []string
		games int
		err   string
	}{
		{"unknown spec last", []string{"rand", "rand", "nope"}, 4, `unknown bot "nope"; ` + fakeSpecs},
		{"unknown spec first", []string{"mcts:iters=-3", "rand"}, 4, `"mcts:iters=-3"`},
		{"one seat", []string{"rand"}, 4, "Razzia is for 2 to 5"},
		{"six seats", []string{"rand", "rand", "rand", "rand", "rand", "rand"}, 4, "Razzia is for 2 to 5"},
		{"negative games", []string{"rand", "rand"}, -1, "cannot be negative"},
		// A long spec is shortened (TestNamesShortened); a control character stays.
		{"bad name", []string{"ra\x01nd", "rand"}, 4, "control or invalid character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var made atomic.Int64
			progress := 0
			dir := filepath.Join(t.TempDir(), "records")
			factory := fakeNew(&made)
			if tt.name == "bad name" {
				inner := factory
				factory = func(spec string, seed uint64) (bot.Bot, error) {
					if strings.Contains(spec, "\x01") {
						spec = "rand"
					}
					return inner(spec, seed)
				}
			}
			_, err := Run(context.Background(), Config{
				Seats: tt.seats, Games: tt.games, Records: dir, New: factory,
				Progress: func(int) { progress++ },
			})
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("error %v, want one containing %q", err, tt.err)
			}
			if made.Load() != 0 || progress != 0 {
				t.Errorf("%d bots made and %d games reported before the error", made.Load(), progress)
			}
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("records directory created: %v", err)
			}
		})
	}
}

// TestBuggyBot checks that an illegal move or a panic fails the run and
// names the game, the seat and the bot.
func TestBuggyBot(t *testing.T) {
	tests := []struct {
		name, spec, want string
	}{
		{"illegal move", "bad", "bot bad in seat"},
		{"panic", "panic", "bot panic in seat"},
		{"panic when made", "crash", "bot crash in seat"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Run(context.Background(), Config{
				Seats: []string{"rand", tt.spec, "rand"}, Games: 6, Workers: 2, New: fakeNew(nil),
			})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "game ") {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			var me *razzia.MoveError
			if tt.spec == "bad" && !errors.As(err, &me) {
				t.Errorf("error %v does not wrap the *MoveError", err)
			}
		})
	}
}

func TestProgressAndCancel(t *testing.T) {
	var seen []int
	r, err := Run(context.Background(), Config{
		Seats: []string{"rand", "rand"}, Games: 7, Workers: 3, New: fakeNew(nil),
		Progress: func(done int) { seen = append(seen, done) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seen, []int{1, 2, 3, 4, 5, 6, 7}) {
		t.Errorf("progress %v, want 1..7", seen)
	}
	if r.Balanced {
		t.Error("7 games of 2 players reported balanced")
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err = Run(ctx, Config{
		Seats: []string{"rand", "rand"}, Games: 1000, Workers: 2, New: fakeNew(nil),
		Progress: func(done int) {
			if done == 3 {
				cancel()
			}
		},
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run returned %v, want context.Canceled", err)
	}
}

func TestDefaultGames(t *testing.T) {
	r, err := Run(context.Background(), Config{Seats: []string{"first", "first"}, New: fakeNew(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Games != DefaultGames {
		t.Errorf("played %d games, want %d", r.Games, DefaultGames)
	}
}

// faultyBot loses every tenth decision as a program's bot would (and plays
// the default move then), counts the games it is named and whether it was
// closed.
type faultyBot struct {
	n      int
	game   string
	faults []bot.Fault
	closed *atomic.Int64
}

func (b *faultyBot) Choose(v razzia.View) razzia.Move {
	b.n++
	if b.n%10 == 0 {
		m := bot.Default(v.Legal)
		b.faults = append(b.faults, bot.Fault{Game: b.game, Seat: v.Seat, Move: v.Moves + 1, Played: m.String(), Err: errSlow})
		return m
	}
	return v.Legal[0]
}

// errSlow is faultyBot's fault.
var errSlow = errors.New("no answer within the time limit")

func (b *faultyBot) Faults() []bot.Fault { return b.faults }
func (b *faultyBot) SetGame(g string)    { b.game = g }
func (b *faultyBot) Close() error        { b.closed.Add(1); return nil }

// Faults of external bots are counted per bot, reported per game and seat,
// and every bot is closed after its game (and after the check).
func TestFaults(t *testing.T) {
	var closed atomic.Int64
	var made []*faultyBot
	c := Config{Seats: []string{"faulty", "first", "faulty"}, Games: 4, Workers: 1, Seed: 3,
		New: func(spec string, seed uint64) (bot.Bot, error) {
			if spec == "faulty" {
				b := &faultyBot{closed: &closed}
				if seed != 0 {
					made = append(made, b)
				}
				return b, nil
			}
			return fakeNew(nil)(spec, seed)
		}}
	type note struct {
		game, seat int
		spec       string
		f          bot.Fault
	}
	var notes []note
	c.Fault = func(game, seat int, spec string, f bot.Fault) { notes = append(notes, note{game, seat, spec, f}) }
	r, err := Run(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, b := range made {
		want += len(b.faults)
	}
	if want == 0 || r.Bots[0].Spec != "faulty" || r.Bots[0].Faults != want || r.Bots[1].Faults != 0 {
		t.Fatalf("faults %d and %d, want %d and 0", r.Bots[0].Faults, r.Bots[1].Faults, want)
	}
	if len(notes) != want {
		t.Fatalf("%d fault notes, want %d", len(notes), want)
	}
	for _, n := range notes {
		if n.spec != "faulty" || n.f.Game != fmt.Sprint(n.game+1) || n.f.Seat != n.seat {
			t.Errorf("note %+v: game or seat wrong", n)
		}
	}
	if got := closed.Load(); got != int64(len(made)+1) {
		t.Errorf("%d bots closed, want the %d made for games and the checked one", got, len(made))
	}
}

// Long specs, such as exec: commands with long paths, make names of at
// most razzia.MaxNameLen bytes that keep the program's name.
func TestNamesShortened(t *testing.T) {
	long := "exec:python3 /home/someone/projects/razzia-bots/very/deep/directory/tree/bot.py"
	got := names([]string{long, "random", long})
	for _, n := range got {
		if err := razzia.CheckName(n); err != nil {
			t.Errorf("name %q: %v", n, err)
		}
	}
	if !strings.HasPrefix(got[0], "…") || !strings.HasSuffix(got[0], "/tree/bot.py") || !strings.HasSuffix(got[2], "bot.py#2") || got[1] != "random" {
		t.Errorf("names %q", got)
	}
	if _, err := razzia.NewGame(razzia.Setup{Players: got}); err != nil {
		t.Error(err)
	}
}

// searchBot plays the first legal move and says it ran 10 iterations, or
// 0 (no search) where it had no choice.
type searchBot struct{ last int }

func (b *searchBot) Choose(v razzia.View) razzia.Move {
	b.last = 0
	if len(v.Legal) > 1 {
		b.last = 10
	}
	return v.Legal[0]
}
func (b *searchBot) Iterations() int { return b.last }
func (b *searchBot) Close() error    { return nil }

// TestIterations checks that the mean iterations are those of the
// decisions a search bot searched, and that other bots report none.
func TestIterations(t *testing.T) {
	r, err := Run(context.Background(), Config{
		Seats: []string{"search", "first"}, Games: 2, Seed: 1,
		New: func(spec string, seed uint64) (bot.Bot, error) {
			if spec == "search" {
				return &searchBot{}, nil
			}
			return fakeNew(nil)(spec, seed)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range r.Bots {
		want := 0.0
		if b.Spec == "search" {
			want = 10
		}
		if got := b.Decisions.Iterations; got != want {
			t.Errorf("%s: mean iterations %v, want %v", b.Spec, got, want)
		}
	}
}
