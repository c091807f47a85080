package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/razziagame/razzia/internal/analysis"
	"github.com/razziagame/razzia/internal/analyst"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/puzzle"
	"github.com/razziagame/razzia/internal/puzzler"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/sqlite"
)

const puzzlesSynopsis = `
usage: razzia puzzles --db DB [--search SPEC] [--seeds N]

Puzzles finds puzzles in the finished games of a database at once, as a
server does in the background at its lowest priority: every finished
game not yet analysed is analysed first (as razzia serve's analyst
would), then searched for positions where one move is clearly best
(docs/puzzles.md: the rule). Games searched before are left as they are;
run it again after an interruption to go on.

Stop the servers on the database first: puzzles refuses a database a
server is using (an SQLite file razzia serve has locked; a PostgreSQL
database with razzia servers connected or leases on live games). The
search is the expert level's, bounded by iterations: minutes a game on a
small machine. On a terminal, a progress bar on standard error shows the
games done.
`

// puzzlesName is how the command's PostgreSQL sessions show in
// pg_stat_activity: not as a server's.
const puzzlesName = "razzia puzzles"

// puzzlesArgs are what the flags of razzia puzzles say.
type puzzlesArgs struct {
	db    string
	o     puzzle.Options
	iters int // of a game's analysis
	wait  time.Duration
}

// puzzlesCommand is the "puzzles" command.
func puzzlesCommand(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	a, status, done := parsePuzzlesFlags(args, stdout, stderr)
	if done {
		return status
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, stop := signalContext(nil)
	defer stop()
	cs, err := openSole(ctx, a.db, true, a.wait, log, puzzlesName)
	if errors.Is(err, sqlite.ErrInUse) || errors.Is(err, postgres.ErrInUse) {
		err = fmt.Errorf("%w: a server uses it, and finds its puzzles itself in the background (razzia serve --puzzle-workers); "+
			"to search it at once, stop the servers using it, then run razzia puzzles again", err)
	}
	if err != nil {
		fmt.Fprintf(stderr, "razzia puzzles: %s: %v\n", redact(a.db), err)
		return 1
	}
	defer cs.Close()
	st, ok := cs.(store.Store)
	if !ok {
		fmt.Fprintf(stderr, "razzia puzzles: %s: not a razzia store\n", redact(a.db))
		return 1
	}
	work, err := backlog(ctx, cs)
	switch {
	case err != nil:
		return runFailed(stderr, "puzzles", err, ctx.status())
	case work.finished == 0:
		fmt.Fprintf(stdout, "%s has no finished games: puzzles come from finished games. Play some, then run razzia puzzles again.\n", redact(a.db))
		return 0
	case len(work.todo) == 0:
		fmt.Fprintf(stdout, "Every one of the %s in %s was searched already: nothing to do.\n", plural(work.finished, "finished game", "finished games"), redact(a.db))
		return 0
	}
	searched, found, err := searchAll(ctx, st, work, a, stderr)
	if err != nil {
		fmt.Fprintf(stdout, "Searched %s, found %s before it stopped.\n", plural(searched, "game", "games"), plural(found, "puzzle", "puzzles"))
		return runFailed(stderr, "puzzles", err, ctx.status())
	}
	counts, err := st.PuzzleThemes(ctx)
	if err != nil {
		return runFailed(stderr, "puzzles", err, ctx.status())
	}
	fmt.Fprintf(stdout, "Searched %s: %s found; %s in the database now.\n",
		plural(searched, "game", "games"), plural(found, "new puzzle", "new puzzles"), plural(counts[""], "puzzle", "puzzles"))
	for _, t := range protocol.PuzzleThemes {
		fmt.Fprintf(stdout, "  %-16s %d\n", t, counts[string(t)])
	}
	return 0
}

// parsePuzzlesFlags reads the flags; done means the command is over,
// with status (help, or a usage error).
func parsePuzzlesFlags(args []string, stdout, stderr io.Writer) (a puzzlesArgs, status int, done bool) {
	fl := newFlags("puzzles")
	fl.StringVar(&a.db, "db", "", "the database: an existing SQLite `file` or a postgres:// URL")
	fl.StringVar(&a.o.Spec, "search", "", "the `spec` of the search that judges positions (default: the expert level's, bounded by iterations)")
	fl.IntVar(&a.o.Seeds, "seeds", puzzle.DefaultSeeds, "searches, each with its own seed, that must agree on a puzzle")
	fl.IntVar(&a.iters, "analysis-iterations", analysis.DefaultIterations, "search iterations per decision of a game's analysis")
	fl.DurationVar(&a.wait, "wait", 30*time.Second, "how long to wait for PostgreSQL to answer")
	positional, status, done := parseFlags(fl, puzzlesSynopsis, args, stdout, stderr)
	switch {
	case done:
		return a, status, true
	case len(positional) > 0:
		return a, usageError(stderr, fl, puzzlesSynopsis, "unexpected argument %q", positional[0]), true
	case a.db == "":
		return a, usageError(stderr, fl, puzzlesSynopsis, "want --db"), true
	case a.o.Seeds < 1:
		return a, usageError(stderr, fl, puzzlesSynopsis, "--seeds %d: want 1 or more", a.o.Seeds), true
	case a.iters < 1 || a.iters > analysis.MaxIterations:
		return a, usageError(stderr, fl, puzzlesSynopsis, "--analysis-iterations %d: want 1 to %d", a.iters, analysis.MaxIterations), true
	case a.wait <= 0:
		return a, usageError(stderr, fl, puzzlesSynopsis, "--wait %v: want a positive duration", a.wait), true
	}
	if err := a.o.Check(); err != nil {
		return a, usageError(stderr, fl, puzzlesSynopsis, "%v", err), true
	}
	return a, 0, false
}

// searchAll analyses, if need be, and searches the games of work, with a
// progress bar on a terminal; it returns the games searched and the
// puzzles found, until an error.
func searchAll(ctx context.Context, st store.Store, work work, a puzzlesArgs, stderr io.Writer) (searched, found int, err error) {
	bar := newProgress(newConsole(stderr), len(work.todo), "puzzles", "games")
	defer func() {
		switch {
		case bar == nil:
		case err != nil:
			bar.Clear()
		default:
			bar.Finish()
		}
	}()
	for i, id := range work.todo {
		what := fmt.Sprintf("game %d of %d", i+1, len(work.todo))
		if !work.analysed[id] {
			describe(bar, what+": analysing")
			if err := analyse(ctx, st, id, a.iters, bar, what); err != nil {
				return searched, found, fmt.Errorf("analysing game %s: %w", id, err)
			}
		}
		describe(bar, what+": searching")
		n, err := puzzler.Scan(ctx, st, id, a.o, func(done, total int) {
			describe(bar, fmt.Sprintf("%s: searching %d/%d", what, done, total))
		})
		if err != nil {
			return searched, found, fmt.Errorf("searching game %s: %w", id, err)
		}
		found += n
		searched++
		if bar != nil {
			bar.Add(1)
		}
	}
	return searched, found, nil
}

func describe(bar *progressbar.ProgressBar, s string) {
	if bar != nil {
		bar.Describe(s)
	}
}

// work is what a run has to do: the finished games, those analysed, and
// those to search, oldest first.
type work struct {
	finished int
	analysed map[string]bool
	todo     []string
}

// backlog reads, from the database's tables, the finished games and the
// ones analysed and searched.
func backlog(ctx context.Context, c store.Copier) (work, error) {
	var w work
	rows := func(table string, keep func(store.Row) bool) (map[string]bool, error) {
		k := store.KindOf(table)
		ids := map[string]bool{}
		err := c.Dump(ctx, k, func(r store.Row) error {
			if keep(r) {
				ids[r[0].(string)] = true
			}
			return nil
		})
		return ids, err
	}
	col := func(table, name string) int { return slices.Index(store.KindOf(table).Names(), name) }
	type game struct {
		id      string
		updated int64
	}
	var finished []game
	gk := store.KindOf("games")
	status, updated := col("games", "status"), col("games", "updated")
	err := c.Dump(ctx, gk, func(r store.Row) error {
		if r[status] == string(store.StatusFinished) {
			finished = append(finished, game{r[0].(string), r[updated].(int64)})
		}
		return nil
	})
	if err != nil {
		return w, err
	}
	created := col("analyses", "created")
	if w.analysed, err = rows("analyses", func(r store.Row) bool { return r[created] != nil }); err != nil {
		return w, err
	}
	scanCreated := col("puzzle_scans", "created")
	scanned, err := rows("puzzle_scans", func(r store.Row) bool { return r[scanCreated] != nil })
	if err != nil {
		return w, err
	}
	slices.SortFunc(finished, func(a, b game) int {
		return cmp.Or(cmp.Compare(a.updated, b.updated), strings.Compare(a.id, b.id))
	})
	w.finished = len(finished)
	for _, g := range finished {
		if !scanned[g.id] {
			w.todo = append(w.todo, g.id)
		}
	}
	return w, nil
}

// analyse analyses finished game id and stores the report, as the
// server's analyst does (the same seed: the same report).
func analyse(ctx context.Context, st store.Store, id string, iters int, bar *progressbar.ProgressBar, what string) error {
	g, err := st.Game(ctx, id)
	if err != nil {
		return err
	}
	rep, err := analysis.Analyze(ctx, analyst.Record(g), analysis.Options{Iterations: iters, Seed: analyst.Seed(id),
		Progress: func(done, total int) { describe(bar, fmt.Sprintf("%s: analysing %d/%d", what, done, total)) }})
	var a store.Analysis
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		a.Failed = err.Error() // a record the engine refuses: as the analyst stores it
	default:
		if a.Report, err = json.Marshal(rep); err != nil {
			return err
		}
	}
	return st.PutAnalysis(ctx, id, a)
}
