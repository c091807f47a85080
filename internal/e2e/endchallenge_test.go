package e2e

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
)

// TestChallengeFromGameEnd: Ann, Bob and Cy finish an untimed game. At its
// end, on a desktop, Ann's table page offers to challenge the two others
// at once, both chosen, at the game's pace; the challenge reaches both.
// On a phone, Bob's replay of the game offers Ann and Cy at its last
// move; he leaves Cy out and challenges Ann alone, and "other settings"
// opens the lobby's form with Ann and the game's pace.
func TestChallengeFromGameEnd(t *testing.T) {
	srv := newServer(t)
	ctx := servertest.Context(t)
	people := map[string]*client.Client{}
	for _, name := range []string{"Ann", "Bob", "Cy"} {
		c := srv.Client()
		if _, err := c.Register(ctx, name, "correct horse battery staple"); err != nil {
			t.Fatal(err)
		}
		people[name] = c
	}
	game, _, err := people["Ann"].Create(ctx, []string{"", "", ""})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, c := range people {
		wg.Go(func() { servertest.PlayAll(t, c, game.ID) })
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}

	box := "#game-end #end-challenge"
	who := func(p *page) []string {
		got := eval[[]string](p, `[...document.querySelectorAll("#end-challenge .end-challenge-who")].filter((x) => x.checked).map((x) => x.value)`)
		slices.Sort(got)
		return got
	}
	ann := newPage(t, srv, "Ann", desktop.w, desktop.h)
	ann.open("/")
	ann.signIn("Ann")
	ann.open("/g/" + game.ID)
	waitFor[bool](ann, "the challenge at the game's end", shown(box), 20*time.Second)
	if got := who(ann); !slices.Equal(got, []string{"Bob", "Cy"}) {
		t.Errorf("Ann's page offers %q, want Bob and Cy", got)
	}
	ann.do("scroll to the challenge", chromedp.ScrollIntoView(box))
	ann.wantVisible("the challenge button", "#end-challenge-send")
	ann.screenshotViewport("end-challenge-" + desktop.String())
	ann.accessible("the challenge at a game's end")
	ann.click("#end-challenge-send")
	waitFor[bool](ann, "the challenge sent", `document.querySelector("#end-challenge-state")?.dataset.state === "sent"`, 20*time.Second)
	mine := func(c *client.Client, from string) protocol.ChallengeInfo {
		t.Helper()
		cs, err := c.Challenges(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range cs {
			if x.From == from && x.Status == "open" {
				return x
			}
		}
		t.Fatalf("no open challenge from %s among %+v", from, cs)
		return protocol.ChallengeInfo{}
	}
	for _, name := range []string{"Bob", "Cy"} {
		c := mine(people[name], "Ann")
		var to []string
		for _, x := range c.To {
			to = append(to, x.Name)
		}
		slices.Sort(to)
		if !slices.Equal(to, []string{"Bob", "Cy"}) || c.Pace != "untimed" || c.Rated {
			t.Errorf("%s is challenged %+v, want Bob and Cy untimed, casual", name, c)
		}
	}
	ann.screenshotViewport("end-challenge-sent-" + desktop.String())

	bob := newPage(t, srv, "Bob", phone.w, phone.h)
	bob.resize(phone)
	bob.open("/")
	bob.signIn("Bob")
	bob.open("/g/" + game.ID + "/replay")
	waitFor[bool](bob, "the replay", shown("#replay-last")+` && !document.querySelector("#replay-last").disabled`, 20*time.Second)
	bob.click("#replay-last")
	waitFor[bool](bob, "the challenge at the replay's end", shown(box), 20*time.Second)
	if got := who(bob); !slices.Equal(got, []string{"Ann", "Cy"}) {
		t.Errorf("Bob's replay offers %q, want Ann and Cy", got)
	}
	// Ann's challenge to him rings in its notice, which covers the foot
	// of a phone's screen: he hides it (the lobby keeps it to answer).
	waitFor[bool](bob, "Ann's challenge's notice", shown("#meet-toasts .challenge-hide"), 20*time.Second)
	bob.click("#meet-toasts .challenge-hide")
	bob.click(`#end-challenge .end-challenge-who[value="Cy"]`)
	waitFor[bool](bob, "Cy left out", `(() => { const b = document.querySelector("#end-challenge-send"); const c = document.querySelector('#end-challenge .end-challenge-who[value="Cy"]');
  return !!b && !!c && !c.checked && !b.disabled; })()`, 10*time.Second)
	if href := eval[string](bob, `document.querySelector("#end-challenge-more").getAttribute("href")`); href != "/?challenge-to=Ann&challenge-pace=untimed#challenge" {
		t.Errorf("other settings lead to %q", href)
	}
	bob.do("scroll to the challenge", chromedp.ScrollIntoView("#end-challenge-send"))
	bob.wantVisible("the challenge button", "#end-challenge-send")
	bob.screenshotViewport("end-challenge-replay-" + phone.String())
	bob.click("#end-challenge-send")
	waitFor[bool](bob, "the challenge sent", `document.querySelector("#end-challenge-state")?.dataset.state === "sent"`, 20*time.Second)
	if c := mine(people["Ann"], "Bob"); len(c.To) != 1 || c.To[0].Name != "Ann" {
		t.Errorf("Ann is challenged %+v, want her alone", c)
	}
	if cs, err := people["Cy"].Challenges(ctx); err != nil {
		t.Fatal(err)
	} else {
		for _, c := range cs {
			if c.From == "Bob" {
				t.Errorf("Cy, left out, is challenged %+v", c)
			}
		}
	}
	bob.accessible("the challenge at a replay's end")
	bob.resize(narrow)
	bob.noOverflow("the replay's end with the challenge", int(narrow.w))
	bob.resize(phone)

	// Other settings: the lobby's form, filled in with Ann and the game's
	// pace.
	bob.click("#end-challenge-more")
	waitFor[bool](bob, "the lobby's form filled in", shown("#challenge-form")+` && document.querySelector("#challenge-to").value === "Ann"
  && document.querySelector("#challenge-pace").value === "untimed"`, 20*time.Second)
}
