package arena

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/textreport"
)

// ReportOptions are what a report says beyond its result: the workers
// that played it, and whether the faults of programs are shown (a
// built-in bot never faults, so only a run with programs shows them).
type ReportOptions struct {
	Workers int
	Faults  bool
}

// A Report is a result as WriteJSON writes it (razzia arena --json).
type Report struct {
	*Result
	Workers        int     `json:"workers"`
	GamesPerSecond float64 `json:"games_per_second"`
	// Interrupted is true for the report of a run stopped by a signal,
	// which played only Result.Games of the games asked.
	Interrupted bool `json:"interrupted"`
}

// WriteJSON writes the result as JSON, with the workers that played it
// and whether the run was interrupted.
func (r *Result) WriteJSON(w io.Writer, workers int, interrupted bool) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(Report{Result: r, Workers: workers, GamesPerSecond: r.GamesPerSecond(), Interrupted: interrupted})
}

// writeResumed says, when some of the games were read from their records,
// how many, and that the decision times are of the others.
func writeResumed(w io.Writer, resumed, games int) {
	if resumed > 0 {
		fmt.Fprintf(w, "%s read from the records of an earlier run, not played: the decision times are of the other %d\n",
			textreport.Plural(resumed, "game", "games"), games-resumed)
	}
}

// writeHead writes the run's first lines: its games, seed and speed, the
// games resumed and the seats.
func (r *Result) writeHead(w io.Writer, workers int) {
	fmt.Fprintf(w, "%s of %d players, seed %d, %s: %.1fs, %.1f games/s\n",
		textreport.Plural(r.Games, "game", "games"), r.Players, r.Seed, textreport.Plural(workers, "worker", "workers"), r.Elapsed.Seconds(), r.GamesPerSecond())
	writeResumed(w, r.Resumed, r.Games)
	fmt.Fprintf(w, "seats (rotated every game): %s", strings.Join(r.Seats, ", "))
	if r.Balanced {
		fmt.Fprintln(w, "; every bot sat in every position equally often")
	} else {
		fmt.Fprintf(w, "\nnote: %s not a multiple of %d players, so the positions were not shared equally\n",
			textreport.Plural(r.Games, "game is", "games are"), r.Players)
	}
	fmt.Fprintln(w)
}

// WriteText writes the result as tables for people: the bots' wins and
// scores, head to head, and their decision times.
func (r *Result) WriteText(w io.Writer, o ReportOptions) {
	r.writeHead(w, o.Workers)

	// Faults are shown when a program plays: the built-in bots have none.
	faults := o.Faults
	for _, b := range r.Bots {
		faults = faults || b.Faults > 0
	}
	head := []string{"bot", "seats", "games", "wins", "win rate", "95% CI", "score"}
	for c := range razzia.NumCategories {
		head = append(head, razzia.Category(c).String())
	}
	if faults {
		head = append(head, "faults")
	}
	rows := [][]string{head}
	for _, b := range r.Bots {
		row := []string{b.Spec, fmt.Sprint(b.Seats), fmt.Sprint(b.Games), trimFloat(b.Wins),
			percent(b.WinRate), percent(b.WinLow) + "-" + percent(b.WinHigh), fmt.Sprintf("%.1f", b.MeanScore)}
		for _, v := range b.MeanByCategory {
			row = append(row, fmt.Sprintf("%.1f", v))
		}
		if faults {
			row = append(row, fmt.Sprint(b.Faults))
		}
		rows = append(rows, row)
	}
	textreport.Columns(w, rows)
	fmt.Fprintf(w, "A bot as strong as the others would win %s of its games; scores are means per game.\n",
		percent(1/float64(r.Players)))

	if len(r.Bots) > 1 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "head to head: how often the row's bot finished ahead of the column's (level counts half)")
		rows = [][]string{append([]string{""}, specs(r)...)}
		for _, a := range r.Bots {
			row := []string{a.Spec}
			for _, b := range r.Bots {
				row = append(row, headToHead(r, a.Spec, b.Spec))
			}
			rows = append(rows, row)
		}
		textreport.Columns(w, rows)
	}

	fmt.Fprintln(w)
	rows = [][]string{{"decision time", "decisions", "mean", "p50", "p90", "p99", "max", "iterations"}}
	for _, b := range r.Bots {
		d := b.Decisions
		rows = append(rows, []string{b.Spec, fmt.Sprint(d.Decisions), duration(d.Mean),
			duration(d.P50), duration(d.P90), duration(d.P99), duration(d.Max), iterations(d)})
	}
	textreport.Columns(w, rows)
}

// iterations formats the mean iterations of a search bot's decisions, or
// "-" for a bot that does not search.
func iterations(t Timing) string {
	if t.Iterations == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", t.Iterations)
}

func specs(r *Result) []string {
	var out []string
	for _, b := range r.Bots {
		out = append(out, b.Spec)
	}
	return out
}

// headToHead returns how often a finished ahead of b, with the number of
// meetings, or "-" when they never met (or are the same bot).
func headToHead(r *Result, a, b string) string {
	for _, p := range r.HeadToHead {
		switch {
		case p.Meetings == 0:
		case p.A == a && p.B == b:
			return fmt.Sprintf("%s of %d", percent(p.Rate()), p.Meetings)
		case p.A == b && p.B == a:
			return fmt.Sprintf("%s of %d", percent(1-p.Rate()), p.Meetings)
		}
	}
	return "-"
}

func percent(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// trimFloat prints whole numbers without decimals and shared wins with two.
func trimFloat(x float64) string {
	if x == float64(int64(x)) {
		return fmt.Sprint(int64(x))
	}
	return fmt.Sprintf("%.2f", x)
}

// duration prints d with three significant digits or so.
func duration(d time.Duration) string {
	switch {
	case d == 0:
		return "0"
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.1fµs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
}

// WriteText writes the ladder's ratings, the best first, and every
// bot's decision times.
func (r *LadderResult) WriteText(w io.Writer, o ReportOptions) {
	workers := o.Workers
	tables := fmt.Sprintf("%s of %d players", textreport.Plural(len(r.Tables), "table", "tables"), r.Players)
	if r.Span > 0 {
		tables += fmt.Sprintf(" (bots at most %d apart in the list)", r.Span)
	}
	deals := textreport.Plural(r.Deals, "duplicate deal", "duplicate deals") + " each"
	if r.Cheap > 0 {
		deals = fmt.Sprintf("%s (%d at the %s of the first %d bots alone)", deals, r.CheapDeals,
			textreport.Plural(r.CheapTables, "table", "tables"), r.Cheap)
	}
	fmt.Fprintf(w, "ladder of %d bots: %s, %s, %s, seed %d, %s: %.1fs\n",
		len(r.Rungs), tables, deals,
		textreport.Plural(r.Games, "game", "games"), r.Seed, textreport.Plural(workers, "worker", "workers"), r.Elapsed.Seconds())
	writeResumed(w, r.Resumed, r.Games)
	fmt.Fprintln(w, "Weng–Lin (Plackett–Luce) ratings from every game's finishing order, ranked by mu - 3 sigma.")
	fmt.Fprintln(w)
	rows := [][]string{{"rank", "bot", "ordinal", "mu", "sigma", "95% interval", "gap", "games", "win rate", "score"}}
	for i, rg := range r.Rungs {
		gap := ""
		if i+1 < len(r.Rungs) {
			gap = fmt.Sprintf("%+.1f", rg.Low-r.Rungs[i+1].High)
		}
		rows = append(rows, []string{fmt.Sprint(i + 1), rg.Spec, fmt.Sprintf("%.2f", rg.Ordinal),
			fmt.Sprintf("%.2f", rg.Rating.Mu), fmt.Sprintf("%.2f", rg.Rating.Sigma),
			fmt.Sprintf("%.1f-%.1f", rg.Low, rg.High), gap, fmt.Sprint(rg.Games), percent(rg.WinRate),
			fmt.Sprintf("%.1f", rg.MeanScore)})
	}
	textreport.Columns(w, rows)
	fmt.Fprintln(w, "gap: the low end of the bot's interval less the high end of the next one's; below 0 the two overlap: the ladder has not parted them.")
	fmt.Fprintf(w, "A bot as strong as its tables would win %s of its games.\n", percent(1/float64(r.Players)))

	// Decision times, merged over the tables.
	fmt.Fprintln(w)
	rows = [][]string{{"decision time", "decisions", "mean", "p50", "p90", "p99", "max", "iterations"}}
	for _, rg := range r.Rungs {
		t := r.Timing(rg.Spec)
		rows = append(rows, []string{rg.Spec, fmt.Sprint(t.Decisions), duration(t.Mean),
			duration(t.P50), duration(t.P90), duration(t.P99), duration(t.Max), iterations(t)})
	}
	textreport.Columns(w, rows)
}
