//go:build unix

// Package cputime reads the CPU time the process has used, for benchmarks
// that report CPU per unit of work: on a loaded machine work bounded by a
// count takes longer in wall time but about the same CPU time, so CPU per
// unit compares across loads where wall time does not.
package cputime

import (
	"syscall"
	"time"
)

// Process returns the CPU time the process has used so far, user and
// system, or 0 where the system does not tell.
func Process() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
