package storetest

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/razziagame/razzia/internal/store"
)

// BenchAppend plays b.N moves spread over games concurrent games, one
// goroutine each, and reports committed moves per second: the benchmark
// every store runs with its own setup.
func BenchAppend(b *testing.B, s store.Store, games int) {
	ids := make([]string, games)
	for i := range ids {
		ids[i] = fmt.Sprintf("bench%05d", i)
		g := &store.Game{ID: ids[i], Status: store.StatusPlaying, Seats: make([]store.Seat, 4)}
		if err := s.CreateGame(b.Context(), g); err != nil {
			b.Fatal(err)
		}
	}
	var left atomic.Int64
	left.Store(int64(b.N))
	b.ResetTimer()
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() {
			for i := 0; left.Add(-1) >= 0; i++ {
				if err := s.AppendMove(b.Context(), id, store.NoFence, i, "bid 9", store.StatusPlaying); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}
