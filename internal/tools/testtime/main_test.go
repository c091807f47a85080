package main

import (
	"strings"
	"testing"
)

// stream is a go test -json run of two packages: in a, a test passes
// with output and another fails in a subtest; b ends while a test runs.
const stream = `{"Action":"start","Package":"example.com/a"}
{"Action":"run","Package":"example.com/a","Test":"TestOK"}
{"Action":"output","Package":"example.com/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"output","Package":"example.com/a","Test":"TestOK","Output":"    ok_test.go:1: quiet when it passes\n"}
{"Action":"pass","Package":"example.com/a","Test":"TestOK","Elapsed":0.5}
{"Action":"run","Package":"example.com/a","Test":"TestBad"}
{"Action":"output","Package":"example.com/a","Test":"TestBad","Output":"=== RUN   TestBad\n"}
{"Action":"output","Package":"example.com/a","Test":"TestBad/one","Output":"    bad_test.go:9: the reason\n"}
{"Action":"output","Package":"example.com/a","Test":"TestBad/one","Output":"--- FAIL: TestBad/one (2.00s)\n"}
{"Action":"fail","Package":"example.com/a","Test":"TestBad/one","Elapsed":2}
{"Action":"output","Package":"example.com/a","Test":"TestBad","Output":"--- FAIL: TestBad (2.00s)\n"}
{"Action":"fail","Package":"example.com/a","Test":"TestBad","Elapsed":2}
{"Action":"output","Package":"example.com/a","Output":"FAIL\texample.com/a\t2.6s\n"}
{"Action":"fail","Package":"example.com/a","Elapsed":2.6}
{"Action":"run","Package":"example.com/b","Test":"TestHang"}
{"Action":"output","Package":"example.com/b","Test":"TestHang","Output":"panic: test timed out after 10m0s\n"}
{"Action":"output","Package":"example.com/b","Output":"FAIL\texample.com/b\t600.0s\n"}
{"Action":"fail","Package":"example.com/b","Elapsed":600}
`

func TestFilter(t *testing.T) {
	var out strings.Builder
	r := newRun()
	if err := r.read(strings.NewReader(stream), &out); err != nil {
		t.Fatal(err)
	}
	want := "=== RUN   TestBad\n    bad_test.go:9: the reason\n--- FAIL: TestBad/one (2.00s)\n--- FAIL: TestBad (2.00s)\n" +
		"FAIL\texample.com/a\t2.6s\n" +
		"FAIL\texample.com/b\t600.0s\n--- TestHang was still running when example.com/b ended:\npanic: test timed out after 10m0s\n"
	if got := out.String(); got != want {
		t.Errorf("printed\n%s\nwant\n%s", got, want)
	}
}

func TestSummary(t *testing.T) {
	r := newRun()
	if err := r.read(strings.NewReader(stream), nil); err != nil {
		t.Fatal(err)
	}
	r.pkg("example.com/a").cpu = &usage{User: 3, Sys: 1}
	r.pkg("example.com/b").cpu = &usage{User: 1}
	var out strings.Builder
	r.summary(&out, 10, false)
	got := out.String()
	b, a := strings.Index(got, "  example.com/b\n"), strings.Index(got, "  example.com/a\n")
	if b < 0 || a < 0 || b > a {
		t.Errorf("the slower package b is not listed first:\n%s", got)
	}
	// Columns are aligned with spaces: compare words.
	words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, line := range []string{"5 CPU-s", "600.0 1.0 20% 1 0 fail example.com/b", "2.6 4.0 80% 2 0 fail example.com/a",
		"2.0 s fail example.com/a TestBad 0.5 s pass example.com/a TestOK 0.0 s (no end) example.com/b TestHang"} {
		if !strings.Contains(words(got), line) {
			t.Errorf("the summary lacks %q:\n%s", line, got)
		}
	}
	if strings.Contains(got, "TestBad/one") {
		t.Errorf("a subtest is listed without -subtests:\n%s", got)
	}
}
