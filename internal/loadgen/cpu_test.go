package loadgen

import (
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"strings"
	"testing"
)

func TestParseProc(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Proc
		bad  bool
	}{
		{in: "postgres=123+", want: Proc{Name: "postgres", PID: 123, Tree: true}},
		{in: "server=9", want: Proc{Name: "server", PID: 9}},
		{in: "server", bad: true}, {in: "=9", bad: true}, {in: "x=0", bad: true}, {in: "x=abc", bad: true},
	} {
		got, err := ParseProc(c.in)
		if (err != nil) != c.bad || got != c.want || (err != nil && !errors.Is(err, ErrConfig)) {
			t.Errorf("ParseProc(%q) = %+v, %v", c.in, got, err)
		}
	}
}

func TestWithTotals(t *testing.T) {
	got := withTotals([]CPU{{Name: "load", PIDs: []int{1}, Seconds: 1}, {Name: "server", PIDs: []int{2}, Seconds: 2},
		{Name: "server", PIDs: []int{3}, Seconds: 3}}, 1000)
	want := []string{"load 1 1000", "server 2 2000", "server 3 3000", "server (all) 5 5000"}
	var lines []string
	for _, c := range got {
		lines = append(lines, fmt.Sprintf("%s %g %g", c.Name, c.Seconds, c.PerMove))
	}
	if strings.Join(lines, "; ") != strings.Join(want, "; ") {
		t.Errorf("withTotals = %v, want %v", lines, want)
	}
}

// TestFindServer finds the process that listens on a server's port: this
// one.
func TestFindServer(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	url := "http://" + ln.Addr().String()
	if pid, err := findServer(url); err != nil || pid != os.Getpid() {
		t.Errorf("findServer(%s) = %d, %v; want %d", url, pid, err, os.Getpid())
	}
	ln.Close()
	if _, err := findServer(url); err == nil || !strings.Contains(err.Error(), "nothing listens") {
		t.Errorf("findServer of a closed port: %v", err)
	}
	if _, err := findServer("http://192.0.2.1:80"); err == nil || !strings.Contains(err.Error(), "not on this machine") {
		t.Errorf("findServer of another machine: %v", err)
	}
}
