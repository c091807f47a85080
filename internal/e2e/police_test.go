package e2e

import (
	"testing"
	"time"
)

// TestPoliceTrackWidths opens a table at the widths where the police
// track once collapsed into "1 2 3 4 5 6 !": each slot is wide enough to
// show a police card.
func TestPoliceTrackWidths(t *testing.T) {
	srv := newServer(t)
	for _, s := range []size{{760, 900, false}, {800, 900, false}, {820, 1180, false}} {
		t.Run(s.String(), func(t *testing.T) {
			id := srv.create(t, "", "easy")
			p := newPage(t, srv, "Ann", s.w, s.h)
			p.open("/g/" + id)
			p.join("Ann")
			waitFor[bool](p, "the police track", `document.querySelectorAll("#police .police-slot").length > 0`, 10*time.Second)
			narrowest := eval[float64](p, `Math.min(...[...document.querySelectorAll("#police .police-slot")].map((e) => e.getBoundingClientRect().width))`)
			p.screenshot("police-" + s.String())
			if narrowest < 28 {
				t.Errorf("at %s a police slot is %.0f px wide: too narrow for a card", s, narrowest)
			}
		})
	}
}
