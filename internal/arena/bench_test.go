package arena

import (
	"context"
	"testing"
)

// BenchmarkArena plays runs of 4-player games between random bots (the
// real ones, from bot.New) on all cores and reports games/s: the cost of
// the arena's own machinery around the engine, since random bots decide
// in next to no time.
func BenchmarkArena(b *testing.B) {
	const games = 64
	c := Config{Seats: []string{"random", "random", "random", "random"}, Games: games}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(context.Background(), c); err != nil {
			b.Fatal(err)
		}
		c.Seed++
	}
	b.ReportMetric(float64(b.N*games)/b.Elapsed().Seconds(), "games/s")
}
