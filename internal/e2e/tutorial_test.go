package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/razziagame/razzia/internal/tutorial"
)

// lessons are the lessons of the guided first game (tutorial.js), each of
// which every guided game teaches, in whatever order the learner's choices
// bring them (internal/web's TestTutorialDeal checks the prepared deal
// without a browser).
var lessons = []string{"draw", "row", "police", "bid", "centre", "thieves", "call", "forced", "raid", "bodyguards", "cars", "jewels", "extras", "businesses", "cheques"}

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
	// Learned is the count of lessons learned the bubble shows, "n/total".
	Learned string `json:"learned"`
	// Scene is the move a set-up scene teaches, "" without a scene; Tried
	// says that a move other than it was tried there.
	Scene string `json:"scene"`
	Tried bool   `json:"tried"`
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
    moves: t ? Number(t.dataset.moves) : 0, learned: shown ? c.dataset.progress : "",
    scene: shown ? c.dataset.scene || "" : "", tried: !!document.querySelector("#coach-scene-note"),
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
  if (target && bubble.contains(target)) inside(target, "the scene in the bubble");
  else if (target) clear(target, "the element explained (" + name(target) + ")");
  else if (bubble.dataset.step !== "free") out.push("nothing is pointed at");
  const next = document.querySelector("#coach-next");
  if (next) inside(next, "the Next button");
  for (const tok of (bubble.dataset.want ? bubble.dataset.want.split("|") : [])) {
    if (tok.startsWith("thief ")) continue; // the thief's button shows once a card is picked
    const btn = document.querySelector('#table button[data-move="' + tok + '"]');
    if (!btn) out.push("no button " + tok);
    else clear(btn, "the button " + tok);
  }
  for (const b of document.querySelectorAll("#coach [data-scene-move]")) inside(b, "the scene's button " + b.dataset.sceneMove);
  if (bubble.dataset.step === "thieves") for (const c of document.querySelectorAll("[data-row-card]")) clear(c, "the row card " + c.dataset.kind);
  const cont = document.querySelector("#round-continue");
  // A set-up scene is played before the round goes on: it may cover the scores.
  if (cont && !bubble.dataset.scene) clear(cont, "the round's continue button");
  return out;
})()`

// redrawnJS redraws the table as the page does on its own, between the
// server's messages (the round's scores in a task of their own, a thief's
// card picked, the round's continue button: render.js mem.redraw), and
// says, in the same task, whether the guide still points at something: a
// redraw must not take the pointer away, not even until the next frame.
const redrawnJS = `(() => {
  document.querySelector("#table").razzia.redraw();
  return document.querySelector("#coach").dataset.step === "free" || !!document.querySelector(".coach-target");
})()`

// pointerKept fails the test if the table's own redraw takes the guide's
// pointer away.
func (p *page) pointerKept(what string) {
	p.t.Helper()
	if !eval[bool](p, redrawnJS) {
		p.t.Errorf("%s: nothing is pointed at once the table redrew itself", what)
	}
}

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

// learnedCount returns n of the bubble's "n/total".
func learnedCount(c coachState) int {
	var n, total int
	fmt.Sscanf(c.Learned, "%d/%d", &n, &total)
	return n
}

// guided plays the tutorial as a learner who reads every lesson and makes
// the move pick chooses from the advice (nil: follows it), checking the
// bubble's place at every lesson and that the lessons learned never go
// back, until the summary, which it checks and closes; it returns the
// lessons seen in order. at, if set, runs at the first sight of each
// lesson and of the summary.
func (p *page) guided(what string, pick func(want string, legal []string) string, at func(c coachState)) []string {
	p.t.Helper()
	var seen []string
	learned, notes := 0, 0
	deadline := time.Now().Add(240 * time.Second)
	for time.Now().Before(deadline) {
		c := p.coach()
		if c.Shown && (slices.Contains(lessons, c.Step) || c.Step == "free") && (len(seen) == 0 || seen[len(seen)-1] != c.Step) {
			seen = append(seen, c.Step)
			p.coachInView(fmt.Sprintf("%s, lesson %q", what, c.Step))
			p.pointerKept(fmt.Sprintf("%s, lesson %q", what, c.Step))
			if at != nil {
				at(c)
			}
		}
		if c.Shown {
			if n := learnedCount(c); n < learned {
				p.t.Errorf("%s: at %q the lessons learned went back from %d to %d", what, c.Step, learned, n)
			} else {
				learned = n
			}
		}
		if c.Note != "" && pick == nil {
			p.t.Errorf("%s: the guide says the learner went against it: %s", what, c.Note)
		}
		switch {
		case c.Shown && c.Step == "free":
			if c.Learned != fmt.Sprintf("%d/%d", len(lessons), len(lessons)) {
				p.t.Errorf("%s: the summary says %s lessons learned, want all %d", what, c.Learned, len(lessons))
			}
			waitFor[bool](p, "the summary's way to a real game", `(() => { const a = document.querySelector("#coach-real"); return !!a && a.getAttribute("href") === "/#new-h"; })()`, 5*time.Second)
			p.click("#coach-next")
			waitFor[bool](p, "the guide to close", `document.querySelector("#coach").hidden`, 5*time.Second)
			if pick != nil && notes == 0 {
				p.t.Errorf("%s: going against the advice drew no explanation", what)
			}
			return seen
		case c.Shown && c.Scene != "":
			// A skipped lesson's set-up scene: the learner plays it as the
			// game, then, told what is advised, that.
			token := c.Scene
			if pick != nil && !c.Tried {
				token = pick(token, eval[[]string](p, `[...document.querySelectorAll("#coach [data-scene-move]")].map((b) => b.dataset.sceneMove)`))
			}
			p.click(fmt.Sprintf(`#coach [data-scene-move=%q]`, token))
			if token != c.Scene {
				notes++
				waitFor[bool](p, "the scene's advice", `!!document.querySelector("#coach-scene-note") && !!document.querySelector("#coach-advice")`, 5*time.Second)
				p.coachInView(fmt.Sprintf("%s, the scene of %q tried", what, c.Step))
				if at != nil {
					at(p.coach())
				}
			} else {
				waitFor[bool](p, "the step after the scene", fmt.Sprintf(`(() => { const c = document.querySelector("#coach"); return c.hidden || c.dataset.step !== %q; })()`, c.Step), 5*time.Second)
			}
		case c.Shown && c.Info:
			p.click("#coach-next")
			waitFor[bool](p, "the next step", fmt.Sprintf(`(() => { const c = document.querySelector("#coach"); return c.hidden || c.dataset.step !== %q || c.dataset.progress !== %q; })()`, c.Step, c.Learned), 5*time.Second)
		case c.Shown && c.ToMove && len(c.Want) > 0:
			token := c.Want[0]
			if pick != nil {
				token = pick(token, p.state().Legal)
				if token != c.Want[0] {
					notes++
				}
			}
			p.follow(c, token)
			if token != c.Want[0] {
				waitFor[bool](p, "the explanation of a move against the advice", `!!document.querySelector("#coach-note")`, 5*time.Second)
			}
		default:
			// The bots move; wait for the learner's turn or a new step.
			waitFor[bool](p, "the learner's turn or a new step", fmt.Sprintf(`(() => { const c = document.querySelector("#coach"); const t = document.querySelector("#table");
  return !!c && (c.dataset.step !== %q || Number(t.dataset.moves) !== %d || (t.dataset.seat === t.dataset.toMove && !!document.querySelector("#table button[data-move]:not([disabled])"))); })()`, c.Step, c.Moves), 20*time.Second)
		}
	}
	p.fail("%s: the guide did not end in 240 s; lessons seen %q", what, seen)
	return nil
}

// checkLessons fails the test unless every lesson was seen.
func checkLessons(t *testing.T, what string, seen []string) {
	t.Helper()
	for _, l := range lessons {
		if !slices.Contains(seen, l) {
			t.Errorf("%s: the lesson %q never came: %q", what, l, seen)
		}
	}
	if len(seen) == 0 || seen[len(seen)-1] != "free" {
		t.Errorf("%s: the guide ended without its summary: %q", what, seen)
	}
}

// TestTutorial plays the guided first game from the lobby's button to
// its summary in every language, on a phone and on a desktop, following
// the advice: every lesson comes, each bubble inside the viewport, beside
// the element it explains and clear of the buttons to press; axe finds
// nothing serious with the bubble up; the window resized or turned
// mid-lesson keeps the bubble and the buttons in view; a reload keeps the
// learner's place; a screenshot of every lesson is saved.
//
// English is played at both sizes. The other languages differ only in
// their words, so each is played once, at the sizes in turn, and every
// lesson is also laid out at the other size and checked there (the
// resize the English games check mid-lesson): every lesson's bubble is
// checked in every language at both sizes, in seven games instead of
// twelve.
func TestTutorial(t *testing.T) {
	type walk struct {
		lang       string
		size, also size // also: the other size each lesson is checked at
	}
	walks := []walk{{"en", phone, phone}, {"en", desktop, desktop}}
	for i, lang := range []string{"nl", "it", "hu", "es", "de"} {
		w := walk{lang, phone, desktop}
		if i%2 == 1 {
			w.size, w.also = desktop, phone
		}
		walks = append(walks, w)
	}
	for _, w := range walks {
		lang, s := w.lang, w.size
		t.Run(lang+"/"+s.String(), func(t *testing.T) {
			p := startTutorial(t, lang, s)
			n := 0
			seen := p.guided(lang+" at "+s.String(), nil, func(c coachState) {
				n++
				p.screenshotViewport(fmt.Sprintf("tutorial-%s-%s-%02d-%s", lang, s, n, c.Step))
				if w.also != s {
					p.resize(w.also)
					p.coachInView(fmt.Sprintf("%s, lesson %q laid out at %s", lang, c.Step, w.also))
					p.screenshotViewport(fmt.Sprintf("tutorial-%s-%s-%02d-%s", lang, w.also, n, c.Step))
					p.resize(s)
				}
				if lang == "en" && slices.Contains([]string{"draw", "bid", "thieves", "bodyguards", "free"}, c.Step) {
					p.accessible(fmt.Sprintf("the tutorial's lesson %q at %s", c.Step, s))
				}
				if c.Step == "police" && !s.phone && lang == "en" {
					// A reload keeps the learner's place in the guide.
					p.do("reload", chromedp.Reload())
					waitFor[bool](p, "the guide after the reload", `!!document.querySelector("#coach:not([hidden])")`, 10*time.Second)
					if after := p.coach(); after.Step != c.Step || after.Learned != c.Learned {
						t.Errorf("after a reload the guide shows %q (%s learned), want %q (%s) again", after.Step, after.Learned, c.Step, c.Learned)
					}
				}
				if lang == "en" && (c.Step == "bid" || c.Step == "bodyguards" || c.Step == "thieves") {
					// Turned and resized mid-lesson: the bubble and the buttons stay in view.
					for _, r := range []size{landscape, narrow, tablet, {1024, 768, false}, s} {
						p.resize(r)
						p.coachInView(fmt.Sprintf("lesson %s resized to %s", c.Step, r))
						if r == landscape {
							p.screenshotViewport(fmt.Sprintf("tutorial-%s-%s-%02d-%s-turned", lang, s, n, c.Step))
						}
						if r == tablet {
							p.screenshotViewport(fmt.Sprintf("tutorial-%s-%s-%02d-%s-tablet", lang, s, n, c.Step))
						}
					}
				}
			})
			checkLessons(t, lang+" at "+s.String(), seen)
			if c := p.coach(); c.Shown {
				t.Errorf("the guide is still shown after its summary: %q", c.Step)
			}
		})
	}
}

// TestTutorialOffScript: a learner who does the opposite of the advice at
// every decision, in every language on a phone and in English on a
// desktop, is told each time what happened, and still meets every lesson:
// the move lessons skipped come back when the round's scores show as
// set-up scenes the learner plays (wrong once, then as advised), each
// bubble in the viewport and clear of what it explains.
func TestTutorialOffScript(t *testing.T) {
	runs := []struct {
		lang string
		size size
	}{{"en", phone}, {"nl", phone}, {"it", phone}, {"hu", phone}, {"es", phone}, {"de", phone}, {"en", desktop}}
	for _, r := range runs {
		t.Run(r.lang+"/"+r.size.String(), func(t *testing.T) {
			p := startTutorial(t, r.lang, r.size)
			what := fmt.Sprintf("going against the advice in %s at %s", r.lang, r.size)
			n, scenes := 0, 0
			seen := p.guided(what, tutorial.Against, func(c coachState) {
				n++
				if c.Scene != "" {
					scenes++
					if scenes == 1 && r.lang == "en" {
						p.accessible(fmt.Sprintf("the set-up scene of %q at %s", c.Step, r.size))
					}
				}
				suffix := ""
				if c.Tried {
					suffix = "-tried"
				}
				p.screenshotViewport(fmt.Sprintf("tutorial-offscript-%s-%s-%02d-%s%s", r.lang, r.size, n, c.Step, suffix))
			})
			checkLessons(t, what, seen)
			if scenes == 0 {
				t.Errorf("%s: no skipped lesson came back as a set-up scene; lessons %q", what, seen)
			}
		})
	}
}
