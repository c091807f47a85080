//go:build !unix

// Package cputime reads the CPU time the process has used, for benchmarks
// that report CPU per unit of work.
package cputime

import "time"

// Process returns 0: the CPU time is unknown here, and the benchmarks
// leave out their CPU metrics.
func Process() time.Duration { return 0 }
