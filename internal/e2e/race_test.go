//go:build race

package e2e

// raceEnabled reports whether the tests run under the race detector.
const raceEnabled = true
