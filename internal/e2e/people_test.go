package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/razziagame/razzia/internal/presence"
	"github.com/razziagame/razzia/internal/servertest"
)

// The people around the tables: who is online in the lobby, the notice
// of a followed player coming online, and each seat's presence at the
// table.

// registerHere registers an account from the page p shows (same origin,
// its cookie kept by p's browser).
func (p *page) registerHere(name string) {
	p.t.Helper()
	status, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](fmt.Sprintf(`fetch("/api/account", {method: "POST", headers: {"Content-Type": "application/json"},
  body: JSON.stringify({name: %q, password: "correct horse battery staple"})}).then((r) => r.status)`, name), chromedp.EvalAwaitPromise))
	if err != nil || status != 201 {
		p.fail("registering %s: status %d, %v", name, status, err)
	}
}

// personJS finds a person of the online list by name.
func personJS(name string) string {
	return fmt.Sprintf(`[...document.querySelectorAll("#online-list .person")].find((e) => e.dataset.name === %q)`, name)
}

// peopleServer is newServer whose people go offline a second after their
// last page closed, not eight: the test waits for it.
func peopleServer(t *testing.T) *server {
	t.Helper()
	return &server{servertest.New(t, servertest.Options{Page: true, LevelBots: true, Presence: presence.Options{Linger: time.Second}})}
}

// TestLobbyOnline: the lobby lists the people online (a signed-in player
// with rating and finish rate, a guest playing at a table with a link to
// watch it) with the counts, in the viewport at a desktop's and a phone's
// size; a guest cannot ask to Play now under a player's name; a followed
// player's coming online shows as a notice on any page, and their profile
// says online, then when they were last seen.
func TestLobbyOnline(t *testing.T) {
	srv := peopleServer(t)
	ann := newPage(t, srv, "Ann", desktop.w, desktop.h)
	ann.open("/account")
	ann.registerHere("Ann")
	bob := newPage(t, srv, "Bob", desktop.w, desktop.h)
	bob.open("/account")
	bob.registerHere("Bob")
	bob.open("/")

	// Cy, a guest, plays against two bots.
	id := srv.create(t, "", "easy", "medium")
	cy := newPage(t, srv, "Cy", desktop.w, desktop.h)
	cy.open("/g/" + id)
	cy.join("Cy")

	ann.open("/")
	waitFor[bool](ann, "Cy playing in the online list", personJS("Cy")+`?.dataset.activity === "playing"`, 20*time.Second)
	waitFor[bool](ann, "Bob in the online list", `!!`+personJS("Bob"), 20*time.Second)
	cyText := eval[string](ann, personJS("Cy")+`.innerText`)
	if watch := eval[string](ann, personJS("Cy")+`.querySelector(".person-watch")?.getAttribute("href") || ""`); watch != "/g/"+id {
		t.Errorf("Cy's Watch link goes to %q, want /g/%s (%q)", watch, id, cyText)
	}
	bobText := eval[string](ann, personJS("Bob")+`.innerText`)
	for _, want := range []string{"Bob", "1500?", "in the lobby"} {
		if !strings.Contains(bobText, want) {
			t.Errorf("Bob's line %q does not say %q", bobText, want)
		}
	}
	if !strings.Contains(cyText, "guest") {
		t.Errorf("Cy's line %q does not say guest", cyText)
	}
	// The games in play are counted every few seconds.
	waitFor[bool](ann, "the counts", `document.querySelector("#online-counts").textContent === "Online: 3 · Games in play: 1"`, 20*time.Second)
	for _, s := range []size{desktop, phone} {
		ann.resize(s)
		ann.do("scroll to the list", chromedp.ScrollIntoView(chromedp.CSS("#online-panel")))
		if !eval[bool](ann, inView("#online-list .person")) {
			t.Errorf("at %s the online list is not in the viewport once scrolled to", s)
		}
		ann.noOverflow("the lobby", int(s.w))
		ann.accessible("the lobby's online list at " + s.String())
		ann.screenshotViewport("lobby-online-" + s.String())
	}
	ann.resize(desktop)

	// Cy, a guest, cannot ask to Play now under Bob's name: the form says
	// what to change.
	cy.open("/")
	cy.playNow("bob", "2", "0")
	waitFor[bool](cy, "the name refused", shown("#playnow-error"), 20*time.Second)
	if got := cy.text("#playnow-error"); !strings.HasPrefix(got, "Someone here goes by that name already") {
		t.Errorf("the Play-now form says %q to a guest under Bob's name", got)
	}
	for _, s := range []size{desktop, phone} {
		cy.resize(s)
		cy.do("scroll to the form", chromedp.ScrollIntoView(chromedp.CSS("#playnow-error")))
		if !eval[bool](cy, inView("#playnow-error")) {
			t.Errorf("at %s the refusal is not in the viewport once scrolled to", s)
		}
		cy.screenshotViewport("lobby-playnow-name-" + s.String())
	}
	cy.resize(desktop)

	// Ann follows Bob from his profile; Bob leaves and comes back: a
	// notice on Ann's open page says so, with his profile a click away.
	ann.open("/p/Bob")
	waitFor[bool](ann, "the Follow button", shown("#follow"), 20*time.Second)
	if got := ann.text("#player-online"); got != "Online now" {
		t.Errorf("Bob's profile says %q while he is online", got)
	}
	ann.click("#follow")
	waitFor[bool](ann, "following", `document.querySelector("#follow")?.getAttribute("aria-pressed") === "true"`, 20*time.Second)
	bob.open("/account")
	bob.do("close Bob's page", chromedp.Navigate("about:blank"))
	// Bob's page closed: online still for the linger (a page change), then
	// not; his next page brings him back, and Ann hears of it.
	ann.open("/")
	waitFor[bool](ann, "Bob gone from the list", `!!`+personJS("Ann")+` && !`+personJS("Bob"), 30*time.Second)
	bob.open("/")
	waitFor[bool](ann, "the notice of Bob", `[...document.querySelectorAll("#notices .notice-item")].some((e) => e.dataset.name === "Bob" && e.dataset.kind === "online")`, 20*time.Second)
	if got := ann.text("#notices .notice-item .notice-text"); got != "Bob is online" {
		t.Errorf("the notice reads %q", got)
	}
	if !eval[bool](ann, inView("#notices .notice-item")) {
		t.Error("the notice is not in the viewport")
	}
	waitFor[bool](ann, "Bob back in the list, marked followed", `!!`+personJS("Bob")+`?.classList.contains("person-followed")`, 20*time.Second)
	ann.screenshotViewport("lobby-notice-" + desktop.String())
	bob.do("close Bob's page", chromedp.Navigate("about:blank"))
	waitFor[bool](ann, "Bob gone again", `!!`+personJS("Ann")+` && !`+personJS("Bob"), 20*time.Second)
	ann.open("/p/Bob")
	waitFor[bool](ann, "Bob last seen", `/^Last seen/.test(document.querySelector("#player-online")?.textContent || "")`, 30*time.Second)
	if got := ann.text("#finish-rate"); got != "new" {
		t.Errorf("Bob's finish rate reads %q", got)
	}
	ann.click("#block")
	waitFor[bool](ann, "blocking", `document.querySelector("#block")?.getAttribute("aria-pressed") === "true"`, 20*time.Second)
	if got := ann.text("#blocked-note"); !strings.Contains(got, "you do not see their chat") {
		t.Errorf("the blocked note reads %q", got)
	}
	for _, s := range []size{desktop, phone} {
		ann.resize(s)
		if !eval[bool](ann, inView("#follow")) || !eval[bool](ann, inView("#block")) {
			t.Errorf("at %s Follow and Block are not in the viewport", s)
		}
		ann.noOverflow("the profile", int(s.w))
		ann.accessible("a profile's presence, follow and block at " + s.String())
		ann.screenshotViewport("profile-social-" + s.String())
	}
}

// TestSeatPresenceGone: at a table, a second player's page hidden shows
// them away, and their browser closed shows them gone, at a desktop's, a
// phone's held either way and a tablet's size.
func TestSeatPresenceGone(t *testing.T) {
	srv := newServer(t)
	id := srv.create(t, "", "", "easy")
	ann := newPage(t, srv, "Ann", desktop.w, desktop.h)
	ann.open("/g/" + id)
	ann.join("Ann")
	bob := newPage(t, srv, "Bob", phone.w, phone.h)
	bob.resize(phone)
	bob.open("/g/" + id)
	bob.join("Bob")
	mark := func(seat int) string {
		return fmt.Sprintf(`(document.querySelector('.strip[data-seat="%d"] .seat-presence')?.dataset.presence || "")`, seat)
	}
	waitFor[bool](ann, "Bob connected", mark(1)+` === "connected"`, 20*time.Second)
	waitFor[bool](bob, "Ann connected", mark(0)+` === "connected"`, 20*time.Second)
	if got := eval[string](ann, mark(2)); got != "" {
		t.Errorf("the bot's seat shows presence %q", got)
	}
	// Bob's page is hidden (another tab): the page tells the server.
	eval[bool](bob, `(Object.defineProperty(document, "visibilityState", {value: "hidden", configurable: true}), document.dispatchEvent(new Event("visibilitychange")), true)`)
	waitFor[bool](ann, "Bob away", mark(1)+` === "away"`, 20*time.Second)
	eval[bool](bob, `(Object.defineProperty(document, "visibilityState", {value: "visible", configurable: true}), document.dispatchEvent(new Event("visibilitychange")), true)`)
	waitFor[bool](ann, "Bob back", mark(1)+` === "connected"`, 20*time.Second)

	// Bob's browser closes.
	if err := chromedp.Cancel(bob.ctx); err != nil {
		t.Fatalf("closing Bob's browser: %v", err)
	}
	waitFor[bool](ann, "Bob gone", mark(1)+` === "gone"`, 15*time.Second)
	label := eval[string](ann, `document.querySelector('.strip[data-seat="1"] .seat-presence').getAttribute("aria-label")`)
	if !strings.Contains(label, "gone") || !strings.Contains(label, "last seen") {
		t.Errorf("Bob's mark says %q", label)
	}
	if !eval[bool](ann, inView(`.strip[data-seat="1"] .seat-presence`)) {
		t.Error("Bob's mark is not in the viewport")
	}
	ann.screenshotViewport("table-gone-" + desktop.String())
	ann.resize(phone)
	waitFor[bool](ann, "the mark at the phone's size", inView(`.strip[data-seat="1"] .seat-presence`), 5*time.Second)
	ann.noOverflow("the table with a player gone", int(phone.w))
	ann.accessible("the table with a player gone")
	ann.screenshotViewport("table-gone-" + phone.String())
	for _, s := range []size{tablet, landscape} {
		ann.resize(s)
		waitFor[bool](ann, "the mark at "+s.String(), inView(`.strip[data-seat="1"] .seat-presence`), 5*time.Second)
		ann.noOverflow("the table with a player gone", int(s.w))
		ann.screenshotViewport("table-gone-" + s.String())
	}
}

// TestWaitingRoomPresence: before the game starts, the waiting room's
// list of seats says who is there and who has gone, and at a
// correspondence table when they were last seen.
func TestWaitingRoomPresence(t *testing.T) {
	srv := newServer(t)
	// A correspondence table: a gone player shows when they were last seen.
	var created struct {
		Game struct {
			ID string `json:"id"`
		} `json:"game"`
	}
	if code := srv.api(t, "POST", "/api/games", `{"seats":[{"bot":""},{"bot":""},{"bot":""},{"bot":"easy"}],"pace":"day1"}`, &created); code != 201 {
		t.Fatalf("creating a correspondence table: status %d", code)
	}
	id := created.Game.ID
	ann := newPage(t, srv, "Ann", phone.w, phone.h)
	ann.resize(phone)
	ann.open("/g/" + id)
	ann.join("Ann")
	bob := newPage(t, srv, "Bob", desktop.w, desktop.h)
	bob.open("/g/" + id)
	bob.join("Bob")
	mark := `(document.querySelector('#open-seats li[data-seat="1"] .seat-presence')?.dataset.presence || "")`
	waitFor[bool](ann, "Bob there", mark+` === "connected"`, 20*time.Second)
	if err := chromedp.Cancel(bob.ctx); err != nil {
		t.Fatalf("closing Bob's browser: %v", err)
	}
	waitFor[bool](ann, "Bob gone", mark+` === "gone"`, 20*time.Second)
	if got := ann.text(`#open-seats li[data-seat="1"] .seat-presence`); !strings.HasPrefix(got, "last seen") {
		t.Errorf("at a correspondence table, gone Bob's mark reads %q, want when he was last seen", got)
	}
	ann.do("scroll to the seats", chromedp.ScrollIntoView(chromedp.CSS("#open-seats")))
	ann.noOverflow("the waiting room", int(phone.w))
	ann.screenshotViewport("waiting-gone-" + phone.String())
}
