package storetest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// BenchAppend plays b.N moves spread over games concurrent games, one
// goroutine each, and reports committed moves per second and the time an
// AppendMove took (p50, p99, max): the benchmark
// every store runs with its own setup.
func BenchAppend(b *testing.B, s store.Store, games int) { BenchAppendPaced(b, s, games, 0) }

// BenchAppendPaced is BenchAppend with each game making a move every
// period at most (zero: as fast as it can), as players do: the moves'
// times then show the commit's own delays rather than a queue.
func BenchAppendPaced(b *testing.B, s store.Store, games int, period time.Duration) {
	ids := make([]string, games)
	for i := range ids {
		ids[i] = fmt.Sprintf("bench%05d", i)
		g := &store.Game{ID: ids[i], Status: store.StatusPlaying, Seats: make([]store.Seat, 4)}
		if err := s.CreateGame(b.Context(), g); err != nil {
			b.Fatal(err)
		}
	}
	var (
		left  atomic.Int64
		mu    sync.Mutex
		times = make([]time.Duration, 0, b.N)
	)
	left.Store(int64(b.N))
	b.ResetTimer()
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() {
			var mine []time.Duration
			defer func() {
				mu.Lock()
				times = append(times, mine...)
				mu.Unlock()
			}()
			next := time.Now().Add(time.Duration(rand.Int64N(int64(period) + 1)))
			for i := 0; left.Add(-1) >= 0; i++ {
				if period > 0 {
					time.Sleep(time.Until(next))
					next = next.Add(period)
				}
				start := time.Now()
				if err := s.AppendMove(b.Context(), id, store.NoFence, i, "bid 9", store.StatusPlaying); err != nil {
					b.Error(err)
					return
				}
				mine = append(mine, time.Since(start))
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
	slices.Sort(times)
	if len(times) > 0 {
		b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "max-ms")
	}
}
