//go:build race

package frozen

// raceEnabled reports whether the tests run under the race detector.
const raceEnabled = true
