package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// inViewport is JavaScript that says whether the element the selector
// finds begins in the viewport, uncovered.
func inViewport(selector string) string {
	return fmt.Sprintf(`(() => {
  const e = document.querySelector(%q);
  if (!e) return false;
  const r = e.getBoundingClientRect();
  if (r.top < 0 || r.top > innerHeight - 20 || r.left < 0 || r.right > innerWidth + 1) return false;
  const hit = document.elementFromPoint(r.left + Math.min(r.width / 2, 40), r.top + 8);
  return !!hit && (hit === e || e.contains(hit));
})()`, selector)
}

// chatLine waits for the chat panel to show a line of words.
func (p *page) chatLine(what, words string) {
	p.t.Helper()
	waitFor[bool](p, what, fmt.Sprintf(`%s.includes(%q)`, chatLinesJS, words), 20*time.Second)
}

// typeChat sends free text from the open chat panel.
func (p *page) typeChat(text string) {
	p.t.Helper()
	p.do("type a message", chromedp.SendKeys(chromedp.CSS("#chat-input"), text))
	p.click("#chat-send")
}

// TestModeration: the first account (Ann) is the server's operator. Bob
// reports a line Cy wrote at their table from the chat's flag; Ann reads
// the report with the line and the game's players (its bot named in the
// reader's language) on the operators' page (desktop and phone,
// screenshots moderation-operator-*), removes the line, which Bob sees go
// at once, and mutes Cy; Cy's pages tell her who removed her line and
// muted her, and why, the open one at once (moderation-table-*,
// moderation-notice-*); her next message is refused.
// A player who is no operator is refused the page. Ann bans Cy: a bot
// takes her seat, which Bob reads at the table.
func TestModeration(t *testing.T) {
	srv := newServer(t)
	cat := srv.catalogue(t, "en")
	ann := newPage(t, srv, "Ann", desktop.w, desktop.h)
	ann.open("/account")
	ann.register("Ann")
	bob := newPage(t, srv, "Bob", desktop.w, desktop.h)
	bob.open("/account")
	bob.register("Bob")
	cy := newPage(t, srv, "Cy", phone.w, phone.h)
	cy.resize(phone)
	cy.open("/account")
	cy.register("Cy")

	id := srv.create(t, "", "", "easy")
	bob.open("/g/" + id)
	bob.join("Bob")
	cy.open("/g/" + id)
	cy.join("Cy")
	for _, p := range []*page{bob, cy} {
		waitFor[bool](p, "the chat toggle", shown("#chat-toggle"), 10*time.Second)
		p.click("#chat-toggle")
		waitFor[bool](p, "the text box", shown("#chat-input"), 5*time.Second)
	}
	const rude = "you play like a fool"
	cy.typeChat(rude)
	bob.chatLine("Cy's line", rude)

	// Bob reports the line from its flag.
	bob.click(`#chat-lines .chat-line .chat-report`)
	waitFor[bool](bob, "the report dialog", shown("#report-dialog #report-reason"), 5*time.Second)
	if !eval[bool](bob, `document.querySelector("#report-dialog input[value=chat]").checked`) {
		t.Error("a reported line is not reported as chat abuse")
	}
	bob.do("say why", chromedp.SendKeys(chromedp.CSS("#report-reason"), "insults"))
	bob.screenshotViewport("moderation-report-" + desktop.String())
	bob.accessible("the report dialog")
	bob.click("#report-send")
	waitFor[bool](bob, "the thanks", shown("#report-sent"), 10*time.Second)
	eval[bool](bob, `(document.querySelector("#report-dialog").close(), true)`)

	// Ann's operators' page.
	ann.open("/operator")
	waitFor[bool](ann, "the report", shown(".op-report .op-line"), 10*time.Second)
	if got := ann.text(".op-report h3"); got != strings.NewReplacer("{reporter}", "Bob", "{player}", "Cy").Replace(cat["moderation.op.reported"]) {
		t.Errorf("the report's head: %q", got)
	}
	if !strings.Contains(ann.text(".op-report .op-line"), rude) {
		t.Errorf("the report's line: %q", ann.text(".op-report .op-line"))
	}
	if href := eval[string](ann, `document.querySelector(".op-game a").getAttribute("href")`); href != "/g/"+id {
		t.Errorf("the report's game links to %q", href)
	}
	for _, s := range []size{desktop, phone} {
		ann.resize(s)
		if !eval[bool](ann, inViewport(".op-report h3")) {
			t.Errorf("at %s the first report is not in view", s)
		}
		ann.noOverflow("the operators' page", int(s.w))
		ann.screenshotViewport("moderation-operator-" + s.String())
		ann.accessible("the operators' page at " + s.String())
	}
	// Every language's words fit a phone, with no key left untranslated.
	for _, lang := range []string{"nl", "it", "hu", "es", "de", "en"} {
		ann.setSelect("#lang", lang)
		waitFor[bool](ann, "the operators' page in "+lang, fmt.Sprintf(`document.documentElement.lang === %q && !!document.querySelector(".op-report h3")`, lang), 10*time.Second)
		if text := eval[string](ann, `document.body.innerText`); strings.Contains(text, "moderation.") {
			t.Errorf("the operators' page in %s shows a catalogue key:\n%s", lang, text)
		}
		lc := srv.catalogue(t, lang)
		bot := strings.NewReplacer("{n}", "3", "{level}", lc["bot.easy"]).Replace(lc["web.seat.botname"])
		if got := ann.text(".op-report .op-game"); !strings.Contains(got, bot) {
			t.Errorf("the report's players in %s: %q; want the bot named %q", lang, got, bot)
		}
		ann.noOverflow("the operators' page in "+lang, int(phone.w))
		if lang == "hu" || lang == "de" {
			ann.screenshotViewport(fmt.Sprintf("moderation-operator-%s-%s", lang, phone))
		}
	}
	ann.resize(desktop)

	// The line removed, live at Bob's table.
	reportID := eval[string](ann, `document.querySelector(".op-report").dataset.report`)
	ann.do("say why", chromedp.SendKeys(chromedp.CSS("#op-reason-"+reportID), "an insult"))
	ann.click(".op-report .op-remove")
	waitFor[bool](bob, "the line removed", fmt.Sprintf(`%s.includes(%q) && !%s.includes(%q)`, chatLinesJS, cat["moderation.chat.removed"],
		chatLinesJS, rude), 20*time.Second)

	// Cy muted for a day from the report.
	waitFor[bool](ann, "the report again, its line removed", shown(".op-report .op-line-removed")+" && "+shown("#op-kind-"+reportID), 10*time.Second)
	reasonLabel := fmt.Sprintf(`label[for="op-reason-%s"]`, reportID)
	if got := ann.text(reasonLabel); got != cat["moderation.op.reason.dismiss"] {
		t.Errorf("a dismissal's reason is labelled %q", got)
	}
	ann.setSelect("#op-kind-"+reportID, "mute")
	if got := ann.text(reasonLabel); got != cat["moderation.op.reason"] {
		t.Errorf("a mute's reason is labelled %q", got)
	}
	ann.setSelect("#op-hours-"+reportID, "24")
	ann.do("say why", chromedp.SendKeys(chromedp.CSS("#op-reason-"+reportID), "insults in the chat"))
	ann.click("#op-apply-" + reportID)
	waitFor[bool](ann, "no open report", shown(".op-none"), 10*time.Second)

	// Cy's open table says at once who removed her line and muted her,
	// and why: the notice floats, no banner moves the table.
	waitFor[bool](cy, "the notice at once", shown(`#moderation-notice .mod-action[data-kind="strike"]`)+" && "+
		shown(`#moderation-notice .mod-action[data-kind="mute"]`), 20*time.Second)
	if eval[bool](cy, shown("#moderation-banner")) {
		t.Error("a banner at the table")
	}
	cy.screenshotViewport("moderation-table-" + phone.String())
	cy.accessible("Cy's notice at her table")
	// Her other pages say it too, until she acknowledges it.
	cy.open("/account")
	waitFor[bool](cy, "the notice", shown("#moderation-notice .mod-action"), 10*time.Second)
	notice := cy.text("#moderation-notice")
	for _, want := range []string{"Ann", "insults in the chat"} {
		if !strings.Contains(notice, want) {
			t.Errorf("Cy's notice %q does not say %q", notice, want)
		}
	}
	if !eval[bool](cy, shown("#moderation-banner")) {
		t.Error("no banner while Cy is muted")
	}
	for _, s := range []size{phone, desktop} {
		cy.resize(s)
		if !eval[bool](cy, inViewport("#moderation-notice")) {
			t.Errorf("at %s Cy's notice is not in view", s)
		}
		cy.screenshotViewport("moderation-notice-" + s.String())
		cy.accessible("Cy's notice at " + s.String())
	}
	cy.click("#moderation-ok")
	waitFor[bool](cy, "the notice acknowledged", `!document.querySelector("#moderation-notice")`, 5*time.Second)
	waitFor[bool](cy, "the record on the account page", shown("#moderation-record .mod-action"), 5*time.Second)
	cy.resize(phone)
	cy.open("/g/" + id)
	waitFor[bool](cy, "the chat toggle", shown("#chat-toggle"), 10*time.Second)
	if eval[bool](cy, shown("#moderation-notice")) {
		t.Error("the notice acknowledged comes back at the table")
	}
	if !eval[bool](cy, shown("#chat-input")) {
		cy.click("#chat-toggle")
	}
	waitFor[bool](cy, "the text box", shown("#chat-input"), 5*time.Second)
	cy.typeChat("and again")
	waitFor[bool](cy, "the refusal", fmt.Sprintf(`document.querySelector("#chat-error").textContent === %q`, cat["error.chat_muted"]), 20*time.Second)

	// Dee has no role.
	dee := newPage(t, srv, "Dee", desktop.w, desktop.h)
	dee.open("/account")
	dee.register("Dee")
	dee.open("/operator")
	waitFor[bool](dee, "the refusal", fmt.Sprintf(`document.querySelector("#op-status").textContent === %q`, cat["moderation.op.notop"]), 10*time.Second)
	if eval[bool](dee, shown("#op-page")) || eval[bool](dee, shown("#nav-operator")) {
		t.Error("a player who is no operator sees the operators' page or its link")
	}

	// Cy banned: a bot takes her seat.
	ann.open("/operator")
	waitFor[bool](ann, "the direct form", shown("#op-player-direct"), 10*time.Second)
	ann.do("name Cy", chromedp.SendKeys(chromedp.CSS("#op-player-direct"), "Cy"))
	ann.setSelect("#op-kind-direct", "ban")
	ann.do("say why", chromedp.SendKeys(chromedp.CSS("#op-reason-direct"), "insults after a mute"))
	ann.click("#op-apply-direct")
	waitFor[bool](ann, "the ban in the log", `!!document.querySelector('.op-log-item[data-kind="ban"]')`, 10*time.Second)
	removed := strings.NewReplacer("{player}", "Cy", "{bot}", "hard").Replace(cat["moderation.takeover"])
	waitFor[bool](bob, "the take-over in the log", fmt.Sprintf(`document.body.innerText.includes(%q)`, removed), 20*time.Second)

	// A phone's header has no room for the operators' link: the account
	// page has it.
	if !eval[bool](ann, shown("#nav-operator")) {
		t.Error("no operators' link in a desktop's header")
	}
	ann.resize(phone)
	ann.open("/account")
	waitFor[bool](ann, "the operators' link on the account page", shown("#moderation-operator-link"), 10*time.Second)
	if eval[bool](ann, shown("#nav-operator")) {
		t.Error("the operators' link in a phone's header")
	}
	ann.noOverflow("the operator's account page", int(phone.w))
	eval[bool](ann, `(document.querySelector("#moderation-operator-link").scrollIntoView({block: "center"}), true)`)
	ann.screenshotViewport("moderation-account-" + phone.String())
}
