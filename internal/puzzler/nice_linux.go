package puzzler

import "syscall"

// lowerThread gives the calling OS thread the lowest CPU priority (nice
// 19): on Linux a priority is a thread's own, so the rest of the server
// keeps its.
func lowerThread() error {
	return syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
}
