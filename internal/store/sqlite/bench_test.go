package sqlite

import (
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/razziagame/razzia/internal/store"
)

// BenchmarkAppendMove measures committed moves per second with 1, 10, 100
// and 1000 games played at once, one goroutine per game as the server
// runs them: every move is on disk (synchronous FULL) before it returns.
func BenchmarkAppendMove(b *testing.B) {
	for _, games := range []int{1, 10, 100, 1000} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) {
			s, err := Open(b.Context(), filepath.Join(b.TempDir(), "bench.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			benchAppend(b, s, games)
		})
	}
}

// benchAppend plays b.N moves spread over games concurrent games.
func benchAppend(b *testing.B, s store.Store, games int) {
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

// BenchmarkGame measures reading a whole game of 100 moves, as a restart
// does for every game in play.
func BenchmarkGame(b *testing.B) {
	s, err := Open(b.Context(), filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	g := &store.Game{ID: "bench00001", Status: store.StatusArchived, Seats: make([]store.Seat, 4)}
	for i := range 100 {
		g.Moves = append(g.Moves, fmt.Sprintf("bid %d", i%16))
	}
	if err := s.CreateGame(b.Context(), g); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Game(b.Context(), g.ID); err != nil {
			b.Fatal(err)
		}
	}
}
