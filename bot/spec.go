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
const SpecHelp = "valid specs: random, heuristic[:noise=X], " +
	"mcts[:iters=N,time=DURATION,c=X,rollout=light|random], easy, medium, hard, " +
	"exec:COMMAND (an external program, see docs/bots.md)"

// Limits on the options, so that a typo cannot ask for a day of thinking.
const (
	MaxIters = 10_000_000
	MaxTime  = time.Minute
)

// A Level is a strength offered to people, standing for a bot spec.
type Level struct {
	Name string // easy, medium or hard
	Spec string // the spec New builds it from
	Doc  string // a sentence for people
}

// levels maps the names people choose from to specs. Hard is bounded both
// by iterations (so it is deterministic given its seed on any machine fast
// enough) and by time (so it never keeps a person waiting a second).
var levels = []Level{
	{"easy", "heuristic:noise=6", "values cards like medium but misjudges them often"},
	{"medium", "heuristic", "values cards and cheques by the scoring rules; never looks ahead"},
	{"hard", "mcts:iters=6000,time=500ms", "Monte Carlo tree search: plays thousands of games to the end before each decision"},
}

// Levels returns the levels for people, weakest first.
func Levels() []Level { return append([]Level(nil), levels...) }

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
//	easy, medium, hard      the levels for people (see Levels)
//	exec:COMMAND [ARGS]     an external program speaking the line protocol
//	                        of docs/bots.md, with the default ExecOptions
//	                        (see NewExec)
//
// An error wraps ErrSpec, names the bad part and lists the valid specs.
func New(spec string, seed uint64) (Bot, error) {
	name, opts, hasOpts := strings.Cut(strings.TrimSpace(spec), ":")
	for _, l := range levels {
		if name == l.Name {
			if hasOpts {
				return nil, specError("level %q takes no options", name)
			}
			return New(l.Spec, seed)
		}
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
		e, err := NewExec(opts, seed, ExecOptions{})
		if err != nil {
			return nil, err // not a nil *Exec in a non-nil Bot
		}
		return e, nil
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
