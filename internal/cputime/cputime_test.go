package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestProcessCountsWork checks that 50 ms of spinning show as CPU time
// where the system tells it (a loaded machine gives the spinning less
// than all of them, so a fifth is asked).
func TestProcessCountsWork(t *testing.T) {
	before := Process()
	if before == 0 && runtime.GOOS != "linux" {
		t.Skip("the CPU time is unknown on " + runtime.GOOS)
	}
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
	}
	if got := Process() - before; got < 10*time.Millisecond {
		t.Errorf("50 ms of spinning counted %v of CPU time, want at least 10 ms", got)
	}
}
