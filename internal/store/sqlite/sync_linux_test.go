package sqlite

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/cputime"
)

// BenchmarkSync measures the least a durable commit costs on the disk of
// the temporary directory: one write of a move's log pages (1.65 pages
// of 4 KiB, BenchmarkAppendPaced's pages/move) and fdatasync, as
// SQLite's log does at a commit. It reports the CPU of each (the
// kernel's, mostly) and its time (p50, p99): no commit can cost less, so
// it is the floor under a move's CPU and its latency.
func BenchmarkSync(b *testing.B) {
	f, err := os.Create(filepath.Join(b.TempDir(), "sync"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	page := make([]byte, 6758) // 1.65 pages
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	cpu := cputime.Process()
	for i := range b.N {
		start := time.Now()
		if _, err := f.WriteAt(page, int64(i%1000)*8192); err != nil {
			b.Fatal(err)
		}
		if err := syscall.Fdatasync(int(f.Fd())); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
}
