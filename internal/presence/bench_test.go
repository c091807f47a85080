package presence

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/sqlite"
)

// The cost of presence per connected person (docs/presence.md). Run on
// a quiet machine:
//
//	go test ./internal/presence -run '^$' -bench . -benchtime 2000x -count 3
//
// BenchmarkVisit: one page's visit on node a (connect, hidden, shown,
// closed: four store writes and four notices), with node b applying the
// notices; ns/op is the writing node's wall time per visit, and the
// store's CPU is in it. BenchmarkIdle: the cost a node pays per beat for
// the people connected, idle (nothing written): its ns/person.
// BenchmarkMemory: the bytes one connected person costs each node.

// benchStores open the store of each node of a benchmark.
var benchStores = map[string]func(b *testing.B) func() store.Store{
	"memstore": func(b *testing.B) func() store.Store {
		st := memstore.New()
		b.Cleanup(func() { st.Close() })
		return func() store.Store { return st }
	},
	"sqlite": func(b *testing.B) func() store.Store {
		st, err := sqlite.Open(b.Context(), filepath.Join(b.TempDir(), "razzia.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { st.Close() })
		return func() store.Store { return st }
	},
	"postgres": func(b *testing.B) func() store.Store {
		db := migrated.DB(b)
		return func() store.Store {
			st, err := postgres.Open(b.Context(), db, postgres.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { st.Close() })
			return st
		}
	},
}

// benchNode starts a node with the real clock and the default times.
func benchNode(b *testing.B, st store.Store, name string) *Service {
	b.Helper()
	s := New(st, Options{Node: name})
	if err := s.Start(b.Context()); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	return s
}

func BenchmarkVisit(b *testing.B) {
	for _, name := range []string{"memstore", "sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			open := benchStores[name](b)
			a := benchNode(b, open(), "node-a")
			other := benchNode(b, open(), "node-b")
			feed := other.Feed()
			defer feed.Close()
			go func() {
				for range feed.Events() {
				}
			}()
			ctx := b.Context()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				p := Person{Key: fmt.Sprintf("g:%d", i), Name: "Kim"}
				c, err := a.Connect(ctx, p, "", -1)
				if err != nil {
					b.Fatal(err)
				}
				for _, away := range []bool{true, false} {
					if err := c.SetAway(ctx, away); err != nil {
						b.Fatal(err)
					}
				}
				c.Close()
			}
		})
	}
}

func BenchmarkIdle(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("people=%d", n), func(b *testing.B) {
			st := memstore.New()
			defer st.Close()
			s := New(st, Options{Node: "node-a"})
			ctx := b.Context()
			for i := range n {
				s.setRow(store.PresenceRow{Node: "node-b", Conn: int64(i), Person: fmt.Sprintf("g:%d", i), Name: "Kim", Seat: -1, Since: time.Now()})
			}
			s.nodes["node-b"] = time.Now().Add(time.Hour)
			b.ResetTimer()
			for b.Loop() {
				s.beat(ctx)
				s.expireNodes()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/person")
		})
	}
}

func BenchmarkMemory(b *testing.B) {
	const n = 10000
	for b.Loop() {
		st := memstore.New()
		s := New(st, Options{Node: "node-a"})
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range n {
			s.mu.Lock()
			s.setRow(store.PresenceRow{Node: "node-b", Conn: int64(i), Person: fmt.Sprintf("g:%d", i), Name: "Kim", Seat: -1, Since: time.Now()})
			s.mu.Unlock()
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "B/person")
		runtime.KeepAlive(s)
		st.Close()
	}
}
