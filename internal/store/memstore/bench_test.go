package memstore

import (
	"fmt"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store/storetest"
)

// BenchmarkAppendPaced is SQLite's benchmark of the same name in memory:
// its CPU a move is what the benchmark's goroutines, the store's
// bookkeeping and the collector cost without a database, to be taken from
// SQLite's to tell what a commit costs. A run lasts b.N/games seconds.
func BenchmarkAppendPaced(b *testing.B) {
	for _, games := range []int{100, 1000} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) {
			s := New()
			defer s.Close()
			storetest.BenchAppendPaced(b, s, games, time.Second)
		})
	}
}
