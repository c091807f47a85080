package sqlite

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/storetest"
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
			storetest.BenchAppend(b, s, games)
		})
	}
}

// BenchmarkCheckpoint compares the commit times (p99) of moves at 1000
// games, each moving every half second, when the writer checkpoints the
// log in its commits (SQLite's default) and when a connection of its own
// does, beside the writer. Run it with -benchtime 20000x or more, so
// that it spans many checkpoints.
func BenchmarkCheckpoint(b *testing.B) {
	for _, c := range []struct {
		name  string
		every time.Duration
	}{{"writer", -1}, {"background", 0}} {
		b.Run(c.name, func(b *testing.B) {
			s, err := OpenOptions(b.Context(), filepath.Join(b.TempDir(), "bench.db"), Options{CheckpointEvery: c.every})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			storetest.BenchAppendPaced(b, s, 1000, 500*time.Millisecond)
		})
	}
}

// BenchmarkAppendPaced plays moves at 100 and 1,000 games, each moving
// once a second as the load of docs/deploy.md does, and reports what a
// move costs in counts, which the machine's load does not change: the
// moves of a group (one transaction and one sync), the pages written to
// the log (the games' creation included) and the checkpoints a thousand
// moves. Count its system calls with perf stat or strace -f -c. At 1,000
// games it runs with Options.Tick zero (the default: a group is what came
// while the last committed) and 1 ms (the writer waits that long for
// more): more moves a group, fewer syncs, against the wait, which its
// p50 and p99 show on a quiet machine. A run lasts b.N/games seconds.
func BenchmarkAppendPaced(b *testing.B) {
	for _, c := range []struct {
		games int
		tick  time.Duration
	}{{100, 0}, {1000, 0}, {1000, time.Millisecond}} {
		b.Run(fmt.Sprintf("games=%d/tick=%v", c.games, c.tick), func(b *testing.B) {
			s, err := OpenOptions(b.Context(), filepath.Join(b.TempDir(), "bench.db"), Options{Tick: c.tick})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			groups, pages, copies := s.groups.Load(), s.pages.Load(), s.copies.Load()
			storetest.BenchAppendPaced(b, s, c.games, time.Second)
			groups, pages, copies = s.groups.Load()-groups-int64(c.games), s.pages.Load()-pages, s.copies.Load()-copies
			b.ReportMetric(float64(b.N)/float64(max(groups, 1)), "moves/group")
			b.ReportMetric(float64(pages)/float64(b.N), "pages/move")
			b.ReportMetric(float64(copies)*1000/float64(b.N), "checkpoints/1000moves")
		})
	}
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
