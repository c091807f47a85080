package main

import (
	"bytes"
	"strings"
	"testing"
)

// A usageCase is a command line and what it must answer: its exit status
// and a text in stdout (status 0) or stderr (any other).
type usageCase struct {
	name   string
	args   []string
	env    map[string]string
	status int
	out    string
}

// checkUsage runs each case as a subtest.
func checkUsage(t *testing.T, cases []usageCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			var stdout, stderr bytes.Buffer
			status := run(c.args, strings.NewReader(""), &stdout, &stderr)
			out := stderr.String()
			if c.status == 0 {
				out = stdout.String()
			}
			if status != c.status || !strings.Contains(out, c.out) {
				t.Errorf("status %d, want %d; output %q does not contain %q", status, c.status, out, c.out)
			}
		})
	}
}
