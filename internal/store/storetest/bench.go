package storetest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/cputime"
	"github.com/razziagame/razzia/internal/store"
)

// BenchAppend plays b.N moves spread over games concurrent games, one
// goroutine each, and reports committed moves per second and the time an
// AppendMove took (p50, p99, max): the benchmark
// every store runs with its own setup.
func BenchAppend(b *testing.B, s store.Store, games int) { BenchAppendPaced(b, s, games, 0) }

// BenchAppendPaced is BenchAppend with each game making a move every
// period at most (zero: as fast as it can), as players do: the moves'
// times then show the commit's own delays rather than a queue. It reports
// the process's CPU a move too (cpu-µs/move, where the system tells it):
// the store's work, the benchmark's goroutines and the collector, which
// a memory store's run of the same benchmark shows apart. Each of others
// reports its CPU a move as well (NAME-cpu-µs/move): a process the store
// uses, such as PostgreSQL's server.
func BenchAppendPaced(b *testing.B, s store.Store, games int, period time.Duration, others ...Proc) {
	ids := make([]string, games)
	for i := range ids {
		ids[i] = fmt.Sprintf("bench%05d", i)
		g := &store.Game{ID: ids[i], Status: store.StatusPlaying, Seats: make([]store.Seat, 4)}
		if err := s.CreateGame(b.Context(), g); err != nil {
			b.Fatal(err)
		}
	}
	BenchPaced(b, games, period, func(game, i int) error {
		return s.AppendMove(b.Context(), ids[game], store.NoFence, i, "bid 9", store.StatusPlaying)
	}, others...)
}

// A Proc is a process whose CPU a benchmark reports: CPU returns the time
// it has used so far.
type Proc struct {
	Name string
	CPU  func() time.Duration
}

// BenchPaced runs b.N calls of move spread over games goroutines, one a
// game, each calling every period at most (zero: as fast as it can) with
// its game's index and its own count of calls, and reports what
// BenchAppendPaced does.
func BenchPaced(b *testing.B, games int, period time.Duration, move func(game, i int) error, others ...Proc) {
	var (
		left  atomic.Int64
		mu    sync.Mutex
		times = make([]time.Duration, 0, b.N)
	)
	left.Store(int64(b.N))
	b.ResetTimer()
	cpu := cputime.Process()
	before := make([]time.Duration, len(others))
	for i, p := range others {
		before[i] = p.CPU()
	}
	var wg sync.WaitGroup
	for game := range games {
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
				if err := move(game, i); err != nil {
					b.Error(err)
					return
				}
				mine = append(mine, time.Since(start))
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	perMove := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) }
	if cpu := cputime.Process() - cpu; cpu > 0 {
		b.ReportMetric(perMove(cpu), "cpu-µs/move")
	}
	for i, p := range others {
		b.ReportMetric(perMove(p.CPU()-before[i]), p.Name+"-cpu-µs/move")
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
	slices.Sort(times)
	if len(times) > 0 {
		b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "max-ms")
	}
}
