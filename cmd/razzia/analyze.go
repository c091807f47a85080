package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/razziagame/razzia/internal/analysis"
	"github.com/razziagame/razzia/internal/recordview"
	"github.com/razziagame/razzia/internal/textreport"
)

const analyzeSynopsis = `
usage: razzia analyze [--json] [--iterations N] [--workers N] [--seed N] FILE|LINK

Analyze studies a finished game's record (docs/RECORD.md) with the tree
search of the expert bot and reports, for every move: each player's chance
of winning before it (a shared win counting as a share), the best move
found and the mover's chance after it, the chance after the move played,
the loss (the difference) and a label:

  best        the best move found
  good        loses less than 4 points of win chance
  inaccuracy  loses 4 to 8 points
  mistake     loses 8 to 15 points
  blunder     loses 15 points or more

A draw is judged as the decision to draw; the card that came is luck, and
its effect on every player's chance is reported as such. FILE "-" reads
standard input; a game's link on a server (http://host:8080/g/ID) reads
its record from there. The same record, --seed and --iterations always give the
same analysis, whatever --workers is.

Without --json it prints a line per move and a summary per player: its
moves by label, and how much of its result was the cards and how much its
play, in points of win chance: its luck (what the cards drawn changed its
chance by, against their expected value; about zero in the long run), its
play (minus the chance its moves gave up against the best found) and its
luck-adjusted result (its result less its luck). With --json, one compact
JSON object, the summary as "summary" (docs/protocol.md). On a terminal, a progress bar on standard
error shows the moves analysed.

A malformed record or an illegal move is reported as by "razzia replay"
(with --json, the same error object on standard output). A game that is
not over is refused: analysis of a game still being played would be advice.

Exit status: 0 on success, 1 for a bad or unfinished record, 2 for a
usage error, 130 or 143 when SIGINT (Ctrl-C) or SIGTERM stopped it.
`

// analyze is the analyze command.
func analyze(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("analyze")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the account")
	iters := fs.Int("iterations", analysis.DefaultIterations, "search iterations per move")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "moves analysed at once")
	seed := fs.Uint64("seed", 1, "seed of the search")
	files, status, done := parseFlags(fs, analyzeSynopsis, args, stdout, stderr)
	if done {
		return status
	}
	if len(files) != 1 {
		return usageError(stderr, fs, analyzeSynopsis, "want one FILE or LINK, got %d arguments", len(files))
	}
	if *iters < 1 || *iters > analysis.MaxIterations {
		return usageError(stderr, fs, analyzeSynopsis, "--iterations %d: want 1 to %d", *iters, analysis.MaxIterations)
	}
	if *workers < 1 {
		return usageError(stderr, fs, analyzeSynopsis, "--workers %d: want at least 1", *workers)
	}
	o := analysis.Options{Iterations: *iters, Workers: *workers, Seed: *seed}

	fail := func(err error) int {
		if *asJSON {
			recordview.WriteFailure(stdout, err)
		} else {
			fmt.Fprintln(stderr, recordError("analyze", files[0], err))
		}
		return 1
	}
	rec, err := readRecord(files[0], stdin)
	if err != nil {
		return fail(err)
	}
	con := newConsole(stderr)
	bar := newProgress(con, len(rec.Moves), "analyze", "moves")
	if bar != nil {
		o.Progress = func(done, _ int) { bar.Set(done) }
	}
	rep, status, err := interruptible(bar, con, "", func(ctx context.Context) (*analysis.Report, error) { return analysis.Analyze(ctx, rec, o) })
	if errors.Is(err, context.Canceled) {
		return runFailed(con, "analyze", err, status)
	}
	if err != nil {
		return fail(err)
	}
	if *asJSON {
		b, err := json.Marshal(rep)
		if err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "%s\n", b)
		return 0
	}
	writeAnalysis(stdout, rep)
	return 0
}

// writeAnalysis prints a line per move, the moves that were not best with
// the best move and what it would have kept, and a summary per player.
func writeAnalysis(w io.Writer, rep *analysis.Report) {
	var b strings.Builder
	pct := func(s analysis.Share) string { return fmt.Sprintf("%.0f%%", 100*float64(s)) }
	fmt.Fprintf(&b, "Analysis of %s, %d search iterations per move.\n", strings.Join(rep.Players, ", "), rep.Iterations)
	b.WriteString("Win chances before each move, in seat order; the mover's chance after the move played.\n\n")
	type tally struct {
		labels map[analysis.Label]int
		loss   float64
		moves  int
	}
	tallies := make([]tally, len(rep.Players))
	for i := range tallies {
		tallies[i].labels = map[analysis.Label]int{}
	}
	for _, d := range rep.Decisions {
		before := make([]string, len(d.Before))
		for i, s := range d.Before {
			before[i] = pct(s)
		}
		fmt.Fprintf(&b, "%4d  %-12s %-22s [%s] -> %s", d.Move, rep.Players[d.Seat], d.Played,
			strings.Join(before, " "), pct(d.PlayedValue))
		switch {
		case d.Forced:
			b.WriteString("  (only move)")
		case d.Label == analysis.Best:
			b.WriteString("  best")
		default:
			fmt.Fprintf(&b, "  %s: best was %s (%s, +%.0f%%)", d.Label, d.Best, pct(d.BestValue), 100*float64(d.Loss))
		}
		if d.Luck != nil {
			fmt.Fprintf(&b, "  luck %+.0f%%", 100*float64(d.Luck[d.Seat]))
		}
		b.WriteString("\n")
		if !d.Forced {
			t := &tallies[d.Seat]
			t.labels[d.Label]++
			t.loss += float64(d.Loss)
			t.moves++
		}
	}
	b.WriteString("\nSummary (moves with a choice)\n")
	rows := [][]string{{"player", "moves", "best", "good", "inaccuracy", "mistake", "blunder", "mean loss"}}
	for i, t := range tallies {
		mean := 0.0
		if t.moves > 0 {
			mean = t.loss / float64(t.moves)
		}
		rows = append(rows, []string{rep.Players[i], fmt.Sprint(t.moves),
			fmt.Sprint(t.labels[analysis.Best]), fmt.Sprint(t.labels[analysis.Good]),
			fmt.Sprint(t.labels[analysis.Inaccuracy]), fmt.Sprint(t.labels[analysis.Mistake]),
			fmt.Sprint(t.labels[analysis.Blunder]), fmt.Sprintf("%.1f%%", 100*mean)})
	}
	textreport.Columns(&b, rows)
	writeLuck(&b, rep)
	io.WriteString(w, b.String())
}

// writeLuck prints how much of each player's result was the cards and how
// much the play, in points of win chance, and the result the cards as
// expected would have given.
func writeLuck(b *strings.Builder, rep *analysis.Report) {
	b.WriteString("\nLuck and play, in points of win chance: the cards drawn against their expected value, the moves against the best found.\n")
	rows := [][]string{{"player", "at the start", "luck", "play", "result", "luck-adjusted"}}
	for _, s := range rep.Summary {
		rows = append(rows, []string{rep.Players[s.Seat], fmt.Sprintf("%.0f%%", 100*float64(s.Start)),
			fmt.Sprintf("%+.0f%%", 100*float64(s.Luck)), fmt.Sprintf("%+.0f%%", 100*float64(s.Skill)),
			fmt.Sprintf("%.0f%%", 100*float64(s.Result)), fmt.Sprintf("%.0f%%", 100*float64(s.Adjusted))})
	}
	textreport.Columns(b, rows)
}
