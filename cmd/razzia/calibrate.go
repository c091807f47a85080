package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/botrating"
)

const calibrateSynopsis = `
usage: razzia calibrate [--games N] [--seed S] [--workers W] [--levels L,L,...] [--weight LEVEL=W]... [--log FILE] [--out FILE]

Calibrate measures the strength of the bot levels on the scale of player
ratings, so that a rated game against bots means something from a
player's first game. It plays --games games between the levels (tables of
2 to 5 seats drawn from --seed, each played once per seat so that every
level sits in every position, never one level alone), feeds their
finishing orders in turn to the Weng–Lin model that rates players (Tau 0:
the bots do not change), and shifts the ratings so that the default level
has a new player's Mu. The same fit is made on the games of each table
size alone; when a difference between two levels differs between two
sizes by more than twice its uncertainty, "groups" is true and ratings per
table size are called for.

Each level plays its Fixed spec (see bot.Levels): the search levels
bounded by the iterations they run in their time on the server's machine,
not by time, so that the games are the same on a busy machine as on an
idle one: the same flags give the same ratings. --levels rates some
levels only (default all). --weight LEVEL=W, repeatable, draws LEVEL into
a seat W times as often as a level of weight 1: expert thinks for nine
times as long as hard, and the heuristic levels almost not at all, so a
small weight for the costly levels buys many more games in the same
time. The result is written as JSON to --out (the file the server embeds,
internal/botrating/levels.json, when run from the repository's root;
rebuild razzia to use it) and summed up on standard output. Run it again
whenever a level is added or changed.

A long run can be stopped and resumed: --log FILE appends each table's
games to FILE as it ends, and a run with the same --seed, --levels and
--weight takes from it the tables it would play instead of playing them
again; with more --games it plays only the tables the smaller run did not
reach. The games of a table not yet ended are kept as records in the
directory FILE.games, so a run stopped in the middle of a table resumes
with the games it had finished there. The log knows the bots by their
specs: a table whose levels play there as they did (a level's spec
changed only for other table sizes, such as its iterations at 4
players) is taken from it, one whose play changed is played again.
Delete it, and that directory, when a fix to a bot changed its play and
left its spec alone. Each table
logged keeps the revision of the razzia that played it, and a run that
takes a table another revision played says so on standard error.

--out and --log are checked before the first game: a file that cannot
be written stops the run at once. --out is replaced whole, never left
half written.

Exit status: 0 when the calibration is written, 1 when it cannot be (or
a file cannot be written), 2 for a usage error, 130 or 143 when SIGINT
(Ctrl-C) or SIGTERM stopped it (with --log, the games finished are kept).

Example (expert thinks for several CPU-seconds a decision: a few
CPU-hours):
  nice -n 19 razzia calibrate --workers 1 --games 150 --weight easy=0.3 --weight expert=0.1 --log calibrate.log
`

// calibrate is the "calibrate" command.
func calibrate(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("calibrate")
	games := fs.Int("games", 400, "how many `games` to play at least")
	seed := fs.Uint64("seed", 1, "the `seed` of the tables and games")
	workers := fs.Int("workers", 0, "games played at once (0: one per CPU)")
	levels := fs.String("levels", "", "the `levels` to rate, comma-separated (default all)")
	weights := weightFlag(fs)
	out := fs.String("out", "internal/botrating/levels.json", "the `file` to write the calibration to")
	logFile := fs.String("log", "", "the `file` that keeps the tables played, to resume a stopped run or extend it")
	pos, status, done := parseFlags(fs, calibrateSynopsis, args, stdout, stderr)
	if done {
		return status
	}
	if len(pos) > 0 {
		return usageError(stderr, fs, calibrateSynopsis, "unexpected argument %q", pos[0])
	}
	if *games < 1 || *workers < 0 {
		return usageError(stderr, fs, calibrateSynopsis, "--games must be at least 1 and --workers not negative")
	}
	rated, err := calibratedLevels(*levels, weights)
	if err != nil {
		return usageError(stderr, fs, calibrateSynopsis, "%v", err)
	}
	// The games may take hours: a file that cannot be written is found
	// before them.
	if err := checkWritable(*out); err != nil {
		fmt.Fprintf(stderr, "razzia calibrate: --out: %v\n", err)
		return 1
	}
	if *logFile != "" {
		if err := checkWritable(*logFile); err != nil {
			fmt.Fprintf(stderr, "razzia calibrate: --log: %v\n", err)
			return 1
		}
	}
	ctx, stop := signalContext(nil)
	defer stop()
	last, warned := -1, false
	info, _ := debug.ReadBuildInfo()
	c, err := botrating.Calibrate(ctx, botrating.Config{Games: *games, Seed: *seed, Workers: *workers, Levels: rated, Weights: weights, Log: *logFile,
		Build: buildRevision(info),
		OtherBuild: func(table int, build string) {
			if !warned {
				warned = true
				fmt.Fprintf(stderr, "razzia calibrate: warning: table %d of the log was played by %s, not this build: if a level's play changed since, delete %s and %s.games\n", table, buildName(build), *logFile, *logFile)
			}
		},
		Progress: func(done, total int) {
			if pct := done * 100 / total; pct/10 != last {
				last = pct / 10
				fmt.Fprintf(stderr, "razzia calibrate: %d of %s\n", done, plural(total, "game", "games"))
			}
		}})
	if err != nil {
		return runFailed(stderr, "calibrate", err, ctx.status())
	}
	c.Command = calibrateCommand(*games, *seed, *levels, weights)
	if err := writeCalibration(*out, c); err != nil {
		fmt.Fprintf(stderr, "razzia calibrate: %v\n", err)
		return 1
	}
	c.WriteText(stdout)
	fmt.Fprintf(stdout, "written to %s\n", *out)
	return 0
}

// weightFlag defines --weight on fs, and returns the weights it gives.
func weightFlag(fs *flag.FlagSet) map[string]float64 {
	weights := map[string]float64{}
	fs.Func("weight", "`LEVEL=W`: draw LEVEL into seats W times as often as a level of weight 1 (repeatable)", func(v string) error {
		l, x, ok := strings.Cut(v, "=")
		w, err := strconv.ParseFloat(x, 64)
		if !ok || err != nil || !(w > 0) || math.IsInf(w, 0) {
			return fmt.Errorf("%q: want LEVEL=W, W a number above 0, such as expert=0.25", v)
		}
		weights[l] = w
		return nil
	})
	return weights
}

// calibratedLevels reads --levels (all levels when ""), each a level
// named once, two or more, and checks that --weight names levels among
// them. It returns nil for all levels.
func calibratedLevels(levels string, weights map[string]float64) ([]string, error) {
	var rated []string
	if levels != "" {
		rated = strings.Split(levels, ",")
		for i, l := range rated {
			if _, ok := bot.LookupLevel(l); !ok {
				return nil, fmt.Errorf("--levels: %q is not a bot level (the levels are %s)", l, strings.Join(bot.LevelNames(), ", "))
			}
			if slices.Contains(rated[:i], l) {
				return nil, fmt.Errorf("--levels: %s twice: name each level once", l)
			}
		}
		if len(rated) < 2 {
			return nil, errors.New("--levels: calibrating needs two levels or more")
		}
	}
	names := rated
	if len(names) == 0 {
		names = bot.LevelNames()
	}
	for _, l := range slices.Sorted(maps.Keys(weights)) {
		if !slices.Contains(names, l) {
			return nil, fmt.Errorf("--weight %s: not a level rated (the levels rated are %s)", l, strings.Join(names, ", "))
		}
	}
	return rated, nil
}

// writeCalibration writes c to the file out as JSON, whole or not at all.
func writeCalibration(out string, c *botrating.Calibration) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(out, append(b, '\n'), 0o644)
}

// calibrateCommand is the command that makes the same calibration again: the
// flags that choose the games (not --workers or --out, which do not).
func calibrateCommand(games int, seed uint64, levels string, weights map[string]float64) string {
	cmd := fmt.Sprintf("razzia calibrate --games %d --seed %d", games, seed)
	if levels != "" {
		cmd += " --levels " + levels
	}
	names := slices.Sorted(maps.Keys(weights))
	for _, l := range names {
		cmd += fmt.Sprintf(" --weight %s=%s", l, strconv.FormatFloat(weights[l], 'g', -1, 64))
	}
	return cmd
}
