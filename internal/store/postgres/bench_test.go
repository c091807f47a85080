package postgres

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

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

// nodes is the number of nodes the benchmarks below stand for, each
// holding a session that listens, as three razzia serve do.
const nodes = 3

// BenchmarkAppendPaced plays moves at 500 games, each moving once a
// second as the three nodes of docs/deploy.md do, on a durable cluster
// with three stores open (each listening, as a node's), and reports
// PostgreSQL's CPU a move (postgres-cpu-µs/move) beside the process's.
// floor does the least a durable move announced to the nodes can cost
// PostgreSQL at the same pace: one statement that inserts a row of the
// move's size and notifies, in its own transaction, with three sessions
// listening and reading every notice. A run lasts b.N/500 seconds; run it
// on a quiet machine (PostgreSQL's CPU is read from /proc).
func BenchmarkAppendPaced(b *testing.B) {
	const games = 500
	c := pgtest.NewCluster(b, pgtest.Durable...)
	pg := storetest.Proc{Name: "postgres", CPU: c.CPU}
	b.Run("store", func(b *testing.B) {
		url := c.DB(b)
		stores := make([]*Store, nodes)
		for i := range stores {
			stores[i] = open(b, url)
			defer stores[i].Close()
		}
		storetest.BenchAppendPaced(b, stores[0], games, time.Second, pg)
	})
	b.Run("floor", func(b *testing.B) {
		url := c.DB(b)
		pool, err := pgxpool.New(b.Context(), url)
		if err != nil {
			b.Fatal(err)
		}
		defer pool.Close()
		if _, err := pool.Exec(b.Context(), "CREATE TABLE floor (game int, idx int, token text, PRIMARY KEY (game, idx))"); err != nil {
			b.Fatal(err)
		}
		for range nodes {
			listen(b, url)
		}
		payload := strings.Repeat("x", 120) // about a move's notice
		storetest.BenchPaced(b, games, time.Second, func(game, i int) error {
			_, err := pool.Exec(b.Context(), `WITH ins AS (INSERT INTO floor VALUES ($1, $2, 'bid 9') RETURNING 1)
				SELECT count(pg_notify('floor', $3)) FROM ins`, game, i, payload)
			return err
		}, pg)
	})
}

// listen opens a session on url that listens on the floor's channel and
// reads its notices until b ends.
func listen(b *testing.B, url string) {
	conn, err := pgx.Connect(b.Context(), url)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := conn.Exec(b.Context(), "LISTEN floor"); err != nil {
		b.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if _, err := conn.WaitForNotification(b.Context()); err != nil {
				return
			}
		}
	}()
	b.Cleanup(func() {
		<-done // b's context is cancelled before its cleanups run
		conn.Close(context.Background())
	})
}
