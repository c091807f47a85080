package e2e

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// audibleJS runs in the page before its scripts. It records every sound
// the page starts (an oscillator's start: its frequency and the time the
// player's clock had left then) in window.__tones, and gives the page a
// clock the test sets: window.__setLeft(ms) moves the page's time to when
// the running decision has ms left, by the clock of the newest state the
// table's socket brought (spoken in version 1 of the protocol, whole
// states only, so that the clock is read as the page reads it).
const audibleJS = `(() => {
  const real = Date.now.bind(Date);
  let fake = null;
  Date.now = () => (fake === null ? real() : fake);
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url, ...rest) {
      const table = /\/api\/games\/[^/]+\/ws/.test(String(url));
      super(table ? String(url).replace(/protocol=[^&]*/, "protocol=1") : url, ...rest);
      if (!table) return;
      this.addEventListener("message", (ev) => {
        try {
          const m = JSON.parse(ev.data);
          if (m.type === "state" && m.clock) window.__clock = { ...m.clock, got: Date.now() };
        } catch {}
      });
    }
  };
  // What the running decision has left at the page's now, as clock.js counts it.
  window.__left = () => {
    const c = window.__clock;
    if (!c || c.running < 0) return -1;
    const t = Date.now() + (c.serverTime - c.got);
    const reserve = c.reserveMs[c.running] || 0;
    return Math.max(0, c.decisionEnds - t) + Math.max(0, Math.min(reserve, c.deadline - Math.max(t, c.decisionEnds)));
  };
  window.__setLeft = (ms) => {
    if (fake === null) fake = real();
    for (let i = 0; i < 4; i++) fake += window.__left() - ms;
    return window.__left();
  };
  window.__tones = [];
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    window.__tones.push({ frequency: this.frequency.value, left: window.__left() });
    return start.apply(this, args);
  };
})();`

// tickHz is the frequency of the clock's tick (notify.js clockTick).
const tickHz = 1200

// TestClockTicksAudibly plays a Blitz table against a bot with the sound
// on: once the player's own clock runs, its last five seconds each start
// a tick, the seconds before none, and with the sound turned off the
// seconds after tick silently. The page's clock is the test's: each
// second is set, and the check waits for the clock on screen to show it
// (the page ticks in the same step it shows the time).
func TestClockTicksAudibly(t *testing.T) {
	srv := newServer(t)
	var created struct {
		Game struct{ ID string } `json:"game"`
	}
	if code := srv.api(t, "POST", "/api/games", `{"seats":[{"bot":""},{"bot":"easy"}],"pace":"blitz"}`, &created); code != http.StatusCreated {
		t.Fatalf("create: status %d", code)
	}
	p := newPage(t, srv, "Ann", desktop.w, desktop.h)
	p.do("record the sounds", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: audibleJS})
		return err
	}))
	p.open("/g/" + created.Game.ID)
	p.join("Ann")
	p.click("#sound")
	if !eval[bool](p, `document.querySelector("#sound").checked`) {
		t.Fatal("the sound did not turn on")
	}
	waitFor[bool](p, "the player's clock running", `!!document.querySelector("#decide-clock.decide-clock-mine.clock-running") && window.__left() > 7000`, 30*time.Second)

	ticks := func() []int {
		return eval[[]int](p, fmt.Sprintf(`window.__tones.filter((x) => x.frequency === %d).map((x) => Math.ceil(x.left / 1000))`, tickHz))
	}
	// show sets the page's time to the middle of the second s and waits
	// for the clock on screen to show it.
	show := func(s int) {
		t.Helper()
		eval[float64](p, fmt.Sprintf(`window.__setLeft(%d)`, s*1000-500))
		waitFor[bool](p, fmt.Sprintf("the clock showing 0:%02d", s), fmt.Sprintf(`document.querySelector("#decide-clock").textContent.includes("0:%02d")`, s), 5*time.Second)
	}
	if got := ticks(); len(got) > 0 {
		t.Fatalf("the clock ticked with more than 7 s left: %v", got)
	}
	for _, s := range []int{8, 6, 5, 4, 3} {
		show(s)
		var want []int
		for k := 5; k >= s; k-- {
			want = append(want, k)
		}
		if got := ticks(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("with %d s left the clock ticked at %v s; want %v", s, got, want)
		}
	}
	if !eval[bool](p, `!!document.querySelector("#decide-clock.clock-low")`) {
		t.Errorf("the clock with 3 s left does not show low: %q", eval[string](p, `document.querySelector("#decide-clock").className`))
	}
	p.screenshotViewport("clock-ticks-" + desktop.String())

	// The sound turned off: the last seconds pass silently.
	p.click("#sound")
	if eval[bool](p, `document.querySelector("#sound").checked`) {
		t.Fatal("the sound did not turn off")
	}
	for _, s := range []int{2, 1} {
		show(s)
		if got := ticks(); len(got) != 3 {
			t.Errorf("with the sound off and %d s left the clock ticked at %v s; want only the 3 ticks before", s, got)
		}
	}
	// Sounds other than the ticks were started (the switch's sample, the
	// turn's chime): the recording sees the page's sounds at all.
	if n := eval[int](p, fmt.Sprintf(`window.__tones.filter((x) => x.frequency !== %d).length`, tickHz)); n == 0 {
		t.Errorf("no other sound was recorded: the switch's sample is missing")
	}
}
