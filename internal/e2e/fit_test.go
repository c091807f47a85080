package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/playername"
)

// fitJS lists what the table shows cut, clipped or broken at the
// viewport's size: a player's name or part in the auction cut short, a
// score column headed by an icon without its word, a score table that
// must be scrolled sideways to be read, a card's name broken inside a
// word (other than at a soft hyphen) or clamped, the page wider than the
// screen.
const fitJS = `(() => {
  const out = [];
  const shown = (e) => !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
  for (const e of document.querySelectorAll("#table .strip-name, #table .strip-part")) {
    if (shown(e) && e.scrollWidth > e.clientWidth + 1) out.push("cut: " + JSON.stringify(e.textContent) + " shows " + e.clientWidth + " of " + e.scrollWidth + " px");
  }
  for (const th of document.querySelectorAll("#table th.col-cat")) {
    if (!shown(th)) continue;
    const w = th.querySelector(".cat-word");
    if (!shown(w) || w.getBoundingClientRect().height < 8) out.push("the score column " + th.getAttribute("aria-label") + " has no word");
  }
  for (const w of document.querySelectorAll("#table .score-wrap")) {
    if (shown(w) && w.scrollWidth > w.clientWidth + 1) {
      const head = [...w.querySelectorAll("thead th")].filter((th) => th.getBoundingClientRect().right > w.getBoundingClientRect().right + 1).map((th) => th.textContent.trim() || th.getAttribute("aria-label"));
      out.push("a score table (" + (w.getAttribute("aria-label") || "") + ") is " + w.scrollWidth + " px in " + w.clientWidth + ": clipped " + head.join(", "));
    }
  }
  // A table may fit its box while the box overflows a panel that clips it.
  for (const table of document.querySelectorAll("#table .score-table")) {
    if (!shown(table)) continue;
    const last = [...table.querySelectorAll("thead th")].filter(shown).pop();
    if (!last) continue;
    const right = last.getBoundingClientRect().right;
    for (let a = table.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX === "visible") continue;
      const edge = a.getBoundingClientRect().right;
      if (right > edge + 1) { out.push("the score table " + JSON.stringify(table.querySelector("caption").textContent) + "'s column " + last.textContent.trim() + " ends at " + Math.round(right) + " px, past its panel's edge at " + Math.round(edge)); break; }
    }
  }
  for (const n of document.querySelectorAll("#table .card-name")) {
    if (!shown(n)) continue;
    const text = n.firstChild;
    if (!text || text.nodeType !== 3) continue;
    const s = text.data;
    let top = null;
    for (let i = 0; i < s.length; i++) {
      const r = document.createRange();
      r.setStart(text, i);
      r.setEnd(text, i + 1);
      const rect = [...r.getClientRects()].filter((x) => x.width > 0).pop();
      if (!rect) continue;
      if (top !== null && rect.top > top + 2) {
        const before = s.slice(0, i).replace(/\u00ad/g, "");
        if (!/[\s\u00ad-]$/.test(s.slice(0, i)) && !/^\s/.test(s.slice(i))) out.push("the card name " + JSON.stringify(s.replace(/\u00ad/g, "")) + " breaks inside a word after " + JSON.stringify(before));
      }
      top = rect.top;
    }
    if (n.scrollHeight > n.clientHeight + 1 || n.scrollWidth > n.clientWidth + 1) out.push("the card name " + JSON.stringify(s.replace(/\u00ad/g, "")) + " is clipped: " + n.scrollWidth + "x" + n.scrollHeight + " in " + n.clientWidth + "x" + n.clientHeight);
  }
  if (document.documentElement.scrollWidth > innerWidth + 1) out.push("the page is " + document.documentElement.scrollWidth + " px wide in " + innerWidth);
  return [...new Set(out)];
})()`

// sizes are the screens the table is laid out for, phones and desktops.
var sizes = []size{desktop, {1024, 768, false}, {820, 1180, true}, {760, 1000, true}, phone, narrow, landscape}

// fits fails the test with what the table shows cut or clipped at every
// size, and saves a screenshot of each.
func (p *page) fits(what string) {
	p.t.Helper()
	for _, s := range sizes {
		p.resize(s)
		if bad := eval[[]string](p, fitJS); len(bad) > 0 {
			p.t.Errorf("%s at %s:\n  %s", what, s, strings.Join(bad, "\n  "))
		}
		if s == desktop || s == phone || s == landscape || s.w == 820 {
			p.screenshot(fmt.Sprintf("fit-%s-%s", strings.ReplaceAll(what, " ", "-"), s))
		}
		// The sizes the other tests do not run axe at.
		if s == landscape || s.w == 820 {
			p.accessible(fmt.Sprintf("%s at %s", what, s))
		}
	}
	p.resize(desktop)
}

// TestTableFits plays a five-player game against bots, as a person with
// the longest name the server allows, into round 3, then
// to its end, and lays the table out at every size from a 360-pixel
// phone to a desktop and a phone on its side: the round's end shows its
// way on without scrolling, no name or bid is cut, the
// score columns are headed by words, the score tables are read without
// scrolling sideways, card names break only between words or at a
// hyphen, and the page is never wider than the screen; in every language
// on the narrowest screens. Axe finds nothing serious on a tablet and a
// phone on its side.
func TestTableFits(t *testing.T) {
	// The longest name a person may take, in the first seat.
	srv := newServer(t)
	id := srv.create(t, "", "easy", "easy", "easy", "easy")
	p := newPage(t, srv, "Wolfgang", desktop.w, desktop.h)
	p.open("/g/" + id)
	p.join("Wolfgang Amadeus Moz")
	p.playTo("the end of round 1", spending, func(st tableState) bool { return st.Overlay == 1 })
	for _, s := range sizes {
		p.resize(s)
		p.onScreen("the round's end at "+s.String(), "#round-end h2", "#round-continue")
		if s == landscape {
			p.screenshotViewport("fit-round-end-" + s.String())
			p.accessible("the round's end at " + s.String())
		}
	}
	p.resize(desktop)
	p.playTo("an auction in round 3", spending, func(st tableState) bool {
		return st.Overlay == 0 && st.Phase == "auction" && eval[bool](p, `!!document.querySelector('#scores .score-table[data-round="2"]')`)
	})
	p.fits("round 3")
	// Every language's words fit the narrowest screens too.
	for _, s := range []size{landscape, narrow} {
		p.resize(s)
		for _, lang := range []string{"nl", "it", "hu", "es", "de", "en"} {
			p.setSelect("#lang", lang)
			waitFor[bool](p, "the table in "+lang, fmt.Sprintf(`document.documentElement.lang === %q && !!document.querySelector("#table .strip")`, lang), 10*time.Second)
			p.frames()
			if bad := eval[[]string](p, fitJS); len(bad) > 0 {
				t.Errorf("round 3 in %s at %s:\n  %s", lang, s, strings.Join(bad, "\n  "))
			}
			if lang == "de" || lang == "hu" {
				p.screenshotViewport(fmt.Sprintf("fit-round-3-%s-%s", lang, s))
			}
		}
	}
	p.resize(desktop)
	p.playTo("the end", spending, func(tableState) bool { return false })
	waitFor[bool](p, "the final table", `!!document.querySelector("#final-table")`, 5*time.Second)
	p.fits("the end")
}

// nameCutJS lists where a player's name shows cut: clipped by a box that
// hides what overflows it, or past the screen's edge, and a page wider
// than the screen.
const nameCutJS = `((name) => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const e = n.parentElement;
    if (!n.data.includes(name) || e.getClientRects().length === 0 || getComputedStyle(e).visibility === "hidden") continue;
    const r = document.createRange();
    r.selectNodeContents(n);
    const box = r.getBoundingClientRect(), where = e.tagName + "." + e.className;
    if (box.right > innerWidth + 1 || box.left < -1) out.push(where + " runs off the screen: " + Math.round(box.left) + " to " + Math.round(box.right) + " px");
    if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== "visible") out.push(where + " is cut: " + e.clientWidth + " of " + e.scrollWidth + " px");
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX === "visible") continue;
      const edge = a.getBoundingClientRect();
      if (box.right > edge.right + 1 || box.left < edge.left - 1) { out.push(where + " is clipped by " + a.tagName + "." + a.className + " at " + Math.round(edge.right) + " px"); break; }
    }
  }
  if (document.documentElement.scrollWidth > innerWidth + 1) out.push("the page is " + document.documentElement.scrollWidth + " px wide in " + innerWidth);
  return [...new Set(out)];
})`

// TestLongNameFits: the widest name the server allows, twenty W's in one
// word, shows whole wherever a page names its player (the waiting room,
// the lobby's open tables; at the table the strip, log, score tables and
// chips, the round's end, the game's end), from a 360-pixel phone to a
// desktop and a phone on its side: it breaks inside the word rather than
// be cut or push the page wider than the screen. Neither guest's page logs
// an error.
func TestLongNameFits(t *testing.T) {
	name := strings.Repeat("W", playername.MaxLen)
	srv := newServer(t)
	check := func(p *page, what string) {
		for _, s := range []size{desktop, {820, 1180, true}, phone, narrow, landscape} {
			p.resize(s)
			p.frames()
			if bad := eval[[]string](p, fmt.Sprintf("%s(%q)", nameCutJS, name)); len(bad) > 0 {
				t.Errorf("%s at %s:\n  %s", what, s, strings.Join(bad, "\n  "))
			}
			if s == desktop || s == narrow {
				p.screenshot(fmt.Sprintf("long-name-%s-%s", strings.ReplaceAll(what, " ", "-"), s))
			}
		}
		p.resize(desktop)
	}
	p := newPage(t, srv, "W", desktop.w, desktop.h)
	p.open("/g/" + srv.create(t, "", "", "easy"))
	p.join(name)
	waitFor[bool](p, "the name in the waiting room", `document.querySelector("#open-seats").textContent.includes(`+fmt.Sprintf("%q", name)+`)`, 10*time.Second)
	check(p, "waiting")
	q := newPage(t, srv, "Q", desktop.w, desktop.h)
	q.open("/")
	waitFor[bool](q, "the open table in the lobby", `[...document.querySelectorAll(".chips .chip")].some((c) => c.textContent === `+fmt.Sprintf("%q", name)+`)`, 10*time.Second)
	check(q, "lobby")

	p.open("/g/" + srv.create(t, "", "easy", "easy"))
	p.join(name)
	p.playTo("the end of round 1", spending, func(st tableState) bool { return st.Overlay == 1 })
	check(p, "round end")
	p.playTo("the end", spending, func(tableState) bool { return false })
	waitFor[bool](p, "the final table", `!!document.querySelector("#final-table")`, 5*time.Second)
	check(p, "game end")
	// Guests both, neither page logged an error (a guest's request of an
	// account it has not was one).
	for _, pg := range []*page{p, q} {
		if errs := pg.consoleErrors(); len(errs) > 0 {
			t.Errorf("a guest's page logged errors:\n%s", strings.Join(errs, "\n"))
		}
	}
}
