package loadgen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// The echo is the floor a server's latency is measured against: a bare
// WebSocket server of the same library, in a process of its own, run
// alone before or after the server with the same clients, pacing, message
// sizes and fan-out. A table's clients connect to it as they connect to a
// game; the client whose turn it is sends a message the size of a move,
// which lists the size of the message each seat is to receive (sizes the
// server's clients received), and the echo sends each seat of the table
// that many bytes at once: what a server does for a move, without
// parsing, rules, store or views.

// moveSize is about the length of a move message, {"type":"move",...}.
const moveSize = 44

// maxEcho bounds an echo's message, as the client bounds a state.
const maxEcho = 4 << 20

// helloMessage is the echo's first message on a connection: the client is
// seated, as a first state tells a game's client.
var helloMessage = []byte("hello")

// An echoServer is the echo: its tables' connections by table and seat.
type echoServer struct {
	mu     sync.Mutex
	tables map[string][]*websocket.Conn
}

// ServeEcho serves the echo on ln until ctx ends. A client connects to
// /?table=T&seat=S&seats=N; a message "SEQ SIZE0 SIZE1 ..." (padded with
// spaces) sends each seat of its table SIZEi bytes that begin with SEQ.
func ServeEcho(ctx context.Context, ln net.Listener) error {
	e := &echoServer{tables: map[string][]*websocket.Conn{}}
	srv := &http.Server{Handler: http.HandlerFunc(e.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	err := srv.Serve(ln)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// serve seats one connection and fans out its messages until it ends.
func (e *echoServer) serve(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	seat, err1 := strconv.Atoi(q.Get("seat"))
	seats, err2 := strconv.Atoi(q.Get("seats"))
	if err1 != nil || err2 != nil || seats < 1 || seats > 16 || seat < 0 || seat >= seats || q.Get("table") == "" {
		http.Error(w, "want /?table=T&seat=S&seats=N", http.StatusBadRequest)
		return
	}
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	ctx := r.Context()
	table := q.Get("table")
	e.mu.Lock()
	conns := e.tables[table]
	if len(conns) != seats {
		conns = make([]*websocket.Conn, seats)
		e.tables[table] = conns
	}
	conns[seat] = c
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		if conns[seat] == c {
			conns[seat] = nil
		}
		e.mu.Unlock()
	}()
	if c.Write(ctx, websocket.MessageText, helloMessage) != nil {
		return
	}
	var in, out bytes.Buffer
	peers := make([]*websocket.Conn, seats)
	for {
		data, err := readReusing(ctx, c, &in)
		if err != nil {
			return
		}
		seq, sizes, ok := parseEchoAsk(data, seats)
		if !ok {
			c.Close(websocket.StatusPolicyViolation, "want SEQ and a size a seat")
			return
		}
		e.mu.Lock()
		copy(peers, conns)
		e.mu.Unlock()
		for s, p := range peers {
			if p == nil {
				continue
			}
			p.Write(ctx, websocket.MessageText, echoFill(&out, seq, sizes[s]))
		}
	}
}

// parseEchoAsk reads "SEQ SIZE0 SIZE1 ...": the move's number and the
// bytes each of seats is to receive.
func parseEchoAsk(data []byte, seats int) (seq []byte, sizes [16]int, ok bool) {
	f := bytes.Fields(data)
	if len(f) != seats+1 {
		return nil, sizes, false
	}
	for i, s := range f[1:] {
		n, err := strconv.Atoi(string(s))
		if err != nil || n < len(f[0])+1 || n > maxEcho {
			return nil, sizes, false
		}
		sizes[i] = n
	}
	return f[0], sizes, true
}

// echoFill returns size bytes that begin with seq and a space, in buf.
func echoFill(buf *bytes.Buffer, seq []byte, size int) []byte {
	buf.Reset()
	buf.Grow(size)
	buf.Write(seq)
	buf.WriteByte(' ')
	for buf.Len() < size {
		n := min(size-buf.Len(), len(spaces))
		buf.Write(spaces[:n])
	}
	return buf.Bytes()
}

var spaces = bytes.Repeat([]byte{'x'}, 4096)

// readReusing reads the next message into buf, reusing its memory, and
// returns its bytes, valid until the next read. The echo's messages are
// as large as the states: a new buffer for each (websocket.Conn.Read)
// made the load's collector work as hard as the rest of the load did.
func readReusing(ctx context.Context, c *websocket.Conn, buf *bytes.Buffer) ([]byte, error) {
	_, r, err := c.Reader(ctx)
	if err != nil {
		return nil, err
	}
	buf.Reset()
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// An Echo is an echo server the load runs against: its URL (ws://...)
// and, when it runs on this machine, its process, whose CPU is measured.
type Echo struct {
	URL string
	PID int // 0 when unknown, or the load's own process
	// Stop stops it, when the load started it.
	Stop func() error
}

// startEcho starts the echo in the load's own process, on a free port of
// the loopback interface: for tests. razzia load starts it as a process of
// its own (Config.StartEcho), so that its CPU is measured apart.
func startEcho(ctx context.Context) (*Echo, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("echo: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- ServeEcho(ctx, ln) }()
	return &Echo{URL: "ws://" + ln.Addr().String() + "/", Stop: func() error { cancel(); return <-done }}, nil
}

// An echoConn is a client's connection to the echo, with the memory its
// messages reuse.
type echoConn struct {
	*websocket.Conn
	req []byte       // the last request, padded to moveSize
	buf bytes.Buffer // the messages received
}

// dialEcho connects seat of table to the echo and waits for its hello.
func dialEcho(ctx context.Context, base string, hc *http.Client, table, seat, seats int) (*echoConn, error) {
	url := fmt.Sprintf("%s?table=%d&seat=%d&seats=%d", base, table, seat, seats)
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: hc})
	if err != nil {
		return nil, fmt.Errorf("echo: %w", err)
	}
	c.SetReadLimit(maxEcho)
	ec := &echoConn{Conn: c}
	data, err := readReusing(ctx, c, &ec.buf)
	if err == nil && !bytes.Equal(data, helloMessage) {
		err = errors.New("not an echo of razzia load: no hello")
	}
	if err != nil {
		c.CloseNow()
		return nil, fmt.Errorf("echo: %w", err)
	}
	return ec, nil
}

// ask sends the echo move seq, for each seat to receive sizes[seat]
// bytes.
func (c *echoConn) ask(ctx context.Context, seq int, sizes []int) error {
	c.req = strconv.AppendInt(c.req[:0], int64(seq), 10)
	for _, n := range sizes {
		c.req = append(c.req, ' ')
		c.req = strconv.AppendInt(c.req, int64(n), 10)
	}
	for len(c.req) < moveSize {
		c.req = append(c.req, ' ')
	}
	return c.Write(ctx, websocket.MessageText, c.req)
}

// next reads the next message and returns the move it is of.
func (c *echoConn) next(ctx context.Context) (int, error) {
	data, err := readReusing(ctx, c.Conn, &c.buf)
	if err != nil {
		return 0, err
	}
	seq, _, _ := bytes.Cut(data, []byte{' '})
	n, err := strconv.Atoi(string(seq))
	if err != nil {
		return 0, errors.New("echo: a message without its move's number")
	}
	return n, nil
}
