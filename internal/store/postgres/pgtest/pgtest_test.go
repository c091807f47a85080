package pgtest

import (
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB that records a Fatal or a Skip instead of
// ending the test.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper()               {}
func (r *recorder) Fatal(args ...any)     { r.fatal = fmt.Sprint(args...) }
func (r *recorder) Skip(args ...any)      { r.skip = fmt.Sprint(args...) }
func (r *recorder) Fatalf(string, ...any) { panic("unexpected Fatalf") }

// TestUnavailable: without a cluster, tests skip with the reason, except
// under CI=true, where they fail.
func TestUnavailable(t *testing.T) {
	for ci, want := range map[string]string{"true": "fatal", "": "skip", "false": "skip"} {
		t.Run("CI="+ci, func(t *testing.T) {
			t.Setenv("CI", ci)
			r := &recorder{TB: t}
			unavailable(r, "no PostgreSQL binaries")
			got, msg := "skip", r.skip
			if r.fatal != "" {
				got, msg = "fatal", r.fatal
			}
			if got != want || !strings.Contains(msg, "no PostgreSQL binaries") || !strings.Contains(msg, EnvURL) {
				t.Errorf("%s %q, want %s with the reason and %s", got, msg, want, EnvURL)
			}
		})
	}
}
