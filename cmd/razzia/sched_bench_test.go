package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// ctxSwitches returns how many times the process's threads gave up the
// CPU (voluntary: to wait) and lost it (involuntary, which a busy
// machine adds to).
func ctxSwitches(b *testing.B) (voluntary, involuntary float64) {
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
			k, v, _ := bytes.Cut(line, []byte(":"))
			c, _ := strconv.Atoi(string(bytes.TrimSpace(v)))
			switch string(k) {
			case "voluntary_ctxt_switches":
				voluntary += float64(c)
			case "nonvoluntary_ctxt_switches":
				involuntary += float64(c)
			}
		}
	}
	return voluntary, involuntary
}
