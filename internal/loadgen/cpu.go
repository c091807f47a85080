package loadgen

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The CPU a run costs is read from /proc (Linux, package cputime): the
// user and system time of each process named, before and after the
// measured window, over the moves made in it. A tail latency depends on everything else the
// machine does; the CPU a move costs much less.

// A Proc is a process whose CPU the run measures.
type Proc struct {
	// Name says what it is in the report: "server", "postgres", "load",
	// "echo"; processes of one name are added up, and listed apart too.
	Name string `json:"name"`
	PID  int    `json:"pid"`
	// Tree counts its descendants too, those that ended in the window
	// included (PostgreSQL's backends are its postmaster's children).
	Tree bool `json:"tree,omitempty"`
}

// ParseProc reads a process named on the command line: NAME=PID, or
// NAME=PID+ to count its descendants too.
func ParseProc(s string) (Proc, error) {
	name, pid, ok := strings.Cut(s, "=")
	tree := strings.HasSuffix(pid, "+")
	n, err := strconv.Atoi(strings.TrimSuffix(pid, "+"))
	if !ok || name == "" || err != nil || n <= 0 {
		return Proc{}, fmt.Errorf("%w: pid %q: want NAME=PID, or NAME=PID+ to count its children too (postgres=1234+)", ErrConfig, s)
	}
	return Proc{Name: name, PID: n, Tree: tree}, nil
}

// A CPU is the processor time one process (or the processes of one name,
// added up) used in the measured window.
type CPU struct {
	Name    string  `json:"name"`
	PIDs    []int   `json:"pids"`
	Seconds float64 `json:"seconds"` // user and system time
	// PerMove is Seconds over the moves made in the window, in
	// microseconds.
	PerMove float64 `json:"perMoveMicros"`
	// Missing is a process that was not running at the start or the end
	// of the window: its time is unknown.
	Missing bool `json:"missing,omitempty"`
}

// withTotals adds, for every name of several processes, their sum, and
// the per-move figures of all.
func withTotals(list []CPU, moves int) []CPU {
	byName := map[string]int{}
	var names []string
	for _, c := range list {
		if byName[c.Name] == 0 {
			names = append(names, c.Name)
		}
		byName[c.Name]++
	}
	for _, name := range names {
		if byName[name] < 2 {
			continue
		}
		sum := CPU{Name: name + " (all)"}
		for _, c := range list {
			if c.Name == name {
				sum.PIDs = append(sum.PIDs, c.PIDs...)
				sum.Seconds += c.Seconds
				sum.Missing = sum.Missing || c.Missing
			}
		}
		list = append(list, sum)
	}
	for i := range list {
		if moves > 0 {
			list[i].PerMove = list[i].Seconds / float64(moves) * 1e6
		}
	}
	return list
}

// findServer returns the process that listens on the server URL's port,
// when it runs on this machine and /proc tells (the same user's
// processes only).
func findServer(server string) (int, error) {
	u, err := url.Parse(server)
	if err != nil {
		return 0, err
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	n, err := strconv.Atoi(port)
	if err != nil {
		return 0, fmt.Errorf("no port in %s", server)
	}
	if !isLocal(u.Hostname()) {
		return 0, fmt.Errorf("%s is not on this machine", u.Hostname())
	}
	return listener(n)
}

// isLocal reports whether host names this machine.
func isLocal(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return false
	}
	if ip.IsLoopback() || ip.IsUnspecified() {
		return true
	}
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.Equal(ip) {
			return true
		}
	}
	return false
}

// listener returns the process with a socket listening on TCP port.
func listener(port int) (int, error) {
	inodes := map[string]bool{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			f := strings.Fields(line)
			if len(f) < 10 || f[3] != "0A" { // 0A: LISTEN
				continue
			}
			_, hexPort, _ := strings.Cut(f[1], ":")
			if p, err := strconv.ParseInt(hexPort, 16, 32); err == nil && int(p) == port {
				inodes["socket:["+f[9]+"]"] = true
			}
		}
	}
	if len(inodes) == 0 {
		return 0, fmt.Errorf("nothing listens on port %d", port)
	}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		fds, _ := os.ReadDir(filepath.Join("/proc", d.Name(), "fd"))
		for _, fd := range fds {
			link, _ := os.Readlink(filepath.Join("/proc", d.Name(), "fd", fd.Name()))
			if inodes[link] {
				return pid, nil
			}
		}
	}
	return 0, fmt.Errorf("cannot tell which process listens on port %d (another user's?)", port)
}
