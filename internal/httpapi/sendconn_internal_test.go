package httpapi

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"testing"
)

// A fakeSocket takes room bytes at once; what it does not take waits in
// writeAll until the test answers on flushed (nil: sent; an error: the
// write failed, as a deadline does).
type fakeSocket struct {
	mu      sync.Mutex
	room    int
	sent    bytes.Buffer
	closed  bool
	writing chan []byte // what writeAll was given, as it starts
	flushed chan error
}

func newFakeSocket(room int) *fakeSocket {
	return &fakeSocket{room: room, writing: make(chan []byte, 1), flushed: make(chan error)}
}

func (s *fakeSocket) tryWrite(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, net.ErrClosed
	}
	n := min(s.room, len(p))
	s.room -= n
	s.sent.Write(p[:n])
	return n, nil
}

func (s *fakeSocket) writeAll(p []byte) error {
	s.writing <- bytes.Clone(p)
	if err := <-s.flushed; err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent.Write(p)
	return nil
}

func (s *fakeSocket) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}

func (s *fakeSocket) state() (sent string, closed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent.String(), s.closed
}

func mustWrite(t *testing.T, c *sendConn, p string) {
	t.Helper()
	if n, err := c.Write([]byte(p)); n != len(p) || err != nil {
		t.Fatalf("Write(%q) = %d, %v; want %d, nil", p, n, err, len(p))
	}
}

// TestSendConnAtOnce: a write the socket takes whole goes out at once,
// and leaves the connection idle: no flusher.
func TestSendConnAtOnce(t *testing.T) {
	s := newFakeSocket(100)
	c := newSendConn(nil, s)
	mustWrite(t, c, "hello")
	mustWrite(t, c, "world")
	if sent, _ := s.state(); sent != "helloworld" {
		t.Errorf("sent %q, want helloworld", sent)
	}
	if !c.idle() {
		t.Error("not idle after writes the socket took")
	}
	if err := c.wait(); err != nil {
		t.Errorf("wait: %v", err)
	}
}

// TestSendConnKeepsInOrder: what a full socket does not take is kept and
// written by the flusher, and the writes meanwhile after it, in order;
// the writer never waits, its own messages (wait) do until it has gone.
func TestSendConnKeepsInOrder(t *testing.T) {
	s := newFakeSocket(3)
	c := newSendConn(nil, s)
	mustWrite(t, c, "abcdef") // "abc" at once, "def" kept
	if got := <-s.writing; string(got) != "def" {
		t.Fatalf("the flusher writes %q, want def", got)
	}
	mustWrite(t, c, "gh") // the flusher is busy: kept after "def"
	if c.idle() {
		t.Error("idle with bytes kept")
	}
	waited := make(chan error)
	go func() { waited <- c.wait() }()
	s.flushed <- nil
	if got := <-s.writing; string(got) != "gh" {
		t.Fatalf("the flusher writes %q next, want gh", got)
	}
	select {
	case err := <-waited:
		t.Fatalf("wait returned (%v) with bytes kept", err)
	default:
	}
	s.flushed <- nil
	if err := <-waited; err != nil {
		t.Fatalf("wait: %v", err)
	}
	if sent, closed := s.state(); sent != "abcdefgh" || closed {
		t.Errorf("sent %q (closed %v), want abcdefgh, open", sent, closed)
	}
	if !c.idle() {
		t.Error("not idle once everything went")
	}
}

// TestSendConnFailedFlush: a peer that takes nothing until the flusher's
// write fails (its deadline) has its connection closed; every writer and
// waiter hears why.
func TestSendConnFailedFlush(t *testing.T) {
	s := newFakeSocket(0)
	c := newSendConn(nil, s)
	mustWrite(t, c, "state")
	<-s.writing
	s.flushed <- os.ErrDeadlineExceeded
	if err := c.wait(); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("wait: %v, want the deadline's error", err)
	}
	if _, closed := s.state(); !closed {
		t.Error("the socket is still open")
	}
	if _, err := c.Write([]byte("more")); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("a write after: %v, want the deadline's error", err)
	}
	if c.idle() {
		t.Error("a failed connection is idle")
	}
}

// TestSendConnKeepsAtMostMaxKept: a peer that reads nothing while more
// than maxKept is written to it is cut off, and no more is kept.
func TestSendConnKeepsAtMostMaxKept(t *testing.T) {
	s := newFakeSocket(0)
	c := newSendConn(nil, s)
	mustWrite(t, c, "x")
	<-s.writing // the flusher holds "x"
	chunk := bytes.Repeat([]byte("y"), 1<<10)
	for range maxKept / len(chunk) {
		if _, err := c.Write(chunk); err != nil {
			t.Fatalf("a write within maxKept: %v", err)
		}
	}
	if _, err := c.Write([]byte("z")); !errors.Is(err, errSlowPeer) {
		t.Fatalf("the write past maxKept: %v, want errSlowPeer", err)
	}
	if _, closed := s.state(); !closed {
		t.Error("the socket is still open")
	}
	s.flushed <- net.ErrClosed // the closed socket fails the flusher's write
	if err := c.wait(); !errors.Is(err, errSlowPeer) {
		t.Errorf("wait: %v, want errSlowPeer", err)
	}
}

// TestSendConnClose: closing the connection ends a wait for a peer that
// reads nothing, and the flusher with it.
func TestSendConnClose(t *testing.T) {
	s := newFakeSocket(0)
	c := newSendConn(nil, s)
	mustWrite(t, c, "state")
	<-s.writing
	waited := make(chan error)
	go func() { waited <- c.wait() }()
	c.Close()
	if err := <-waited; !errors.Is(err, net.ErrClosed) {
		t.Errorf("wait: %v, want net.ErrClosed", err)
	}
	s.flushed <- net.ErrClosed
	if _, closed := s.state(); !closed {
		t.Error("the socket is still open")
	}
}

// TestFdSocket: on a TCP connection, tryWrite never waits: a full buffer
// takes part of a write or none; writeAll waits until the peer reads,
// and tryWrite works after it.
func TestFdSocket(t *testing.T) {
	if !tryWrites {
		t.Skip("tryWrite waits on this system")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	peer := <-accepted
	defer peer.Close()
	s, nonBlocking := socketOf(c)
	if !nonBlocking {
		t.Fatal("a TCP connection's socket waits")
	}
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	written := 0
	for full := false; !full; {
		n, err := s.tryWrite(chunk) // the test hangs if it waits
		if err != nil {
			t.Fatal(err)
		}
		written += n
		full = n < len(chunk)
		if written > 256<<20 {
			t.Fatal("the socket took 256 MiB without filling")
		}
	}
	read := make(chan error)
	go func() {
		_, err := io.CopyN(io.Discard, peer, int64(written+len(chunk)+1))
		read <- err
	}()
	if err := s.writeAll(chunk); err != nil {
		t.Fatalf("writeAll: %v", err)
	}
	if n, err := s.tryWrite([]byte("y")); n != 1 || err != nil {
		t.Fatalf("tryWrite after writeAll: %d, %v", n, err)
	}
	if err := <-read; err != nil {
		t.Fatalf("the peer read: %v", err)
	}
}

// A waitingSocket's every write waits until it is closed, as a
// blockingSocket's does for a peer that reads nothing.
type waitingSocket struct {
	writing chan struct{} // receives as a write starts
	closed  chan struct{}
	once    sync.Once
}

func (s *waitingSocket) tryWrite(p []byte) (int, error) {
	s.writing <- struct{}{}
	<-s.closed
	return 0, net.ErrClosed
}

func (s *waitingSocket) writeAll(p []byte) error { <-s.closed; return net.ErrClosed }
func (s *waitingSocket) Close() error {
	s.once.Do(func() { close(s.closed) })
	return nil
}

// TestSendConnCloseEndsAWrite: closing a connection whose write waits
// (a socket written the blocking way) ends that write, as closing the
// network connection does.
func TestSendConnCloseEndsAWrite(t *testing.T) {
	s := &waitingSocket{writing: make(chan struct{}), closed: make(chan struct{})}
	c := newSendConn(nil, s)
	wrote := make(chan error)
	go func() {
		_, err := c.Write([]byte("state"))
		wrote <- err
	}()
	<-s.writing
	c.Close() // the test hangs if Close waits for the write
	if err := <-wrote; !errors.Is(err, net.ErrClosed) {
		t.Errorf("the write: %v, want net.ErrClosed", err)
	}
}
