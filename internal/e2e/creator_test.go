package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/razziagame/razzia/internal/protocol"
)

// TestCreatorSeated: on a phone, the lobby's first seat is the creator's
// own; creating the table seats them under the name they gave, so the
// waiting page opens with their seat taken and the invite link on
// screen, and no join form. A name the server refuses is told at the
// lobby, and the table made for it is closed again. Who comes by the
// invite link finds the join form in sight.
func TestCreatorSeated(t *testing.T) {
	srv := newServer(t)
	p := newPage(t, srv, "Ann", phone.w, phone.h)
	p.resize(phone)
	p.open("/")
	waitFor[bool](p, "the lobby's form", `document.querySelectorAll('select[name="seat-2"] option').length > 2`, 10*time.Second)
	if got := eval[string](p, `document.querySelector("#seat-1").value`); got != "you" {
		t.Errorf("the first seat is %q, want the creator's own (you)", got)
	}
	p.setSelect("#players", "3")
	p.setSelect("#seat-2", "")
	p.setSelect("#seat-3", "easy")
	p.accessible("the lobby's form")

	// A bot's name is not a person's: refused, said, and no table left.
	p.do("type a bot's name", chromedp.SendKeys(chromedp.CSS("#create-name"), "Bot 1 (easy)"))
	p.click("#create")
	refusal := waitFor[string](p, "the refusal at the lobby", `(() => { const e = document.querySelector("#create-error"); return !e.hidden && e.textContent.trim(); })()`, 10*time.Second)
	if !strings.HasPrefix(eval[string](p, `location.pathname`), "/") || eval[string](p, `location.pathname`) != "/" {
		t.Errorf("a refused name left the lobby for %s", eval[string](p, `location.pathname`))
	}
	var open protocol.ListAnswer
	if code := srv.api(t, "GET", "/api/games?status=open", "", &open); code != http.StatusOK || len(open.Games) != 0 {
		t.Errorf("after the refusal %q, %d open tables are left (status %d)", refusal, len(open.Games), code)
	}

	eval[bool](p, `(() => { document.querySelector("#create-name").value = ""; return true; })()`)
	p.do("type a name", chromedp.SendKeys(chromedp.CSS("#create-name"), "Ann"))
	p.click("#create")
	seat := waitFor[int](p, "the creator seated at the new table", `(() => { const t = document.querySelector("#table");
  return location.pathname.startsWith("/g/") && t && t.dataset.seat !== undefined && t.dataset.seat !== "-1" ? Number(t.dataset.seat) + 1 : 0; })()`, 10*time.Second) - 1
	if seat != 0 {
		t.Errorf("the creator sits at seat %d, want 0", seat)
	}
	waitFor[bool](p, "the waiting page", `(() => { const w = document.querySelector("#waiting"); return !!w && !w.hidden && document.querySelector("#open-seats").textContent.includes("Ann"); })()`, 5*time.Second)
	if eval[bool](p, `(() => { const f = document.querySelector("#join-form"); return !!f && !f.hidden && f.getClientRects().length > 0; })()`) {
		t.Error("the creator, seated, is offered the join form")
	}
	p.onScreen("the waiting page on a phone", "#invite-link", "#open-seats .badge-you")
	p.screenshot("creator-seated-" + phone.String())
	p.accessible("the waiting page of the creator")

	// Who comes by the invite link finds the form to take a seat at once,
	// on a phone held either way.
	id := eval[string](p, `location.pathname.split("/")[2]`)
	bob := newPage(t, srv, "Bob", phone.w, phone.h)
	for _, s := range []size{landscape, phone} {
		bob.resize(s)
		bob.open("/g/" + id)
		waitFor[bool](bob, "the join form", `(() => { const b = document.querySelector("#join"); return !!b && b.getClientRects().length > 0; })()`, 10*time.Second)
		bob.onScreen("the join form at "+s.String(), "#join-name", "#join")
		bob.screenshotViewport("invited-" + s.String())
	}
}
