package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"testing"
)

// schedCounts are counts of the process's scheduling that do not depend
// on the machine's load: how many times a goroutine was made to run (the
// runtime samples one in eight: the count is scaled back) and how many
// times its threads gave up or lost the CPU.
type schedCounts struct{ runs, switches float64 }

// countSched reads the process's scheduling counts.
func countSched(b *testing.B) schedCounts {
	s := []metrics.Sample{{Name: "/sched/latencies:seconds"}}
	metrics.Read(s)
	var c schedCounts
	if s[0].Value.Kind() == metrics.KindFloat64Histogram {
		for _, n := range s[0].Value.Float64Histogram().Counts {
			c.runs += float64(n)
		}
		c.runs *= 8 // runtime's gTrackingPeriod
	}
	tasks, err := filepath.Glob("/proc/self/task/*/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			continue // the thread ended
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			k, v, ok := bytes.Cut(line, []byte(":"))
			if ok && bytes.HasSuffix(k, []byte("ctxt_switches")) {
				n, _ := strconv.Atoi(string(bytes.TrimSpace(v)))
				c.switches += float64(n)
			}
		}
	}
	return c
}

// reportSched reports the scheduling counts since c0 a move.
func reportSched(b *testing.B, c0 schedCounts, moves int) {
	c := countSched(b)
	b.ReportMetric((c.runs-c0.runs)/float64(moves), "goroutine-runs/move")
	b.ReportMetric((c.switches-c0.switches)/float64(moves), "ctxsw/move")
}
