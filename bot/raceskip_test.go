package bot

import "testing"

// skipUnderRace skips a test of searches that run in one goroutine when
// the race detector is on: it has nothing to watch there, and the test
// ran in full without it.
func skipUnderRace(t *testing.T, why string) {
	t.Helper()
	if raceEnabled {
		t.Skipf("SKIPPED under -race: %s; it ran in full without -race", why)
	}
}
