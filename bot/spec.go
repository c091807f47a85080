package bot

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot/internal/frozen"
)

// ErrSpec is the sentinel wrapped by every error New returns for a bad spec.
var ErrSpec = errors.New("invalid bot spec")

// SpecHelp lists the valid specs and their options, for error messages and
// command-line help.
var SpecHelp = "valid specs: random, heuristic[:noise=X], " +
	"mcts[:iters=N|N/N/N/N,time=DURATION,workers=N|all,c=X,fpu=X,bias=X,noise=X,cut=round|none,rollout=heuristic|random|light|auto,light=N,policy=heuristic|flat,crn=0|1,drop=X,chance=sample|strat,widen=X,tt=0|1,margin=X,value=NAME], " +
	"flatmc[:rounds=N,time=DURATION,noise=X], flat[:samples=N,time=DURATION,noise=X,drop=X,cut=round|none,rollout=heuristic|light,full=0|1,margin=X,value=NAME], " +
	"medium@b971414, hard@b971414, mcts@b971414[:iters=N,time=DURATION], " + strings.Join(LevelNames(), ", ") +
	"; heuristic, mcts and flat also take the policy's weights for experiments (" + strings.Join(weightNames(), "|") + "=X)"

// Limits on the options, so that a typo cannot ask for a day of thinking.
const (
	MaxIters = 10_000_000
	MaxTime  = time.Minute
)

// A Level is a strength offered to people, standing for a bot spec.
type Level struct {
	Name string // what people choose, such as "easy"
	Spec string // the spec New builds it from
	// Fixed is the spec that stands for Spec where the games must be the
	// same on every machine (the calibration of the levels' ratings):
	// bounded by iterations on a fixed number of workers, never by time,
	// so that its moves depend on the seed alone. It is Spec itself for a
	// level that has no time limit.
	Fixed string
	Doc   string // a sentence for people, in English
}

// levels is the one list of the levels, weakest first: the server, the
// web page (through the server), the terminal and the docs' commands all
// read it through Levels. The search levels are bounded by time alone, so
// that they use what they are given on any machine and never keep a person
// waiting longer: hard a second at most on one core, expert three on all
// of them.
//
// Both search the same way: every playout runs to the game's end with
// the yardstick's policy (policy=flat,cut=none), which wins more than the
// value function's cut at the round's end for the same time. At 5
// players their playouts follow b971414's light rules instead, which are
// about ten times as fast; up to 4 players the policy's, at a tenth of the
// iterations, won more as one seat against three searches with light
// playouts for the same time.
//
// Their Fixed specs are the iterations they complete in a decision on
// the 2-core machine the server runs on, with both cores busy (each
// search thread on a core of its own), on a mid-game position of each
// player count (BenchmarkLevels): hard 0.7 s of one core, expert 3 s of
// two (6 CPU-seconds, two workers, each with half the iterations: root
// parallelism, whose result depends on the seed, the iterations and the
// number of workers):
//
//	players            2        3        4        5
//	hard  iters/cpu-s  31,000   14,700   10,900*  115,400
//	expert iters/cpu-s 30,200   13,600   9,770*   98,700
//	hard  × 0.7 s      21,700   10,300   7,600    80,800
//	expert × 6 s       181,000  81,600   58,600   592,000
//
// (* With the policy's playouts: the light ones' rate, 120,600 and
// 108,300, times 11,489/127,358, the two rates measured side by side at 4
// players. Both levels play light playouts at 5 players only: at 4 the
// policy's, at a tenth of the iterations, won more.)
//
// Expert alone also mixes the value of the position after its move
// half and half with its playouts' result at 2 and 3 players (mix=0.5,
// after.go): it won 24 of 40 2-player games against hard that way
// (60.0%, 95% interval 44.6-73.7) and 55.0% of 60 without, for the same
// iterations, and the mix hardly slows them (BenchmarkMix). At 4 and 5
// players it drops the mix, which won 7 of 40 as one seat against three
// hard where the same deals without it won 12, and plays its playouts
// with more noise instead (noise=3): 15.5 of 40 that way (38.8%,
// 25.3-54.2, fair 25%). Hard keeps its playouts as they are until a
// change is shown to win at its budget.
//
// (On an idle machine a CPU-second runs about a sixth more.) A
// mid-game position is the dear part of a game: near its end a playout
// is short and the timed levels run several times these counts (hard
// averaged about 108,000 iterations a decision over 2-player games), so
// the Fixed stand-ins, and the ratings calibrated with them, are a
// little weaker than the levels themselves.
var levels = []Level{
	{"easy", "heuristic:noise=6", "heuristic:noise=6", "values cards like medium but misjudges them often"},
	{"medium", "heuristic", "heuristic", "values lots and cheques as a good player does; never looks ahead"},
	{"hard", "mcts:time=" + hardTime.String() + ",rollout=auto,light=5,policy=flat,cut=none", "mcts:iters=21700/10300/7600/80800,workers=1,rollout=auto,light=5,policy=flat,cut=none", "before each decision, tries out how the game could go on, many times over; answers within a second"},
	{"expert", "mcts:time=3s,workers=all,rollout=auto,light=5,policy=flat,cut=none,mix=0.5/0.5/0/0,noise=2/2/3/3", "mcts:iters=181000/81600/58600/592000,workers=2,rollout=auto,light=5,policy=flat,cut=none,mix=0.5/0.5/0/0,noise=2/2/3/3", "plays like hard but thinks longer, up to three seconds a decision"},
}

// hardTime is the time hard takes per decision: its 99th percentile stays
// under a second with both cores of a small machine busy.
const hardTime = 700 * time.Millisecond

// DefaultLevel is the level offered first to people.
const DefaultLevel = "medium"

// Levels returns the levels for people, weakest first.
func Levels() []Level { return append([]Level(nil), levels...) }

// LevelNames returns the names of the levels, weakest first.
func LevelNames() []string {
	names := make([]string, len(levels))
	for i, l := range levels {
		names[i] = l.Name
	}
	return names
}

// LookupLevel returns the level called name, which must match exactly.
func LookupLevel(name string) (Level, bool) {
	for _, l := range levels {
		if l.Name == name {
			return l, true
		}
	}
	return Level{}, false
}

// NewLevel returns the bot of the level called name, seeded with seed. It
// builds levels only, never any other spec: what it is given may come from
// people or from storage. An unknown name is an error wrapping ErrSpec
// that lists the levels.
func NewLevel(name string, seed uint64) (Bot, error) {
	l, ok := LookupLevel(name)
	if !ok {
		return nil, fmt.Errorf("%w: %q is not a bot level (the levels are %s)", ErrSpec, name, strings.Join(LevelNames(), ", "))
	}
	return New(l.Spec, seed)
}

// New returns the bot a spec names, seeded with seed. A spec is a name,
// optionally followed by a colon and comma-separated options:
//
//	random                  uniform over the legal moves
//	heuristic[:noise=X]     values lots and cheques by the scoring rules;
//	                        noise adds that many points of random error
//	mcts[:iters=N|N/N/N/N,time=D,workers=N|all,c=X,fpu=X,bias=X,noise=X,cut=round|none,rollout=heuristic|random|light|auto,light=N,policy=heuristic|flat,crn=0|1,drop=X,chance=sample|strat,widen=X,tt=0|1,margin=X,value=NAME]
//	                        Monte Carlo tree search with at most N iterations
//	                        (default 6000, or none when only D is given;
//	                        N/N/N/N: one count for each of 2 to 5 players) and
//	                        at most D of time per decision (default none),
//	                        on N workers (default 1; all: one per core),
//	                        exploration constant X (default 0.4), a
//	                        first-play urgency X (default none: every move
//	                        of a node tried once first), bias X
//	                        towards the heuristic's move (default 1),
//	                        playouts by the heuristic with noise X (default
//	                        2) or uniform, ended at the round's end by the
//	                        value function (cut=round, the default) or not;
//	                        or by b971414's light rules of thumb to the end
//	                        (light), or light from N players (light=N,
//	                        default 4; 6: never) and the heuristic's below
//	                        (auto); policy=flat plays
//	                        the heuristic's playouts and prior with the
//	                        yardstick's weights (flatWeights; the weights
//	                        named after it change a copy); value=NAME picks
//	                        the value function (default heuristic: fitted
//	                        to the heuristic's games); crn=1 compares the
//	                        root's moves on shared deck orders, dropping
//	                        those drop=X standard errors behind (default
//	                        2.5), as flat does, with the tree below;
//	                        chance=strat gives each kind drawn in the tree
//	                        its share of the visits instead of sampling;
//	                        widen=X lets a chance node of n visits hold
//	                        at most ⌈X·√n⌉ kinds (default 0: every kind);
//	                        tt=1 shares one node between the paths to one
//	                        position, the same cards drawn in any order;
//	                        margin=X weighs the score margin over the best
//	                        rival in a playout's reward (default 0.1)
//	flatmc[:rounds=N,time=D,noise=X]
//	                        determinised flat Monte Carlo: every move played
//	                        out over N sampled futures, or for D (default
//	                        300ms), with the heuristic's playouts (noise X)
//	flat[:samples=N,time=D,noise=X,drop=X,cut=round|none,rollout=heuristic|light,full=0|1,margin=X,value=NAME]
//	                        the yardstick: determinised flat Monte Carlo
//	                        with common random numbers, playouts to the
//	                        game's end and the moves X standard errors
//	                        behind the best dropped (default 2.5; 0: none;
//	                        see Flat), N samples or D (default 300ms);
//	                        for experiments, playouts cut at the round's end
//	                        by the value function, b971414's light policy,
//	                        calls judged with the others' values (full),
//	                        or the score margin's weight in the reward
//	easy, medium, ...       a level for people (see Levels)
//	medium@b971414, hard@b971414, mcts@b971414[:iters=N,time=D]
//	                        the heuristic and the tree search exactly as they
//	                        played at commit b971414, when hard was
//	                        mcts:iters=6000,time=500ms: yardsticks
//
// For experiments, heuristic, mcts and flat also take the weights of
// their policy's judge by name (weightFields), such as heuristic:spare=3.2.
//
// New makes in-process bots only; no spec starts a program.
// An error wraps ErrSpec, names the bad part and lists the valid specs.
func New(spec string, seed uint64) (Bot, error) {
	name, opts, hasOpts := strings.Cut(strings.TrimSpace(spec), ":")
	if l, ok := LookupLevel(name); ok {
		if hasOpts {
			return nil, specError("level %q takes no options", name)
		}
		return New(l.Spec, seed)
	}
	switch name {
	case "exec":
		return nil, specError("%q would run a program: New makes in-process bots only", spec)
	case "":
		return nil, specError("empty spec")
	}
	build, ok := builders[name]
	if !ok {
		return nil, specError("unknown bot %q", name)
	}
	return build(seed, name, opts, hasOpts)
}

// A builder makes the bot called name from its options (opts, after the
// colon, when hasOpts).
type builder func(seed uint64, name, opts string, hasOpts bool) (Bot, error)

// builders are the bots New makes by name, besides the levels.
var builders = map[string]builder{
	"random":         noOptions(func(seed uint64) Bot { return NewRandom(seed) }),
	"heuristic":      newHeuristicSpec,
	"mcts":           newMCTSSpec,
	"flatmc":         newFlatMCSpec,
	"flat":           newFlatSpec,
	"medium@b971414": noOptions(func(seed uint64) Bot { return frozen.NewHeuristic(seed) }),
	"hard@b971414": noOptions(func(seed uint64) Bot {
		return frozen.NewMCTS(seed, frozen.DefaultIters, 500*time.Millisecond)
	}),
	"mcts@b971414": newFrozenMCTSSpec,
}

// noOptions is the builder of a bot that takes no options.
func noOptions(newBot func(seed uint64) Bot) builder {
	return func(seed uint64, name, _ string, hasOpts bool) (Bot, error) {
		if hasOpts {
			return nil, specError("%s takes no options", name)
		}
		return newBot(seed), nil
	}
}

func newHeuristicSpec(seed uint64, name, opts string, hasOpts bool) (Bot, error) {
	h := NewHeuristic(seed)
	if _, err := setOptions(h, name, opts, hasOpts, heuristicOptions, "noise=X, the policy's weights"); err != nil {
		return nil, err
	}
	return h, nil
}

var heuristicOptions = map[string]setter[*Heuristic]{
	"noise": func(h *Heuristic, key, val string) error { return setFloat(&h.noise, key, val, 0, 100) },
}

func init() {
	addWeightOptions(heuristicOptions, func(h *Heuristic) **weights { return &h.w })
	addWeightOptions(mctsOptions, func(m *MCTS) **weights { return &m.w })
	addWeightOptions(flatOptions, func(f *Flat) **weights { return &f.play.w })
}

// addWeightOptions adds to opts an option for each of the policy's
// weights (weightFields). The first one given gives the bot a copy of the
// weights its policy points to (*w), so that the defaults stay as they are.
func addWeightOptions[B any](opts map[string]setter[B], w func(B) **weights) {
	for name, field := range weightFields {
		opts[name] = func(b B, key, val string) error {
			p := w(b)
			if *p == &defaultWeights || *p == &flatWeights {
				own := **p
				*p = &own
			}
			return setFloat(field(*p), key, val, 0, 100)
		}
	}
}

func newMCTSSpec(seed uint64, name, opts string, hasOpts bool) (Bot, error) {
	m := NewMCTS(seed, DefaultIters, 0, 1)
	// A spec's playouts stay the heuristic's, cut at the round's end,
	// unless it says otherwise, and rollout=auto goes light from
	// AutoLightPlayers unless light=N says otherwise, so that specs
	// written before rollout, policy, cut and light play as they did.
	m.rollout, m.w, m.cut, m.light = rolloutHeuristic, &defaultWeights, true, AutoLightPlayers
	given, err := setOptions(m, name, opts, hasOpts, mctsOptions,
		"iters=N (or N/N/N/N by 2 to 5 players), time=DURATION, workers=N, c=X, fpu=X, bias=X, noise=X (or X/X/X/X by 2 to 5 players), cut=round|none, rollout=heuristic|random|light|auto, light=N (the table size from which rollout=auto is light), policy=heuristic|flat, crn=0|1, drop=X, chance=sample|strat, widen=X, tt=0|1, margin=X, mix=X (or X/X/X/X), value=NAME, the policy's weights")
	if err != nil {
		return nil, err
	}
	if m.limit > 0 && !given["iters"] {
		m.iters = 0 // bounded by time alone
	}
	if m.widen > 0 && (m.crn || m.strat) {
		// Both choose the kinds drawn in the tree their own way.
		return nil, specError("%s: widen goes with neither crn=1 nor chance=strat: they choose the tree's draws their own way", name)
	}
	if m.crn && m.strat {
		// crn's tree draws its sample's deck in order; strat would draw
		// kinds that deck does not hold where they are.
		return nil, specError("%s: crn=1 and chance=strat do not go together: crn draws the shared deck in order", name)
	}
	return m, nil
}

var mctsOptions = map[string]setter[*MCTS]{
	"iters":   parseMCTSIters,
	"time":    func(m *MCTS, _, val string) error { return parseTime(val, &m.limit) },
	"workers": func(m *MCTS, _, val string) error { return parseWorkers(val, &m.workers) },
	"c":       func(m *MCTS, key, val string) error { return setFloat(&m.c, key, val, 0, 10) },
	"fpu":     func(m *MCTS, key, val string) error { return setFloat(&m.fpu, key, val, 0, 10) },
	"bias":    func(m *MCTS, key, val string) error { return setFloat(&m.bias, key, val, 0, 100) },
	"noise":   func(m *MCTS, key, val string) error { return parseFloatBy(key, val, 0, 100, &m.noise, &m.noiseBy) },
	"cut":     func(m *MCTS, _, val string) error { return parseCut(val, &m.cut) },
	"value":   func(m *MCTS, _, val string) error { return parseValue(val, &m.values) },
	"policy":  func(m *MCTS, _, val string) error { return parsePolicy(val, &m.w) },
	"drop":    func(m *MCTS, key, val string) error { return setFloat(&m.dropSE, key, val, 0, 100) },
	"widen":   func(m *MCTS, key, val string) error { return setFloat(&m.widen, key, val, 0, 100) },
	"margin":  func(m *MCTS, key, val string) error { return setFloat(&m.margin, key, val, 0, 1) },
	"mix":     func(m *MCTS, key, val string) error { return parseFloatBy(key, val, 0, 1, &m.mix, &m.mixBy) },
	"crn": func(m *MCTS, _, val string) error {
		if val != "0" && val != "1" {
			return fmt.Errorf("crn=%s: want 0 or 1", val)
		}
		m.crn = val == "1"
		return nil
	},
	"tt": func(m *MCTS, _, val string) error {
		if val != "0" && val != "1" {
			return fmt.Errorf("tt=%s: want 0 or 1", val)
		}
		m.tt = val == "1"
		return nil
	},
	"chance": func(m *MCTS, _, val string) error {
		if val != "sample" && val != "strat" {
			return fmt.Errorf("chance=%s: want sample or strat", val)
		}
		m.strat = val == "strat"
		return nil
	},
	"light": func(m *MCTS, key, val string) error {
		n, err := strconv.Atoi(val)
		if err != nil || n < razzia.MinPlayers || n > razzia.MaxPlayers+1 {
			return fmt.Errorf("%s=%s: want a table size from %d to %d (%d: never light)", key, val, razzia.MinPlayers, razzia.MaxPlayers+1, razzia.MaxPlayers+1)
		}
		m.light = n
		return nil
	},
	"rollout": func(m *MCTS, _, val string) error {
		r, ok := rollouts[val]
		if !ok {
			return fmt.Errorf("rollout=%s: want heuristic, random, light or auto", val)
		}
		m.rollout = r
		return nil
	},
}

// rollouts are the playouts rollout=NAME picks.
var rollouts = map[string]rollout{
	"heuristic": rolloutHeuristic,
	"random":    rolloutRandom,
	"light":     rolloutLight,
	"auto":      rolloutAuto,
}

func newFlatMCSpec(seed uint64, name, opts string, hasOpts bool) (Bot, error) {
	f := NewFlatMC(seed, 0, DefaultFlatTime)
	given, err := setOptions(f, name, opts, hasOpts, flatMCOptions, "rounds=N, time=DURATION, noise=X")
	if err != nil {
		return nil, err
	}
	if given["rounds"] && !given["time"] {
		f.limit = 0 // bounded by rounds alone
	}
	return f, nil
}

var flatMCOptions = map[string]setter[*FlatMC]{
	"rounds": func(f *FlatMC, key, val string) error { return parseCount(key, val, &f.rounds) },
	"time":   func(f *FlatMC, _, val string) error { return parseTime(val, &f.limit) },
	"noise": func(f *FlatMC, key, val string) error {
		err := setFloat(&f.noise, key, val, 0, 100)
		f.play.noise = f.noise
		return err
	},
}

// frozenMCTS is what mcts@b971414's options set.
type frozenMCTS struct {
	iters int
	limit time.Duration
}

func newFrozenMCTSSpec(seed uint64, name, opts string, hasOpts bool) (Bot, error) {
	f := &frozenMCTS{iters: frozen.DefaultIters}
	if _, err := setOptions(f, name, opts, hasOpts, frozenMCTSOptions, "iters=N, time=DURATION"); err != nil {
		return nil, err
	}
	return frozen.NewMCTS(seed, f.iters, f.limit), nil
}

var frozenMCTSOptions = map[string]setter[*frozenMCTS]{
	"iters": func(f *frozenMCTS, key, val string) error { return parseCount(key, val, &f.iters) },
	"time":  func(f *frozenMCTS, _, val string) error { return parseTime(val, &f.limit) },
}

// weightNames returns the names of the policy's weights, sorted: the
// specs' help lists them, and the tuners try them in that order.
func weightNames() []string {
	names := make([]string, 0, len(weightFields))
	for name := range weightFields {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// parseCut parses cut=round|none: whether playouts end at the round's end.
func parseCut(val string, cut *bool) error {
	switch val {
	case "round":
		*cut = true
	case "none":
		*cut = false
	default:
		return fmt.Errorf("cut=%s: want round or none", val)
	}
	return nil
}

// parsePolicy parses policy=heuristic|flat, the weights of a search's
// playouts and of the move its prior favours: the heuristic's, or the
// yardstick's (flatWeights). Weights set by name after it change a copy.
func parsePolicy(val string, w **weights) error {
	switch val {
	case "heuristic":
		*w = &defaultWeights
	case "flat":
		*w = &flatWeights
	default:
		return fmt.Errorf("policy=%s: want heuristic or flat", val)
	}
	return nil
}

// parseValue parses value=NAME, the value function of valueTables that
// ends cut playouts.
func parseValue(val string, t **valueTable) error {
	v, ok := valueTables[val]
	if !ok {
		names := make([]string, 0, len(valueTables))
		for name := range valueTables {
			names = append(names, name)
		}
		slices.Sort(names)
		return fmt.Errorf("value=%s: want %s", val, strings.Join(names, " or "))
	}
	*t = v
	return nil
}

func specError(format string, args ...any) error {
	return fmt.Errorf("%w: %s; %s", ErrSpec, fmt.Sprintf(format, args...), SpecHelp)
}

// A setter sets the option key of the bot b from its value val.
type setter[B any] func(b B, key, val string) error

// setOptions sets the options of the bot b called name through its
// setters (takes lists them, for the error of an unknown one) and
// returns the keys given.
func setOptions[B any](b B, name, opts string, hasOpts bool, setters map[string]setter[B], takes string) (map[string]bool, error) {
	return parseOptions(name, opts, hasOpts, func(key, val string) error {
		set, ok := setters[key]
		if !ok {
			return fmt.Errorf("unknown option %q (%s takes %s)", key, name, takes)
		}
		return set(b, key, val)
	})
}

// parseOptions splits "k=v,k=v", hands each pair to set and returns the
// keys given; a repeated key is an error, since one of the two would be
// silently ignored.
func parseOptions(name, opts string, hasOpts bool, set func(key, val string) error) (map[string]bool, error) {
	seen := map[string]bool{}
	if !hasOpts {
		return seen, nil
	}
	if opts == "" {
		return nil, specError("%s: empty options after the colon", name)
	}
	for _, kv := range strings.Split(opts, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok || key == "" || val == "" {
			return nil, specError("%s: option %q is not key=value", name, kv)
		}
		if seen[key] {
			return nil, specError("%s: option %q given twice", name, key)
		}
		seen[key] = true
		if err := set(key, val); err != nil {
			return nil, specError("%s: %v", name, err)
		}
	}
	return seen, nil
}

// setFloat parses the value of a number option into dst.
func setFloat(dst *float64, key, val string, lo, hi float64) error {
	x, err := parseFloat(key, val, lo, hi)
	*dst = x
	return err
}

func parseFloat(key, val string, lo, hi float64) (float64, error) {
	x, err := strconv.ParseFloat(val, 64)
	if err != nil || math.IsNaN(x) || x < lo || x > hi {
		return 0, fmt.Errorf("%s=%s: want a number from %g to %g", key, val, lo, hi)
	}
	return x, nil
}

// parseCount parses the value of a count option, such as iters=N.
func parseCount(key, val string, n *int) error {
	x, err := strconv.Atoi(val)
	if err != nil || x < 1 || x > MaxIters {
		return fmt.Errorf("%s=%s: want a whole number from 1 to %d", key, val, MaxIters)
	}
	*n = x
	return nil
}

// parseMCTSIters reads iters=N, or one count for each table size from 2
// to 5 players, N/N/N/N: a time bounds a search less at larger tables,
// whose iterations cost less, and a stand-in for it runs what it would.
func parseMCTSIters(m *MCTS, key, val string) error {
	counts := strings.Split(val, "/")
	if len(counts) == 1 {
		return parseCount(key, val, &m.iters)
	}
	if len(counts) != razzia.MaxPlayers-razzia.MinPlayers+1 {
		return fmt.Errorf("%s=%s: want one count, or one for each of 2 to %d players, such as 20000/10000/80000/80000", key, val, razzia.MaxPlayers)
	}
	for i, c := range counts {
		if err := parseCount(key, c, &m.itersBy[razzia.MinPlayers+i]); err != nil {
			return fmt.Errorf("%s=%s: %s is not a whole number from 1 to %d", key, val, c, MaxIters)
		}
	}
	m.iters = m.itersBy[razzia.MinPlayers] // some budget, so that the time is not the only bound
	return nil
}

// A byPlayers holds an option's value for each table size of 2 to 5
// players, when it was given so (X/X/X/X): what suits a duel need not
// suit a table of four.
type byPlayers struct {
	v   [razzia.MaxPlayers + 1]float64
	set bool
}

// at returns the value at a table of players seats; one when the option
// was given as one value.
func (o byPlayers) at(players int, one float64) float64 {
	if o.set {
		return o.v[players]
	}
	return one
}

// parseFloatBy reads a number option given as one value X, into one, or
// as one for each table size, X/X/X/X, into by, each from lo to hi.
func parseFloatBy(key, val string, lo, hi float64, one *float64, by *byPlayers) error {
	xs := strings.Split(val, "/")
	if len(xs) == 1 {
		*by = byPlayers{}
		return setFloat(one, key, val, lo, hi)
	}
	if len(xs) != razzia.MaxPlayers-razzia.MinPlayers+1 {
		return fmt.Errorf("%s=%s: want one number, or one for each of 2 to %d players, such as 0.5/0.5/0/0", key, val, razzia.MaxPlayers)
	}
	var o byPlayers
	for i, x := range xs {
		v, err := parseFloat(key, x, lo, hi)
		if err != nil {
			return fmt.Errorf("%s=%s: %s is not a number from %g to %g", key, val, x, lo, hi)
		}
		o.v[razzia.MinPlayers+i] = v
	}
	o.set = true
	*by, *one = o, o.v[razzia.MinPlayers]
	return nil
}

func parseTime(val string, limit *time.Duration) error {
	d, err := time.ParseDuration(val)
	if err != nil || d <= 0 || d > MaxTime {
		return fmt.Errorf("time=%s: want a duration from 1ms to %v, such as 300ms", val, MaxTime)
	}
	*limit = d
	return nil
}

// MaxWorkers bounds the workers of one search.
const MaxWorkers = 64

// parseWorkers parses workers=N, or all: one per core.
func parseWorkers(val string, workers *int) error {
	if val == "all" {
		*workers = min(runtime.GOMAXPROCS(0), MaxWorkers)
		return nil
	}
	n, err := strconv.Atoi(val)
	if err != nil || n < 1 || n > MaxWorkers {
		return fmt.Errorf("workers=%s: want a whole number from 1 to %d", val, MaxWorkers)
	}
	*workers = n
	return nil
}
