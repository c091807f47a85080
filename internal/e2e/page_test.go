package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestDutch switches a table to Dutch with #lang: the page says so in
// html[lang], the table speaks the Dutch rulebook's words, and the choice
// outlives a reload.
func TestDutch(t *testing.T) {
	srv := newServer(t)
	nl := srv.catalogue(t, "nl")
	en := srv.catalogue(t, "en")
	// The catalogue is the Dutch one (De Spelfabriek's rulebook words).
	if nl["card.police"] != "agent" || nl["card.bodyguard"] != "lijfwacht" {
		t.Fatalf("the nl catalogue says police %q, bodyguard %q", nl["card.police"], nl["card.bodyguard"])
	}
	id := srv.create(t, "", "easy", "easy")
	p := newPage(t, srv, "Anna", 1280, 900)
	p.open("/g/" + id)
	p.join("Anna")
	p.play(6)
	waitForTurn(p)

	p.setSelect("#lang", "nl")
	waitFor[bool](p, "html[lang=nl]", `document.documentElement.lang === "nl"`, 5*time.Second)
	// The server tells the events: the page asks again in Dutch, and the
	// whole log is Dutch.
	waitFor[bool](p, "the log in Dutch", `(() => { const l = document.querySelector("#log");
  return !!l && l.textContent.includes(" trekt ") && !l.textContent.includes(" draws "); })()`, 10*time.Second)
	check := func(when string) {
		t.Helper()
		text := strings.ToLower(eval[string](p, `document.querySelector("#table").textContent`))
		for _, key := range []string{"card.police"} {
			if w := strings.ToLower(nl[key]); !strings.Contains(text, w) {
				t.Errorf("%s: the table lacks %s %q", when, key, w)
			}
		}
		// Every card in the row is named in Dutch.
		view := eval[[]string](p, `[...document.querySelectorAll("#table [data-card], #table [data-kind]")].map((e) => e.dataset.card || e.dataset.kind)`)
		named := 0
		for _, k := range view {
			if w, ok := nl["card."+k]; ok && strings.Contains(text, strings.ToLower(w)) {
				named++
			}
		}
		if len(view) > 0 && named == 0 {
			t.Errorf("%s: none of the cards %v is named in Dutch", when, view)
		}
		// English words that differ from the Dutch ones are gone.
		for _, key := range []string{"card.police", "card.bodyguard", "web.move.draw", "web.move.pass"} {
			if w := strings.ToLower(en[key]); w != "" && w != strings.ToLower(nl[key]) && strings.Contains(text, w) {
				t.Errorf("%s: the table still says %q (English %s)", when, w, key)
			}
		}
		if st := p.state(); len(st.Legal) == 0 {
			t.Errorf("%s: no move buttons after the switch: %+v", when, st)
		}
	}
	check("after the switch")
	if got := eval[string](p, `localStorage.getItem("razzia.lang")`); got != "nl" {
		t.Errorf("localStorage razzia.lang = %q, want nl", got)
	}
	p.do("reload", chromedp.Reload())
	waitFor[bool](p, "html[lang=nl] after the reload", `document.documentElement.lang === "nl"`, 5*time.Second)
	waitForTurn(p)
	check("after a reload")
	if v := eval[string](p, `document.querySelector("#lang").value`); v != "nl" {
		t.Errorf("#lang shows %q after the reload", v)
	}
	// The lobby too.
	p.open("/")
	waitFor[bool](p, "the lobby in Dutch", `document.documentElement.lang === "nl"`, 5*time.Second)
}

// noOverflow fails the test when the page is wider than the viewport, and
// names the widest elements that stick out.
func (p *page) noOverflow(what string, width int) {
	p.t.Helper()
	out := eval[[]string](p, fmt.Sprintf(`(() => {
  if (document.documentElement.scrollWidth <= %d) return [];
  const out = [];
  for (const e of document.querySelectorAll("body *")) {
    const r = e.getBoundingClientRect();
    if (r.right > %[1]d + 1 && r.width > 0) out.push(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && typeof e.className === "string" ? "." + e.className.trim().split(/\s+/).join(".") : "") + " right=" + Math.round(r.right));
  }
  return out.slice(0, 12);
})()`, width))
	if len(out) > 0 {
		p.t.Errorf("%s is wider than %d px; sticking out: %s", what, width, strings.Join(out, ", "))
	}
}

// screenshotViewport saves a PNG of what the viewport shows (see
// screenshots).
func (p *page) screenshotViewport(name string) {
	p.t.Helper()
	if !screenshots() {
		return
	}
	buf, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.fail("screenshot %s: %v", name, err)
	}
	p.save(name, buf)
}

// TestUnknownInvite: a dead invite link explains itself in words, in the
// reader's language, and offers no table.
func TestUnknownInvite(t *testing.T) {
	srv := newServer(t)
	p := newPage(t, srv, "guest", 1280, 900)
	p.open("/g/aaaaaaaaaa")
	// The explanation is in #gone (the page's "no such game" panel) or in
	// #status-message.
	const explanation = `(() => {
  for (const id of ["gone", "status-message"]) {
    const e = document.getElementById(id);
    if (e && !e.hidden && e.getClientRects().length > 0 && e.innerText.trim()) return e.innerText.trim();
  }
  return "";
})()`
	english := waitFor[string](p, "an explanation", explanation, 5*time.Second)
	if keyLike.MatchString(english) || len(english) < 20 {
		t.Errorf("the explanation is %q", english)
	}
	st := p.state()
	if len(st.Legal) > 0 || st.Status == "playing" {
		t.Errorf("an unknown game shows a table: %+v", st)
	}
	if eval[bool](p, `(() => { const b = document.querySelector("#join"); return !!b && b.getClientRects().length > 0; })()`) {
		t.Error("an unknown game offers to join")
	}
	p.setSelect("#lang", "nl")
	dutch := waitFor[string](p, "the explanation in Dutch", fmt.Sprintf(`document.documentElement.lang === "nl" && (%s) !== %q && (%[1]s)`, explanation, english), 5*time.Second)
	if keyLike.MatchString(dutch) {
		t.Errorf("the Dutch explanation is %q", dutch)
	}
}

// keyLike matches a catalogue key shown instead of its text.
var keyLike = regexp.MustCompile(`\b(web|error|term|card|event)\.[a-z_]+(\.[a-z_]+)*\b`)

// TestIllegalMove sends a move the table does not offer through the
// page's own WebSocket, as someone typing into the console would: the page
// says it was refused, and the table stays as it was and playable.
func TestIllegalMove(t *testing.T) {
	srv := newServer(t)
	en := srv.catalogue(t, "en")
	id := srv.create(t, "", "easy")
	p := newPage(t, srv, "Ann", 1280, 900)
	p.open("/g/" + id)
	p.join("Ann")
	before := waitForTurn(p)
	sent := eval[bool](p, fmt.Sprintf(`(() => {
  const ws = window.__tableSocket();
  if (!ws || ws.readyState !== WebSocket.OPEN) return false;
  ws.send(JSON.stringify({type: "move", move: "bid 99", seq: %d}));
  return true;
})()`, before.Moves))
	if !sent {
		t.Fatal("the page has no open WebSocket")
	}
	msg := waitFor[string](p, "the refusal in #status-message",
		`(() => { const m = document.querySelector("#status-message"); return m && m.innerText.trim(); })()`, 5*time.Second)
	if want := en["error.illegal_move"]; want != "" && !strings.Contains(msg, want) {
		t.Errorf("#status-message says %q, want it to contain %q", msg, want)
	}
	after := p.state()
	if after.Moves != before.Moves || after.Seat != before.Seat || after.ToMove != before.ToMove || strings.Join(after.Legal, "|") != strings.Join(before.Legal, "|") {
		t.Errorf("the table changed: before %+v, after %+v", before, after)
	}
	// It still plays.
	p.move(after, choose(after.Legal))
}
