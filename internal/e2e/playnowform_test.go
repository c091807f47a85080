package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestPlayNowRatedLayout: a signed-in person's Play-now form shows its
// "Rated" box right under the fields above it, not under an empty space
// as tall as a neighbour's label, at a desktop's and a phone's size.
func TestPlayNowRatedLayout(t *testing.T) {
	srv := newServer(t)
	p := newPage(t, srv, "Ann", desktop.w, desktop.h)
	p.open("/")
	p.register("Ann")
	p.open("/")
	waitFor[bool](p, "the rated box", shown("#playnow-rated-field"), 20*time.Second)
	for _, s := range []size{desktop, phone} {
		p.resize(s)
		p.do("scroll to Play now", chromedp.ScrollIntoView("#playnow-form"))
		p.screenshotViewport("playnow-rated-" + s.String())
		// The space between the box and the lowest field wholly above it,
		// less the fields' own margin.
		gap := eval[float64](p, `(() => {
  const rated = document.querySelector("#playnow-rated-field");
  const top = rated.getBoundingClientRect().top;
  const above = [...document.querySelectorAll("#playnow-form > .field")].filter((e) => !e.hidden && e !== rated)
    .map((e) => e.getBoundingClientRect().bottom).filter((b) => b <= top);
  return top - Math.max(...above) - parseFloat(getComputedStyle(rated).marginBottom);
})()`)
		if gap > 2 {
			t.Errorf("at %s the rated box sits %.0f px below the fields above it", s, gap)
		}
	}
}
