package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// lessons are the steps of the guided first game, in the order the
// prepared deal shows them (as internal/web's TestTutorialDeal checks
// without a browser).
var lessons = []string{"welcome", "draw", "row", "police", "bid", "centre", "thieves", "call", "forced", "raid", "scoring", "free"}

// coachState is what the guide's bubble shows.
type coachState struct {
	Shown  bool     `json:"shown"`
	Step   string   `json:"step"`
	Want   []string `json:"want"`
	Info   bool     `json:"info"`   // it has a Next button
	Note   string   `json:"note"`   // the explanation of a move against the advice
	Title  string   `json:"title"`  // the bubble's heading
	Moves  int      `json:"moves"`  // the table's move count
	ToMove bool     `json:"toMove"` // the learner is to move, with buttons on offer
}

const coachJS = `(() => {
  const c = document.querySelector("#coach");
  const t = document.querySelector("#table");
  const shown = !!c && !c.hidden;
  const note = document.querySelector("#coach-note");
  return {
    shown, step: shown ? c.dataset.step : "", want: shown && c.dataset.want ? c.dataset.want.split("|") : [],
    info: shown && !!document.querySelector("#coach-next"), note: note ? note.innerText : "",
    title: shown ? c.querySelector("h2").innerText : "",
    moves: t ? Number(t.dataset.moves) : 0,
    toMove: !!t && t.dataset.seat !== "-1" && t.dataset.seat === t.dataset.toMove &&
      [...t.querySelectorAll("button[data-move]")].some((b) => !b.disabled),
  };
})()`

func (p *page) coach() coachState {
	p.t.Helper()
	return eval[coachState](p, coachJS)
}

// coachViewJS lists what is wrong with the bubble's place: the bubble, the
// element it explains and the buttons the learner must press (its Next
// button, the moves it asks for) each wholly inside the viewport and not
// covered at their centre (elementFromPoint); the bubble overlapping
// neither the element nor those buttons.
const coachViewJS = `(() => {
  const out = [];
  const name = (e) => !e ? "nothing" : e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
    (typeof e.className === "string" && e.className ? "." + e.className.trim().split(/\s+/).join(".") : "");
  const inside = (el, what) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) { out.push(what + " has no size"); return null; }
    if (r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1) {
      out.push(what + " is not wholly in the viewport: " + [r.left, r.top, r.right, r.bottom].map(Math.round).join(","));
      return null;
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || (hit !== el && !el.contains(hit))) out.push(what + " is covered by " + name(hit));
    return r;
  };
  const bubble = document.querySelector("#coach");
  if (!bubble || bubble.hidden) return ["no bubble"];
  const b = inside(bubble, "the bubble");
  const clear = (el, what) => {
    const r = inside(el, what);
    if (r && b && r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom) out.push("the bubble overlaps " + what);
  };
  const target = document.querySelector(".coach-target");
  if (target) clear(target, "the element explained (" + name(target) + ")");
  else if (bubble.dataset.step !== "free") out.push("nothing is pointed at");
  const next = document.querySelector("#coach-next");
  if (next) inside(next, "the Next button");
  for (const tok of (bubble.dataset.want ? bubble.dataset.want.split("|") : [])) {
    if (tok.startsWith("thief ")) continue; // the thief's button shows once a card is picked
    const btn = document.querySelector('#table button[data-move="' + tok + '"]');
    if (!btn) out.push("no button " + tok);
    else clear(btn, "the button " + tok);
  }
  if (bubble.dataset.step === "thieves") for (const c of document.querySelectorAll("[data-row-card]")) clear(c, "the row card " + c.dataset.kind);
  if (bubble.dataset.step === "scoring") clear(document.querySelector("#round-continue"), "the continue button");
  return out;
})()`

// coachInView fails the test with what is wrong with the bubble's place.
func (p *page) coachInView(what string) {
	p.t.Helper()
	if bad := eval[[]string](p, coachViewJS); len(bad) > 0 {
		p.t.Errorf("%s: %s", what, strings.Join(bad, "; "))
	}
}

// startTutorial opens the lobby in the language and starts the guided
// game with its button.
func startTutorial(t *testing.T, lang string, s size) *page {
	t.Helper()
	srv := newServer(t)
	p := newPage(t, srv, "learner", s.w, s.h)
	p.resize(s)
	p.open("/")
	waitFor[bool](p, "the lobby", `!!document.querySelector("#learn")`, 10*time.Second)
	if lang != "en" {
		p.setSelect("#lang", lang)
		waitFor[bool](p, "the lobby in "+lang, fmt.Sprintf(`document.documentElement.lang === %q`, lang), 10*time.Second)
	}
	p.screenshotViewport(fmt.Sprintf("tutorial-lobby-%s-%s", lang, s))
	p.click("#learn")
	waitFor[bool](p, "the guide", `!!document.querySelector("#coach:not([hidden])")`, 15*time.Second)
	return p
}

// follow makes the move the guide asks for, with the mouse: a thief's
// card is picked in the row first.
func (p *page) follow(c coachState, token string) {
	p.t.Helper()
	if kinds, ok := strings.CutPrefix(token, "thief "); ok {
		for _, k := range strings.Fields(kinds) {
			p.click(fmt.Sprintf(`[data-row-card][data-kind=%q][aria-pressed="false"]`, k))
		}
		// The thief's button has come: the bubble makes room for it.
		waitFor[bool](p, "the thief's button", fmt.Sprintf(`!!document.querySelector('#table button[data-move=%q]')`, token), 5*time.Second)
		p.frames()
		p.coachInView("a thief's card picked")
	}
	p.move(tableState{Moves: c.Moves}, token)
}

// frames waits two frames: the page has drawn what changed.
func (p *page) frames() {
	p.t.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise)); err != nil {
		p.fail("waiting for two frames: %v", err)
	}
}

// guided plays the tutorial as a learner who reads every step and does
// what it asks, checking the bubble's place at every step, until the last
// step; it returns the lessons seen in order. at, if set, runs at the
// first sight of each step.
func (p *page) guided(what string, at func(c coachState)) []string {
	p.t.Helper()
	var seen []string
	deadline := time.Now().Add(150 * time.Second)
	for time.Now().Before(deadline) {
		c := p.coach()
		if c.Shown && slices.Contains(lessons, c.Step) && (len(seen) == 0 || seen[len(seen)-1] != c.Step) {
			seen = append(seen, c.Step)
			p.coachInView(fmt.Sprintf("%s, step %q", what, c.Step))
			if at != nil {
				at(c)
			}
		}
		if c.Note != "" {
			p.t.Errorf("%s: the guide says the learner went against it: %s", what, c.Note)
		}
		switch {
		case c.Shown && c.Step == "free":
			p.click("#coach-next")
			waitFor[bool](p, "the guide to close", `document.querySelector("#coach").hidden`, 5*time.Second)
			return seen
		case c.Shown && c.Info:
			p.click("#coach-next")
			waitFor[bool](p, "the next step", fmt.Sprintf(`(() => { const c = document.querySelector("#coach"); return c.hidden || c.dataset.step !== %q; })()`, c.Step), 5*time.Second)
		case c.Shown && c.ToMove && len(c.Want) > 0:
			p.follow(c, c.Want[0])
		default:
			// The bots move; wait for the learner's turn or a new step.
			waitFor[bool](p, "the learner's turn or a new step", fmt.Sprintf(`(() => { const c = document.querySelector("#coach"); const t = document.querySelector("#table");
  return !!c && (c.dataset.step !== %q || Number(t.dataset.moves) !== %d || (t.dataset.seat === t.dataset.toMove && !!document.querySelector("#table button[data-move]:not([disabled])"))); })()`, c.Step, c.Moves), 20*time.Second)
		}
	}
	p.fail("%s: the guide did not end in 150 s; steps seen %q", what, seen)
	return nil
}

// TestTutorial plays the guided first game from the lobby's button to
// its end in English and German, on a desktop and a phone: every step
// comes in order, its bubble inside the viewport, beside the element it
// explains and clear of the buttons to press; axe finds nothing serious
// with the bubble up; the window resized or turned mid-step keeps the
// bubble and the buttons in view; a reload keeps the learner's place; a
// screenshot of every step is saved.
func TestTutorial(t *testing.T) {
	for _, lang := range []string{"en", "de"} {
		for _, s := range []size{phone, desktop} {
			t.Run(lang+"/"+s.String(), func(t *testing.T) {
				p := startTutorial(t, lang, s)
				n := 0
				seen := p.guided(lang+" at "+s.String(), func(c coachState) {
					n++
					p.screenshotViewport(fmt.Sprintf("tutorial-%s-%s-%02d-%s", lang, s, n, c.Step))
					if lang == "en" && slices.Contains([]string{"welcome", "bid", "thieves", "scoring"}, c.Step) {
						p.accessible(fmt.Sprintf("the tutorial's step %q at %s", c.Step, s))
					}
					if c.Step == "police" && !s.phone {
						// A reload keeps the learner's place in the guide.
						p.do("reload", chromedp.Reload())
						waitFor[bool](p, "the guide after the reload", `!!document.querySelector("#coach:not([hidden])")`, 10*time.Second)
						if after := p.coach(); after.Step != c.Step {
							t.Errorf("after a reload the guide shows %q, want %q again", after.Step, c.Step)
						}
					}
					if c.Step == "bid" || c.Step == "scoring" || c.Step == "thieves" {
						// Turned and resized mid-step: the bubble and the buttons stay in view.
						for _, r := range []size{landscape, narrow, {1024, 768, false}, s} {
							p.resize(r)
							p.coachInView(fmt.Sprintf("step %s resized to %s", c.Step, r))
							if r == landscape && lang == "en" {
								p.screenshotViewport(fmt.Sprintf("tutorial-%s-%s-%02d-%s-turned", lang, s, n, c.Step))
							}
						}
					}
				})
				if !slices.Equal(seen, lessons) {
					t.Errorf("the steps came as\n%q\nwant\n%q", seen, lessons)
				}
				if c := p.coach(); c.Shown {
					t.Errorf("the guide is still shown after the last step: %q", c.Step)
				}
				// The game goes on freely.
				waitForTurn(p)
			})
		}
	}
}

// TestTutorialOffScript: a learner who calls an auction when the guide
// says to draw is told what happened, and the guide goes on from the
// game as it is.
func TestTutorialOffScript(t *testing.T) {
	p := startTutorial(t, "en", phone)
	for c := p.coach(); c.Step != "draw"; c = p.coach() {
		if !c.Info {
			p.fail("the guide shows %q before the draw step", c.Step)
		}
		p.click("#coach-next")
	}
	c := p.coach()
	p.follow(c, "call")
	waitFor[bool](p, "the explanation", `!!document.querySelector("#coach-note")`, 10*time.Second)
	c = p.coach()
	if !strings.Contains(c.Note, "Call") || !strings.Contains(c.Note, "Draw") {
		t.Errorf("the explanation %q names neither the move made nor the one asked for", c.Note)
	}
	p.coachInView("the explanation")
	p.screenshotViewport("tutorial-offscript-" + phone.String())
	// The guide goes on: the learner follows it until a lesson after the draw.
	deadline := time.Now().Add(60 * time.Second)
	for {
		c = p.coach()
		if c.Shown && slices.Index(lessons, c.Step) > slices.Index(lessons, "draw") {
			break
		}
		if time.Now().After(deadline) {
			p.fail("the guide went no further than %q", c.Step)
		}
		switch {
		case c.Info:
			p.click("#coach-next")
		case c.ToMove && len(c.Want) > 0:
			p.follow(c, c.Want[0])
		default:
			waitFor[bool](p, "a change", fmt.Sprintf(`(() => { const c = document.querySelector("#coach"); const t = document.querySelector("#table");
  return c.dataset.step !== %q || Number(t.dataset.moves) !== %d || (t.dataset.seat === t.dataset.toMove && !!document.querySelector("#table button[data-move]:not([disabled])")); })()`, c.Step, c.Moves), 20*time.Second)
		}
	}
	p.coachInView(fmt.Sprintf("step %q after going off the script", c.Step))
}
