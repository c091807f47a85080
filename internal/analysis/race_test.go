//go:build race

package analysis

// raceEnabled reports whether the tests run under the race detector, which
// makes the search about ten times slower.
const raceEnabled = true
