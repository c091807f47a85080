package httpapi

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// A WebSocket's network connection never blocks its writer: what the
// socket's buffer does not take at once is kept and written by a
// goroutine of its own (the flusher, started only then), so that the
// game's goroutine can write a state itself to a socket that is idle
// (wsConn.direct) without a slow peer ever holding it up. Whoever writes
// a message of its own first waits until what was kept has gone
// (sendConn.wait): a peer that does not read holds up its own socket's
// writer only, as a blocking write did.

// maxKept bounds what a connection keeps for a peer that does not read:
// more closes it. The writers wait for the kept bytes before writing
// more, so only the library's own frames (pongs, the close) and one
// message each can pile up.
const maxKept = 256 << 10

// errSlowPeer fails a connection that kept more than maxKept.
var errSlowPeer = errors.New("the peer does not read what it is sent")

// A socket is the network connection under a sendConn.
type socket interface {
	// tryWrite writes what the connection takes of p at once: all of
	// it, or less with a nil error when its buffer is full.
	tryWrite(p []byte) (int, error)
	// writeAll writes p, failing when the connection took none of it
	// for writeWait.
	writeAll(p []byte) error
	Close() error
}

// A sendConn is a connection whose writes never block (see above).
type sendConn struct {
	net.Conn // reads, addresses
	s        socket

	mu       sync.Mutex
	drained  sync.Cond // signalled when flushing ends
	kept     []byte    // written but not sent yet, in order
	spare    []byte    // kept's last buffer, for the next
	flushing bool      // kept is not empty, or the flusher writes it
	err      error     // the connection failed or was closed: every write fails

	closeOnce sync.Once
	closeErr  error
}

func newSendConn(c net.Conn, s socket) *sendConn {
	sc := &sendConn{Conn: c, s: s}
	sc.drained.L = &sc.mu
	return sc
}

// Write writes p, or keeps what the socket does not take at once for the
// flusher. It fails once the connection failed.
func (c *sendConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, c.err
	}
	n := 0
	if !c.flushing {
		var err error
		if n, err = c.s.tryWrite(p); err != nil {
			c.fail(err)
			return n, err
		}
		if n == len(p) {
			return n, nil
		}
	}
	if len(c.kept)+len(p)-n > maxKept {
		c.fail(errSlowPeer)
		return n, errSlowPeer
	}
	c.kept = append(c.kept, p[n:]...)
	if !c.flushing {
		c.flushing = true
		go c.flush()
	}
	return len(p), nil
}

// flush writes what was kept, and what is kept meanwhile, until none is
// left or the connection fails.
func (c *sendConn) flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.kept) > 0 && c.err == nil {
		out := c.kept
		c.kept = c.spare[:0]
		c.mu.Unlock()
		err := c.s.writeAll(out)
		c.mu.Lock()
		c.spare = out[:0]
		if err != nil {
			c.fail(err)
		}
	}
	if cap(c.spare) > 64<<10 {
		c.spare = nil // a burst's buffer: not for the socket's whole life
	}
	c.kept = c.kept[:0]
	c.flushing = false
	c.drained.Broadcast()
}

// fail ends the connection with err; c.mu is held.
func (c *sendConn) fail(err error) {
	if c.err == nil {
		c.err = err
		c.closeSocket() // the reader ends, and the connection with it
	}
	c.drained.Broadcast()
}

// closeSocket closes the socket, once.
func (c *sendConn) closeSocket() error {
	c.closeOnce.Do(func() { c.closeErr = c.s.Close() })
	return c.closeErr
}

// wait waits until every byte written has gone to the socket, or the
// connection failed (its error).
func (c *sendConn) wait() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.flushing && c.err == nil {
		c.drained.Wait()
	}
	return c.err
}

// idle reports whether a write would go to the socket at once: nothing
// is kept, and the connection works.
func (c *sendConn) idle() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.flushing && c.err == nil
}

// Close closes the connection; the flusher stops. The socket is closed
// first, without the lock: that ends a write under way (a socket whose
// writes wait, which holds it).
func (c *sendConn) Close() error {
	err := c.closeSocket()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.err = net.ErrClosed
	}
	c.drained.Broadcast()
	return err
}

// socketOf returns the socket of a connection: one written without
// waiting when the connection has a file descriptor (a TCP or Unix
// socket), else one whose every write waits (up to writeWait), never
// kept.
func socketOf(c net.Conn) (s socket, nonBlocking bool) {
	if sc, ok := c.(syscall.Conn); ok && tryWrites {
		if rc, err := sc.SyscallConn(); err == nil {
			w := &fdWrite{}
			w.write = w.do
			return fdSocket{c, rc, w}, true
		}
	}
	return blockingSocket{c}, false
}

// An fdSocket writes its file descriptor without waiting (tryWrite, per
// system).
type fdSocket struct {
	net.Conn
	rc syscall.RawConn
	w  *fdWrite
}

// An fdWrite is the write tryWrite makes, its function made once: a
// closure made at each write would cost three allocations.
type fdWrite struct {
	p     []byte
	n     int
	err   error
	write func(fd uintptr) bool // do
}

func (s fdSocket) writeAll(p []byte) error { return writeWithin(s.Conn, p) }

// A blockingSocket takes every write whole, waiting up to writeWait.
type blockingSocket struct{ net.Conn }

func (s blockingSocket) tryWrite(p []byte) (int, error) { return len(p), writeWithin(s.Conn, p) }

func (s blockingSocket) writeAll(p []byte) error { return writeWithin(s.Conn, p) }

// writeWithin writes p to c, failing when c took none of it for
// writeWait. It clears the deadline after: a deadline past would fail
// tryWrite, which the runtime checks it against too.
func writeWithin(c net.Conn, p []byte) error {
	defer c.SetWriteDeadline(time.Time{})
	for {
		c.SetWriteDeadline(time.Now().Add(writeWait))
		n, err := c.Write(p)
		if p = p[n:]; err == nil || n == 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
			return err
		}
	}
}

// A hijackWriter gives the WebSocket library a sendConn when it takes
// the connection over.
type hijackWriter struct {
	http.ResponseWriter
	conn *sendConn
	// nonBlocking says that conn's writes never wait: the game's
	// goroutine may write to it (wsConn.direct).
	nonBlocking bool
}

func (h *hijackWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, brw, err := http.NewResponseController(h.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	var s socket
	s, h.nonBlocking = socketOf(c)
	if wrap := wrapSocket.Load(); wrap != nil {
		s = (*wrap)(s)
	}
	h.conn = newSendConn(c, s)
	// The library writes through brw's writer, which writes to c: to
	// the sendConn instead. Hijack sent the response's head already.
	if err := brw.Writer.Flush(); err != nil {
		c.Close()
		return nil, nil, err
	}
	brw.Writer.Reset(h.conn)
	return h.conn, brw, nil
}

// wrapSocket, when set, wraps the socket of every connection taken over
// (the tests' peers that read nothing).
var wrapSocket atomic.Pointer[func(socket) socket]

func (h *hijackWriter) Unwrap() http.ResponseWriter { return h.ResponseWriter }
