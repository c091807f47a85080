package pgtest

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// A proxy stands between the tests and the shared private cluster and
// keeps PostgreSQL's sessions for the next client, as a pooler in session
// mode does: a session costs PostgreSQL a fork and tens of milliseconds of
// CPU on a small machine (more than most tests' queries), and a suite
// whose every test opens a store, or a test that starts nodes, opened
// hundreds. A client's session is handed on only after a clean end (the
// client said Terminate while no query was running, outside a
// transaction), reset by DISCARD ALL; any other end closes it.
type proxy struct {
	ln     net.Listener
	target string // the cluster's host:port

	mu   sync.Mutex
	idle map[string][]*backend // by startup parameters
	done bool
}

// A backend is a session of the cluster the proxy holds.
type backend struct {
	conn  net.Conn
	r     *bufio.Reader
	hello []byte // what the server said up to its first ReadyForQuery, for each client
}

const (
	sslRequest    = 80877103
	gssRequest    = 80877104
	cancelRequest = 80877102
	maxMessage    = 1 << 30
)

// newProxy listens on a free port of the loopback for clients of target.
func newProxy(target string) (*proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &proxy{ln: ln, target: target, idle: map[string][]*backend{}}
	go p.serve()
	return p, nil
}

// port is the port the proxy listens on.
func (p *proxy) port() int { return p.ln.Addr().(*net.TCPAddr).Port }

func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.client(c)
	}
}

// close stops listening and closes the sessions kept.
func (p *proxy) close() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = true
	for _, bs := range p.idle {
		for _, b := range bs {
			b.conn.Close()
		}
	}
	p.idle = nil
}

// client serves one client connection.
func (p *proxy) client(c net.Conn) {
	defer c.Close()
	cr := bufio.NewReader(c)
	var startup []byte
	for {
		msg, err := readStartup(cr)
		if err != nil {
			return
		}
		code := binary.BigEndian.Uint32(msg[4:8])
		switch code {
		case sslRequest, gssRequest:
			if _, err := c.Write([]byte{'N'}); err != nil {
				return
			}
			continue
		case cancelRequest:
			if s, err := net.Dial("tcp", p.target); err == nil {
				s.Write(msg)
				io.Copy(io.Discard, s) // the server closes it when done
				s.Close()
			}
			return
		}
		startup = msg
		break
	}
	key := startupKey(startup)
	b, err := p.take(key, startup, c)
	if err != nil || b == nil {
		return
	}
	if _, err := c.Write(b.hello); err != nil {
		b.conn.Close()
		return
	}
	if p.relay(c, cr, b) {
		p.mu.Lock()
		if !p.done {
			p.idle[key] = append(p.idle[key], b)
			b = nil
		}
		p.mu.Unlock()
	}
	if b != nil {
		b.conn.Close()
	}
}

// take returns a kept session of the startup parameters, alive, or a new
// one. A server's refusal is passed to the client, and take returns nil.
func (p *proxy) take(key string, startup []byte, c net.Conn) (*backend, error) {
	for {
		p.mu.Lock()
		bs := p.idle[key]
		var b *backend
		if n := len(bs); n > 0 {
			b, p.idle[key] = bs[n-1], bs[:n-1]
		}
		p.mu.Unlock()
		if b == nil {
			break
		}
		if b.alive() {
			return b, nil
		}
		b.conn.Close()
	}
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		return nil, err
	}
	b := &backend{conn: s, r: bufio.NewReader(s)}
	if _, err := s.Write(startup); err != nil {
		s.Close()
		return nil, err
	}
	for {
		m, err := readMessage(b.r)
		if err != nil {
			s.Close()
			return nil, err
		}
		b.hello = append(b.hello, m...)
		switch m[0] {
		case 'E': // refused: the client hears why
			c.Write(b.hello)
			s.Close()
			return nil, nil
		case 'R': // authentication: only trust's AuthenticationOk is passed on
			if binary.BigEndian.Uint32(m[5:9]) != 0 {
				s.Close()
				return nil, errors.New("pgtest proxy: the cluster asks for a password")
			}
		case 'Z':
			return b, nil
		}
	}
}

// alive reports whether the kept session's server has not closed it (an
// idle session says nothing unasked: anything to read is its end).
func (b *backend) alive() bool {
	b.conn.SetReadDeadline(time.Now())
	_, err := b.r.Peek(1)
	b.conn.SetReadDeadline(time.Time{})
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// relay passes messages both ways until the client ends, and reports
// whether the session was left clean and has been reset for the next.
func (p *proxy) relay(c net.Conn, cr *bufio.Reader, b *backend) bool {
	type result struct {
		clean  bool // stopped between messages
		ready  int  // ReadyForQuery messages passed
		status byte // the last one's transaction status
	}
	stop := make(chan struct{})
	res := make(chan result, 1)
	go func() {
		r := result{status: 'I'}
		for {
			m, err := readMessage(b.r)
			if err != nil {
				var ne net.Error
				select {
				case <-stop:
					r.clean = m == nil && errors.As(err, &ne) && ne.Timeout()
				default:
					c.Close() // the server ended the session: so does the client's
				}
				res <- r
				return
			}
			if m[0] == 'Z' {
				r.ready++
				r.status = m[5]
			}
			if _, err := c.Write(m); err != nil {
				b.conn.Close()
				res <- r
				return
			}
		}
	}()
	syncs := 0 // Query and Sync messages sent: each has its ReadyForQuery
	terminated := false
	for {
		m, err := readMessage(cr)
		if err != nil {
			break
		}
		if m[0] == 'X' {
			terminated = true
			break
		}
		if m[0] == 'Q' || m[0] == 'S' {
			syncs++
		}
		if _, err := b.conn.Write(m); err != nil {
			break
		}
	}
	close(stop)
	b.conn.SetReadDeadline(time.Now())
	r := <-res
	b.conn.SetReadDeadline(time.Time{})
	if !terminated || !r.clean || r.ready != syncs || r.status != 'I' {
		return false
	}
	return b.reset()
}

// reset runs DISCARD ALL on the session: prepared statements, settings,
// LISTENs, advisory locks and temporary tables go.
func (b *backend) reset() bool {
	q := append([]byte{'Q', 0, 0, 0, 0}, "DISCARD ALL\x00"...)
	binary.BigEndian.PutUint32(q[1:5], uint32(len(q)-1))
	b.conn.SetDeadline(time.Now().Add(10 * time.Second))
	defer b.conn.SetDeadline(time.Time{})
	if _, err := b.conn.Write(q); err != nil {
		return false
	}
	failed := false
	for {
		m, err := readMessage(b.r)
		if err != nil {
			return false
		}
		switch m[0] {
		case 'E':
			failed = true
		case 'Z':
			return !failed && m[5] == 'I'
		}
	}
}

// readStartup reads a message without a type byte, as a client's first.
func readStartup(r *bufio.Reader) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n < 8 || n > 10000 {
		return nil, errors.New("pgtest proxy: a bad startup message")
	}
	m := make([]byte, n)
	copy(m, hdr[:])
	_, err := io.ReadFull(r, m[4:])
	return m, err
}

// readMessage reads a typed message, whole. It returns nil and the error
// if it read nothing of it.
func readMessage(r *bufio.Reader) ([]byte, error) {
	var hdr [5]byte
	n, err := io.ReadFull(r, hdr[:])
	if err != nil {
		if n > 0 {
			return hdr[:n], err
		}
		return nil, err
	}
	size := binary.BigEndian.Uint32(hdr[1:])
	if size < 4 || size > maxMessage {
		return hdr[:], errors.New("pgtest proxy: a bad message length")
	}
	m := make([]byte, 1+size)
	copy(m, hdr[:])
	if _, err := io.ReadFull(r, m[5:]); err != nil {
		return m, err
	}
	return m, nil
}

// startupKey is the startup message's parameters, sorted: pgx sends them
// in the order of a map.
func startupKey(m []byte) string {
	fields := strings.Split(strings.TrimRight(string(m[8:]), "\x00"), "\x00")
	var pairs []string
	for i := 0; i+1 < len(fields); i += 2 {
		pairs = append(pairs, fields[i]+"="+fields[i+1])
	}
	slices.Sort(pairs)
	return strings.Join(pairs, "\x00")
}

// proxyOff, in the environment, makes tests connect to the shared private
// cluster directly, each session its own.
const proxyOff = "RAZZIA_TEST_PGPROXY_OFF"

func proxyWanted() bool { return os.Getenv(proxyOff) == "" }
