package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestRatedGameEnd plays a rated game against a bot on a phone, signed in:
// a rated table's kind and pace show on its waiting page, in the lobby's
// list and at the table, the player's rating stands beside their
// name, and the game's end tells the rating's change ("+12" or "−3", one
// minus sign) and the new figure, in sight, on the phone and at the other
// sizes too.
func TestRatedGameEnd(t *testing.T) {
	srv := newServer(t)
	p := newPage(t, srv, "Ann", phone.w, phone.h)
	p.resize(phone)
	p.open("/")
	p.registerHere("Ann")
	create := func(body string) string {
		path, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"},
  body: JSON.stringify(`+body+`)}).then((r) => r.json()).then((a) => "/g/" + a.game.id)`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("creating a rated table: %v", err)
		}
		p.open(path)
		waitFor[bool](p, "the join form with the account's name", shown("#join")+` && document.querySelector("#join-name").value === "Ann"`, 10*time.Second)
		p.click("#join")
		return strings.TrimPrefix(path, "/g/")
	}
	// A rated Blitz table waiting for a second person says so on its
	// waiting page and in the lobby's list.
	waiting := create(`{seats: [{bot: ""}, {bot: ""}, {bot: "easy"}], rated: true, pace: "blitz"}`)
	if got := waitFor[string](p, "the waiting page's kind", `(() => { const k = document.querySelector("#waiting-kind"); return k && k.getClientRects().length ? k.textContent : ""; })()`, 10*time.Second); got != "Rated · Blitz" {
		t.Errorf("the waiting page says %q, want Rated · Blitz", got)
	}
	p.open("/")
	waitFor[bool](p, "the lobby's entry saying Rated · Blitz", fmt.Sprintf(`[...document.querySelectorAll(".game")].some((g) => g.querySelector('[data-game=%q]') && g.textContent.includes("Rated · Blitz"))`, waiting), 10*time.Second)

	create(`{seats: [{bot: ""}, {bot: "easy"}], rated: true}`)
	seat := waitFor[int](p, "a seat", `(() => { const s = Number(document.querySelector("#table").dataset.seat); return s >= 0 ? s + 1 : 0; })()`, 10*time.Second) - 1
	// The player's rating stands beside their name: a new account's is
	// provisional ("1500?").
	if got := waitFor[string](p, "the rating beside the name", fmt.Sprintf(`(() => { const r = document.querySelector("#seat-%d .strip-rating"); return r ? r.textContent : ""; })()`, seat), 10*time.Second); !regexp.MustCompile(`^\d+\?$`).MatchString(got) {
		t.Errorf("the rating beside the player's name is %q, want a provisional figure such as 1500?", got)
	}
	if kind := p.text("#table-kind"); !regexp.MustCompile(`(?i)rated`).MatchString(kind) {
		t.Errorf("the table says %q, not that it is rated", kind)
	}

	st := p.playTo("the end of the game", spending, func(tableState) bool { return false })
	if st.Phase != "over" {
		t.Fatalf("the game did not end: %+v", st)
	}
	change := waitFor[string](p, "the rating's change at the game's end", `(() => { const r = document.querySelector("#rating-change");
  return r && r.getClientRects().length > 0 ? r.textContent : ""; })()`, 15*time.Second)
	if !regexp.MustCompile(`[+−]\d+|±0`).MatchString(change) || regexp.MustCompile(`-\d`).MatchString(change) {
		t.Errorf("the game's end says %q: no change with a plus or a minus sign", change)
	}
	eval[bool](p, `(document.querySelector("#rating-change").scrollIntoView({block: "center"}), true)`)
	p.onScreen("a rated game's end", "#rating-change")
	t.Logf("the game's end: %q", change)
	p.screenshotViewport(fmt.Sprintf("rated-game-end-%s", phone))
	p.accessible("a rated game's end")
	// The same screen on a desktop, a tablet and a phone on its side.
	for _, s := range []size{desktop, tablet, landscape} {
		p.resize(s)
		eval[bool](p, `(document.querySelector("#rating-change").scrollIntoView({block: "center"}), true)`)
		p.onScreen("a rated game's end at "+s.String(), "#rating-change")
		p.screenshotViewport(fmt.Sprintf("rated-game-end-%s", s))
	}
}
