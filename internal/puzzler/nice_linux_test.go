package puzzler

import (
	"runtime"
	"syscall"
	"testing"
)

// nice returns the calling thread's nice value (the raw system call
// answers 20 − nice).
func nice(t *testing.T) int {
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	if err != nil {
		t.Fatal(err)
	}
	return 20 - p
}

// TestLowest: the search's thread runs at nice 19, and no other thread
// of the server is lowered with it.
func TestLowest(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := nice(t)
	var inside int
	lowest(func() { inside = nice(t) })
	if inside != 19 || nice(t) != before {
		t.Errorf("nice %d inside, %d outside (%d before): want 19 inside, outside unchanged", inside, nice(t), before)
	}
}
