package loadgen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/coder/websocket"
)

// The echo is the floor a server's latency is measured against: a bare
// WebSocket server of the same library, in the load's process, answering
// each message at once. A client sends it a message the size of a move
// (the size of the answer it wants, padded) and it answers with that many
// bytes, the size of the state the client last received: the same bytes
// each way as a move and its state, with no game, store or fan-out.

// moveSize is about the length of a move message, {"type":"move",...}.
const moveSize = 44

// maxEcho bounds an echo's answer, as the client bounds a state.
const maxEcho = 4 << 20

// echoServer is the echo's HTTP server.
type echoServer struct {
	srv  *http.Server
	ln   net.Listener
	fill []byte // the answers' bytes
}

// startEcho starts the echo on a free port of the loopback interface.
func startEcho() (*echoServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("echo: %w", err)
	}
	e := &echoServer{ln: ln, fill: bytes.Repeat([]byte{'x'}, maxEcho)}
	e.srv = &http.Server{Handler: http.HandlerFunc(e.serve), ReadHeaderTimeout: 10 * time.Second}
	go e.srv.Serve(ln)
	return e, nil
}

func (e *echoServer) url() string { return "ws://" + e.ln.Addr().String() + "/" }

func (e *echoServer) close() { e.srv.Close() }

// serve answers each message of one connection with the bytes it asks for.
func (e *echoServer) serve(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	ctx := r.Context()
	var buf bytes.Buffer
	for {
		data, err := readReusing(ctx, c, &buf)
		if err != nil {
			return
		}
		n, err := strconv.Atoi(string(bytes.TrimSpace(data)))
		if err != nil || n < 0 || n > maxEcho {
			c.Close(websocket.StatusPolicyViolation, "want the size of the answer")
			return
		}
		if err := c.Write(ctx, websocket.MessageText, e.fill[:n]); err != nil {
			return
		}
	}
}

// readReusing reads the next message into buf, reusing its memory, and
// returns its bytes, valid until the next read. The echo's answers are as
// large as the states: a new buffer for each (websocket.Conn.Read) made
// the load's collector work as hard as the rest of the load did.
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

// An echoConn is a client's connection to the echo, with the memory its
// round trips reuse.
type echoConn struct {
	*websocket.Conn
	req []byte       // the last request, padded to moveSize
	buf bytes.Buffer // the answers
}

// dialEcho connects a client to the echo.
func dialEcho(ctx context.Context, url string, hc *http.Client) (*echoConn, error) {
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: hc})
	if err != nil {
		return nil, fmt.Errorf("echo: %w", err)
	}
	c.SetReadLimit(maxEcho)
	return &echoConn{Conn: c}, nil
}

// roundTrip asks the echo for size bytes and returns how long the answer
// took to arrive.
func (c *echoConn) roundTrip(ctx context.Context, size int) (time.Duration, error) {
	c.req = strconv.AppendInt(c.req[:0], int64(size), 10)
	for len(c.req) < moveSize {
		c.req = append(c.req, ' ')
	}
	start := time.Now()
	if err := c.Write(ctx, websocket.MessageText, c.req); err != nil {
		return 0, err
	}
	data, err := readReusing(ctx, c.Conn, &c.buf)
	if err != nil {
		return 0, err
	}
	if len(data) != size {
		return 0, errors.New("echo: an answer of the wrong size")
	}
	return time.Since(start), nil
}
