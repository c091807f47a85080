package main

import (
	"syscall"
	"time"
)

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// adoptOrphans makes this process the reaper of the test binary's
// descendants whose parents end first, such as Chromium's renderers and
// zygote: reaped here, their CPU counts in childrenCPU.
func adoptOrphans() {
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
}

// reapOrphans reaps the adopted descendants that end within grace of the
// binary; one that lives on (a database cluster kept for the next
// package) is left running.
func reapOrphans(grace time.Duration) {
	deadline := time.Now().Add(grace)
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		switch {
		case pid > 0:
			continue
		case err == syscall.ECHILD, err != nil && err != syscall.EINTR:
			return // none left
		case time.Now().After(deadline):
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// childrenCPU returns the user and system CPU of the processes this one
// reaped: the binary, what it waited for, and the orphans reaped here.
func childrenCPU() (user, sys time.Duration, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return 0, 0, false
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano()), true
}
