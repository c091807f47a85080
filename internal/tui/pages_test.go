package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/razziagame/razzia/internal/i18n"
)

// policeRounds ends rounds by the raid: in each, the seven police cards are
// drawn and everybody passes every police auction (R7, R14). Ann, Bert and
// Cleo draw in turn, and Ann, with the 13, starts every round (R6).
func policeRounds(rounds int) []string {
	var moves []string
	for range rounds {
		for range 6 {
			moves = append(moves, "draw police", "pass", "pass", "pass")
		}
		moves = append(moves, "draw police")
	}
	return moves
}

// TestPageLastLine: the last line of every page can be shown, below the
// title line and the page's head: the help's Σ legend, the score page's
// grand total, the rules' last rule.
func TestPageLastLine(t *testing.T) {
	for _, tc := range []struct {
		name  string
		moves []string
		keys  []string
		last  string
	}{
		{"help", nil, []string{"?", "G"}, "Σ            points so far"},
		{"scores after two rounds", policeRounds(2), []string{"G"}, "Σ Total"},
		{"rules", nil, []string{"r", "G"}, "a tie is a shared win."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := scripted(t, "en", tc.moves...)
			press(m, tc.keys...)
			checkFits(t, m, tc.name)
			s := screen(m)
			contains(t, s, tc.last)
			if !strings.Contains(s, "100%") {
				t.Errorf("the page is not at its end:\n%s", s)
			}
		})
	}
}

// TestWrapKeepsIndent: a wrapped paragraph's continued lines keep their
// indent and stay within the terminal, in every language and at any width
// (the rules page, the holdings, the log).
func TestWrapKeepsIndent(t *testing.T) {
	t.Run("a long paragraph", func(t *testing.T) {
		m := scripted(t, "en")
		item := "  • " + strings.Repeat("Bodyguards: most +5, fewest −2, ties all score; ", 6)
		lines := m.wrap(item, 4)
		if len(lines) < 4 {
			t.Fatalf("%d lines", len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > m.width-1 {
				t.Errorf("line %d is %d cells: %q", i+1, w, l)
			}
			if i > 0 && (!strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "     ")) {
				t.Errorf("continued line %d is not indented by 4: %q", i+1, l)
			}
		}
		if got, want := strings.Join(strings.Fields(strings.Join(lines, " ")), " "), strings.Join(strings.Fields(item), " "); got != want {
			t.Errorf("the words changed:\n got %q\nwant %q", got, want)
		}
	})
	for _, l := range i18n.Languages() {
		t.Run(l.Tag, func(t *testing.T) {
			m := scripted(t, l.Tag)
			for width := MinWidth; width <= 2*MinWidth; width++ {
				m.width = width
				for _, line := range slices.Concat(m.rulesLines(), m.helpLines()) {
					plain := ansi.Strip(line)
					if w := ansi.StringWidth(line); w > width-1 {
						t.Errorf("width %d: %d cells: %q", width, w, plain)
					}
					// A line is a heading (bold), a gap, or indented.
					if plain != "" && !strings.HasPrefix(plain, " ") && !strings.HasPrefix(line, "\x1b[1m") {
						t.Errorf("width %d: a continued line lost its indent: %q", width, plain)
					}
				}
			}
		})
	}
}
