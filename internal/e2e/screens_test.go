package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// spending is a policy that ends rounds quickly: call whenever possible,
// bid the lowest cheque, never pass while a bid is possible.
func spending(st tableState) string {
	if slices.Contains(st.Legal, "call") {
		return "call"
	}
	for _, m := range st.Legal {
		if strings.HasPrefix(m, "bid ") {
			return m
		}
	}
	return choose(st.Legal)
}

// onScreenJS reports what of the selector's element is outside the
// viewport or covered at its centre, or "" when it is wholly on screen.
const onScreenJS = `((sel) => {
  const el = document.querySelector(sel);
  if (!el) return sel + " is missing";
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1)
    return sel + " is not wholly on screen: " + [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!hit || (hit !== el && !el.contains(hit))) return sel + " is covered by " + (hit ? hit.tagName + "." + hit.className : "nothing");
  return "";
})`

// onScreen fails the test for each selector whose element is not wholly on
// screen and uncovered.
func (p *page) onScreen(what string, selectors ...string) {
	p.t.Helper()
	for _, sel := range selectors {
		if bad := eval[string](p, fmt.Sprintf("%s(%q)", onScreenJS, sel)); bad != "" {
			p.t.Errorf("%s: %s", what, bad)
		}
	}
}

// TestRoundEndAndGameEnd plays a four-player game to its end: each round's
// end is an overlay with the round's score by category and a button to go
// on, on screen at a desktop's size and a phone's; the game's end puts the
// winner first, the final table by category, a chart of each round and
// big links to the replay and the record. Both pass axe.
func TestRoundEndAndGameEnd(t *testing.T) {
	p := seated(t, "easy", "medium", "easy")
	st := p.playTo("the end of round 1", spending, func(st tableState) bool { return st.Overlay == 1 })
	if st.Overlay != 1 {
		t.Fatalf("no overlay after round 1: %+v", st)
	}
	for _, s := range []size{desktop, phone} {
		p.resize(s)
		p.onScreen("the round's end at "+s.String(), "#round-end .overlay-box", "#round-end .score-table", "#round-continue")
		p.screenshotViewport("round-end-4p-" + s.String())
	}
	if got := eval[string](p, `document.activeElement && document.activeElement.id`); got != "round-continue" {
		t.Errorf("the focus is on #%s, not on the button to go on", got)
	}
	if n := eval[int](p, `document.querySelectorAll("#round-end tbody tr").length`); n != 4 {
		t.Errorf("the round's table has %d rows, want 4", n)
	}
	// Behind the dialog nothing is within reach: of the focus, Tab, the
	// pointer or a screen reader.
	if r := p.reachBehind(); r.String() != "" {
		t.Errorf("the round's end: behind the dialog, %s", r)
	}
	p.accessible("the round's end")
	p.click("#round-continue")
	waitFor[bool](p, "the overlay to close", `!document.querySelector("#round-end")`, 5*time.Second)
	// And it all is again once the dialog went.
	if r := p.reachBehind(); len(r.Focused) == 0 || len(r.Hit) == 0 || len(r.Tree) == 0 {
		t.Errorf("after the round's end: the table is out of reach: %d focusable, %d under the pointer, %d in the accessibility tree",
			len(r.Focused), len(r.Hit), len(r.Tree))
	}
	p.resize(desktop)

	st = p.playTo("the end of the game", spending, func(tableState) bool { return false })
	if st.Phase != "over" {
		t.Fatalf("the game did not end: %+v", st)
	}
	for _, s := range []size{desktop, phone} {
		p.resize(s)
		eval[bool](p, "(scrollTo(0, 0), true)")
		p.onScreen("the game's end at "+s.String(), "#result", "#end-replay", "#end-record")
		p.screenshotViewport("game-end-4p-" + s.String())
		p.screenshot("game-end-4p-" + s.String() + "-full")
	}
	if href := eval[string](p, `(document.querySelector("#end-learn") || {getAttribute: () => ""}).getAttribute("href")`); !strings.HasPrefix(href, "/puzzles?game=") || !strings.HasSuffix(href, "&seat=0") {
		t.Errorf("the game's end links the player's mistakes as puzzles at %q", href)
	}
	for _, sel := range []string{"#end-replay", "#end-record", "#end-learn"} {
		if h := eval[float64](p, fmt.Sprintf(`document.querySelector(%q).getBoundingClientRect().height`, sel)); h < 48 {
			t.Errorf("%s is %.0f px tall: a big button is at least 48", sel, h)
		}
	}
	rows := eval[[]string](p, `[...document.querySelectorAll("#final-table tbody tr")].map((r) => r.querySelector("th").innerText.trim())`)
	winner := eval[string](p, `document.querySelector("#result h2").innerText`)
	if len(rows) != 4 || !strings.Contains(winner, rows[0]) && !strings.Contains(winner, "You") {
		t.Errorf("the final table's rows %q do not begin with the winner (%q)", rows, winner)
	}
	if n := eval[int](p, `document.querySelectorAll("#score-chart svg polyline").length`); n != 4 {
		t.Errorf("the chart has %d lines, want 4", n)
	}
	p.accessible("the game's end")
	p.resize(narrow)
	p.noOverflow("the game's end", int(narrow.w))
}

// TestAccessibility runs axe on the lobby, the waiting room, the table in
// an auction (at a desktop's size and a phone's, where the bid buttons
// show only the cheque) and the replay; the lobby and the replay do not
// scroll sideways at 360 px.
func TestAccessibility(t *testing.T) {
	srv := newServer(t)
	p := newPage(t, srv, "Ann", desktop.w, desktop.h)
	p.open("/")
	waitFor[bool](p, "the lobby", `document.querySelectorAll('select[name="seat-2"] option').length > 1`, 10*time.Second)
	p.accessible("the lobby")
	p.resize(phone)
	p.accessible("the lobby on a phone")
	p.screenshotViewport("lobby-" + phone.String())
	p.resize(narrow)
	p.noOverflow("the lobby", int(narrow.w))
	p.resize(desktop)

	id := srv.create(t, "", "easy", "medium")
	p.open("/g/" + id)
	waitFor[bool](p, "the join form", `(() => { const b = document.querySelector("#join"); return !!b && b.getClientRects().length > 0; })()`, 10*time.Second)
	p.accessible("the waiting room")
	p.join("Ann")
	p.playTo("an auction to bid in", bidding, myBid)
	p.accessible("the table in an auction")
	p.resize(phone)
	p.accessible("the table in an auction on a phone")
	p.resize(desktop)

	p.open("/g/" + id + "/replay#3")
	waitFor[bool](p, "the replay", `(() => { const e = document.querySelector("#replay-pos"); return !!e && e.textContent.startsWith("3 /"); })()`, 10*time.Second)
	p.accessible("the replay")
	p.screenshotViewport("replay-" + desktop.String())
	p.resize(phone)
	p.accessible("the replay on a phone")
	p.screenshotViewport("replay-" + phone.String())
	p.resize(narrow)
	p.noOverflow("the replay", int(narrow.w))
}
