//go:build !linux

package main

import "time"

// adoptOrphans does nothing here: only Linux lets a process reap its
// descendants' orphans.
func adoptOrphans() {}

func reapOrphans(time.Duration) {}

func childrenCPU() (user, sys time.Duration, ok bool) { return 0, 0, false }
