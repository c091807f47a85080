package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"

	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/botrating"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
)

// shown is a script that is true when the element is on screen.
func shown(selector string) string {
	return fmt.Sprintf(`(() => { const e = document.querySelector(%q); return !!e && e.getClientRects().length > 0; })()`, selector)
}

// signedIn waits for the account page to show the settings of name.
func (p *page) signedIn(name string) {
	p.t.Helper()
	waitFor[bool](p, "the settings of "+name, shown("#signed-in")+` && document.querySelector("#me-h").textContent.includes(`+fmt.Sprintf("%q", name)+`)`, 10*time.Second)
	if got := p.text("#nav-account"); got != name {
		p.fail("the header names %q, want %q", got, name)
	}
}

// signedOut waits for the account page to offer signing in.
func (p *page) signedOut() {
	p.t.Helper()
	waitFor[bool](p, "the sign-in form", shown("#signin-form"), 10*time.Second)
}

// look checks a page with axe and saves its screenshots at a desktop's
// and a phone's size.
func (p *page) look(what, name string) {
	p.t.Helper()
	for _, s := range []size{desktop, phone} {
		p.resize(s)
		p.accessible(what + " at " + s.String())
		p.screenshotViewport(name + "-" + s.String())
	}
	p.resize(narrow)
	p.noOverflow(what, int(narrow.w))
	p.resize(desktop)
}

// TestPasswordAccount: a guest plays, registers with a password (and
// keeps the game), sees their games in the lobby, their profile and the
// leaderboard, signs out and in again, changes the password, and deletes
// the account; every page passes axe at a desktop's and a phone's size.
func TestPasswordAccount(t *testing.T) {
	// Calibrated levels as razzia serve has them, less expert: a level
	// added since the last calibration, which the lobby must keep off a
	// rated table.
	bots := botrating.Levels()
	delete(bots, "expert")
	srv := &server{servertest.New(t, servertest.Options{Page: true, LevelBots: true, Accounts: account.Options{Bots: bots}})}
	p := newPage(t, srv, "Ann", desktop.w, desktop.h)

	// A guest first: a seat by cookie in this browser.
	id := srv.create(t, "", "easy")
	p.open("/g/" + id)
	waitFor[bool](p, "the join form", shown("#join"), 10*time.Second)
	seat := p.join("Annie")

	p.open("/account")
	p.signedOut()
	p.look("the sign-in page", "account-signin")
	p.setSelect("#register-name", "Ann")
	p.setSelect("#register-password", "password")
	p.click("#register")
	waitFor[bool](p, "a weak password refused", shown("#register-error"), 10*time.Second)
	if got, want := p.text("#register-error"), srv.catalogue(t, "en")["error.weak_password"]; got != want {
		p.fail("a weak password says %q, want %q", got, want)
	}
	p.setSelect("#register-password", "correct horse battery staple")
	p.click("#register")
	p.signedIn("Ann")
	p.look("the account settings", "account-settings")

	// A rated game against two bots, played by the account from a
	// program: it shows in the browser too.
	c := srv.Client()
	if _, err := c.SignIn(t.Context(), "Ann", "correct horse battery staple"); err != nil {
		t.Fatal(err)
	}
	rated, _, err := c.CreateTable(t.Context(), client.Table{Seats: []string{"", "easy", "medium"}, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	servertest.PlayAll(t, c, rated.ID)

	// The lobby lists the guest's game, now the account's, first.
	p.open("/")
	waitFor[bool](p, "your games", shown("#games-mine .game"), 10*time.Second)
	if got := eval[string](p, `document.querySelector("#games-mine .game-link").dataset.game`); got != id {
		p.fail("your games start with %q, want %q", got, id)
	}
	if !eval[bool](p, `!document.querySelector("#rated-field").hidden`) {
		p.fail("a signed-in player cannot create a rated table")
	}
	// A level the server does not rate (expert, left out above) cannot
	// sit at a rated table: the seat that had it goes back to the default
	// level, and the level is offered again for a casual table.
	waitFor[bool](p, "the seats' levels", `!!document.querySelector("#seat-2 option[value=expert]")`, 10*time.Second)
	got := eval[string](p, `(() => {
		const seat = () => document.querySelector("#seat-2");
		const expert = () => seat().querySelector("option[value=expert]");
		seat().value = "expert";
		seat().dispatchEvent(new Event("change"));
		const rated = document.querySelector("#rated");
		rated.checked = true;
		rated.dispatchEvent(new Event("change"));
		const atRated = [seat().value, expert().disabled, expert().textContent.includes("casual tables only")].join(" ");
		rated.checked = false;
		rated.dispatchEvent(new Event("change"));
		return atRated + " / " + expert().disabled;
	})()`)
	if got != "medium true true / false" {
		p.fail("expert at a rated table, then at a casual one: %q, want the seat on medium, expert disabled and marked, then enabled", got)
	}
	p.look("the lobby of a signed-in player", "lobby-signedin")

	p.open("/p/Ann")
	waitFor[bool](p, "the profile", `document.querySelector("#name-h").textContent === "Ann"`, 10*time.Second)
	waitFor[bool](p, "the rating chart", `(() => { const c = document.querySelector("#chart"); return !c.hidden && c.complete && c.naturalWidth > 0; })()`, 10*time.Second)
	if got := eval[string](p, `document.querySelector("#recent a.game-link").getAttribute("href")`); got != "/g/"+rated.ID+"/replay" {
		p.fail("the latest game links to %q, want the rated game's replay", got)
	}
	p.look("the profile", "profile")
	p.open("/leaderboard")
	waitFor[bool](p, "the leaderboard", `document.querySelector("#board tr") !== null`, 10*time.Second)
	p.look("the leaderboard", "leaderboard")

	// Sign out, a wrong password, sign in.
	p.open("/account")
	p.signedIn("Ann")
	p.click("#signout")
	p.signedOut()
	p.setSelect("#signin-name", "ann")
	p.setSelect("#signin-password", "not the password")
	p.click("#signin")
	waitFor[bool](p, "a wrong password refused", shown("#signin-error"), 10*time.Second)
	p.setSelect("#signin-password", "correct horse battery staple")
	p.click("#signin")
	p.signedIn("Ann")

	// A new password, then the account goes; its game stays.
	p.setSelect("#password-old", "correct horse battery staple")
	p.setSelect("#password-new", "another good secret")
	p.click("#password-save")
	waitFor[bool](p, "the password saved", shown("#password-done"), 10*time.Second)
	eval[bool](p, `window.confirm = () => true; true`)
	p.click("#delete")
	p.signedOut()
	var g protocol.SeatAnswer
	if status := srv.api(t, "GET", "/api/games/"+id, "", &g); status != http.StatusOK {
		t.Fatalf("the deleted account's game: %d", status)
	}
	if name := g.Game.Seats[seat].Name; name == "Ann" || name == "Annie" || name == "" {
		t.Errorf("the deleted account's seat is named %q, want a neutral name", name)
	}
}

// localhost is the server's address by the name localhost: WebAuthn
// takes no IP address as a relying party's id.
func (s *server) localhost() string {
	return strings.Replace(s.URL, "127.0.0.1", "localhost", 1)
}

// TestPasskeyAccount: registering and signing in with a passkey, through
// Chromium's virtual authenticator (the DevTools WebAuthn domain).
func TestPasskeyAccount(t *testing.T) {
	srv := newServer(t)
	p := newPage(t, srv, "Bea", desktop.w, desktop.h)
	p.do("add a virtual authenticator", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		if _, err := chromedp.Call(ctx, webauthn.Enable, webauthn.EnableParams{}); err != nil {
			return err
		}
		_, err := chromedp.Call(ctx, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{
			Options: &webauthn.VirtualAuthenticatorOptions{Protocol: webauthn.AuthenticatorProtocolCtap2,
				Ctap2version: webauthn.Ctap2versionCtap21, Transport: webauthn.AuthenticatorTransportInternal,
				HasResidentKey: true, HasUserVerification: true, IsUserVerified: true, AutomaticPresenceSimulation: true}})
		return err
	}))
	p.do("open the account page", chromedp.Navigate(srv.localhost()+"/account"))
	p.signedOut()
	p.setSelect("#register-name", "Bea")
	p.click("#register-passkey")
	p.signedIn("Bea")
	if n := eval[int](p, `document.querySelectorAll("#passkey-list .passkey").length`); n != 1 {
		p.fail("%d passkeys listed, want 1", n)
	}
	p.look("the settings of a passkey account", "account-passkey")
	// A second passkey on the same authenticator is refused by the
	// browser (the server excludes the one it knows); the list stays.
	p.click("#signout")
	p.signedOut()
	p.click("#signin-passkey")
	p.signedIn("Bea")
	if eval[bool](p, shown("#old-field")) {
		p.fail("a passkey account is asked for a current password it never had")
	}
	// The passkey goes; the account signs in with a password it sets.
	p.setSelect("#password-new", "a passkey is not enough")
	p.click("#password-save")
	waitFor[bool](p, "the password set", shown("#password-done"), 10*time.Second)
	p.click("#passkey-list button")
	waitFor[bool](p, "no passkeys", `document.querySelectorAll("#passkey-list .passkey").length === 0`, 10*time.Second)
}

// TestRatedTableSignIn: a guest at a rated table is asked to sign in,
// registers, comes back to the table and sits under the account's name;
// a link that would lead off the site after signing in is not followed.
func TestRatedTableSignIn(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	if _, err := c.Register(t.Context(), "Cy", "correct horse battery staple"); err != nil {
		t.Fatal(err)
	}
	rated, _, err := c.CreateTable(t.Context(), client.Table{Seats: []string{"", "", "easy"}, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	p := newPage(t, srv, "Di", phone.w, phone.h)
	p.resize(phone)
	p.open("/g/" + rated.ID)
	waitFor[bool](p, "the join form", shown("#join"), 10*time.Second)
	p.setSelect("#join-name", "Di")
	p.click("#join")
	waitFor[bool](p, "the sign-in link", shown("#join-error a"), 10*time.Second)
	p.accessible("a guest at a rated table")
	p.click("#join-error a")
	p.signedOut()
	p.setSelect("#register-name", "Di")
	p.setSelect("#register-password", "correct horse battery staple")
	p.click("#register")
	waitFor[bool](p, "back at the table", `location.pathname === "/g/`+rated.ID+`" && document.querySelector("#join-name").readOnly`, 10*time.Second)
	if got := eval[string](p, `document.querySelector("#join-name").value`); got != "Di" {
		p.fail("the join form names %q, want the account's Di", got)
	}
	p.click("#join")
	waitFor[bool](p, "a seat", `Number(document.querySelector("#table").dataset.seat) >= 0`, 10*time.Second)

	// An address off the site is not where signing in leads.
	p.open(`/account?back=/%5Cevil.example`)
	p.signedIn("Di")
	p.click("#signout")
	p.signedOut()
	p.setSelect("#signin-name", "Di")
	p.setSelect("#signin-password", "correct horse battery staple")
	p.click("#signin")
	p.signedIn("Di")
	if got := eval[string](p, `location.pathname`); got != "/account" {
		p.fail("signed in, the page went to %q", got)
	}
}

// TestAccountPagesTranslated: in every language, the account pages show
// no catalogue key and no English text that differs from the
// language's; German, the longest, passes axe and fits a phone.
func TestAccountPagesTranslated(t *testing.T) {
	srv := newServer(t)
	en := srv.catalogue(t, "en")
	c := srv.Client()
	if _, err := c.Register(t.Context(), "Eve", "correct horse battery staple"); err != nil {
		t.Fatal(err)
	}
	p := newPage(t, srv, "Eve", desktop.w, desktop.h)
	p.open("/account")
	p.signedOut()
	p.setSelect("#signin-name", "Eve")
	p.setSelect("#signin-password", "correct horse battery staple")
	p.click("#signin")
	p.signedIn("Eve")
	for _, lang := range []string{"nl", "it", "hu", "es", "de"} {
		cat := srv.catalogue(t, lang)
		for _, path := range []string{"/account", "/p/Eve", "/leaderboard"} {
			p.open(path)
			p.setSelect("#lang", lang)
			waitFor[bool](p, path+" in "+lang, `document.documentElement.lang === "`+lang+`" && document.querySelector("#nav-account").textContent === "Eve"`, 10*time.Second)
			text := eval[string](p, `document.body.innerText`)
			for _, key := range []string{"web.account.signout", "web.profile.history", "web.leaderboard.title", "web.account.rating"} {
				if w := en[key]; strings.Contains(text, w) && w != cat[key] {
					t.Errorf("%s in %s still says %q (%s)", path, lang, w, key)
				}
			}
			if strings.Contains(text, "web.") {
				t.Errorf("%s in %s shows a catalogue key:\n%s", path, lang, text)
			}
		}
		if lang == "de" {
			p.open("/account")
			waitFor[bool](p, "the settings in German", shown("#signed-in"), 10*time.Second)
			p.look("the settings in German", "account-settings-de")
		}
	}
}
