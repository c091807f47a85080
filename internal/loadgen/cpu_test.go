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

func TestParseStat(t *testing.T) {
	// A command name may hold spaces and parentheses.
	line := "4242 (my (odd) name) S 17 4242 4242 0 -1 4194560 100 0 0 0 250 31 7 3 20 0 9 0 100 0 0\n"
	st, err := parseStat([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	if want := (procStat{ppid: 17, own: 281, children: 10}); st != want {
		t.Errorf("parseStat = %+v, want %+v", st, want)
	}
	for _, bad := range []string{"", "4242 (name S 1 2", "4242 (name) S 1 2 3"} {
		if _, err := parseStat([]byte(bad)); err == nil {
			t.Errorf("parseStat(%q) accepted", bad)
		}
	}
}

// TestCPUTicksTree: a tree counts its descendants and the children they
// waited for, so that a child that ends moves its time to its parent and
// the sum does not drop.
func TestCPUTicksTree(t *testing.T) {
	procs := map[int]procStat{
		1:  {ppid: 0, own: 1000},
		10: {ppid: 1, own: 5, children: 2}, // the postmaster
		11: {ppid: 10, own: 30},            // a backend
		12: {ppid: 11, own: 4},             // its child
		20: {ppid: 1, own: 99},             // another's
	}
	if got, _ := cpuTicks(procs, Proc{PID: 10, Tree: true}); got != 41 {
		t.Errorf("the tree of 10 used %d ticks, want 41", got)
	}
	if got, _ := cpuTicks(procs, Proc{PID: 10}); got != 5 {
		t.Errorf("process 10 alone used %d ticks, want 5", got)
	}
	// The backend ends and the postmaster waits for it.
	delete(procs, 12)
	delete(procs, 11)
	procs[10] = procStat{ppid: 1, own: 5, children: 36}
	if got, _ := cpuTicks(procs, Proc{PID: 10, Tree: true}); got != 41 {
		t.Errorf("after its child ended, the tree of 10 used %d ticks, want 41", got)
	}
	if _, ok := cpuTicks(procs, Proc{PID: 99}); ok {
		t.Error("a process that does not run was measured")
	}
}

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
