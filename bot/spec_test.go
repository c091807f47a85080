package bot

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/bot/internal/frozen"
	"github.com/razziagame/razzia/internal/i18n"
)

func TestNew(t *testing.T) {
	tests := []struct {
		spec string
		want any // the bot's type
	}{
		{"random", &Random{}},
		{"heuristic", &Heuristic{}},
		{"heuristic:noise=2.5", &Heuristic{}},
		{"mcts", &MCTS{}},
		{"mcts:iters=2000", &MCTS{}},
		{"mcts:time=300ms", &MCTS{}},
		{"mcts:iters=50,time=1s,c=1.4,rollout=random", &MCTS{}},
		{"mcts:iters=50,rollout=light", &MCTS{}},
		{"mcts:time=1s,rollout=auto", &MCTS{}},
		{" mcts:iters=5 ", &MCTS{}},
		{"easy", &Heuristic{}},
		{"medium", &Heuristic{}},
		{"hard", &MCTS{}},
		{"expert", &MCTS{}},
		{"flatmc", &FlatMC{}},
		{"flatmc:rounds=40,noise=1", &FlatMC{}},
		{"flat", &Flat{}},
		{"flat:samples=200,time=1s,noise=0.5", &Flat{}},
		{"medium@b971414", &frozen.Heuristic{}},
		{"hard@b971414", &frozen.MCTS{}},
		{"mcts@b971414:iters=300", &frozen.MCTS{}},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			b, err := New(tt.spec, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := fmt.Sprintf("%T", b), fmt.Sprintf("%T", tt.want); got != want {
				t.Errorf("got a %s, want a %s", got, want)
			}
		})
	}
}

func TestNewOptions(t *testing.T) {
	b, err := New("mcts:iters=123,time=250ms,c=1.5,rollout=random", 1)
	if err != nil {
		t.Fatal(err)
	}
	m := b.(*MCTS)
	if m.iters != 123 || m.limit != 250*time.Millisecond || m.c != 1.5 || m.rollout != rolloutRandom {
		t.Errorf("options not applied: %+v", m)
	}
	m = must(New("mcts", 1)).(*MCTS)
	if m.iters != DefaultIters || m.limit != 0 || m.rollout != rolloutHeuristic || m.workers != 1 || !m.cut {
		t.Errorf("defaults: %+v", m)
	}
	m = must(New("mcts:time=200ms,workers=3,bias=0.5,noise=1,cut=none", 1)).(*MCTS)
	if m.iters != 0 || m.limit != 200*time.Millisecond || m.workers != 3 || m.bias != 0.5 || m.noise != 1 || m.cut {
		t.Errorf("options not applied: %+v", m)
	}
	f := must(New("flatmc", 1)).(*FlatMC)
	if f.rounds != 0 || f.limit != DefaultFlatTime {
		t.Errorf("flatmc defaults: %+v", f)
	}
	f = must(New("flatmc:rounds=40", 1)).(*FlatMC)
	if f.rounds != 40 || f.limit != 0 {
		t.Errorf("flatmc:rounds=40: %+v", f)
	}
	tests := []struct {
		spec    string
		samples int
		limit   time.Duration
		noise   float64
		drop    float64
	}{
		{"flat", 0, DefaultFlatTime, 2, DropSE},
		{"flat:samples=40", 40, 0, 2, DropSE},
		{"flat:time=1s,noise=0", 0, time.Second, 0, DropSE},
		{"flat:samples=40,time=50ms,drop=0", 40, 50 * time.Millisecond, 2, 0},
		{"flat:drop=4", 0, DefaultFlatTime, 2, 4},
	}
	for _, tt := range tests {
		fl := must(New(tt.spec, 1)).(*Flat)
		if fl.samples != tt.samples || fl.limit != tt.limit || fl.noise != tt.noise || fl.play.noise != tt.noise || fl.dropSE != tt.drop {
			t.Errorf("%s: samples %d, limit %v, noise %v/%v, drop %v; want %d, %v, %v, %v", tt.spec,
				fl.samples, fl.limit, fl.noise, fl.play.noise, fl.dropSE, tt.samples, tt.limit, tt.noise, tt.drop)
		}
	}
	if h := must(New("heuristic:noise=3", 1)).(*Heuristic); h.noise != 3 {
		t.Errorf("noise = %v, want 3", h.noise)
	}
}

func must(b Bot, err error) Bot {
	if err != nil {
		panic(err)
	}
	return b
}

// TestNewBad checks that bad specs are rejected with ErrSpec, an error
// naming the bad part and the list of valid specs.
func TestNewBad(t *testing.T) {
	tests := []struct {
		spec, names string
	}{
		{"", "empty spec"},
		{"   ", "empty spec"},
		{"alphago", `"alphago"`},
		{"MCTS", `"MCTS"`},
		{"mcts:iters=-3", "iters=-3"},
		{"mcts:iters=0", "iters=0"},
		{"mcts:iters=many", "iters=many"},
		{"mcts:iters=99999999999", "iters=99999999999"},
		{"mcts:time=0s", "time=0s"},
		{"mcts:time=-1s", "time=-1s"},
		{"mcts:time=300", "time=300"},
		{"mcts:time=2h", "time=2h"},
		{"mcts:c=-1", "c=-1"},
		{"mcts:c=NaN", "c=NaN"},
		{"mcts:rollout=smart", "rollout=smart"},
		{"mcts:depth=3", `"depth"`},
		{"mcts:iters=5,iters=6", `"iters" given twice`},
		{"mcts:iters=1/2/3", "iters=1/2/3"},
		{"mcts:iters=1/2/x/4", "x is not"},
		{"mcts:iters=1/2/0/4", "0 is not"},
		{"mcts:", "empty options"},
		{"mcts:iters", `"iters"`},
		{"mcts:iters=5,", `""`},
		{"random:iters=5", "random takes no options"},
		{"heuristic:noise=-1", "noise=-1"},
		{"heuristic:iters=5", `"iters"`},
		{"hard:iters=5", `level "hard"`},
		{"expert:time=1s", `level "expert"`},
		{"mcts:workers=0", "workers=0"},
		{"mcts:workers=65", "workers=65"},
		{"mcts:cut=soon", "cut=soon"},
		{"flatmc:rounds=0", "rounds=0"},
		{"flatmc:iters=5", `"iters"`},
		{"flat:samples=0", "samples=0"},
		{"flat:rounds=5", `"rounds"`},
		{"flat:time=1h", "time=1h"},
		{"flat:noise=-2", "noise=-2"},
		{"flat:drop=-1", "drop=-1"},
		{"flat:samples=5,samples=6", `"samples" given twice`},
		{"hard@b971414:iters=5", "takes no options"},
		{"mcts@b971414:c=1", `"c"`},
		{"exec:python3 bot.py", "would run a program"},
		{"exec:rm -rf ~", "in-process bots only"},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			b, err := New(tt.spec, 1)
			if err == nil {
				t.Fatalf("accepted, got %T", b)
			}
			if !errors.Is(err, ErrSpec) {
				t.Errorf("error %v does not wrap ErrSpec", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.names) {
				t.Errorf("error %q does not name %s", msg, tt.names)
			}
			if !strings.Contains(msg, SpecHelp) {
				t.Errorf("error %q does not list the valid specs", msg)
			}
		})
	}
}

func TestLevels(t *testing.T) {
	levels := Levels()
	var names []string
	for _, l := range levels {
		names = append(names, l.Name)
		if _, err := New(l.Spec, 1); err != nil {
			t.Errorf("level %s: %v", l.Name, err)
		}
		b, err := NewLevel(l.Name, 1)
		if err != nil || fmt.Sprintf("%T", b) != fmt.Sprintf("%T", must(New(l.Spec, 1))) {
			t.Errorf("NewLevel(%s) = %T, %v", l.Name, b, err)
		}
		if got, ok := LookupLevel(l.Name); !ok || got != l {
			t.Errorf("LookupLevel(%s) = %+v, %v", l.Name, got, ok)
		}
		if !strings.Contains(SpecHelp, l.Name) {
			t.Errorf("SpecHelp does not list level %s", l.Name)
		}
		if l.Doc == "" {
			t.Errorf("level %s is undocumented", l.Name)
		}
	}
	if got := strings.Join(names, " "); got != "easy medium hard expert" {
		t.Errorf("levels %q, want easy medium hard expert", got)
	}
	hard := must(New("hard", 1)).(*MCTS)
	if hard.limit <= 0 || hard.limit > 900*time.Millisecond || hard.iters != 0 || hard.workers != 1 {
		t.Errorf("hard: %v, %d iterations, %d workers; it must use its time, on one core, and decide within a second",
			hard.limit, hard.iters, hard.workers)
	}
	expert := must(New("expert", 1)).(*MCTS)
	if expert.limit != 3*time.Second || expert.iters != 0 || expert.workers != min(runtime.GOMAXPROCS(0), MaxWorkers) {
		t.Errorf("expert: %v, %d iterations, %d workers; want 3s on every core", expert.limit, expert.iters, expert.workers)
	}
	if !slices.Equal(LevelNames(), names) {
		t.Errorf("LevelNames() = %q, want %q", LevelNames(), names)
	}
	if _, ok := LookupLevel(DefaultLevel); !ok {
		t.Errorf("the default level %q is not a level", DefaultLevel)
	}
	levels[0].Spec = "changed"
	if Levels()[0].Spec == "changed" {
		t.Error("Levels returned the package's own slice")
	}
}

// TestLevelFixed: every level has a Fixed spec bounded by iterations
// alone on a set number of workers, so that a calibration plays the same
// games on any machine; a level without a time limit is its own Fixed;
// and a Fixed search is the same kind of search as the level's.
func TestLevelFixed(t *testing.T) {
	for _, l := range Levels() {
		fixed, err := New(l.Fixed, 1)
		if err != nil {
			t.Errorf("%s: Fixed %q: %v", l.Name, l.Fixed, err)
			continue
		}
		if strings.Contains(l.Fixed, "time=") || strings.Contains(l.Fixed, "workers=all") {
			t.Errorf("%s: Fixed %q depends on the machine", l.Name, l.Fixed)
		}
		played := must(New(l.Spec, 1))
		if fmt.Sprintf("%T", fixed) != fmt.Sprintf("%T", played) {
			t.Errorf("%s: Fixed %q is a %T, the level a %T", l.Name, l.Fixed, fixed, played)
		}
		switch b := fixed.(type) {
		case *MCTS:
			p := played.(*MCTS)
			if b.limit != 0 || b.iters <= 0 {
				t.Errorf("%s: Fixed %q runs %d iterations within %v; want iterations alone", l.Name, l.Fixed, b.iters, b.limit)
			}
			if p.workers > 1 && b.workers < 2 {
				t.Errorf("%s: Fixed %q searches on %d worker, the level on several", l.Name, l.Fixed, b.workers)
			}
		case *FlatMC:
			if b.limit != 0 || b.rounds <= 0 {
				t.Errorf("%s: Fixed %q runs %d rounds within %v; want rounds alone", l.Name, l.Fixed, b.rounds, b.limit)
			}
		default:
			if l.Fixed != l.Spec {
				t.Errorf("%s: Fixed %q, but its spec %q has no time limit", l.Name, l.Fixed, l.Spec)
			}
		}
	}
	h, _ := LookupLevel("hard")
	e, _ := LookupLevel("expert")
	hard, expert := must(New(h.Fixed, 1)).(*MCTS), must(New(e.Fixed, 1)).(*MCTS)
	if expert.iters <= hard.iters {
		t.Errorf("expert's Fixed runs %d iterations, hard's %d: expert must be the stronger", expert.iters, hard.iters)
	}
}

// NewLevel builds levels only: a spec, however valid, is refused, since
// what it is given may come from storage.
func TestNewLevelRefusesSpecs(t *testing.T) {
	for _, name := range []string{"random", "heuristic", "mcts:iters=5", "exec:rm -rf ~", "Hard", "hard:iters=5", " easy", ""} {
		b, err := NewLevel(name, 1)
		if err == nil || b != nil || !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), fmt.Sprintf("%q is not a bot level", name)) {
			t.Errorf("NewLevel(%q) = %v, %v; want an error naming it", name, b, err)
		}
	}
}

// TestLevelCatalogue checks the English catalogue against Levels: a level
// may lack translations (the pages fall back to its name and Doc), but an
// English description there is the level's Doc, so that the two never
// drift apart.
func TestLevelCatalogue(t *testing.T) {
	en := i18n.Default()
	for _, l := range Levels() {
		if key := "bot." + l.Name + ".about"; en.Has(key) && en.T(key) != l.Doc {
			t.Errorf("%s is %q in the English catalogue, but the level's Doc is %q", key, en.T(key), l.Doc)
		}
	}
}

// TestMixAndNoiseByPlayers: mix=X/X/X/X and noise=X/X/X/X search at each
// table size exactly as the one value for that size does, and not as
// another size's value.
func TestMixAndNoiseByPlayers(t *testing.T) {
	tests := []struct {
		name, by, same, other string
		players               int
	}{
		{"mix at 4", "mix=0.5/0.5/0/0", "mix=0", "mix=0.5", 4},
		{"mix at 2", "mix=0.5/0.5/0/0", "mix=0.5", "mix=0", 2},
		{"noise at 4", "noise=2/2/3/3", "noise=3", "noise=2", 4},
		{"noise at 3", "noise=2/2/3/3", "noise=2", "noise=3", 3},
	}
	means := func(t *testing.T, opt string, players int) []float64 {
		t.Helper()
		m := must(New("mcts:iters=400,workers=1,rollout=auto,light=5,policy=flat,cut=none,"+opt, 7)).(*MCTS)
		m.Choose(midGame(t, players))
		return slices.Clone(m.means)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			by := means(t, tt.by, tt.players)
			if same := means(t, tt.same, tt.players); !slices.Equal(by, same) {
				t.Errorf("%s searched otherwise than %s at %d players: root means %v, want %v", tt.by, tt.same, tt.players, by, same)
			}
			if other := means(t, tt.other, tt.players); slices.Equal(by, other) {
				t.Errorf("%s searched as %s at %d players", tt.by, tt.other, tt.players)
			}
		})
	}
}

// TestItersByPlayers: iters=N/N/N/N bounds a search by the count of its
// table's size, 2 to 5 players.
func TestItersByPlayers(t *testing.T) {
	m := must(New("mcts:iters=400/300/200/100,workers=2", 1)).(*MCTS)
	for players, want := range map[int]int{2: 400, 3: 300, 4: 200, 5: 100} {
		m.Choose(midGame(t, players))
		if got := m.Iterations(); got != want {
			t.Errorf("%d players: %d iterations, want %d", players, got, want)
		}
	}
}
