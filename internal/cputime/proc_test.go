package cputime

import (
	"os"
	"runtime"
	"testing"
)

func TestParseStat(t *testing.T) {
	// A command name may hold spaces and parentheses.
	line := "4242 (my (odd) name) S 17 4242 4242 0 -1 4194560 100 0 0 0 250 31 7 3 20 0 9 0 100 0 0\n"
	st, err := ParseStat([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	if want := (Stat{PPID: 17, Own: 281, Children: 10}); st != want {
		t.Errorf("ParseStat = %+v, want %+v", st, want)
	}
	for _, bad := range []string{"", "4242 (name S 1 2", "4242 (name) S 1 2 3"} {
		if _, err := ParseStat([]byte(bad)); err == nil {
			t.Errorf("ParseStat(%q) accepted", bad)
		}
	}
}

// TestTicksTree: a tree counts its descendants and the children they
// waited for, so that a child that ends moves its time to its parent and
// the sum does not drop.
func TestTicksTree(t *testing.T) {
	s := Snapshot{
		1:  {PPID: 0, Own: 1000},
		10: {PPID: 1, Own: 5, Children: 2}, // the postmaster
		11: {PPID: 10, Own: 30},            // a backend
		12: {PPID: 11, Own: 4},             // its child
		20: {PPID: 1, Own: 99},             // another's
	}
	if got, _ := s.Ticks(10, true); got != 41 {
		t.Errorf("the tree of 10 used %d ticks, want 41", got)
	}
	if got, _ := s.Ticks(10, false); got != 5 {
		t.Errorf("process 10 alone used %d ticks, want 5", got)
	}
	// The backend ends and the postmaster waits for it.
	delete(s, 12)
	delete(s, 11)
	s[10] = Stat{PPID: 1, Own: 5, Children: 36}
	if got, _ := s.Ticks(10, true); got != 41 {
		t.Errorf("after its child ended, the tree of 10 used %d ticks, want 41", got)
	}
	if _, ok := s.Ticks(99, false); ok {
		t.Error("a process that does not run was measured")
	}
}

// TestReadProcsSelf: on Linux the snapshot holds this process.
func TestReadProcsSelf(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	if _, ok := ReadProcs().Ticks(os.Getpid(), true); !ok {
		t.Error("this process is not in the snapshot")
	}
}
