package i18n

import "testing"

// TestPlural: a count of one takes the key's ".one" text in every
// language; other counts, and a count with no ".one" text, the plain one.
func TestPlural(t *testing.T) {
	for _, l := range Languages() {
		t.Run(l.Tag, func(t *testing.T) {
			c, _ := Lookup(l.Tag)
			one, many := c.T("tui.rematch.waiting", "n", 1), c.T("tui.rematch.waiting", "n", 2)
			if one != c.T("tui.rematch.waiting.one", "n", 1) || one == many {
				t.Errorf("n=1: %q, n=2: %q", one, many)
			}
			if zero := c.T("tui.rematch.waiting", "n", 0); zero != c.T("tui.rematch.waiting", "n", 0) || zero == one {
				t.Errorf("n=0: %q", zero)
			}
			if got, want := c.T("tui.deck", "n", 1), c.T("tui.deck", "n", 1); got != want {
				t.Errorf("a key without a .one text changed: %q", got)
			}
		})
	}
	en, _ := Lookup("en")
	if got := en.T("tui.rematch.waiting", "n", 1); got != "Rematch: waiting for one more answer." {
		t.Errorf("en, n=1: %q", got)
	}
	if got, want := en.T("term.deck.left", "n", 1), en.T("term.deck.left.one", "n", 1); got != want {
		t.Errorf("one card left: %q, want %q", got, want)
	}
	if got := en.T("tui.thieves.illegal", "n", 1); got != "Choose 1 row card: one thief for each card." {
		t.Errorf("en thieves, n=1: %q", got)
	}
}
