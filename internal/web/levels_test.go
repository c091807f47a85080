package web

import (
	"strings"
	"testing"

	"github.com/razziagame/razzia/internal/botrating"
	"github.com/razziagame/razzia/internal/i18n"
)

// TestLevelsDescribedByPlay checks what the lobby says of each bot level,
// in every language: how it plays, never the algorithm's name, and no
// level called the strongest unless the calibration rates it above every
// other (the lobby once called expert the strongest while the calibration
// put it below hard).
func TestLevelsDescribedByPlay(t *testing.T) {
	levels := botrating.Levels()
	strongest, best := "", -1e9
	for name, r := range levels {
		if r.Mu > best {
			strongest, best = name, r.Mu
		}
	}
	superlative := map[string][]string{
		"en": {"strongest", "best"}, "nl": {"sterkste", "beste"}, "it": {"più forte", "migliore"},
		"hu": {"legerősebb", "legjobb"}, "es": {"más fuerte", "mejor"}, "de": {"stärkste", "beste"},
	}
	algorithm := []string{"tree search", "boomzoek", "ricerca ad albero", "fakeresés", "búsqueda en árbol", "baumsuche",
		"mcts", "monte carlo", "rollout", "heuristic"}
	for _, lang := range i18n.Languages() {
		c, _ := i18n.Lookup(lang.Tag)
		for name := range levels {
			about := strings.ToLower(c.T("bot." + name + ".about"))
			for _, w := range algorithm {
				if strings.Contains(about, w) {
					t.Errorf("%s bot.%s.about = %q: names the algorithm (%q), not how it plays", lang.Tag, name, about, w)
				}
			}
			for _, w := range superlative[lang.Tag] {
				if strings.Contains(about, w) && name != strongest {
					t.Errorf("%s bot.%s.about = %q calls it %q, but the calibration rates %s strongest (mu %.1f against %.1f)",
						lang.Tag, name, about, w, strongest, levels[name].Mu, best)
				}
			}
		}
	}
}
