//go:build !unix

package httpapi

// tryWrites says that fdSocket.tryWrite never waits on this system: here
// it is not used.
const tryWrites = false

func (s fdSocket) tryWrite(p []byte) (int, error) { return len(p), writeWithin(s.Conn, p) }

func (w *fdWrite) do(fd uintptr) bool { return true }
