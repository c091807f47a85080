package httpapi

import (
	"bytes"
	"fmt"
	"math"
	"net/http"

	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/rating"
)

// The rating chart's size, in SVG user units; the page scales it.
const (
	chartW, chartH = 640, 240
	chartLeft      = 52 // room for the rating axis
	chartRight     = 12
	chartTop       = 12
	chartBottom    = 28 // room for the game axis
)

// ratingChart answers GET /api/players/{name}/rating.svg: the player's
// rating history drawn by the server, so the page needs no chart script.
func (s *Server) ratingChart(w http.ResponseWriter, r *http.Request) {
	svc := s.opts.Accounts
	p, err := svc.Profile(r.Context(), r.PathValue("name"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	start := svc.Options().Model.New()
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Write(ratingSVG(start, p.History))
}

// ratingSVG draws the rating on the display scale after each rated game,
// from the new player's rating at game 0, over the band up to μ, the
// estimate it is conservative about. Text is numbers only: the page
// gives the chart its words (alt) in the reader's language.
func ratingSVG(start rating.Rating, history []protocol.RatingPoint) []byte {
	type point struct{ ord, mu float64 }
	// On the display scale players read (rating.Rating.Display), the
	// estimate as a rating without uncertainty.
	shown := func(ord float64) float64 { return float64(rating.Rating{Mu: ord}.Display()) }
	pts := []point{{shown(start.Ordinal()), shown(start.Mu)}}
	for _, h := range history {
		pts = append(pts, point{shown(h.Ordinal), shown(h.Mu)})
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		lo, hi = min(lo, p.ord, p.mu), max(hi, p.ord, p.mu)
	}
	step := niceStep((hi - lo) / 4)
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	if hi <= lo {
		hi = lo + step
	}
	plotW, plotH := float64(chartW-chartLeft-chartRight), float64(chartH-chartTop-chartBottom)
	n := max(len(pts)-1, 1)
	x := func(i int) float64 { return chartLeft + plotW*float64(i)/float64(n) }
	y := func(v float64) float64 { return chartTop + plotH*(hi-v)/(hi-lo) }

	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" font-family="system-ui, sans-serif" font-size="14">`,
		chartW, chartH, chartW, chartH)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#20242e"/>`, chartW, chartH)
	for v := lo; v <= hi+step/2; v += step {
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#3a404e"/>`, chartLeft, chartW-chartRight, y(v), y(v))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" fill="#b3b9c6" text-anchor="end" dominant-baseline="middle">%s</text>`,
			chartLeft-6, y(v), formatTick(v, step))
	}
	for _, i := range gameTicks(n) {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" fill="#b3b9c6" text-anchor="middle">%d</text>`, x(i), chartH-8, i)
	}
	// The band between the conservative rating and the estimate.
	b.WriteString(`<path fill="#f2c14e" fill-opacity="0.15" d="`)
	for i, p := range pts {
		fmt.Fprintf(&b, "%s%.1f %.1f ", map[bool]string{true: "M", false: "L"}[i == 0], x(i), y(p.mu))
	}
	for i := len(pts) - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "L%.1f %.1f ", x(i), y(pts[i].ord))
	}
	b.WriteString(`Z"/>`)
	b.WriteString(`<polyline fill="none" stroke="#f2c14e" stroke-width="2.5" stroke-linejoin="round" points="`)
	for i, p := range pts {
		fmt.Fprintf(&b, "%.1f,%.1f ", x(i), y(p.ord))
	}
	b.WriteString(`"/>`)
	if len(pts) <= 60 {
		for i, p := range pts {
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="#f2c14e"/>`, x(i), y(p.ord))
		}
	}
	b.WriteString(`</svg>`)
	return b.Bytes()
}

// niceStep rounds a raw tick interval up to 1, 2 or 5 times a power of
// ten.
func niceStep(raw float64) float64 {
	if raw <= 0 || math.IsNaN(raw) || math.IsInf(raw, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*p {
			return m * p
		}
	}
	return 10 * p
}

// formatTick prints a tick value with as many decimals as its step needs.
func formatTick(v, step float64) string {
	if step >= 1 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.*f", int(math.Ceil(-math.Log10(step))), v)
}

// gameTicks returns at most about eight game numbers from 0 to n to label.
func gameTicks(n int) []int {
	every := max(1, int(niceStep(float64(n)/8)))
	var out []int
	for i := 0; i <= n; i += every {
		out = append(out, i)
	}
	switch last := out[len(out)-1]; {
	case last == n:
	case 2*(n-last) < every: // too close to label both
		out[len(out)-1] = n
	default:
		out = append(out, n)
	}
	return out
}
