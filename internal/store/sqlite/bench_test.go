package sqlite

import (
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/razziagame/razzia/internal/store"
)

// BenchmarkAppendMove measures committed moves per second: each is one
// transaction synced to disk (synchronous FULL), the cost of every move
// a live game makes.
func BenchmarkAppendMove(b *testing.B) {
	for _, games := range []int{1, 8} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) {
			s, err := Open(b.Context(), filepath.Join(b.TempDir(), "bench.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			ids := make([]string, games)
			for i := range ids {
				ids[i] = fmt.Sprintf("bench%05d", i)
				g := &store.Game{ID: ids[i], Status: store.StatusPlaying, Seats: make([]store.Seat, 4)}
				if err := s.CreateGame(b.Context(), g); err != nil {
					b.Fatal(err)
				}
			}
			next := make([]int, games)
			for i := 0; b.Loop(); i++ {
				g := i % games
				if err := s.AppendMove(b.Context(), ids[g], next[g], "bid 9", store.StatusPlaying); err != nil {
					b.Fatal(err)
				}
				next[g]++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}

// BenchmarkAppendMoveParallel has one writer per game, as the server's
// game goroutines are: the writes queue on the single writer connection.
func BenchmarkAppendMoveParallel(b *testing.B) {
	s, err := Open(b.Context(), filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var games atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprintf("bench%05d", games.Add(1))
		if err := s.CreateGame(b.Context(), &store.Game{ID: id, Status: store.StatusPlaying, Seats: make([]store.Seat, 4)}); err != nil {
			b.Error(err)
			return
		}
		for i := 0; pb.Next(); i++ {
			if err := s.AppendMove(b.Context(), id, i, "bid 9", store.StatusPlaying); err != nil {
				b.Error(err)
				return
			}
		}
	})
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
