package bot

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ErrSpec is the sentinel wrapped by every error New returns for a bad spec.
var ErrSpec = errors.New("invalid bot spec")

// SpecHelp lists the valid specs and their options, for error messages and
// command-line help.
var SpecHelp = "valid specs: random, heuristic[:noise=X], " +
	"mcts[:iters=N,time=DURATION,c=X,rollout=light|random], " + strings.Join(LevelNames(), ", ")

// Limits on the options, so that a typo cannot ask for a day of thinking.
const (
	MaxIters = 10_000_000
	MaxTime  = time.Minute
)

// A Level is a strength offered to people, standing for a bot spec.
type Level struct {
	Name string // what people choose, such as "easy"
	Spec string // the spec New builds it from
	Doc  string // a sentence for people, in English
}

// levels is the one list of the levels, weakest first: the server, the
// web page (through the server), the terminal and the docs' commands all
// read it through Levels. Hard is bounded both by iterations (so it is
// deterministic given its seed on any machine fast enough) and by time (so
// it never keeps a person waiting a second).
var levels = []Level{
	{"easy", "heuristic:noise=6", "values cards like medium but misjudges them often"},
	{"medium", "heuristic", "values cards and cheques by the scoring rules; never looks ahead"},
	{"hard", "mcts:iters=6000,time=500ms", "Monte Carlo tree search: plays thousands of games to the end before each decision"},
}

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
//	mcts[:iters=N,time=D,c=X,rollout=light|random]
//	                        information-set Monte Carlo tree search with at
//	                        most N iterations (default 6000) and at most D of
//	                        time per decision (default none), exploration
//	                        constant X (default 0.7), and a rollout policy
//	easy, medium, ...       a level for people (see Levels)
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
	case "random":
		if hasOpts {
			return nil, specError("random takes no options")
		}
		return NewRandom(seed), nil
	case "heuristic":
		h := NewHeuristic(seed)
		err := parseOptions(name, opts, hasOpts, func(key, val string) error {
			switch key {
			case "noise":
				x, err := parseFloat(key, val, 0, 100)
				h.noise = x
				return err
			}
			return fmt.Errorf("unknown option %q (heuristic takes noise=X)", key)
		})
		if err != nil {
			return nil, err
		}
		return h, nil
	case "mcts":
		m := NewMCTS(seed, DefaultIters, 0)
		err := parseOptions(name, opts, hasOpts, func(key, val string) error {
			switch key {
			case "iters":
				n, err := strconv.Atoi(val)
				if err != nil || n < 1 || n > MaxIters {
					return fmt.Errorf("iters=%s: want a whole number from 1 to %d", val, MaxIters)
				}
				m.iters = n
				return nil
			case "time":
				d, err := time.ParseDuration(val)
				if err != nil || d <= 0 || d > MaxTime {
					return fmt.Errorf("time=%s: want a duration from 1ms to %v, such as 300ms", val, MaxTime)
				}
				m.limit = d
				return nil
			case "c":
				x, err := parseFloat(key, val, 0, 10)
				m.c = x
				return err
			case "rollout":
				switch val {
				case "light":
					m.light = true
				case "random":
					m.light = false
				default:
					return fmt.Errorf("rollout=%s: want light or random", val)
				}
				return nil
			}
			return fmt.Errorf("unknown option %q (mcts takes iters=N, time=DURATION, c=X, rollout=light|random)", key)
		})
		if err != nil {
			return nil, err
		}
		return m, nil
	case "exec":
		return nil, specError("%q would run a program: New makes in-process bots only", spec)
	case "":
		return nil, specError("empty spec")
	}
	return nil, specError("unknown bot %q", name)
}

func specError(format string, args ...any) error {
	return fmt.Errorf("%w: %s; %s", ErrSpec, fmt.Sprintf(format, args...), SpecHelp)
}

// parseOptions splits "k=v,k=v" and hands each pair to set; a repeated key
// is an error, since one of the two would be silently ignored.
func parseOptions(name, opts string, hasOpts bool, set func(key, val string) error) error {
	if !hasOpts {
		return nil
	}
	if opts == "" {
		return specError("%s: empty options after the colon", name)
	}
	seen := map[string]bool{}
	for _, kv := range strings.Split(opts, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok || key == "" || val == "" {
			return specError("%s: option %q is not key=value", name, kv)
		}
		if seen[key] {
			return specError("%s: option %q given twice", name, key)
		}
		seen[key] = true
		if err := set(key, val); err != nil {
			return specError("%s: %v", name, err)
		}
	}
	return nil
}

func parseFloat(key, val string, lo, hi float64) (float64, error) {
	x, err := strconv.ParseFloat(val, 64)
	if err != nil || math.IsNaN(x) || x < lo || x > hi {
		return 0, fmt.Errorf("%s=%s: want a number from %g to %g", key, val, lo, hi)
	}
	return x, nil
}
