//go:build race

package bot

// raceEnabled reports whether the tests run under the race detector, which
// makes the searches about ten times slower.
const raceEnabled = true
