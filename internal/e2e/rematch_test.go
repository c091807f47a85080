package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/table"
)

// visibleJS reports why the element the selector finds is not wholly in
// the viewport without scrolling, and not covered at its centre; "" when
// it is.
func visibleJS(selector string) string {
	return fmt.Sprintf(`(() => {
  const el = document.querySelector(%q);
  if (!el) return "missing";
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return "no size";
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
    return "outside the viewport: " + [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit === el || el.contains(hit) ? "" : "covered";
})()`, selector)
}

// wantVisible fails unless the element is on screen without scrolling.
func (p *page) wantVisible(what, selector string) {
	p.t.Helper()
	if why := eval[string](p, visibleJS(selector)); why != "" {
		p.screenshot(strings.ReplaceAll(what, " ", "-"))
		p.fail("%s (%s) is not visible without scrolling: %s", what, selector, why)
	}
}

// TestRematchPage plays a game against a bot at a desktop's and a phone's
// size: at its end the rematch button is on screen without scrolling;
// the bot accepts, the page goes on to the new table by itself, where the
// guest's seat carried over, and each game links to the other.
func TestRematchPage(t *testing.T) {
	srv := newServer(t)
	for _, s := range []size{desktop, phone} {
		t.Run(s.String(), func(t *testing.T) {
			id := srv.create(t, "", "easy")
			p := newPage(t, srv, "Ann", s.w, s.h)
			p.resize(s)
			p.open("/g/" + id)
			seat := p.join("Ann")
			if st := p.play(-1); st.Phase != "over" {
				t.Fatalf("the game did not end: %+v", st)
			}
			waitFor[bool](p, "the rematch button", `!!document.querySelector("#rematch-offer")`, 10*time.Second)
			eval[bool](p, `(scrollTo(0, 0), true)`)
			p.wantVisible("the rematch button", "#rematch-offer")
			p.screenshot("rematch-offer-" + s.String())
			p.click("#rematch-offer")
			next := waitFor[string](p, "the rematch's table", `(() => {
  const m = location.pathname.match(/^\/g\/([a-z2-7]{10})$/);
  return m && m[1] !== `+fmt.Sprintf("%q", id)+` ? m[1] : "";
})()`, 15*time.Second)
			got := waitFor[int](p, "a seat at the rematch", `(() => { const t = document.querySelector("#table");
  return t && t.dataset.status === "playing" ? Number(t.dataset.seat) + 1 : 0; })()`, 10*time.Second) - 1
			if got != seat {
				t.Errorf("Ann's seat at the rematch %s is %d, want %d (carried over)", next, got, seat)
			}
			link := waitFor[string](p, "the link to the old game", `(() => { const a = document.querySelector("#rematch-link");
  return a && a.getClientRects().length > 0 ? a.getAttribute("href") : ""; })()`, 5*time.Second)
			if link != "/g/"+id {
				t.Errorf("the rematch links to %q, want /g/%s", link, id)
			}
			p.screenshot("rematch-new-" + s.String())
			p.open("/g/" + id)
			back := waitFor[string](p, "the old game's link to the rematch", `(() => { const a = document.querySelector("#rematch-link");
  return a && a.getClientRects().length > 0 ? a.getAttribute("href") : ""; })()`, 5*time.Second)
			if back != "/g/"+next {
				t.Errorf("the old game links to %q, want /g/%s", back, next)
			}
		})
	}
}

// TestLeaveAndTakeBack: a player leaves the table with the leave button,
// which asks first, saying a bot plays and the seat can be taken back;
// the bot plays for them, and the take-back button gives them the seat
// again. Bots think a moment, so the game lasts while the test looks.
func TestLeaveAndTakeBack(t *testing.T) {
	srv := &server{servertest.New(t, servertest.Options{Page: true, LevelBots: true, Hub: table.Options{BotDelay: 400 * time.Millisecond}})}
	for _, s := range []size{desktop, phone} {
		t.Run(s.String(), func(t *testing.T) {
			id := srv.create(t, "", "easy")
			p := newPage(t, srv, "Ann", s.w, s.h)
			p.resize(s)
			p.open("/g/" + id)
			p.join("Ann")
			waitFor[bool](p, "the leave button", `!!document.querySelector("#leave")`, 10*time.Second)
			eval[bool](p, `(document.querySelector("#leave").scrollIntoView({block: "nearest"}), true)`)
			p.wantVisible("the leave button", "#leave")
			p.click("#leave")
			confirm := waitFor[string](p, "the confirmation", `(() => { const c = document.querySelector("#leave-confirm"); return c ? c.textContent : ""; })()`, 5*time.Second)
			cat := srv.catalogue(t, "en")
			if !strings.Contains(confirm, cat["web.leave.confirm"]) {
				t.Errorf("the confirmation says %q, want %q", confirm, cat["web.leave.confirm"])
			}
			p.wantVisible("the confirmation", "#leave-yes")
			p.screenshot("leave-confirm-" + s.String())
			p.click("#leave-yes")
			waitFor[bool](p, "the take-back button", `!!document.querySelector("#take-back")`, 10*time.Second)
			if note := p.text(".standin-note p"); note != cat["web.standin.left"] {
				t.Errorf("after leaving the page says %q, want %q", note, cat["web.standin.left"])
			}
			eval[bool](p, `(document.querySelector("#take-back").scrollIntoView({block: "nearest"}), true)`)
			p.wantVisible("the take-back button", "#take-back")
			p.screenshot("leave-takeback-" + s.String())
			p.click("#take-back")
			waitFor[bool](p, "the seat back", `!document.querySelector("#take-back") && !document.querySelector(".badge-standin") && !!document.querySelector("#leave")`, 10*time.Second)
			waitForTurn(p)
		})
	}
}

// TestRematchTwoPlayers: two people finish a game; Ann offers a rematch
// at a desktop's size, Bob, on a phone, sees the offer with its answers
// on screen without scrolling and accepts; both pages go on to the new
// table, each with the seat it had.
func TestRematchTwoPlayers(t *testing.T) {
	srv := newServer(t)
	id := srv.create(t, "", "", "easy")
	ann := newPage(t, srv, "Ann", desktop.w, desktop.h)
	ann.open("/g/" + id)
	annSeat := ann.join("Ann")
	bob := newPage(t, srv, "Bob", phone.w, phone.h)
	bob.resize(phone)
	bob.open("/g/" + id)
	bobSeat := bob.join("Bob")
	playTogether(t, ann, bob)
	waitFor[bool](ann, "the rematch button", `!!document.querySelector("#rematch-offer")`, 10*time.Second)
	ann.click("#rematch-offer")
	waitFor[string](ann, "the offer waiting for Bob", `(() => { const s = document.querySelector("#rematch-state");
  return s && s.dataset.state === "open" ? s.textContent : ""; })()`, 10*time.Second)
	offer := waitFor[string](bob, "Ann's offer at Bob's", `(() => { const s = document.querySelector("#rematch-state");
  return s && document.querySelector("#rematch-accept") ? s.textContent : ""; })()`, 10*time.Second)
	if !strings.Contains(offer, "Ann offers a rematch") {
		t.Errorf("Bob is told %q", offer)
	}
	eval[bool](bob, `(scrollTo(0, 0), true)`)
	bob.wantVisible("the accept button", "#rematch-accept")
	bob.wantVisible("the decline button", "#rematch-decline")
	bob.screenshot("rematch-answer-phone")
	bob.click("#rematch-accept")
	for _, p := range []struct {
		page *page
		seat int
	}{{ann, annSeat}, {bob, bobSeat}} {
		next := waitFor[string](p.page, "the rematch's table", `(() => {
  const m = location.pathname.match(/^\/g\/([a-z2-7]{10})$/);
  return m && m[1] !== `+fmt.Sprintf("%q", id)+` ? m[1] : "";
})()`, 15*time.Second)
		got := waitFor[int](p.page, "a seat at the rematch", `(() => { const t = document.querySelector("#table");
  return t && t.dataset.status === "playing" ? Number(t.dataset.seat) + 1 : 0; })()`, 10*time.Second) - 1
		if got != p.seat {
			t.Errorf("%s's seat at the rematch %s is %d, want %d", p.page.name, next, got, p.seat)
		}
	}
}
