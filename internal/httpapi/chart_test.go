package httpapi_test

import (
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/rating"
)

// TestRatingSVG: the chart is well-formed XML for no games, flat
// histories, long ones, and marks its points while they are few.
func TestRatingSVG(t *testing.T) {
	start := rating.Default().New()
	history := func(n int, f func(i int) float64) []protocol.RatingPoint {
		var h []protocol.RatingPoint
		for i := range n {
			h = append(h, protocol.RatingPoint{At: time.Unix(int64(i), 0), Ordinal: f(i), Mu: f(i) + 6, Sigma: 2})
		}
		return h
	}
	for _, tc := range []struct {
		name    string
		history []protocol.RatingPoint
		circles int
	}{
		{"no games", nil, 1},
		{"flat", history(5, func(int) float64 { return start.Ordinal() }), 6},
		{"rising", history(20, func(i int) float64 { return float64(i) }), 21},
		{"many", history(500, func(i int) float64 { return float64(i%7) - 3 }), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svg := string(httpapi.RatingSVG(start, tc.history))
			if err := xml.Unmarshal([]byte(svg), new(struct{})); err != nil {
				t.Fatalf("not XML: %v\n%s", err, svg)
			}
			if strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") {
				t.Errorf("a coordinate is not a number:\n%s", svg)
			}
			if n := strings.Count(svg, "<circle"); n != tc.circles {
				t.Errorf("%d points marked, want %d", n, tc.circles)
			}
		})
	}
}
