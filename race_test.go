//go:build race

package razzia

// raceDetector is true when the tests run with -race, which slows the
// engine about tenfold: the property tests then play fewer games, and CI
// runs them in full without -race too.
const raceDetector = true
