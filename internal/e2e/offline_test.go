package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestOfflineBanner cuts a player's network silently during their turn,
// on a desktop and on a phone held either way: a banner says so within
// 5 s without moving the table or covering the player's strip, turn and
// moves or the header's Rules and language (a tablet's size too); a move
// made meanwhile waits in sight and is sent once the network is back.
func TestOfflineBanner(t *testing.T) {
	srv := newServer(t)
	for name, vp := range map[string]size{"desktop": desktop, "phone": phone, "landscape": landscape} {
		t.Run(name, func(t *testing.T) {
			id := srv.create(t, "", "easy")
			p := newPage(t, srv, "Ann", vp.w, vp.h)
			p.open("/g/" + id)
			seat := p.join("Ann")
			st := waitForTurn(p)
			const topJS = `document.querySelector("#table").getBoundingClientRect().top`
			top := eval[float64](p, topJS)
			// The desktop's window turned into a tablet's shows the same.
			var tabletTop float64
			if vp == desktop {
				p.resize(tablet)
				tabletTop = eval[float64](p, topJS)
				p.resize(desktop)
			}

			p.do("cut the network", cutNetwork(true))
			cut := time.Now()
			waitFor[bool](p, "the offline banner", `(() => { const b = document.querySelector("#conn-banner");
  return !!b && !b.hidden && b.getClientRects().length > 0; })()`, 5*time.Second)
			t.Logf("figure: the banner showed %v after the network was cut", time.Since(cut).Round(100*time.Millisecond))
			if now := eval[float64](p, topJS); now != top {
				t.Errorf("the banner moved the table from %v to %v px", top, now)
			}
			move := choose(st.Legal)
			p.click(fmt.Sprintf(`#table button[data-move=%q]:not([disabled])`, move))
			queued := waitFor[string](p, "the move shown as waiting", `(() => { const q = document.querySelector("#conn-queued");
  return q && q.getClientRects().length > 0 ? q.textContent : ""; })()`, 2*time.Second)
			t.Logf("%s: %q", name, queued)
			if name == "desktop" {
				p.accessible("the offline banner with a move waiting")
			}
			// The banner, the waiting move in it, covers none of what the
			// player decides with (their own strip, the turn and the moves)
			// nor the header's Rules and language, which an offline person
			// can still use; all of them are in the viewport.
			p.do("scroll to the top", chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`))
			p.screenshotViewport("offline-" + name)
			coveredJS := fmt.Sprintf(`(() => { const b = document.querySelector("#conn-banner").getBoundingClientRect();
  return ["#seat-%d", "#turn", "#moves", "#rules-button", "#lang"].filter((s) => { const e = document.querySelector(s), r = e && e.getBoundingClientRect();
    return !e || r.top < 0 || r.bottom > innerHeight || r.top < b.bottom - 1 && b.top < r.bottom - 1 && r.left < b.right - 1 && b.left < r.right - 1; }); })()`, seat)
			if covered := eval[[]string](p, coveredJS); len(covered) > 0 {
				t.Errorf("the offline banner covers %v, or they are outside the viewport", covered)
			}
			if vp == desktop {
				p.resize(tablet)
				if !eval[bool](p, inView("#conn-banner")) {
					t.Errorf("tablet: the offline banner is not in sight")
				}
				if now := eval[float64](p, topJS); now != tabletTop {
					t.Errorf("tablet: the banner moved the table from %v to %v px", tabletTop, now)
				}
				if covered := eval[[]string](p, coveredJS); len(covered) > 0 {
					t.Errorf("tablet: the offline banner covers %v, or they are outside the viewport", covered)
				}
				p.screenshotViewport("offline-tablet")
				p.resize(desktop)
			}

			p.do("give the network back", cutNetwork(false))
			waitFor[bool](p, "the waiting move sent", `(() => { const t = document.querySelector("#table"), b = document.querySelector("#conn-banner");
  return Number(t.dataset.moves) > `+strconv.Itoa(st.Moves)+` && b.hidden; })()`, 25*time.Second)
			if log := p.text("#log"); !containsMove(log, move) {
				t.Errorf("the log does not tell the waiting move %q:\n%s", move, log)
			}
		})
	}
}

// containsMove reports whether the log tells Ann's move.
func containsMove(log, move string) bool {
	want := map[string]string{"draw": "Ann draws", "pass": "Ann passes", "call": "Ann calls"}[move]
	return want == "" || strings.Contains(log, want)
}
