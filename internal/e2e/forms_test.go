package e2e

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
)

// holdScript makes the page's requests for the script whose path ends in
// /js/name wait, as on a slow phone's network, until release is called.
// Every module the page imports waits with it: nothing of the page's code
// runs meanwhile.
func (p *page) holdScript(name string) (release func()) {
	p.t.Helper()
	return p.hold("*/js/"+name, name)
}

// hold makes the page's requests whose address matches pattern (Chrome's
// wildcards) wait until release is called; what names them in errors.
func (p *page) hold(pattern, what string) (release func()) {
	p.t.Helper()
	var mu sync.Mutex
	var held []fetch.RequestID
	released := false
	if err := chromedp.Listen(p.ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			mu.Lock()
			held = append(held, e.RequestID)
			mu.Unlock()
		}
	}); err != nil {
		p.fail("listening for held requests: %v", err)
	}
	if _, err := chromedp.Call(p.ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: pattern}}}); err != nil {
		p.fail("holding %s: %v", what, err)
	}
	return func() {
		p.t.Helper()
		if released {
			return
		}
		released = true
		if _, err := chromedp.Call(p.ctx, fetch.Disable, cdp.Empty{}); err != nil {
			p.fail("releasing %s: %v", what, err)
		}
		mu.Lock()
		ids := held
		held = nil
		mu.Unlock()
		for _, id := range ids {
			// A request of a document left meanwhile is gone: no matter.
			chromedp.Call(p.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
		}
	}
}

// navigate starts loading a path of the server without waiting for the
// page's scripts (open waits for them).
func (p *page) navigate(path string) {
	p.t.Helper()
	if _, err := chromedp.Call(p.ctx, cdppage.Navigate, cdppage.NavigateParams{URL: p.srv.URL + path}); err != nil {
		p.fail("navigate to %s: %v", path, err)
	}
}

// requests records the URL of every request the page sends and every
// document it shows, from now on.
func (p *page) requests() func() []string {
	p.t.Helper()
	var mu sync.Mutex
	var urls []string
	if err := chromedp.Listen(p.ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			urls = append(urls, e.Request.URL+e.Request.URLFragment)
		case *cdppage.EventFrameNavigated:
			urls = append(urls, e.Frame.URL+e.Frame.URLFragment)
		case *cdppage.EventNavigatedWithinDocument:
			urls = append(urls, e.URL)
		}
	}); err != nil {
		p.fail("listening for requests: %v", err)
	}
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), urls...)
	}
}

// mouseClick clicks an element with the mouse at once, ready or not, as
// an impatient person does (click waits for the page's forms).
func (p *page) mouseClick(selector string) {
	p.t.Helper()
	p.do("click "+selector, chromedp.Click(chromedp.CSS(selector), chromedp.NodeVisible))
}

// TestFormsBeforeTheirScript: a form whose script has not come yet (a slow
// phone's network) neither submits itself natively, which would reload
// the page with what was typed in its address (a password into the
// history and the server's logs) and lose the click, nor looks ready: its
// submit button is visibly disabled, and works once the script has come.
func TestFormsBeforeTheirScript(t *testing.T) {
	srv := newServer(t)
	const password = "correct horse battery staple"
	if _, err := srv.Client().Register(t.Context(), "Eve", password); err != nil {
		t.Fatal(err)
	}
	p := newPage(t, srv, "Eve", phone.w, phone.h)
	p.resize(phone)
	seen := p.requests()

	// The lobby's guided game, tapped, and asked for with Enter, before the
	// lobby's script came.
	release := p.holdScript("lobby.js")
	p.navigate("/")
	// Measured once the page's styles have come, as the browser first
	// paints it (a busy machine let the script measure before).
	waitFor[bool](p, "the learn button, styled", shown("#learn")+` && [...document.querySelectorAll('link[rel="stylesheet"]')].every((l) => l.sheet)`, 10*time.Second)
	p.notReady("#learn", "the lobby's script held")
	// Its buttons too (Rules, Refresh) look as waiting, not ready.
	p.buttonsNotReady("the lobby's script held", "#rules-button", "#refresh")
	// Where a person taps: the lobby's lists, come, move nothing below them.
	learnAt := `(() => { const r = document.querySelector("#learn").getBoundingClientRect(); return r.top + scrollY; })()`
	before := eval[float64](p, learnAt)
	p.do("scroll to the learn form", chromedp.ScrollIntoView(chromedp.CSS("#learn-form")))
	p.screenshotViewport("forms-lobby-held-" + phone.String())
	p.mouseClick("#learn")
	p.do("type a name and Enter", chromedp.SendKeys(chromedp.CSS("#learn-name"), "Ann\r"))
	p.settled()
	release()
	waitFor[bool](p, "the learn button ready", `!document.querySelector("#learn").disabled`, 10*time.Second)
	waitFor[bool](p, "the lobby's buttons ready", `!document.querySelector("[data-unwired]") && getComputedStyle(document.querySelector("#refresh")).opacity === "1"`, 10*time.Second)
	waitFor[bool](p, "the lobby's lists", `!document.querySelector("#main .pending") && `+shown("#seeks-open li")+" && "+shown("#challenge-guest"), 10*time.Second)
	p.frames()
	if after := eval[float64](p, learnAt); after != before {
		p.fail("the learn button moved from %v to %v px when the lobby's lists came", before, after)
	}
	p.screenshotViewport("forms-lobby-ready-" + phone.String())
	for _, u := range seen() {
		if strings.Contains(u, "name=") {
			p.fail("the learn form was submitted natively: %s (all: %q)", u, seen())
		}
	}
	p.click("#learn")
	waitFor[bool](p, "the guided game", `location.pathname.startsWith("/g/")`, 15*time.Second)
	// The lobby's buttons stay where they were at its load event, for a
	// guest here and a signed-in person below, on a phone and a desktop.
	for _, s := range []size{phone, desktop} {
		p.lobbyStill(s, "guest")
	}
	p.resize(phone)

	// The sign-in form, filled and submitted by a password manager before
	// the account page's script came.
	release = p.holdScript("account.js")
	p.navigate("/account")
	waitFor[bool](p, "the account page's loading state", shown("#account-status")+` && document.querySelector("#account-status").textContent.trim() !== ""`, 10*time.Second)
	p.screenshotViewport("forms-account-loading-" + phone.String())
	p.notReady("#signin", "the account page's script held")
	p.buttonsNotReady("the account page's script held", "#signin-passkey", "#register-passkey")
	eval[bool](p, `(() => {
  document.querySelector("#signin-name").value = "Eve";
  document.querySelector("#signin-password").value = "`+password+`";
  document.querySelector("#signin").click();
  return true;
})()`)
	p.settled()
	release()
	p.signedOut()
	waitFor[bool](p, "the sign-in button ready", `!document.querySelector("#signin").disabled`, 10*time.Second)
	p.setSelect("#signin-name", "Eve")
	p.setSelect("#signin-password", password)
	p.click("#signin")
	p.signedIn("Eve")
	p.missesSwallowed()
	// A game waits for Eve's move: her lobby shows it first, in view.
	turn := srv.waitingFor(t, "Eve", password)
	for _, s := range []size{phone, desktop} {
		p.lobbyStill(s, "signed-in")
		p.turnFirst(s, turn)
	}
	for _, u := range append(seen(), eval[string](p, `location.href`)) {
		for _, secret := range []string{"password=", strings.ReplaceAll(password, " ", "+"), strings.ReplaceAll(password, " ", "%20")} {
			if strings.Contains(u, secret) {
				p.fail("the password reached a URL: %s", u)
			}
		}
	}
}

// settled waits two frames of the page, or of the page it went to.
func (p *page) settled() {
	p.t.Helper()
	waitFor[bool](p, "two frames", `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, 10*time.Second)
}

// missesSwallowed checks the harness's guard (aim): a press that lands
// beside the target the harness aims at, because the page moved, is
// swallowed before the page sees it, and told.
func (p *page) missesSwallowed() {
	p.t.Helper()
	eval[bool](p, `(() => {
  const d = document.createElement("div");
  d.id = "decoy";
  d.style.cssText = "position: fixed; left: 0; top: 0; width: 100px; height: 100px; z-index: 99";
  d.addEventListener("click", () => { window.__decoyClicked = true; });
  document.body.append(d);
  window.__aim = { selector: "#signout", missed: "" };
  return true;
})()`)
	p.do("press beside the target", chromedp.MouseClickXY(50, 50))
	got := eval[string](p, `(() => { const m = window.__aim.missed; window.__aim = null; document.querySelector("#decoy").remove(); return (window.__decoyClicked ? "the decoy clicked; " : "") + m; })()`)
	if got != "click on div#decoy" {
		p.fail("a press beside the aim: %q, want it swallowed and told (click on div#decoy)", got)
	}
}

// notReady checks, while the page's script is held, that a submit
// button is disabled and, once the page's style has come, looks it.
func (p *page) notReady(selector, why string) {
	p.t.Helper()
	waitFor[bool](p, why+": "+selector+" disabled and dimmed", `(() => {
  const b = document.querySelector(`+jsString(selector)+`);
  return b.disabled && getComputedStyle(b).opacity === "0.5";
})()`, 10*time.Second)
}

// buttonsNotReady checks, while the page's script is held, that buttons
// of type button are marked as waiting for it and look it (forms.js).
func (p *page) buttonsNotReady(why string, selectors ...string) {
	p.t.Helper()
	for _, sel := range selectors {
		waitFor[bool](p, why+": "+sel+" dimmed and marked", `(() => {
  const b = document.querySelector(`+jsString(sel)+`);
  return b.hasAttribute("data-unwired") && b.getAttribute("aria-disabled") === "true" && getComputedStyle(b).opacity === "0.5";
})()`, 10*time.Second)
	}
}

// jsString quotes s for a script.
func jsString(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "\\`") + "`"
}

// lobbyStill opens the lobby at the size with the server's answers held
// (a slow network), notes where its primary buttons are at the page's
// load event, lets the answers come and checks that none moved once the
// lists and the person's account have come: a person taps them at once.
func (p *page) lobbyStill(s size, who string) {
	p.t.Helper()
	const rects = `["#learn", "#playnow-submit", "#create"].map((s) => { const r = document.querySelector(s).getBoundingClientRect();
  return s + " " + (r.left + scrollX) + "," + (r.top + scrollY); })`
	p.resize(s)
	release := p.hold("*/api/*", "the server's answers")
	p.navigate("/")
	waitFor[bool](p, "the lobby's load event", `document.readyState === "complete" && !!document.querySelector("#learn")`, 10*time.Second)
	p.frames()
	before := eval[[]string](p, rects)
	p.screenshotViewport("lobby-load-" + who + "-" + s.String())
	release()
	account := map[string]string{"guest": shown("#challenge-guest"), "signed-in": shown("#challenge-form")}[who]
	waitFor[bool](p, "the lobby's lists and the account", `!document.querySelector("[data-unwired]") && !document.querySelector("#main .pending") && `+
		shown("#seeks-open li")+` && document.querySelectorAll("#seat-list li").length > 0 && `+account, 10*time.Second)
	p.frames()
	after := eval[[]string](p, rects)
	p.screenshotViewport("lobby-ready-" + who + "-" + s.String())
	if !slices.Equal(after, before) {
		p.fail("%s at %s: the lobby's buttons moved after the load event, from %q to %q", who, s, before, after)
	}

	// Others' requests come and go (and, to a signed-in person, a
	// challenge comes): the buttons stay where they were, and so does the
	// panel past the requests (who is online, with their buttons).
	const past = `["#online-h"].map((s) => s + " " + (document.querySelector(s).getBoundingClientRect().top + scrollY))`
	side := eval[[]string](p, past)
	still := func(what string) {
		p.t.Helper()
		eval[bool](p, `(scrollTo(0, 0), true)`)
		p.frames()
		if now := eval[[]string](p, rects); !slices.Equal(now, before) {
			p.fail("%s at %s: the lobby's buttons moved when %s, from %q to %q", who, s, what, before, now)
		}
		if now := eval[[]string](p, past); !slices.Equal(now, side) {
			p.fail("%s at %s: the panels past the requests moved when %s, from %q to %q", who, s, what, side, now)
		}
	}
	gone := p.requestsCome(s, who)
	still("requests came")
	if s.phone {
		// Listed past the forms, the requests are a tap away from the line
		// that counts them under Play now.
		if got := p.text("#seeks-jump"); got != "Open requests: 2" {
			p.fail("%s at %s: the line under Play now says %q", who, s, got)
		}
		p.click("#seeks-jump")
		waitFor[bool](p, "the requests in view", inView("#seeks-open .seek"), 10*time.Second)
		p.screenshotViewport("lobby-requests-list-" + who + "-" + s.String())
	}
	if who == "signed-in" {
		gone = append(gone, p.challengeComes(s, "Eve"))
		still("a challenge came")
	}
	p.screenshotViewport("lobby-requests-" + who + "-" + s.String())
	for _, f := range gone {
		f()
	}
	waitFor[bool](p, "the requests gone", `!document.querySelector("#seeks-open .seek") && `+shown("#seeks-open .none"), 10*time.Second)
	still("requests went")
	p.do("scroll to the requests", chromedp.ScrollIntoView("#requests"))
	p.screenshotViewport("lobby-requests-none-" + who + "-" + s.String())
}

// requestsCome makes two open requests of others that cannot be paired
// together (a guest's each, online in a lobby) and waits until the page
// lists them; calling each of gone cancels one.
func (p *page) requestsCome(s size, who string) (gone []func()) {
	p.t.Helper()
	ctx := p.t.Context()
	for i, req := range []protocol.SeekRequest{{Min: 2, Pace: "rapid"}, {Min: 5, Pace: "blitz", BotsAfter: 120}} {
		c := p.srv.Client()
		req.Name = fmt.Sprintf("%s%d%c", []string{"Rex", "Sue"}[i], s.w, who[0])
		conn, err := c.DialLobby(ctx, req.Name)
		if err != nil {
			p.fail("%s's lobby: %v", req.Name, err)
		}
		seek, err := c.Seek(ctx, req)
		if err != nil {
			p.fail("%s's request: %v", req.Name, err)
		}
		gone = append(gone, func() {
			if _, err := c.CancelSeek(ctx, seek.ID); err != nil {
				p.fail("cancelling %s's request: %v", req.Name, err)
			}
			conn.Close()
		})
	}
	waitFor[bool](p, "two open requests", `document.querySelectorAll("#seeks-open .seek").length === 2`, 10*time.Second)
	return gone
}

// challengeComes makes a challenge to the person from another, online
// in a lobby, and waits until the page lists it; gone withdraws it.
func (p *page) challengeComes(s size, to string) (gone func()) {
	p.t.Helper()
	ctx := p.t.Context()
	c := p.srv.Client()
	name := fmt.Sprintf("Ted%d", s.w)
	if _, err := c.Register(ctx, name, "correct horse battery staple"); err != nil {
		p.fail("registering %s: %v", name, err)
	}
	conn, err := c.DialLobby(ctx, "")
	if err != nil {
		p.fail("%s's lobby: %v", name, err)
	}
	ch, err := c.Challenge(ctx, protocol.ChallengeRequest{To: []string{to}, Pace: "rapid"})
	if err != nil {
		p.fail("%s's challenge: %v", name, err)
	}
	waitFor[bool](p, "the challenge listed", shown("#challenges-list .challenge-open"), 10*time.Second)
	return func() {
		if _, err := c.CancelChallenge(ctx, ch.ID); err != nil {
			p.fail("cancelling %s's challenge: %v", name, err)
		}
		conn.Close()
	}
}

// waitingFor makes a game of the account's against a bot, untimed, and
// waits until it is the account's move; it returns the game.
func (s *server) waitingFor(t *testing.T, name, password string) string {
	t.Helper()
	ctx := t.Context()
	c := s.Client()
	if _, err := c.SignIn(ctx, name, password); err != nil {
		t.Fatal(err)
	}
	g, _, err := c.CreateTable(ctx, client.Table{Seats: []string{"", "easy"}, Pace: "untimed"})
	if err != nil {
		t.Fatal(err)
	}
	_, token, err := c.Join(ctx, g.ID, "", -1)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := c.Dial(ctx, g.ID, token)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for {
		st, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("waiting for %s's move at %s: %v", name, g.ID, err)
		}
		if st.MyTurn() {
			return g.ID
		}
	}
}

// turnFirst checks that the lobby, as lobbyStill left it, shows the
// signed-in person's game waiting for their move whole in the viewport
// without a scroll, as a link to it, above the forms.
func (p *page) turnFirst(s size, game string) {
	p.t.Helper()
	eval[bool](p, `(scrollTo(0, 0), true)`)
	p.frames()
	if !eval[bool](p, inView("#turn.is-turn #turn-game")) {
		p.fail("at %s the game waiting for the move is not in the viewport at the lobby's top: %q", s, eval[string](p, `document.querySelector("#turn")?.outerHTML || "no #turn"`))
	}
	if got := eval[string](p, `document.querySelector("#turn-game").getAttribute("href")`); got != "/g/"+game {
		p.fail("at %s the line of the game waiting goes to %q, want /g/%s", s, got, game)
	}
	if text := p.text("#turn-game"); !strings.Contains(text, "Your turn") {
		p.fail("at %s the line of the game waiting says %q", s, text)
	}
	if !eval[bool](p, `document.querySelector("#turn").getBoundingClientRect().bottom <= document.querySelector("#playnow-submit").getBoundingClientRect().top`) {
		p.fail("at %s the game waiting is not above Play now", s)
	}
	p.screenshotViewport("lobby-turn-" + s.String())
}
