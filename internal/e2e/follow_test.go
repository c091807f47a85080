package e2e

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// logEnd reads where the log's newest line is against the log box: inside
// (fully visible in the box), and whether the "new events" button shows.
const logEndJS = `(() => {
  const l = document.querySelector("#log");
  const last = l && l.lastElementChild;
  if (!last) return null;
  const box = l.getBoundingClientRect(), r = last.getBoundingClientRect();
  const more = document.querySelector("#log-more");
  return { inside: r.top >= box.top - 1 && r.bottom <= box.bottom + 1, top: l.scrollTop, height: l.scrollHeight,
    client: l.clientHeight, lines: l.children.length, more: !!more && !more.hidden && more.getClientRects().length > 0 };
})()`

type logEnd struct {
	Inside bool `json:"inside"`
	Top    int  `json:"top"`
	Height int  `json:"height"`
	Client int  `json:"client"`
	Lines  int  `json:"lines"`
	More   bool `json:"more"`
}

// TestLogFollows plays 40 moves against bots on a desktop: the log's
// newest line stays inside the log box, although the table's layout
// changes under it all the time. A reader who scrolls back stays where
// they are and is offered "new events"; the button brings the newest
// line back.
func TestLogFollows(t *testing.T) {
	p := seated(t, "easy", "easy", "easy")
	p.play(40)
	waitFor[bool](p, "the log's newest line inside the log box", `(() => { const e = `+logEndJS+`; return !!e && e.inside; })()`, 5*time.Second)
	end := eval[logEnd](p, logEndJS)
	p.screenshot("log-follows-desktop")
	if end.More {
		t.Errorf("the log follows the game, yet offers new events: %+v", end)
	}
	if end.Height <= end.Client {
		t.Fatalf("the log does not overflow after 40 moves (%+v): the test proves nothing", end)
	}

	// The reader scrolls back with the wheel: the log stays put. The wheel
	// scrolls smoothly: where it comes to rest is where the reader is.
	p.do("scroll the log back", scrollLog())
	rest := waitFor[int](p, "the log at rest, scrolled back", `(() => {
  const l = document.querySelector("#log");
  if (window.__top !== l.scrollTop) { window.__top = l.scrollTop; window.__since = Date.now(); return 0; }
  return Date.now() - window.__since > 300 && l.scrollTop < l.scrollHeight - l.clientHeight - 50 ? l.scrollTop + 1 : 0;
})()`, 10*time.Second) - 1
	lines := end.Lines
	p.play(4)
	back := waitFor[logEnd](p, "more lines in the log", `(() => { const e = `+logEndJS+`; return e && e.lines > `+strconv.Itoa(lines)+` ? e : null; })()`, 10*time.Second)
	if back.Inside || back.Top < rest-2 || back.Top > rest+2 {
		t.Errorf("a reader who scrolled back to %d px was moved: %+v", rest, back)
	}
	if !back.More {
		t.Errorf("a reader who scrolled back is not told of new events: %+v", back)
	}
	// Clicked where it is once drawn: the chat docks under the log at the
	// next frame.
	p.frames()
	p.click("#log-more")
	waitFor[bool](p, "the newest line after new events", `(() => { const e = `+logEndJS+`; return !!e && e.inside && !e.more; })()`, 5*time.Second)

	// A guest's whole game logged no error (it once logged a 401 for
	// /api/account on every page).
	if errs := p.consoleErrors(); len(errs) > 0 {
		t.Errorf("the guest's page logged errors:\n%s", strings.Join(errs, "\n"))
	}
}

// consoleErrors returns what the page logged as errors so far.
func (p *page) consoleErrors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, line := range p.console {
		if strings.HasPrefix(line, "error ") {
			out = append(out, line)
		}
	}
	return out
}

// scrollLog turns the mouse wheel up over the log, as a reader does.
func scrollLog() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		at, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector("#log").getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2]; })()`))
		if err != nil {
			return err
		}
		_, err = chromedp.Call(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{
			// DeltaX must be sent, and a zero would be left out.
			Type: input.DispatchMouseEventTypeMouseWheel, X: at[0], Y: at[1], DeltaX: 0.001, DeltaY: -100000,
		})
		return err
	})
}
