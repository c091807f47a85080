package botrating

import (
	"fmt"
	"io"
	"strings"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/textreport"
)

// WriteText sums the calibration up for people: each level's rating, for
// all tables and by table size, whether one rating serves every size, and
// which levels were played by iterations rather than time.
func (c *Calibration) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%s, seed %d\n\n", textreport.Plural(c.Games, "game", "games"), c.Seed)
	sizes := []string{"2", "3", "4", "5"}
	fmt.Fprintf(w, "%-8s %16s", "level", "all tables")
	for _, n := range sizes {
		fmt.Fprintf(w, " %16s", n+" players")
	}
	fmt.Fprintln(w)
	for _, l := range bot.LevelNames() {
		r, ok := c.Levels[l]
		if !ok {
			continue
		}
		fmt.Fprintf(w, "%-8s %16s", l, fmt.Sprintf("%.2f ± %.2f", r.Mu, r.Sigma))
		for _, n := range sizes {
			s := ""
			if g, ok := c.ByPlayers[n][l]; ok {
				s = fmt.Sprintf("%.2f ± %.2f", g.Mu, g.Sigma)
			}
			fmt.Fprintf(w, " %16s", s)
		}
		fmt.Fprintln(w)
	}
	verdict := "the levels' differences agree across table sizes: one rating for all sizes"
	if c.Groups {
		verdict = "some difference between levels depends on the table size (more than twice its uncertainty): ratings per table size are called for"
	}
	fmt.Fprintf(w, "\nMu ± Sigma; %s.\n", strings.TrimSpace(verdict))
	// A level bounded by time plays its Fixed stand-in here: say so.
	for _, l := range bot.LevelNames() {
		lv, _ := bot.LookupLevel(l)
		if spec, ok := c.Specs[l]; ok && spec != lv.Spec {
			fmt.Fprintf(w, "%s (%s) was played as %q, bounded by iterations rather than time.\n", l, lv.Spec, spec)
		}
	}
}
