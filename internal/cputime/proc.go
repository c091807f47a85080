package cputime

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The CPU of other processes is read from /proc (Linux): a process's user
// and system time, and its descendants' (PostgreSQL's backends are its
// postmaster's children), before and after a measured window.

// ClockTicks is the unit of /proc's times: USER_HZ, 100 on Linux.
const ClockTicks = 100

// Tick is the time of one clock tick.
const Tick = time.Second / ClockTicks

// A Stat is what /proc/PID/stat tells of a process's times, in clock
// ticks.
type Stat struct {
	PPID     int
	Own      int64 // utime + stime
	Children int64 // cutime + cstime: the children it waited for
}

// A Snapshot is the times of every process that could be read, by PID.
type Snapshot map[int]Stat

// ReadProcs reads every process's times; nil where /proc cannot be read.
func ReadProcs() Snapshot {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := make(Snapshot, len(dirs))
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		if st, err := readStat(pid); err == nil {
			out[pid] = st
		}
	}
	return out
}

// readStat reads one process's times.
func readStat(pid int) (Stat, error) {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return Stat{}, err
	}
	return ParseStat(data)
}

// ParseStat reads the fields of /proc/PID/stat after the command's name,
// which is in parentheses and may hold spaces and parentheses itself.
func ParseStat(data []byte) (Stat, error) {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return Stat{}, errors.New("no command name in stat")
	}
	// From field 3 (state): ppid is field 4, utime 14, stime 15, cutime
	// 16, cstime 17.
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 15 {
		return Stat{}, errors.New("too few fields in stat")
	}
	num := func(field int) int64 {
		n, _ := strconv.ParseInt(f[field-3], 10, 64)
		return n
	}
	return Stat{PPID: int(num(4)), Own: num(14) + num(15), Children: num(16) + num(17)}, nil
}

// Ticks returns the clock ticks pid has used, with its descendants when
// tree is set: the own and waited-for children's times of every process
// of the tree, so that a child that ends moves its time into its parent's
// and the sum goes on growing. ok is false when pid is not running.
func (s Snapshot) Ticks(pid int, tree bool) (ticks int64, ok bool) {
	root, ok := s[pid]
	if !ok {
		return 0, false
	}
	if !tree {
		return root.Own, true
	}
	kids := map[int][]int{}
	for p, st := range s {
		kids[st.PPID] = append(kids[st.PPID], p)
	}
	todo := []int{pid}
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		st := s[p]
		ticks += st.Own + st.Children
		todo = append(todo, kids[p]...)
	}
	return ticks, true
}
