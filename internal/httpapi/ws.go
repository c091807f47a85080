package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/table"
)

// stateMessage is the server's "state" message.
type stateMessage struct {
	Type   string           `json:"type"`
	Game   table.Info       `json:"game"`
	Seat   int              `json:"seat"`
	View   *razzia.Snapshot `json:"view"`
	Events []razzia.Event   `json:"events"`
}

// errorMessage is the server's "error" message, only to the client that
// caused it.
type errorMessage struct {
	Type    string `json:"type"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// clientMessage is what a client sends.
type clientMessage struct {
	Type string  `json:"type"`
	Move *string `json:"move"`
	Seq  *int    `json:"seq"`
}

// wsCode maps the Hub's rejections of a move to the protocol's codes.
func wsCode(kind error) string {
	switch kind {
	case table.ErrIllegalMove:
		return "illegal_move"
	case table.ErrNotYourTurn:
		return "not_your_turn"
	case table.ErrNotYourSeat:
		return "not_your_seat"
	case table.ErrStale:
		return "stale"
	case table.ErrGameOver:
		return "game_over"
	case table.ErrNotStarted:
		return "not_started"
	}
	return "internal"
}

// ws serves a game's live protocol: state messages out, moves in.
func (s *Server) ws(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	token := tokenOf(r, id, true)
	// Subscribe first, so an unknown game is a plain 404.
	sub, err := s.hub.Watch(r.Context(), id, token)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer sub.Close()
	if !s.track() {
		s.fail(w, r, &table.Error{Kind: table.ErrClosed, Msg: "the server is shutting down"})
		return
	}
	defer s.conns.Done()
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.opts.Origins})
	if err != nil {
		// Accept has answered: a bad origin is 403.
		s.log.Info("websocket refused", "game", id, "origin", r.Header.Get("Origin"), "err", err)
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(maxMessage)

	// The reader has its own context: cancelling a read closes the
	// connection at once, and Close should say goodbye first.
	ctx, cancel := context.WithCancel(context.Background())
	conn := &wsConn{s: s, c: c, id: id, token: token,
		bucket: bucket{rate: s.opts.MessageRate, burst: float64(s.opts.MessageBurst), tokens: float64(s.opts.MessageBurst), last: time.Now()}}
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		conn.read(ctx)
	}()
	defer func() {
		c.CloseNow()
		cancel()
		<-readDone
	}()

	updates := sub.Updates()
	for {
		select {
		case u, ok := <-updates:
			if !ok {
				select {
				case <-s.hub.Done():
					c.Close(websocket.StatusGoingAway, "the server is shutting down")
					return
				default:
				}
				// The game is over: no more states, but the client may stay.
				updates = nil
				continue
			}
			msg := stateMessage{Type: "state", Game: u.Game, Seat: u.Seat, View: u.View, Events: u.Events}
			if msg.Events == nil {
				msg.Events = []razzia.Event{}
			}
			if err := conn.write(ctx, msg); err != nil {
				return
			}
		case <-s.ctx.Done():
			c.Close(websocket.StatusGoingAway, "the server is shutting down")
			return
		case <-readDone:
			return
		}
	}
}

// A wsConn is one client's WebSocket.
type wsConn struct {
	s      *Server
	c      *websocket.Conn
	id     string
	token  string
	bucket bucket // used by the reading goroutine only
}

func (w *wsConn) write(ctx context.Context, v any) error {
	ctx, cancel := context.WithTimeout(ctx, writeWait)
	defer cancel()
	return wsjson.Write(ctx, w.c, v)
}

func (w *wsConn) error(ctx context.Context, code, format string, args ...any) error {
	return w.write(ctx, errorMessage{Type: "error", Code: code, Message: fmt.Sprintf(format, args...)})
}

// read handles the client's messages until the connection ends.
func (w *wsConn) read(ctx context.Context) {
	for {
		typ, r, err := w.c.Reader(ctx)
		if err != nil {
			return
		}
		// Read one byte past the limit to tell an oversized message, so
		// the client hears why before the connection closes.
		data, err := io.ReadAll(io.LimitReader(r, maxMessage+1))
		if err != nil {
			return
		}
		if len(data) > maxMessage {
			w.error(ctx, "too_large", "the message is larger than %d bytes", maxMessage)
			w.c.Close(websocket.StatusMessageTooBig, "message too large")
			return
		}
		if !w.bucket.allow(time.Now()) {
			if w.error(ctx, "rate_limited", "too many messages: at most %d at once and %g a second; this one was dropped",
				w.s.opts.MessageBurst, w.s.opts.MessageRate) != nil {
				return
			}
			continue
		}
		if err := w.handle(ctx, typ, data); err != nil {
			return
		}
	}
}

// handle answers one message; it returns an error only when the
// connection failed.
func (w *wsConn) handle(ctx context.Context, typ websocket.MessageType, data []byte) error {
	if typ != websocket.MessageText {
		return w.error(ctx, "bad_message", "send JSON text messages, not binary ones")
	}
	var msg clientMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&msg); err != nil {
		var ae *apiError
		errors.As(jsonError(err), &ae)
		return w.error(ctx, "bad_message", "%s", ae.Message)
	}
	if _, err := dec.Token(); err != io.EOF {
		return w.error(ctx, "bad_message", "malformed JSON: data after the object")
	}
	switch {
	case msg.Type != "move":
		return w.error(ctx, "bad_message", `unknown message type %q: the only message is {"type": "move", "move": "...", "seq": N}`, msg.Type)
	case msg.Move == nil:
		return w.error(ctx, "bad_message", `a move message needs "move", a record token such as "bid 9"`)
	}
	seq := -1
	if msg.Seq != nil {
		if *msg.Seq < 0 {
			return w.error(ctx, "bad_message", `"seq" is the number of moves seen, not %d`, *msg.Seq)
		}
		seq = *msg.Seq
	}
	err := w.s.hub.Play(ctx, w.id, w.token, *msg.Move, seq)
	if err == nil {
		return nil
	}
	var te *table.Error
	if !errors.As(err, &te) {
		if ctx.Err() != nil {
			return err
		}
		w.s.log.Error("move failed", "game", w.id, "err", err)
		return w.error(ctx, "internal", "internal error: please try again")
	}
	if te.Kind == table.ErrInternal {
		return w.error(ctx, "internal", "%s", te.Msg)
	}
	return w.error(ctx, wsCode(te.Kind), "%s", te.Msg)
}

// A bucket is a token bucket: burst messages at once, rate a second after.
type bucket struct {
	rate, burst, tokens float64
	last                time.Time
}

func (b *bucket) allow(now time.Time) bool {
	b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
