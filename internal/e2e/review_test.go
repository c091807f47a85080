package e2e

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/razziagame/razzia/internal/analysis"
)

// partlyInView is true when some of the element shows in the viewport.
func partlyInView(selector string, min int) string {
	return fmt.Sprintf(`(() => {
  const e = document.querySelector(%q);
  if (!e || e.getClientRects().length === 0) return false;
  const r = e.getBoundingClientRect();
  return Math.min(r.bottom, innerHeight) - Math.max(r.top, 0) >= %d && r.left >= 0 && r.right <= innerWidth;
})()`, selector, min)
}

type summaryRow struct {
	Inaccuracy, Mistake, Blunder int
	Accuracy                     string
}

// TestReplayReview opens the analysed replay of a finished game: on a
// desktop the board, the chart and the log are in sight together; each
// player's inaccuracies, mistakes, blunders and accuracy are told; the
// mistakes are listed, and a click or the keys N and P go to them; the
// log numbers moves as the counter does; autoplay has four speeds. On a
// phone the board comes before the chart.
func TestReplayReview(t *testing.T) {
	srv := newServer(t)
	id := srv.Create("easy", "easy", "easy").ID
	srv.WaitOver(id)
	rep := srv.analyse(t, id)

	var marks []analysis.Decision
	want := make([]summaryRow, len(rep.Players))
	sound, own := make([]int, len(rep.Players)), make([]int, len(rep.Players))
	for _, d := range rep.Decisions {
		if d.Forced {
			continue
		}
		own[d.Seat]++
		switch d.Label {
		case analysis.Best, analysis.Good:
			sound[d.Seat]++
		case analysis.Inaccuracy:
			want[d.Seat].Inaccuracy++
		case analysis.Mistake:
			want[d.Seat].Mistake++
			marks = append(marks, d)
		case analysis.Blunder:
			want[d.Seat].Blunder++
			marks = append(marks, d)
		}
	}
	for i := range want {
		want[i].Accuracy = fmt.Sprintf("%d%%", int(math.Round(100*float64(sound[i])/float64(own[i]))))
	}
	if len(marks) < 2 {
		t.Fatalf("the analysed game has %d mistakes: pick another game", len(marks))
	}

	p := newPage(t, srv, "desktop", 1440, 900)
	p.open("/g/" + id + "/replay#1")
	waitFor[bool](p, "the chart", `!!document.querySelector("#analysis-chart")`, 10*time.Second)
	p.screenshot("review-desktop")
	for _, sel := range []string{"#board", "#analysis-chart", "#log"} {
		if !eval[bool](p, partlyInView(sel, 80)) {
			t.Errorf("at 1440x900 %s is not in sight with the others", sel)
		}
	}

	rows := eval[[]summaryRow](p, `[...document.querySelectorAll("#analysis-summary tbody tr")].map((r) => {
  const c = [...r.querySelectorAll("td")].map((x) => x.textContent.trim());
  return { Inaccuracy: Number(c[0]), Mistake: Number(c[1]), Blunder: Number(c[2]), Accuracy: c[3] };
})`)
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("the summary per player says %v, want %v", rows, want)
	}

	// The list of mistakes, then the keys.
	if n := eval[int](p, `document.querySelectorAll("#mistake-list button").length`); n != len(marks) {
		t.Errorf("%d mistakes listed, want %d", n, len(marks))
	}
	at := func(pos int) string {
		return fmt.Sprintf(`parseInt(document.querySelector("#replay-pos").textContent) === %d`, pos)
	}
	p.click(fmt.Sprintf(`#mistake-list button[data-move="%d"]`, marks[0].Move))
	waitFor[bool](p, "the first mistake", at(marks[0].Move), 5*time.Second)
	p.do("press N", chromedp.KeyEvent("n"))
	waitFor[bool](p, "the next mistake by N", at(marks[1].Move), 5*time.Second)
	p.do("press P", chromedp.KeyEvent("p"))
	waitFor[bool](p, "the previous mistake by P", at(marks[0].Move), 5*time.Second)

	// One numbering: the log's newest move is the counter's.
	logged := eval[int](p, `(() => { const l = [...document.querySelectorAll("#log li[value]")]; return l.length ? Number(l.at(-1).value) : -1; })()`)
	if logged != marks[0].Move {
		t.Errorf("the counter shows move %d, the log's newest numbered line %d", marks[0].Move, logged)
	}

	// 4×: four moves in under two seconds, where 1× takes over four.
	p.click(`#replay-speeds button[data-speed="4"]`)
	from := marks[0].Move
	p.click("#replay-play")
	waitFor[bool](p, "four moves at 4x", fmt.Sprintf(`parseInt(document.querySelector("#replay-pos").textContent) >= %d`, from+4), 2500*time.Millisecond)
	p.click("#replay-play")

	ph := newPage(t, srv, "phone", 390, 844)
	ph.open("/g/" + id + "/replay#1")
	waitFor[bool](ph, "the chart", `!!document.querySelector("#analysis-chart")`, 10*time.Second)
	ph.screenshot("review-phone")
	order := eval[[]float64](ph, `["#board", "#analysis-chart"].map((s) => document.querySelector(s).getBoundingClientRect().top)`)
	if order[0] >= order[1] {
		t.Errorf("on a phone the board (top %v) comes after the chart (top %v)", order[0], order[1])
	}
	if !eval[bool](ph, partlyInView("#board", 120)) {
		t.Errorf("on a phone the board is not in sight when the replay opens")
	}
	// A phone on its side too.
	ph.resize(landscape)
	eval[bool](ph, `(scrollTo(0, 0), true)`)
	ph.noOverflow("the replay on a phone on its side", int(landscape.w))
	ph.screenshotViewport("review-" + landscape.String())
	order = eval[[]float64](ph, `["#board", "#analysis-chart"].map((s) => document.querySelector(s).getBoundingClientRect().top)`)
	if order[0] >= order[1] || !eval[bool](ph, partlyInView("#board", 120)) {
		t.Errorf("on a phone on its side the board (top %v) is not in sight before the chart (top %v)", order[0], order[1])
	}
}
