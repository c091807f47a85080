//go:build unix

package httpapi

import "syscall"

// tryWrites says that fdSocket.tryWrite never waits on this system.
const tryWrites = true

// tryWrite makes one write of the file descriptor, which the runtime
// keeps non-blocking: a full buffer takes part of p or none. The
// sendConn's lock is held: one write at a time uses s.w.
func (s fdSocket) tryWrite(p []byte) (int, error) {
	w := s.w
	w.p = p
	rerr := s.rc.Write(w.write)
	n, err := w.n, w.err
	*w = fdWrite{write: w.write}
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

// do writes w.p once; it reports the write done even when the buffer
// took nothing: never wait.
func (w *fdWrite) do(fd uintptr) bool {
	for {
		w.n, w.err = syscall.Write(int(fd), w.p)
		if w.err != syscall.EINTR {
			return true
		}
	}
}
