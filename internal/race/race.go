//go:build race

// Package race reports whether the program was built with the race
// detector, which makes code several times slower: tests that search or
// drive a browser cut their sizes or skip by it.
package race

// Enabled is true under the race detector.
const Enabled = true
