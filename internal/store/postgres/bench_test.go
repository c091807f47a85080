package postgres

import (
	"fmt"
	"testing"

	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
	"github.com/razziagame/razzia/internal/store/storetest"
)

// BenchmarkAppendMove measures committed moves per second with 1, 10, 100
// and 1000 games played at once, one goroutine per game, on a private
// cluster with PostgreSQL's default durability (fsync, synchronous_commit).
func BenchmarkAppendMove(b *testing.B) {
	c := pgtest.NewCluster(b, pgtest.Durable...)
	for _, games := range []int{1, 10, 100, 1000} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) {
			s := open(b, c.DB(b))
			defer s.Close()
			storetest.BenchAppend(b, s, games)
		})
	}
}
