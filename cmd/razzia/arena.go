package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/arena"
	"github.com/razziagame/razzia/internal/botexec"
)

var arenaSynopsis = fmt.Sprintf(`
usage: razzia arena (--seats SPEC,SPEC,... | --bots SPEC,... [--players N]) [flags]
       razzia arena --ladder --bots SPEC,SPEC,... [--players N] [--deals D]
                    [--span K] [--cheap N --cheap-deals D] [--records DIR [--resume]] [flags]

Arena plays games between bots and reports how each bot did: the games it
played (seat-games: a bot holding two seats plays two per game), its wins (a
win shared by k players counts 1/k), its win rate with a 95%% confidence
interval (Wilson score), its mean final score and the mean of each scoring
category, a head-to-head table (how often one bot finished ahead of
another), and how long it took to decide (p50, p90, p99, max) with, for a
search bot, the mean iterations of the decisions where it searched: a bot
limited by time runs fewer on a loaded machine, and is weaker for it.

The table:
  --seats lists one bot spec per seat, 2 to 5 seats.
  --bots lists bots to fill --players seats in turn: seat s gets bot s mod
         the number of bots, so "--bots a,b --players 4" seats a,b,a,b and
         "--bots a,b --players 3" seats a,b,a.
Game i rotates the table by i places, so every bot sits in every position
equally often when --games is a multiple of the number of players (the
report says when it is not). The cheque sets are dealt by lot every game.

A spec is a bot name with optional options after a colon, such as random,
heuristic, heuristic:noise=3 or mcts:iters=2000,time=500ms, or one of the
levels offered to people:
  %s.
Commas inside a spec's options are allowed: a part with "=" and no ":"
belongs to the spec before it. Every spec is checked before the first game;
a bad one is a usage error that lists the valid specs.

A seat can be played by a program in any language: "exec:COMMAND ARGS"
(such as exec:python3 examples/bot.py) runs the program, one process per
game and seat, and speaks the line protocol of docs/bots.md with it.
Before the first game every program is asked one question (the first move
of a game): one that cannot be run, ends or does not answer within
--bot-timeout is reported in one line on standard error, and nothing is
played. In the games, a program that crashes, takes longer than
--bot-timeout or answers with a malformed or illegal move loses that
decision only: a safe move is played for it (pass in an auction, or the
lowest bid where it must bid; otherwise draw), a note goes to standard
error, and the fault is counted in the "faults" column; a crashed or hung
program is started afresh for its next decision. The programs' standard
error, and the lines of their standard output that answer nothing, are
passed through to razzia's standard error, each line prefixed with the
command, game and seat.

--duplicate replays every deal with the seats rotated: the games of one
deal share the shuffled deck and the cheques dealt to each seat, so that
every bot meets the same luck from every seat (make --games a multiple of
the players).

The ladder (--ladder --bots SPEC,... [--players N] [--deals D]) rates bots
against each other: every table of --players of the bots plays --deals
duplicate deals, and every game's finishing order updates the bots'
Weng–Lin ratings (Plackett–Luce, as OpenSkill; shared wins are shared
ranks). It prints each bot's rating, mu and sigma, ranked by the
conservative mu - 3 sigma, with the 95%% interval mu ± 1.96 sigma, its win
rate, decision times, and the gap between each bot's interval and the
next one's: below 0 the two overlap, and more deals are needed to part
them. List the bots weakest first: --span K plays only the tables whose
bots lie within K places of each other in the list (--span 1 at 2 players:
each bot meets its neighbours), since games between bots far apart teach
the ratings little and a search's cost hours. --cheap N --cheap-deals D gives the tables of the first N bots
alone D deals, more than --deals: bots that never look ahead play
thousands of games a second and need many deals to part, while a
search's table can take hours. docs/strength.md holds the current ladder.

The same --seed gives the same games, bit for bit, however many workers
play them (bots limited by time, and the timings, excepted). --records DIR
writes every game as a record (game-0001.json, ...) that "razzia replay"
accepts, replacing files of the same names; with --resume, a game whose
record is there already is read from it, not played again, so a run
stopped or killed and started again with the same flags plays only the
games it lacks (a record of another run is an error). A ladder writes each
table's games to a directory of its own in DIR (table-01, table-02, ... in
the order the tables are played) and resumes the same way: a ladder of hours
can be stopped and started again, and rates as if it had run at once. On a
terminal, a progress bar on standard error shows the games done, games/s and
the time left; on a pipe nothing is shown.

Examples:
  razzia arena --seats hard,heuristic,heuristic,heuristic --games 200
  razzia arena --bots medium,easy --players 4 --games 1000 --json
  razzia arena --seats mcts:iters=500,random --games 40 --records out/
  razzia arena --seats "exec:python3 examples/bot.py,heuristic,heuristic" --games 30
  razzia arena --seats hard,hard@b971414 --games 200 --duplicate
  razzia arena --ladder --bots random,easy,medium,hard --players 2 --deals 20
  razzia arena --ladder --bots random,easy,medium,hard,expert --players 2 --span 1 --cheap 3 --cheap-deals 100

Ctrl-C (SIGINT) or SIGTERM stops a run: the games in progress end at
their next decision (a program's may take up to --bot-timeout) and are
not counted; the games already played are reported, as usual
("interrupted": true with --json), and their records are written. A
second Ctrl-C stops at once.

Exit status: 0 when all games were played (faults of exec: bots
included), 1 when a built-in bot failed (an illegal move is a bug in the
bot) or a record could not be written, 2 for a usage error or a program
that cannot play, 130 or 143 when SIGINT or SIGTERM stopped the run.
`, strings.Join(bot.LevelNames(), ", "))

// runArena is the arena command.
func runArena(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("arena")
	seats := fs.String("seats", "", "one bot `SPEC` per seat, comma-separated (2 to 5)")
	bots := fs.String("bots", "", "bot `SPEC`s to fill --players seats in turn, comma-separated")
	players := fs.Int("players", 4, "number of players with --bots (2 to 5)")
	games := fs.Int("games", arena.DefaultGames, "number of games to play")
	seed := fs.Uint64("seed", 1, "seed of the run: the same seed plays the same games")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the tables")
	records := fs.String("records", "", "write every game's record to `DIR`")
	resume := fs.Bool("resume", false, "with --records: read the games recorded there instead of playing them again")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "games played at once")
	timeout := fs.Duration("bot-timeout", botexec.DefaultTimeout, "the time an exec: bot has for one decision")
	duplicate := fs.Bool("duplicate", false, "replay every deal with the seats rotated (--games should be a multiple of the players)")
	ladder := fs.Bool("ladder", false, "rate the --bots on a ladder of duplicate deals at every table of --players of them")
	la := ladderFlags(fs)
	rest, status, done := parseFlags(fs, arenaSynopsis, args, stdout, stderr)
	if done {
		return status
	}
	fail := func(format string, args ...any) int {
		return usageError(stderr, fs, arenaSynopsis, format, args...)
	}
	if len(rest) > 0 {
		return fail("unexpected argument %q", rest[0])
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	if *ladder {
		la.bots, la.players, la.seed, la.workers, la.json = *bots, *players, *seed, *workers, *asJSON
		la.timeout, la.records, la.resume, la.set = *timeout, *records, *resume, set
		return runLadder(*la, fs, stdout, stderr)
	}
	if err := arenaPairs(set, *resume, *records); err != nil {
		return fail("%v", err)
	}

	lineup, err := arenaLineup(*seats, *bots, *players, set["players"])
	if err == nil {
		err = checkArenaLimits(*games, *workers, *timeout)
	}
	if err != nil {
		return fail("%v", err)
	}

	con := newConsole(stderr) // the games' bots and faults, the signal's notice, the bar
	opts := botexec.Options{Timeout: *timeout, Stderr: con}
	c := arena.Config{
		Seats: lineup, Games: *games, Seed: *seed, Workers: *workers, Duplicate: *duplicate,
		Records: *records, Resume: *resume, New: arenaFactory(opts),
		Fault: func(game, seat int, spec string, f bot.Fault) {
			fmt.Fprintf(con, "razzia arena: game %d, seat %d (%s): %v\n", game+1, seat+1, spec, &f)
		},
	}
	// A program that cannot play is one line, not the usage: the flags
	// were right.
	if spec, err := checkPrograms(lineup, opts); err != nil {
		fmt.Fprintf(stderr, "razzia arena: %s: %v\n", spec, err)
		return 2
	}
	if err := c.Check(); err != nil {
		return fail("%v", err)
	}
	return playArena(c, *asJSON, stdout, con)
}

// arenaPairs checks the flags that go only with another one, outside a
// ladder.
func arenaPairs(set map[string]bool, resume bool, records string) error {
	for _, f := range []string{"deals", "span", "cheap", "cheap-deals"} {
		if set[f] {
			return fmt.Errorf("--%s goes with --ladder", f)
		}
	}
	return resumePair(resume, records)
}

// resumePair checks that --resume comes with --records.
func resumePair(resume bool, records string) error {
	if resume && records == "" {
		return errors.New("--resume goes with --records: the directory of the run to resume")
	}
	return nil
}

// playArena plays the games of c with a progress bar and reports them,
// also when interrupted: the games played so far may have taken hours.
func playArena(c arena.Config, asJSON bool, stdout io.Writer, stderr *console) int {
	bar := newProgress(stderr, c.Games, "arena", "games")
	c.Progress = func(done int) {
		if bar != nil {
			bar.Set(done)
		}
		if arenaProgress != nil {
			arenaProgress(done)
		}
	}

	r, status, err := interruptible(bar, stderr, arenaStopping, func(ctx context.Context) (*arena.Result, error) { return arena.Run(ctx, c) })
	if err != nil && (r == nil || !errors.Is(err, context.Canceled)) {
		return runFailed(stderr, "arena", err, status)
	}
	// Interrupted, the games played so far are reported all the same:
	// they may have taken hours.
	if asJSON {
		r.WriteJSON(stdout, c.Workers, err != nil)
	} else {
		r.WriteText(stdout, arena.ReportOptions{Workers: c.Workers, Faults: slices.ContainsFunc(c.Seats, isProgram)})
	}
	if err != nil {
		fmt.Fprintf(stderr, "razzia arena: interrupted after %s of %d: the report is of those\n", plural(r.Games, "game", "games"), c.Games)
		return status
	}
	return 0
}

// arenaStopping is said when a run is asked to stop: a bot program may be
// in the middle of a decision of up to its --bot-timeout.
const arenaStopping = "razzia arena: stopping: the games in progress end at their next decision (ctrl+c again stops at once)"

// isProgram reports whether spec is a program's (exec:COMMAND).
func isProgram(spec string) bool {
	_, program := botexec.Command(spec)
	return program
}

// arenaProgress, when set, is told of every game an arena run finishes:
// tests interrupt a run at a chosen game.
var arenaProgress func(done int)

// arenaSpecs lists the specs the arena accepts.
var arenaSpecs = bot.SpecHelp + ", exec:COMMAND (a program, see docs/bots.md)"

// arenaFactory makes the arena's bots: a program's for an exec: spec, with
// opts, else bot.New's. Only here does a spec start a program.
func arenaFactory(opts botexec.Options) arena.Factory {
	return func(spec string, seed uint64) (bot.Bot, error) {
		if command, ok := botexec.Command(spec); ok {
			b, err := botexec.New(command, seed, opts)
			if err != nil {
				return nil, err // not a nil *botexec.Bot in a non-nil bot.Bot
			}
			return b, nil
		}
		b, err := bot.New(spec, seed)
		if errors.Is(err, bot.ErrSpec) {
			err = fmt.Errorf("%w, exec:COMMAND", err)
		}
		return b, err
	}
}

// splitSpecs splits a comma-separated list of specs. A part with "=" but
// no ":" is an option of the spec before it, so that
// "mcts:iters=500,time=1s,random" is two specs.
func splitSpecs(list string) []string {
	var specs []string
	for part := range strings.SplitSeq(list, ",") {
		part = strings.TrimSpace(part)
		if n := len(specs); n > 0 && strings.Contains(part, "=") && !strings.Contains(part, ":") && strings.Contains(specs[n-1], ":") {
			specs[n-1] += "," + part
			continue
		}
		specs = append(specs, part)
	}
	return specs
}

// interruptible runs f with a context that SIGINT (Ctrl-C) or SIGTERM
// cancels, and finishes the progress bar, if any, when f returns. status
// is the exit status of an interrupted run: 130 or 143. stopping, if not
// empty, is said on stderr at the first signal, for work that takes a
// while to stop, and always before interruptible returns; a second
// signal ends the process at once.
func interruptible[T any](bar *progressbar.ProgressBar, stderr *console, stopping string, f func(context.Context) (T, error)) (v T, status int, err error) {
	var notice func(os.Signal)
	if stopping != "" {
		notice = func(os.Signal) { fmt.Fprintln(stderr, stopping) }
	}
	ctx, stop := signalContext(notice)
	v, err = f(ctx)
	stop() // waits for the notice: it comes before what the caller says next
	if bar != nil {
		bar.Finish()
	}
	return v, ctx.status(), err
}

// runFailed reports on stderr the error that stopped a command's run, or
// that it was interrupted, and returns the exit status: status for an
// interruption, else 1.
func runFailed(stderr io.Writer, command string, err error, status int) int {
	if errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "razzia %s: interrupted\n", command)
		return status
	}
	fmt.Fprintf(stderr, "razzia %s: %v\n", command, err)
	return 1
}

// ladderArgs are the flags of arena --ladder.
type ladderArgs struct {
	bots                    string
	players, deals, workers int
	span, cheap, cheapDeals int
	seed                    uint64
	json                    bool
	timeout                 time.Duration
	records                 string
	resume                  bool
	set                     map[string]bool
}

// ladderFlags defines the flags of arena --ladder alone in fs.
func ladderFlags(fs *flag.FlagSet) *ladderArgs {
	a := &ladderArgs{}
	fs.IntVar(&a.deals, "deals", arena.DefaultDeals, "deals per table with --ladder")
	fs.IntVar(&a.span, "span", 0, "with --ladder: play only the tables of bots within `K` places of each other in --bots")
	fs.IntVar(&a.cheap, "cheap", 0, "with --ladder: the first `N` bots are cheap, their tables alone play --cheap-deals")
	fs.IntVar(&a.cheapDeals, "cheap-deals", 0, "with --cheap: deals per table of cheap bots alone (more than --deals)")
	return a
}

// runLadder is arena --ladder.
func runLadder(a ladderArgs, fs *flag.FlagSet, stdout, stderr io.Writer) int {
	fail := func(format string, args ...any) int {
		return usageError(stderr, fs, arenaSynopsis, format, args...)
	}
	for _, f := range []string{"seats", "games", "duplicate"} {
		if a.set[f] {
			return fail("--%s does not go with --ladder, which plays --deals deals at every table of --players of the --bots", f)
		}
	}
	if a.bots == "" {
		return fail("--ladder rates the --bots; give at least --players of them")
	}
	if a.deals < 1 {
		return fail("--deals %d: want at least 1", a.deals)
	}
	if a.workers < 1 {
		return fail("--workers %d: want at least 1", a.workers)
	}
	if err := resumePair(a.resume, a.records); err != nil {
		return fail("%v", err)
	}
	con := newConsole(stderr) // the games' bots, the signal's notice, the bar
	c := arena.LadderConfig{Bots: splitSpecs(a.bots), Players: a.players, Deals: a.deals,
		Span: a.span, Cheap: a.cheap, CheapDeals: a.cheapDeals, Seed: a.seed,
		Workers: a.workers, Records: a.records, Resume: a.resume,
		New: arenaFactory(botexec.Options{Timeout: a.timeout, Stderr: con})}
	if err := c.Check(); err != nil {
		return fail("%v", err)
	}
	bar := newProgress(con, c.Games(), "ladder", "games")
	c.Progress = func(done, _ int) {
		if bar != nil {
			bar.Set(done)
		}
		if arenaProgress != nil {
			arenaProgress(done)
		}
	}
	r, status, err := interruptible(bar, con, arenaStopping, func(ctx context.Context) (*arena.LadderResult, error) { return arena.RunLadder(ctx, c) })
	if err != nil {
		status = runFailed(con, "arena", err, status)
		if a.records != "" && errors.Is(err, context.Canceled) {
			fmt.Fprintf(con, "razzia arena: the games finished are recorded in %s; the same command with --resume plays only the others\n", a.records)
		}
		return status
	}
	if a.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(r)
		return 0
	}
	r.WriteText(stdout, arena.ReportOptions{Workers: a.workers})
	return 0
}

// arenaLineup returns the bots of the seats, from --seats or from --bots
// and --players (playersSet: --players was given).
func arenaLineup(seats, bots string, players int, playersSet bool) ([]string, error) {
	switch {
	case seats != "" && bots != "":
		return nil, errors.New("give --seats or --bots, not both")
	case seats != "":
		if playersSet {
			return nil, errors.New("--players goes with --bots; --seats sets the players itself")
		}
		return splitSpecs(seats), nil
	case bots != "":
		return arena.Lineup(splitSpecs(bots), players)
	}
	return nil, fmt.Errorf("give the bots with --seats or --bots; %s", arenaSpecs)
}

// checkArenaLimits checks the run's numbers.
func checkArenaLimits(games, workers int, timeout time.Duration) error {
	switch {
	case games < 1:
		return fmt.Errorf("--games %d: want at least 1", games)
	case workers < 1:
		return fmt.Errorf("--workers %d: want at least 1", workers)
	case timeout <= 0 || timeout > bot.MaxTime:
		return fmt.Errorf("--bot-timeout %v: want a duration from 1ms to %v, such as 5s", timeout, bot.MaxTime)
	}
	return nil
}

// checkPrograms checks once each program among the bots of the lineup
// (an exec: spec) and returns the first that cannot play, with why.
func checkPrograms(lineup []string, opts botexec.Options) (string, error) {
	checked := map[string]bool{}
	for _, spec := range lineup {
		if command, ok := botexec.Command(spec); ok && !checked[spec] {
			checked[spec] = true
			if err := botexec.Check(command, len(lineup), opts); err != nil {
				return spec, err
			}
		}
	}
	return "", nil
}
