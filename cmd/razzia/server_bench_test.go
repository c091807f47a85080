package main

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/loadgen"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/store/sqlite"
)

// BenchmarkServer plays moves as fast as the game allows at 100 tables of
// four clients through a whole server in the process (HTTP API, table
// Hub, store), with the memory store and with SQLite (every move on disk
// before it is broadcast), and reports the moves a second and the CPU
// time of the process a move: the server's and its clients'. It is here,
// where the stores are wired, so that loadgen's tests link no store.
func BenchmarkServer(b *testing.B) {
	for _, name := range []string{"memory", "sqlite"} {
		b.Run(name, func(b *testing.B) {
			var opts servertest.Options
			if name == "sqlite" {
				opts.Store = func(*memstore.Store) store.Store {
					s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
					if err != nil {
						b.Fatal(err)
					}
					b.Cleanup(func() { s.Close() })
					return s
				}
			}
			srv := servertest.New(b, opts)
			const tables = 100
			cfg := loadgen.Config{Servers: []string{srv.URL}, Tables: tables, Seats: 4, Moves: max(1, b.N/tables)}
			cpu0 := cpuTime(b)
			rep, err := loadgen.Run(b.Context(), cfg)
			if err != nil {
				b.Fatal(err)
			}
			cpu := cpuTime(b) - cpu0
			b.ReportMetric(rep.Moves.PerSecond, "moves/s")
			b.ReportMetric(float64(cpu.Microseconds())/float64(rep.Moves.Total), "cpu-µs/move")
			b.ReportMetric(rep.Latency["same_node"].P99, "p99-ms")
		})
	}
}

// cpuTime returns the CPU time the process has used.
func cpuTime(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
