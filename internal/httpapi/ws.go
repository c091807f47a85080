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

	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/table"
)

// catalogue returns the language a request asks for with ?lang= (a tag
// such as "nl", or "nl-BE"), English when it asks for none or one the
// server does not speak: the events' sentences are told in it.
func catalogue(r *http.Request) *i18n.Catalogue {
	c, _ := i18n.Lookup(i18n.Match(r.URL.Query().Get("lang")))
	return c
}

// stateMessage encodes the update as a state message, its events told in
// the catalogue's language.
func stateMessage(u table.Update, cat *i18n.Catalogue) ([]byte, error) {
	players := make([]string, len(u.Game.Seats))
	for i, s := range u.Game.Seats {
		players[i] = s.Name
	}
	return json.Marshal(protocol.StateMessage{Type: protocol.TypeState, Game: u.Game, Seat: u.Seat, View: u.View,
		Events: protocol.Events(u.Events, players, cat)})
}

// ws serves a game's live protocol: state messages out, moves in.
func (s *Server) ws(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	token := tokenOf(r, id, true)
	cat := catalogue(r)
	// Subscribe first, so an unknown game is a plain 404.
	sub, err := s.hub.Watch(r.Context(), id, token)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer sub.Close()
	if !s.track() {
		s.fail(w, r, newError(protocol.Unavailable, "the server is shutting down"))
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
			// Every connection that sees the same thing in the same
			// language sends the same bytes, encoded once.
			data, err := u.Encoded(cat.Tag(), func(u table.Update) ([]byte, error) { return stateMessage(u, cat) })
			if err != nil {
				s.log.Error("cannot encode a state", "game", id, "err", err)
				return
			}
			if err := conn.write(ctx, data); err != nil {
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

func (w *wsConn) write(ctx context.Context, data []byte) error {
	ctx, cancel := context.WithTimeout(ctx, writeWait)
	defer cancel()
	return w.c.Write(ctx, websocket.MessageText, data)
}

func (w *wsConn) error(ctx context.Context, code protocol.Code, format string, args ...any) error {
	data, err := json.Marshal(protocol.ErrorMessage{Type: protocol.TypeError, Code: code, Message: fmt.Sprintf(format, args...)})
	if err != nil {
		return err
	}
	return w.write(ctx, data)
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
			w.error(ctx, protocol.TooLarge, "the message is larger than %d bytes", maxMessage)
			w.c.Close(websocket.StatusMessageTooBig, "message too large")
			return
		}
		if !w.bucket.allow(time.Now()) {
			if w.error(ctx, protocol.RateLimited, "too many messages: at most %d at once and %g a second; this one was dropped",
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
		return w.error(ctx, protocol.BadMessage, "send JSON text messages, not binary ones")
	}
	var msg protocol.MoveMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&msg); err != nil {
		var ae *apiError
		errors.As(jsonError(err), &ae)
		return w.error(ctx, protocol.BadMessage, "%s", ae.obj.Message)
	}
	if _, err := dec.Token(); err != io.EOF {
		return w.error(ctx, protocol.BadMessage, "malformed JSON: data after the object")
	}
	if err := msg.Check(); err != nil {
		return w.error(ctx, protocol.BadMessage, "%s", err)
	}
	move, err := msg.Token()
	if err != nil {
		return w.error(ctx, protocol.IllegalMove, "%s", err)
	}
	err = w.s.hub.Play(ctx, w.id, w.token, move, *msg.Seq)
	if err == nil {
		return nil
	}
	var te *table.Error
	if !errors.As(err, &te) && ctx.Err() != nil {
		return err
	}
	e := errorOf(err)
	if e.obj.Code == protocol.Internal {
		w.s.log.Error("move failed", "game", w.id, "err", err)
	}
	return w.error(ctx, e.obj.Code, "%s", e.obj.Message)
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
