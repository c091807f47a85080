//go:build pprof

package main

import (
	"fmt"
	"net/http"
	_ "net/http/pprof" // the profiles, on http.DefaultServeMux
	"os"
	"runtime"
)

// A razzia built with -tags pprof serves the runtime's profiles
// (net/http/pprof, with block and mutex profiles on) at the address in
// RAZZIA_PPROF, such as localhost:6060, to find where a server under load
// spends its time. Builds without the tag have none of it.
func init() {
	addr := os.Getenv("RAZZIA_PPROF")
	if addr == "" {
		return
	}
	runtime.SetBlockProfileRate(10_000) // a sample per 10µs blocked
	runtime.SetMutexProfileFraction(10)
	go func() {
		if err := http.ListenAndServe(addr, nil); err != nil {
			fmt.Fprintf(os.Stderr, "razzia: pprof on %s: %v\n", addr, err)
		}
	}()
}
