package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The tests of this file check what a new player saw go wrong, each
// where it was seen.

// TestPhoneHeader: the table's header is one line on a phone, in the
// language with the longest words, and its controls are a finger wide;
// the lobby's, with more tools, shows each tool's word whole inside its
// button and the screen, in English and in Hungarian.
func TestPhoneHeader(t *testing.T) {
	srv := newServer(t)
	id := srv.create(t, "", "easy", "medium")
	p := newPage(t, srv, "Anna", phone.w, phone.h)
	p.resize(phone)
	p.open("/g/" + id)
	p.setSelect("#lang", "hu")
	waitFor[bool](p, "html[lang=hu]", `document.documentElement.lang === "hu"`, 5*time.Second)
	p.join("Anna")
	waitForTurn(p)
	for _, s := range []size{phone, narrow} {
		p.resize(s)
		if h := eval[float64](p, `document.querySelector("header.top").getBoundingClientRect().height`); h > 64 {
			t.Errorf("at %s the Hungarian header is %.0f px tall: more than one line", s, h)
		}
		for _, sel := range []string{"#rules-button", "#lang", "#record-link", "header .brand a"} {
			r := eval[[]float64](p, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return [r.width, r.height]; })()`, sel))
			if r[0] < 44 || r[1] < 44 {
				t.Errorf("at %s %s is %.0f×%.0f px: less than 44 px", s, sel, r[0], r[1])
			}
		}
	}
	p.noOverflow("the table in Hungarian", int(narrow.w))
	p.screenshotViewport("table-hu-" + narrow.String())

	// The bots are named in Hungarian, as their badges were.
	names := eval[[]string](p, `[...document.querySelectorAll("#seats .strip-name")].map((e) => e.textContent)`)
	if len(names) != 3 || names[1] != "2. bot (könnyű)" || names[2] != "3. bot (közepes)" {
		t.Errorf("the strips name the players %q", names)
	}

	p.open("/")
	for _, lang := range []string{"hu", "en"} {
		p.setSelect("#lang", lang)
		waitFor[bool](p, "the lobby in "+lang, fmt.Sprintf(`document.documentElement.lang === %q`, lang), 5*time.Second)
		for _, s := range []size{phone, narrow} {
			p.resize(s)
			p.frames()
			bad := eval[[]string](p, `(() => { const out = [], tools = [...document.querySelectorAll("header .top-tools > *")].filter((e) => e.getClientRects().length);
  for (const [i, e] of tools.entries()) {
    const r = e.getBoundingClientRect(), name = e.id || e.className;
    if (e.scrollWidth > e.clientWidth + 1) out.push(name + " shows " + e.clientWidth + " of its " + e.scrollWidth + " px");
    if (r.left < -1 || r.right > innerWidth + 1) out.push(name + " runs off the screen");
    for (const f of tools.slice(i + 1)) { const q = f.getBoundingClientRect();
      if (r.left < q.right - 1 && q.left < r.right - 1 && r.top < q.bottom - 1 && q.top < r.bottom - 1) out.push(name + " overlaps " + (f.id || f.className)); }
  }
  return out; })()`)
			if len(bad) > 0 {
				t.Errorf("the lobby's header in %s at %s: %s", lang, s, strings.Join(bad, "; "))
			}
		}
	}
	p.screenshotViewport("lobby-head-" + narrow.String())
}

// TestTableDetails: the pile counts are numbers of cards without a cryptic
// mark, the focus stays on the table after a move made with the keyboard,
// four players' strips stand in one column with their points on one line,
// and no name in a score table is broken inside a word.
func TestTableDetails(t *testing.T) {
	p := seated(t, "easy", "medium", "easy")
	st := p.playTo("a turn to draw", func(st tableState) string { return choose(st.Legal) }, func(st tableState) bool { return st.Phase == "turn" && slices.Contains(st.Legal, "draw") })

	if after := eval[string](p, `getComputedStyle(document.querySelector("#piles .pile-count"), "::after").content`); after != "none" && after != "normal" {
		t.Errorf("the pile count is followed by %s", after)
	}
	if got := p.text("#piles .pile-count"); !strings.HasSuffix(got, " cards") {
		t.Errorf("the pile count reads %q", got)
	}

	// A move made with the keyboard leaves the focus on the table.
	eval[bool](p, `(document.querySelector('#moves button[data-move="draw"]').focus(), true)`)
	p.do("Enter", chromedp.KeyEvent(kb.Enter))
	waitFor[bool](p, "the table to move on", fmt.Sprintf(`Number(document.querySelector("#table").dataset.moves) > %d`, st.Moves), 10*time.Second)
	if focus := eval[string](p, `(() => { const a = document.activeElement; return !a || a === document.body ? "the page" : document.querySelector("#table").contains(a) ? "" : a.tagName + "#" + a.id; })()`); focus != "" {
		t.Errorf("after the move the focus is on %s, not on the table", focus)
	}

	left := eval[[]float64](p, `[...document.querySelectorAll("#seats .strip")].map((e) => Math.round(e.getBoundingClientRect().left))`)
	for _, l := range left {
		if l != left[0] {
			t.Errorf("the strips are not one column: their left edges are %v", left)
			break
		}
	}
	if tall := eval[[]string](p, `[...document.querySelectorAll(".strip-points")].filter((e) =>
  e.getBoundingClientRect().height > 1.9 * parseFloat(getComputedStyle(e).fontSize)).map((e) => e.textContent)`); len(tall) > 0 {
		t.Errorf("points pills wrap: %q", tall)
	}

	// Round 1's table, in the overlay and in the scores.
	p.playTo("the end of round 1", spending, func(st tableState) bool { return st.Overlay == 1 })
	broken := `[...document.querySelectorAll(".score-table .seat-name-text")].flatMap((el) => {
  const node = el.firstChild, text = node.textContent, out = [];
  let at = 0;
  for (const word of text.split(" ")) {
    const r = document.createRange();
    r.setStart(node, at); r.setEnd(node, at + word.length);
    if (word && r.getClientRects().length > 1) out.push(word);
    at += word.length + 1;
  }
  return out;
})`
	if words := eval[[]string](p, broken); len(words) > 0 {
		t.Errorf("names broken inside a word in the round's table: %q", words)
	}
	p.click("#round-continue")
	waitFor[bool](p, "the overlay to close", `!document.querySelector("#round-end")`, 5*time.Second)
	for _, s := range []size{desktop, {1100, 800, false}, phone} {
		p.resize(s)
		if words := eval[[]string](p, broken); len(words) > 0 {
			t.Errorf("at %s names broken inside a word in the scores: %q", s, words)
		}
		if n := eval[int](p, `document.querySelectorAll('.score-table[data-round="1"]').length`); n != 1 {
			t.Errorf("at %s round 1's table shows %d times", s, n)
		}
	}
}
