//go:build unix

package loadgen

import (
	"fmt"
	"syscall"
)

// raiseFileLimit raises the soft limit of open files to the hard limit
// (Go does so at start on some systems only) and returns a warning when
// even that is fewer than need.
func raiseFileLimit(need int) string {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return fmt.Sprintf("cannot read the open-file limit: %v", err)
	}
	if lim.Cur < lim.Max {
		raised := lim
		raised.Cur = lim.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised); err == nil {
			lim = raised
		}
	}
	if lim.Cur < uint64(need) {
		return fmt.Sprintf("the open-file limit is %d and this run needs about %d: connections will fail; raise the hard limit (ulimit -Hn, or LimitNOFILE in a systemd unit), and the server's too", lim.Cur, need)
	}
	return ""
}
