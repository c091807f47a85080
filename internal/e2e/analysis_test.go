package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/razziagame/razzia/internal/analysis"
	"github.com/razziagame/razzia/internal/analyst"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/store"
)

// analyse stores the analysis of finished game id, as the background
// analyst would, with few iterations, and returns it.
func (s *server) analyse(t *testing.T, id string) *analysis.Report {
	t.Helper()
	rep := s.analysis(t, id)
	s.putAnalysis(t, id, rep)
	return rep
}

// analysis makes the report of a finished game without storing it.
func (s *server) analysis(t *testing.T, id string) *analysis.Report {
	t.Helper()
	ctx := servertest.Context(t)
	g, err := s.Store.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := analysis.Analyze(ctx, analyst.Record(g), analysis.Options{Iterations: 60, Seed: analyst.Seed(id)})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// putAnalysis stores a report as the server's analyst would.
func (s *server) putAnalysis(t *testing.T, id string, rep *analysis.Report) {
	t.Helper()
	b, _ := json.Marshal(rep)
	if err := s.Store.PutAnalysis(servertest.Context(t), id, store.Analysis{Report: b}); err != nil {
		t.Fatal(err)
	}
}

// inView is true when the element is shown whole inside the viewport.
func inView(selector string) string {
	return fmt.Sprintf(`(() => {
  const e = document.querySelector(%q);
  if (!e || e.getClientRects().length === 0) return false;
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
})()`, selector)
}

// TestAnalysisChart opens the replay of a finished game: while it is
// being analysed the page says so; then it shows a chart of win chances,
// one line per player, mistakes marked; a click on a mark or on the chart
// goes to that move and tells what was best, and a draw is told as luck.
func TestAnalysisChart(t *testing.T) {
	srv := newServer(t)
	id := srv.Create("easy", "easy", "easy").ID
	srv.WaitOver(id)

	// The report is made before the page opens and stored once the page
	// shows it pending: made in between, under the race detector, it can
	// land after the page's looks have spaced out to longer than the wait.
	rep := srv.analysis(t, id)
	p := newPage(t, srv, "reader", 1440, 900)
	p.open("/g/" + id + "/replay#1")
	waitFor[bool](p, "the pending analysis", `(() => { const v = document.querySelector("#analysis-verdict"); return !!v && v.innerText.includes("being made"); })()`, 10*time.Second)

	srv.putAnalysis(t, id, rep)
	// The page looks again by itself: its second look is at most 9 s after
	// it opened (3 s, then 6 s more).
	waitFor[bool](p, "the chart after the analysis", `!!document.querySelector("#analysis-chart")`, 15*time.Second)
	var marks []analysis.Decision
	var luck *analysis.Decision
	for i, d := range rep.Decisions {
		if d.Label == analysis.Mistake || d.Label == analysis.Blunder {
			marks = append(marks, d)
		}
		if d.Luck != nil && luck == nil {
			luck = &rep.Decisions[i]
		}
	}
	if len(marks) == 0 || luck == nil {
		t.Fatalf("the analysed game has %d mistakes and no draw (%v): pick another game", len(marks), luck)
	}
	for _, vp := range []struct {
		name          string
		width, height int64
	}{{"desktop", 1440, 900}, {"phone", 390, 844}} {
		t.Run(vp.name, func(t *testing.T) {
			p := newPage(t, srv, vp.name, vp.width, vp.height)
			p.open("/g/" + id + "/replay#1")
			// The chart comes under the board: on a phone, a scroll away.
			waitFor[bool](p, "the chart", `!!document.querySelector("#analysis-chart")`, 10*time.Second)
			eval[bool](p, `(document.querySelector("#analysis-chart").scrollIntoView({block: "center"}), true)`)
			waitFor[bool](p, "the chart in the viewport", inView("#analysis-chart"), 10*time.Second)
			lines := eval[int](p, `document.querySelectorAll("#analysis-chart .wc-line").length`)
			if lines != len(rep.Players) {
				t.Errorf("%d lines, want one per player (%d)", lines, len(rep.Players))
			}
			if n := eval[int](p, `document.querySelectorAll("#analysis-chart .wc-mark").length`); n != len(marks) {
				t.Errorf("%d marks, want %d (the mistakes and blunders)", n, len(marks))
			}
			p.accessible("the replay with its analysis")
			p.screenshot("analysis-chart-" + vp.name)

			// A mark goes to its move and tells what was best. On a phone
			// the marks of neighbouring moves overlap, the later on top:
			// the one clicked stands apart from the others.
			d := apart(t, marks, 5)
			p.click(fmt.Sprintf(`#analysis-chart .wc-mark[data-move="%d"]`, d.Move))
			waitFor[bool](p, "the replay at the marked move",
				fmt.Sprintf(`document.querySelector("#replay-pos").textContent.trim().startsWith("%d /")`, d.Move), 5*time.Second)
			verdict := p.text("#analysis-verdict")
			gain := int(float64(d.BestValue-d.PlayedValue)*100 + 0.5)
			for _, want := range []string{fmt.Sprintf("Move %d", d.Move), "Best was:", fmt.Sprintf("(+%d%%)", gain)} {
				if gain <= 0 && strings.HasPrefix(want, "(+") {
					continue
				}
				if !strings.Contains(verdict, want) {
					t.Errorf("the verdict on move %d says %q, want %q in it", d.Move, verdict, want)
				}
			}
			if vp.name == "desktop" {
				p.screenshot("analysis-mistake-" + vp.name)
			}

			// A click on the chart goes to the nearest move.
			box := eval[[]float64](p, `(() => { const r = document.querySelector("#analysis-chart .wc-hit").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`)
			p.do("click the chart's middle", chromedp.MouseClickXY(box[0]+box[2]/2, box[1]+box[3]/2))
			mid := len(rep.Decisions) / 2
			pos := waitFor[int](p, "a move from the chart", `(() => { const n = parseInt(document.querySelector("#replay-pos").textContent); return n !== `+fmt.Sprint(d.Move)+` && n; })()`, 5*time.Second)
			if pos < mid-1 || pos > mid+1 {
				t.Errorf("a click in the chart's middle went to move %d, want about %d", pos, mid)
			}

			// A draw is luck, whatever card came.
			eval[bool](p, fmt.Sprintf(`location.hash = "#%d"; true`, luck.Move))
			waitFor[bool](p, "the verdict on a draw", `document.querySelector("#analysis-verdict").innerText.includes("Luck of the draw")`, 5*time.Second)
		})
	}
}

// TestHintsPanel asks "What would the bot do?" at a casual table: the
// decision panel shows the bot's best moves with their chances, in view.
func TestHintsPanel(t *testing.T) {
	srv := &server{servertest.New(t, servertest.Options{Page: true, LevelBots: true, API: httpapi.Options{HintIterations: 200}})}
	for _, vp := range []struct {
		name          string
		width, height int64
	}{{"desktop", 1440, 900}, {"phone", 390, 844}} {
		t.Run(vp.name, func(t *testing.T) {
			id := srv.Create("", "").ID
			p := newPage(t, srv, "Ann "+vp.name, vp.width, vp.height)
			p.do("keep the newest state", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				_, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: lastState})
				return err
			}))
			p.open("/g/" + id)
			if seat := p.join("Ann"); seat != 0 {
				t.Fatalf("joined seat %d, want 0", seat)
			}
			srv.Join(id, "Bob")
			waitFor[bool](p, "the hint button", `(() => { const b = document.querySelector("#hints-ask"); return !!b && b.getClientRects().length > 0; })()`, 10*time.Second)
			p.click("#hints-ask")
			n := waitFor[int](p, "the hints", `document.querySelectorAll("#hints-list li").length`, 20*time.Second)
			if n < 1 || n > analysis.MaxHints {
				t.Errorf("%d hints, want 1 to %d", n, analysis.MaxHints)
			}
			text := p.text("#hints")
			if !strings.Contains(text, "% to win") {
				t.Errorf("the hints say %q: no chance to win", text)
			}
			if !eval[bool](p, inView("#hints")) {
				t.Error("the hints are not in the viewport")
			}
			p.accessible("the table with hints")
			p.screenshot("hints-" + vp.name)

			// At a rated table the button is not there: the same state,
			// said to be rated, as the server of accounts sends it.
			eval[bool](p, `(() => {
  const s = structuredClone(window.__lastState);
  s.game.rated = true;
  s.events = [];
  window.__tableSocket().dispatchEvent(new MessageEvent("message", {data: JSON.stringify(s)}));
  return true;
})()`)
			waitFor[bool](p, "the rated table without hints", `!document.querySelector("#hints") && !!document.querySelector("#moves")`, 5*time.Second)
		})
	}
}

// lastState is run in every document of TestHintsPanel before the page's
// scripts: it keeps the table's newest whole state in window.__lastState.
// Version 2 of the protocol sends patches after the first state: the
// page's own LiveState (versions.js) turns them back into whole states,
// as it does for the page.
const lastState = `(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      if (!/\/api\/games\/[^/]+\/ws/.test(String(args[0]))) return;
      // In order, each after the module is loaded.
      let live = import("/static/js/versions.js").then(({ LiveState }) => new LiveState());
      this.addEventListener("message", (ev) => {
        const m = JSON.parse(ev.data);
        live = live.then((l) => {
          const got = l.accept(m, () => {});
          if (got && got.msg.type === "state") window.__lastState = got.msg;
          return l;
        });
      });
    }
  };
})();`

// apart returns the first of marks with no other within gap moves of it.
func apart(t *testing.T, marks []analysis.Decision, gap int) analysis.Decision {
	for i, d := range marks {
		near := false
		for k, o := range marks {
			near = near || k != i && o.Move > d.Move-gap && o.Move < d.Move+gap
		}
		if !near {
			return d
		}
	}
	t.Fatalf("every one of the %d marks is within %d moves of another: pick another game", len(marks), gap)
	return analysis.Decision{}
}
