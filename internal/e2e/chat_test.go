package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chatLinesJS reads what the chat panel shows: each line's words.
const chatLinesJS = `[...document.querySelectorAll("#chat-lines .chat-line .chat-words")].map((e) => e.textContent)`

// chatInViewJS checks that the chat panel's toggle and, when open, its
// quick phrases are in view and not covered, and that nothing of it
// covers the move buttons: each button's centre is the button itself.
const chatInViewJS = `(() => {
  const out = [];
  const covered = (el, what) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) { out.push(what + " is outside the viewport"); return; }
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(el === hit || el.contains(hit))) out.push(what + " is covered by " + (hit ? hit.tagName + "." + hit.className : "nothing"));
  };
  for (const b of document.querySelectorAll("#moves button[data-move]")) {
    if (b.getClientRects().length) covered(b, "the move " + b.dataset.move);
    if (document.querySelector("#chat").contains(document.elementFromPoint(b.getBoundingClientRect().left + 2, b.getBoundingClientRect().top + 2)))
      out.push("the chat covers the move " + b.dataset.move);
  }
  return out;
})()`

// TestChatPanel: a signed-in player and a spectator on a phone chat at
// the table. The spectator's collapsed panel counts the unread message;
// the player's free text, with markup and a link, shows as typed and
// never as a link; a guest spectator gets no phrase buttons or text box
// in the players' channel. With the panel open, an auction's bid buttons
// stay in view and uncovered at a desktop's and a phone's size
// (screenshots chat-*).
func TestChatPanel(t *testing.T) {
	srv := newServer(t)
	id := srv.create(t, "", "easy")
	ann := newPage(t, srv, "Ann", desktop.w, desktop.h)
	ann.open("/account")
	status, err := chromedp.Run(ann.ctx, chromedp.Evaluate[int](`fetch("/api/account", {method: "POST", headers: {"Content-Type": "application/json"},
  body: JSON.stringify({name: "Ann", password: "correct horse battery staple"})}).then((r) => r.status)`, chromedp.EvalAwaitPromise))
	if err != nil || status != 201 {
		t.Fatalf("registering Ann: status %d, %v", status, err)
	}
	ann.open("/g/" + id)
	ann.join("Ann")
	kim := newPage(t, srv, "Kim", phone.w, phone.h)
	kim.resize(phone)
	kim.open("/g/" + id)
	waitFor[bool](kim, "the spectator's chat toggle", shown("#chat-toggle"), 10*time.Second)
	if eval[bool](kim, shown("#chat-body")) {
		t.Error("the chat panel is open before anyone opened it")
	}

	cat := srv.catalogue(t, "en")
	ann.click("#chat-toggle")
	waitFor[bool](ann, "the phrase buttons", shown(`#chat-phrases button[data-phrase="gl"]`), 5*time.Second)
	if !eval[bool](ann, shown("#chat-form")) {
		t.Error("a signed-in player has no text box")
	}
	if eval[int](ann, `document.querySelectorAll("#chat-mutes button").length`) != 0 {
		t.Error("a mute button for a bot")
	}
	ann.click(`#chat-phrases button[data-phrase="gl"]`)
	const typed = `<b>Viel Glück</b> https://x.example/?a=1&b=2`
	ann.do("type a message", chromedp.SendKeys(chromedp.CSS("#chat-input"), typed))
	ann.click("#chat-send")
	want := []string{cat["chat.phrase.gl"], typed}
	waitFor[bool](ann, "Ann's own lines", fmt.Sprintf(`JSON.stringify(%s) === %q`, chatLinesJS, jsonList(want)), 10*time.Second)

	// The spectator: two unread, then the lines, as text.
	waitFor[bool](kim, "the unread badge", `document.querySelector("#chat-unread").textContent === "2" && !document.querySelector("#chat-unread").hidden`, 10*time.Second)
	kim.screenshotViewport("chat-unread-" + phone.String())
	kim.click("#chat-toggle")
	waitFor[bool](kim, "the lines", fmt.Sprintf(`JSON.stringify(%s) === %q`, chatLinesJS, jsonList(want)), 5*time.Second)
	if n := eval[int](kim, `document.querySelectorAll("#chat a, #chat b").length`); n != 0 {
		t.Errorf("the chat made %d elements of the typed markup", n)
	}
	if !eval[bool](kim, `document.querySelector("#chat-unread").hidden`) {
		t.Error("the unread badge stays once the panel is open")
	}
	// A guest spectator writes nowhere in the players' channel.
	if eval[bool](kim, shown("#chat-phrases")) || eval[bool](kim, shown("#chat-form")) {
		t.Error("a spectator may write in the players' channel")
	}
	kim.click(`#chat-tabs button[data-channel="spectators"]`)
	waitFor[bool](kim, "the sign-in hint", shown("#chat-hint"), 5*time.Second)
	if strings.TrimSpace(kim.text("#chat-hint")) != cat["web.chat.signin.spectator"] {
		t.Errorf("the spectator's hint: %q", kim.text("#chat-hint"))
	}
	kim.screenshotViewport("chat-spectator-" + phone.String())
	kim.accessible("a spectator's open chat at " + phone.String())

	// Open, the panel leaves the bid buttons in view and uncovered.
	ann.playTo("an auction to bid in", bidding, myBid)
	for _, s := range []size{desktop, phone} {
		ann.resize(s)
		ann.do("reload", chromedp.Reload())
		waitFor[bool](ann, "the auction after the reload", `!!document.querySelector("#moves button[data-move^='bid ']")`, 10*time.Second)
		waitFor[bool](ann, "the chat open after the reload", shown("#chat-lines"), 5*time.Second)
		ann.inView(fmt.Sprintf("an auction with the chat open at %s", s))
		if bad := eval[[]string](ann, chatInViewJS); len(bad) > 0 {
			t.Errorf("at %s: %s", s, strings.Join(bad, "; "))
		}
		ann.screenshotViewport("chat-auction-" + s.String())
		ann.accessible("the table with the chat open at " + s.String())
		// The panel is below the table: scrolled to, it is all there.
		eval[bool](ann, `(document.querySelector("#chat-send").scrollIntoView({block: "end"}), true)`)
		ann.screenshotViewport("chat-panel-" + s.String())
	}

	ann.resize(narrow)
	ann.noOverflow("the table with the chat open", int(narrow.w))

	// The replay shows the players' chat at the move it was said.
	kim.open("/g/" + id + "/replay#1")
	waitFor[bool](kim, "the replay's chat", fmt.Sprintf(`JSON.stringify([...document.querySelectorAll("#replay-chat-lines .chat-words")].map((e) => e.textContent)) === %q`,
		jsonList(want)), 10*time.Second)
	if n := eval[int](kim, `document.querySelectorAll("#replay-chat a, #replay-chat b").length`); n != 0 {
		t.Errorf("the replay's chat made %d elements of the typed markup", n)
	}
	kim.screenshotViewport("chat-replay-" + phone.String())
}

// jsonList encodes strings as JSON.stringify does a list of them.
func jsonList(s []string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSpace(b.String())
}

// TestChatAfterGame: two people finish a game, Ann at a desktop's size
// and Bob on a phone. At game over the chat panel is on screen (scrolled
// to, on the phone) and not covered by the game-end screen; Ann says
// "Well played" with a phrase button, Bob's page shows it and he answers;
// the replay shows both lines after the last move (screenshots
// chat-after-game-*).
func TestChatAfterGame(t *testing.T) {
	srv := newServer(t)
	id := srv.create(t, "", "")
	ann := newPage(t, srv, "Ann", desktop.w, desktop.h)
	ann.open("/g/" + id)
	ann.join("Ann")
	bob := newPage(t, srv, "Bob", phone.w, phone.h)
	bob.resize(phone)
	bob.open("/g/" + id)
	bob.join("Bob")
	playTogether(t, ann, bob)
	cat := srv.catalogue(t, "en")

	say := func(p *page, phrase string) {
		t.Helper()
		if !eval[bool](p, shown("#chat-body")) {
			p.click("#chat-toggle")
		}
		button := fmt.Sprintf(`#chat-phrases button[data-phrase=%q]`, phrase)
		waitFor[bool](p, "the phrase buttons after the game", shown(button), 5*time.Second)
		eval[bool](p, fmt.Sprintf(`(document.querySelector(%q).scrollIntoView({block: "center"}), true)`, button))
		p.wantVisible("the phrase button "+phrase+" at game over", button)
		p.click(button)
	}
	hears := func(p *page, want ...string) {
		t.Helper()
		waitFor[bool](p, "the chat after the game", fmt.Sprintf(`JSON.stringify(%s) === %q`, chatLinesJS, jsonList(want)), 10*time.Second)
	}
	for _, p := range []*page{ann, bob} {
		eval[bool](p, `(document.querySelector("#chat-toggle").scrollIntoView({block: "center"}), true)`)
		p.wantVisible("the chat toggle at game over", "#chat-toggle")
	}
	say(ann, "wp")
	hears(ann, cat["chat.phrase.wp"])
	ann.screenshotViewport("chat-after-game-" + desktop.String())
	waitFor[bool](bob, "the unread badge after the game", `document.querySelector("#chat-unread").textContent === "1"`, 10*time.Second)
	say(bob, "gg")
	hears(bob, cat["chat.phrase.wp"], cat["chat.phrase.gg"])
	bob.screenshotViewport("chat-after-game-" + phone.String())
	hears(ann, cat["chat.phrase.wp"], cat["chat.phrase.gg"])

	var info struct {
		Game struct{ Moves int } `json:"game"`
	}
	if status := srv.api(t, "GET", "/api/games/"+id, "", &info); status != 200 || info.Game.Moves == 0 {
		t.Fatalf("the game: %d, %+v", status, info)
	}
	words := `JSON.stringify([...document.querySelectorAll("#replay-chat-lines .chat-words")].map((e) => e.textContent))`
	bob.open(fmt.Sprintf("/g/%s/replay#%d", id, info.Game.Moves))
	waitFor[bool](bob, "the replay's chat at the end", fmt.Sprintf(`%s === %q`, words, jsonList([]string{cat["chat.phrase.wp"], cat["chat.phrase.gg"]})), 10*time.Second)
	eval[bool](bob, `(document.querySelector("#replay-chat").scrollIntoView({block: "center"}), true)`)
	bob.screenshotViewport("chat-after-game-replay-" + phone.String())
	bob.open(fmt.Sprintf("/g/%s/replay#%d", id, info.Game.Moves-1))
	waitFor[bool](bob, "the replay's chat before the last move", words+` === "[]"`, 10*time.Second)
}
