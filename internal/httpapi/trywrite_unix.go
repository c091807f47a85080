//go:build unix

package httpapi

import "syscall"

// tryWrites says that fdSocket.tryWrite never waits on this system.
const tryWrites = true

// tryWrite makes one write of the file descriptor, which the runtime
// keeps non-blocking: a full buffer takes part of p or none.
func (s fdSocket) tryWrite(p []byte) (n int, err error) {
	rerr := s.rc.Write(func(fd uintptr) bool {
		for {
			n, err = syscall.Write(int(fd), p)
			if err != syscall.EINTR {
				return true // done, even if nothing was taken: never wait
			}
		}
	})
	if n < 0 {
		n = 0
	}
	if err == syscall.EAGAIN {
		err = nil
	}
	if err == nil {
		err = rerr
	}
	return n, err
}
