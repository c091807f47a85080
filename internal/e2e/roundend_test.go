package e2e

import (
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"
)

// TestRoundEndStepsAside plays a Blitz table against bots to the end of
// round 1, on a desktop, a phone and a landscape phone: once the player's
// clock runs, nothing modal covers the table; the moves and the large
// clock are in sight beside the decision, and a note points to the
// round's scores.
func TestRoundEndStepsAside(t *testing.T) {
	srv := newServer(t)
	for name, vp := range map[string]size{"desktop": desktop, "phone": phone, "landscape": landscape} {
		t.Run(name, func(t *testing.T) {
			// Each table of its own waits out round 2's grace (15 s) for
			// its clock to run: the three wait together.
			parallel(t)
			var created struct {
				Game struct{ ID string } `json:"game"`
			}
			if code := srv.api(t, "POST", "/api/games", `{"seats":[{"bot":""},{"bot":"easy"},{"bot":"easy"}],"pace":"blitz"}`, &created); code != http.StatusCreated {
				t.Fatalf("create: status %d", code)
			}
			p := newPage(t, srv, "Ann", vp.w, vp.h)
			p.open("/g/" + created.Game.ID)
			seat := p.join("Ann")
			// Play round 1, stopping at its end, whoever moves first then.
			p.playTo("round 1's end", func(st tableState) string { return choose(st.Legal) }, func(st tableState) bool {
				return st.Overlay > 0 || eval[bool](p, `!!document.querySelector("#round-note")`)
			})
			clock := fmt.Sprintf(`document.querySelector('#table [data-clock-seat="%d"]').textContent`, seat)
			reserve := lastTime(eval[string](p, clock))
			ended := time.Now()
			// The player's decision in round 2, clock running: the round's
			// scores stayed open, so it starts at the pace's grace (15 s),
			// with the decision's own time, the reserve untouched.
			waitFor[bool](p, "the player's clock running in round 2", `(() => {
  const c = document.querySelector("#decide-clock.decide-clock-mine.clock-running");
  return !!c && !!document.querySelector("#round-note");
})()`, 30*time.Second)
			if held := time.Since(ended); held < 10*time.Second {
				t.Errorf("the player's clock ran %v after the round's end, its scores still open (want the 15 s grace)", held.Round(100*time.Millisecond))
			}
			if now := lastTime(eval[string](p, clock)); reserve == "" || now != reserve {
				t.Errorf("the reserve went from %q at the round's end to %q once the clock ran", reserve, now)
			}
			// The desktop's window turned into a tablet's shows the same.
			sizes := map[string]size{name: vp}
			if vp == desktop {
				sizes["tablet"] = tablet
			}
			for name, vp := range sizes {
				p.resize(vp)
				if eval[bool](p, `!!document.querySelector("#round-end[aria-modal]")`) {
					t.Errorf("%s: a dialog covers the table while the player's clock runs", name)
				}
				// The table is within reach: of the focus, the pointer and
				// a screen reader.
				if r := p.reachBehind(); len(r.Focused) == 0 || len(r.Hit) == 0 || len(r.Tree) == 0 {
					t.Errorf("%s: the table is out of reach while the player's clock runs: %d focusable, %d under the pointer, %d in the accessibility tree",
						name, len(r.Focused), len(r.Hit), len(r.Tree))
				}
				// A landscape phone scrolls to the moves: the clock stays in
				// sight beside them.
				eval[bool](p, `(document.querySelector("#moves button[data-move]:not([disabled])").scrollIntoView({block: "nearest"}), true)`)
				for _, sel := range []string{"#decide-clock", "#moves button[data-move]:not([disabled])"} {
					if !eval[bool](p, inView(sel)) {
						t.Errorf("%s: %s is not in sight while the clock runs", name, sel)
					}
				}
				p.screenshot("round-end-clock-" + name)
			}
			p.resize(vp)
			// Holdings: a count stands beside its card, never over its symbol.
			counts := eval[[]int](p, `(() => { const cs = [...document.querySelectorAll(".strip-hold .chip-card")].filter((c) => c.querySelector(".chip-n"));
  const over = cs.filter((c) => { const a = c.querySelector(".chip-n").getBoundingClientRect(), b = c.querySelector(".card-sym").getBoundingClientRect();
    return a.left < b.right - 1 && a.right > b.left + 1 && a.top < b.bottom - 1 && a.bottom > b.top + 1; });
  return [cs.length, over.length]; })()`)
			if counts[1] > 0 {
				t.Errorf("%d of %d holding counts cover their card's symbol", counts[1], counts[0])
			}
			if counts[0] == 0 {
				t.Logf("no holding of two or more cards to check")
			}
			eval[bool](p, `(document.querySelector("#round-note").scrollIntoView({block: "center"}), true)`)
			p.click("#round-note-scores")
			waitFor[bool](p, "the round's scores", partlyInView(`#scores table[data-round="1"]`, 40), 5*time.Second)
		})
	}
}

// lastTime is the last time ("1:00") a clock's text shows: the reserve.
func lastTime(clock string) string {
	times := regexp.MustCompile(`\d+:\d\d`).FindAllString(clock, -1)
	if len(times) == 0 {
		return ""
	}
	return times[len(times)-1]
}
