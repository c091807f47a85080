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

// TestDeckPage: i shows every kind of card not drawn yet and the raid risk
// in words (R5, R7).
func TestDeckPage(t *testing.T) {
	m := scripted(t, "en", auctionMoves...)
	press(m, "i")
	checkFits(t, m, "deck page")
	s := screen(m)
	contains(t, s, "» Undrawn cards", "117 cards left",
		"★ police: 21",
		"✦ thief: 5", // one is in the row
		"▲ car: 15, driver: 10",
		"♦ ring: 3, watch: 4, brooch: 4, necklace: 4, diamond: 4",
		"● gold coin: 3",
		"♣ casino: 4",
		"18% that the next card is police (21 of 117)",
		"7 more police cards end the round.")
	press(m, "esc")
	contains(t, screen(m), "Your turn, Ann:")
}

// TestHelpExplainsTheNewSigns: the help page names the deck line, the raid,
// the cheque sum and what is at stake.
func TestHelpExplainsTheNewSigns(t *testing.T) {
	m := scripted(t, "en")
	press(m, "?")
	var all []string
	for range 3 {
		all = append(all, strings.Split(screen(m), "\n")...)
		press(m, "pgdown")
	}
	s := strings.Join(all, "\n")
	contains(t, s, "i            show the undrawn cards", "$24", "Worth to you now")
	if !slices.ContainsFunc(all, func(l string) bool { return strings.Contains(l, "highest sum") }) {
		t.Errorf("the help does not explain the cheque sum:\n%s", s)
	}
}
