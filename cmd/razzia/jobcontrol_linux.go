package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
)

// jobControl reports whether stopping the process gives the terminal back
// to a shell: whether its process group is not orphaned, that is, some
// member has a parent in another group of the same session (POSIX; Linux
// drops SIGTSTP sent to an orphaned group). When /proc cannot tell, it
// says yes, as the program did before asking.
func jobControl() bool {
	self, ok := procStat("self")
	if !ok {
		return true
	}
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		return true
	}
	for _, d := range dirs {
		p, ok := procStat(filepath.Base(d))
		if !ok || p.pgrp != self.pgrp {
			continue
		}
		parent, ok := procStat(strconv.Itoa(p.ppid))
		if ok && parent.pgrp != self.pgrp && parent.session == self.session {
			return true
		}
	}
	return false
}

// A stat is what jobControl needs of /proc/PID/stat.
type stat struct{ ppid, pgrp, session int }

func procStat(pid string) (stat, bool) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return stat{}, false
	}
	// "pid (comm) state ppid pgrp session ...": the name may hold spaces
	// and parentheses, so the fields are counted after the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return stat{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 4 {
		return stat{}, false
	}
	var n [3]int
	for j := range n {
		if n[j], err = strconv.Atoi(string(f[j+1])); err != nil {
			return stat{}, false
		}
	}
	return stat{ppid: n[0], pgrp: n[1], session: n[2]}, true
}
