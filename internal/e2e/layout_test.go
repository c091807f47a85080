package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A size is a viewport: a desktop's or a phone's.
type size struct {
	w, h  int64
	phone bool
}

func (s size) String() string { return fmt.Sprintf("%dx%d", s.w, s.h) }

var (
	desktop   = size{1440, 900, false}
	phone     = size{390, 844, true}
	landscape = size{844, 390, true}
	narrow    = size{360, 780, true}
	tablet    = size{820, 1180, true}
)

// resize sets the viewport, as a window resized or a phone turned would.
func (p *page) resize(s size) {
	p.t.Helper()
	if s.phone {
		p.do("viewport "+s.String(), chromedp.EmulateViewport(s.w, s.h, chromedp.EmulateMobile, chromedp.EmulateTouch))
	} else {
		p.do("viewport "+s.String(), chromedp.EmulateViewport(s.w, s.h))
	}
	// Two frames later the page is laid out at the new size.
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise)); err != nil {
		p.fail("laying out at %s: %v", s, err)
	}
}

// inViewJS lists what a decision needs and the viewport hides: every
// player's strip and face-up cheques, the row, the police track, the
// auction's state and the move buttons, each wholly inside the viewport
// and not covered by anything at its centre (elementFromPoint).
const inViewJS = `(() => {
  const out = [];
  const name = (e) => !e ? "nothing" : e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
    (typeof e.className === "string" && e.className ? "." + e.className.trim().split(/\s+/).join(".") : "");
  const check = (el, what, whole) => {
    if (!el) { out.push(what + " is missing"); return; }
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) { out.push(what + " has no size"); return; }
    if (whole && (r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1)) {
      out.push(what + " is not wholly in the viewport: " + [r.left, r.top, r.right, r.bottom].map(Math.round).join(","));
      return;
    }
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) { out.push(what + " is outside the viewport at " + Math.round(x) + "," + Math.round(y)); return; }
    const hit = document.elementFromPoint(x, y);
    if (!hit || (hit !== el && !el.contains(hit))) out.push(what + " is covered by " + name(hit));
  };
  for (const s of document.querySelectorAll("#seats .strip")) {
    check(s, "seat " + s.dataset.seat + "'s strip", true);
    check(s.querySelector(".strip-name"), "seat " + s.dataset.seat + "'s name");
    for (const c of s.querySelectorAll("[data-cheque]")) check(c, "seat " + s.dataset.seat + "'s cheque " + c.dataset.cheque);
  }
  check(document.querySelector("#row"), "the row", true);
  check(document.querySelector("#police"), "the police track", true);
  if (document.querySelector("#table").dataset.phase === "auction") check(document.querySelector("#auction"), "the auction's state", true);
  const moves = document.querySelectorAll("#moves button[data-move]");
  if (moves.length === 0) out.push("no move buttons");
  for (const b of moves) check(b, "the button " + b.dataset.move, true);
  return out;
})()`

// inView fails the test with what a decision needs and the viewport hides.
func (p *page) inView(what string) {
	p.t.Helper()
	// The cards' places and the focus are set at the frame after a state
	// message: what a person sees is the frame drawn, not the task before.
	p.frames()
	if bad := eval[[]string](p, inViewJS); len(bad) > 0 {
		p.t.Errorf("%s: %s", what, strings.Join(bad, "; "))
	}
}

// bidding is the policy that brings an auction to the page's seat: call
// when the row has cards (the caller decides last), else draw; in an
// auction, pass.
func bidding(st tableState) string {
	if slices.Contains(st.Legal, "call") && slices.Contains(st.Legal, "draw") && st.Row > 0 {
		return "call"
	}
	return choose(st.Legal)
}

// myBid reports whether the page's seat is to bid, with cheques to bid.
func myBid(st tableState) bool {
	return st.Phase == "auction" && st.Seat == st.ToMove && slices.ContainsFunc(st.Legal, func(m string) bool { return strings.HasPrefix(m, "bid ") })
}

// TestAuctionLayout plays into an auction with 2, 4 and 5 players and
// checks, at a desktop's size and a phone's, that every player's strip
// and face-up cheques, the row, the police track, the auction's state and
// the bid buttons are in view and not covered; that the window resized
// or the phone turned mid-auction keeps them so; and that a 360-pixel
// phone does not scroll sideways. Screenshots of each are saved.
func TestAuctionLayout(t *testing.T) {
	for _, n := range []int{2, 4, 5} {
		t.Run(fmt.Sprint(n, " players"), func(t *testing.T) {
			var bots []string
			for i := 1; i < n; i++ {
				bots = append(bots, []string{"easy", "medium"}[i%2])
			}
			p := seated(t, bots...)
			// A turn: the draw and call buttons are in view too.
			p.playTo("a turn", bidding, func(st tableState) bool { return st.Phase == "turn" && slices.Contains(st.Legal, "draw") })
			for _, s := range []size{desktop, phone} {
				p.resize(s)
				p.inView(fmt.Sprintf("a turn with %d players at %s", n, s))
			}
			p.resize(desktop)
			p.playTo("an auction to bid in", bidding, myBid)
			for _, s := range []size{desktop, phone} {
				p.resize(s)
				// Drawn afresh at this size, as a page opened on it is.
				p.do("reload", chromedp.Reload())
				waitFor[bool](p, "the auction after the reload", `!!document.querySelector("#moves button[data-move^='bid ']")`, 10*time.Second)
				p.inView(fmt.Sprintf("%d players at %s", n, s))
				if !s.phone {
					p.onScreen(fmt.Sprintf("the log at %s", s), "#log li:last-child")
				}
				p.screenshotViewport(fmt.Sprintf("auction-%dp-%s", n, s))
			}
			if n != 5 {
				return
			}
			// Turned on its side and back, and resized on a desktop.
			for _, s := range []size{landscape, phone, {1024, 768, false}, desktop} {
				p.resize(s)
				p.inView(fmt.Sprintf("resized to %s", s))
				if s == desktop {
					p.onScreen("the log after resizing", "#log li:last-child")
				}
				if s == landscape {
					p.screenshotViewport("auction-5p-" + s.String())
				}
			}
			p.resize(narrow)
			p.noOverflow("the table in an auction", int(narrow.w))
			p.screenshotViewport("auction-5p-" + narrow.String())
			// Every language's words fit a phone too.
			p.resize(phone)
			for _, lang := range []string{"nl", "it", "hu", "es", "de"} {
				p.setSelect("#lang", lang)
				waitFor[bool](p, "the table in "+lang, fmt.Sprintf(`document.documentElement.lang === %q && !!document.querySelector("#moves button[data-move^='bid ']")`, lang), 10*time.Second)
				p.inView(fmt.Sprintf("in %s at %s", lang, phone))
				p.screenshotViewport(fmt.Sprintf("auction-5p-%s-%s", lang, phone))
			}
		})
	}
}
