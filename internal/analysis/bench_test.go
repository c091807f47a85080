package analysis

import (
	"context"
	"runtime"
	"testing"
)

// BenchmarkAnalyze4p analyses a whole 4-player game with the default
// iterations on all cores: ns/op is the time for the game.
func BenchmarkAnalyze4p(b *testing.B) {
	rec := playGame(b, 4, "benchmark", nil, 0).Record()
	o := Options{Workers: runtime.GOMAXPROCS(0)}
	for b.Loop() {
		if _, err := Analyze(context.Background(), rec, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(rec.Moves)), "moves")
}
