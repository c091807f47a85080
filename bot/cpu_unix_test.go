//go:build unix

package bot

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, user and system: on
// a loaded machine a search limited by iterations takes longer in wall
// time but about the same CPU time, so iterations per CPU second compare
// across loads where iterations per second do not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
