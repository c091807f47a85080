package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

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
	m := protocol.StateMessage{Type: protocol.TypeState, Game: u.Game, Seat: u.Seat, View: u.View,
		Events: protocol.Events(u.Events, players, cat), Clock: u.Clock, TakeOvers: takeOvers(u.TakeOvers, players, cat),
		PreMove: u.PreMove, PreMoveDropped: u.PreMoveDropped}
	scratch := stateScratch.Get().(*[]byte)
	defer stateScratch.Put(scratch)
	data, err := m.AppendJSON((*scratch)[:0])
	if err != nil {
		return nil, err
	}
	*scratch = data
	return bytes.Clone(data), nil // kept and shared by the update's watchers
}

// stateScratch holds the buffers the state messages are encoded in, so
// that each message costs one allocation of its own size.
var stateScratch = sync.Pool{New: func() any { return new([]byte) }}

// reconnectReason goes with the close status 1012 (service restart) that
// ends every WebSocket when the node stops: the client should connect
// again at once, reaching another node (docs/protocol.md).
const reconnectReason = "the server is restarting: reconnect"

// ws serves a game's live protocol: state messages out, moves in.
func (s *Server) ws(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	token := tokenOf(r, id, true)
	cat := catalogue(r)
	client := s.peerOf(r).key()
	if !s.clients.add(client, s.opts.MaxConns) {
		s.refuse(w, r, newError(protocol.TooManyConnections,
			"your address has %d connections to this server, the most it takes: close one (another tab?) and try again", s.opts.MaxConns))
		return
	}
	defer s.clients.done(client)
	// The signed-in account, if any: it writes free text in the chat,
	// and a spectator chats only signed in.
	var acct, acctName string
	if se, err := s.sessionOf(r); err == nil {
		acct, acctName = se.Account.ID, se.Account.Name
	}
	// Subscribe first, so an unknown game is a plain 404.
	sub, err := s.hub.WatchAs(r.Context(), id, token, acct)
	if errors.Is(err, table.ErrTooManyConnections) {
		s.refuse(w, r, err)
		return
	}
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
	c := s.accept(w, r, id)
	if c == nil {
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(maxMessage)
	s.metrics.clients.Inc()
	defer s.metrics.clients.Dec()

	// The reader has its own context: cancelling a read closes the
	// connection at once, and Close should say goodbye first.
	ctx, cancel := context.WithCancel(context.Background())
	conn := &wsConn{s: s, c: c, id: id, token: token, account: acct, name: acctName, client: client,
		limit: rate.NewLimiter(rate.Limit(s.opts.MessageRate), s.opts.MessageBurst)}
	conn.touch()
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		conn.read(ctx)
	}()
	aliveDone := make(chan struct{})
	go func() {
		defer close(aliveDone)
		conn.keepAlive(ctx)
	}()
	defer func() {
		c.CloseNow()
		cancel()
		<-readDone
		<-aliveDone
	}()

	updates, chats := sub.Updates(), sub.Chat()
	var (
		last   table.Update
		offers <-chan protocol.RematchOffer // once the game is over
	)
	for {
		select {
		case m, ok := <-chats:
			if !ok {
				chats = nil
				continue
			}
			data, err := json.Marshal(m)
			if err != nil {
				s.log.Error("cannot encode a chat message", "game", id, "err", err)
				return
			}
			if err := conn.write(ctx, data); err != nil {
				return
			}
		case u, ok := <-updates:
			if !ok {
				select {
				case <-s.hub.Done():
					c.Close(websocket.StatusServiceRestart, reconnectReason)
					return
				default:
				}
				if last.Game.Status == protocol.StatusExpired || last.Game.Status == protocol.StatusCancelled {
					// The hub says why, as it says to every later request.
					_, _, err := s.hub.Game(ctx, id, "")
					e := errorOf(err)
					conn.error(ctx, e.obj.Code, 0, "%s", e.obj.Message)
					c.Close(websocket.StatusNormalClosure, "the table "+string(last.Game.Status))
					return
				}
				// The game is over: no more states, but the client may stay
				// and hear of its rematch, and the chat after the game
				// (chats stays open for it).
				updates = nil
				if last.Game.Status == protocol.StatusFinished {
					feed, err := s.hub.WatchRematch(ctx, id)
					if err != nil {
						s.log.Warn("cannot watch the rematch offer", "game", id, "err", err)
						continue
					}
					defer feed.Close()
					offers = feed.Offers()
				}
				continue
			}
			last = u
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
		case o := <-offers:
			data, err := rematchOfferMessage(o)
			if err != nil {
				s.log.Error("cannot encode a rematch offer", "game", id, "err", err)
				return
			}
			if err := conn.write(ctx, data); err != nil {
				return
			}
		case <-s.ctx.Done():
			c.Close(websocket.StatusServiceRestart, reconnectReason)
			return
		case <-readDone:
			return
		case <-aliveDone:
			return
		}
	}
}

// accept upgrades the connection, freed from the HTTP server's read and
// write timeouts: a WebSocket lives as long as it answers pings. It
// returns nil when Accept refused (and answered): a bad origin is 403.
func (s *Server) accept(w http.ResponseWriter, r *http.Request, id string) *websocket.Conn {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.opts.Origins})
	if err != nil {
		s.log.Info("websocket refused", "game", id, "origin", r.Header.Get("Origin"), "err", err)
		return nil
	}
	return c
}

// refuse upgrades the connection only to say why it cannot stay, and
// closes it with status 1013 (try again later): a browser cannot read the
// body of a refused upgrade, but it reads this message.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, err error) {
	c := s.accept(w, r, r.PathValue("id"))
	if c == nil {
		return
	}
	defer c.CloseNow()
	e := errorOf(err)
	conn := &wsConn{s: s, c: c}
	conn.error(r.Context(), e.obj.Code, e.obj.RetryAfter, "%s", e.obj.Message)
	c.Close(websocket.StatusTryAgainLater, string(e.obj.Code))
}

// A wsConn is one client's WebSocket.
type wsConn struct {
	s     *Server
	c     *websocket.Conn
	id    string
	token string
	// account and name are the signed-in account's, "" for none.
	account, name string
	client        string        // the peer's key, for the limits per client
	limit         *rate.Limiter // the messages the client may send
	last          atomic.Int64  // when a message last passed either way, Unix nanoseconds
}

// touch notes that a message passed.
func (w *wsConn) touch() { w.last.Store(time.Now().UnixNano()) }

func (w *wsConn) write(ctx context.Context, data []byte) error {
	ctx, cancel := context.WithTimeout(ctx, writeWait)
	defer cancel()
	w.touch()
	return w.c.Write(ctx, websocket.MessageText, data)
}

// pong answers a client's ping; unlike write, it leaves the connection
// as idle as it was.
func (w *wsConn) pong(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, writeWait)
	defer cancel()
	return w.c.Write(ctx, websocket.MessageText, pongMessage)
}

// error sends an error message; retry, when positive, is its retryAfter
// in seconds.
func (w *wsConn) error(ctx context.Context, code protocol.Code, retry int, format string, args ...any) error {
	w.s.metrics.refusal(code)
	m := protocol.ErrorMessage{Type: protocol.TypeError, Code: code, Message: fmt.Sprintf(format, args...), RetryAfter: retry}
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return w.write(ctx, data)
}

// keepAlive pings the client every PingInterval and cuts it off when it
// does not answer within PongTimeout (a dead peer, a half-open TCP
// connection), and closes the connection once nothing but pings passed
// for IdleTimeout. It returns when it closed the connection or ctx ended.
func (w *wsConn) keepAlive(ctx context.Context) {
	o := w.s.opts
	tick := time.NewTicker(o.PingInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if time.Since(time.Unix(0, w.last.Load())) >= o.IdleTimeout {
			w.c.Close(websocket.StatusNormalClosure, "idle")
			return
		}
		pctx, cancel := context.WithTimeout(ctx, o.PongTimeout)
		err := w.c.Ping(pctx)
		cancel()
		if err != nil {
			if ctx.Err() == nil {
				w.s.log.Info("websocket does not answer pings; closed", "game", w.id, "err", err)
			}
			w.c.CloseNow()
			return
		}
	}
}

// pingMessage and pongMessage are a client's ping and the server's
// answer: the page tells a silent network drop by a pong that does not
// come.
var (
	pingMessage = []byte(`{"type":"` + protocol.TypePing + `"}`)
	pongMessage = []byte(`{"type":"` + protocol.TypePong + `"}`)
)

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
		// A client's ping is no sign of life: a tab left open all night
		// still goes idle.
		ping := bytes.Equal(data, pingMessage)
		if !ping {
			w.touch()
		}
		if len(data) > maxMessage {
			w.error(ctx, protocol.TooLarge, 0, "the message is larger than %d bytes", maxMessage)
			w.c.Close(websocket.StatusMessageTooBig, "message too large")
			return
		}
		if now := time.Now(); !w.limit.AllowN(now, 1) {
			wait := time.Duration((1 - w.limit.TokensAt(now)) / w.s.opts.MessageRate * float64(time.Second))
			if w.error(ctx, protocol.RateLimited, retrySeconds(wait), "too many messages: at most %d at once and %g a second; this one was dropped",
				w.s.opts.MessageBurst, w.s.opts.MessageRate) != nil {
				return
			}
			continue
		}
		if ping {
			if w.pong(ctx) != nil {
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
		return w.error(ctx, protocol.BadMessage, 0, "send JSON text messages, not binary ones")
	}
	var head struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(data, &head) == nil {
		switch head.Type {
		case protocol.TypeRematch:
			return w.rematch(ctx, data)
		case protocol.TypeChat:
			var msg protocol.ChatSend
			if err := decodeMessage(data, &msg); err != nil {
				return w.error(ctx, protocol.BadMessage, 0, "%s", err)
			}
			if err := msg.Check(); err != nil {
				return w.error(ctx, protocol.BadMessage, 0, "%s", err)
			}
			return w.answer(ctx, "chat", w.s.hub.Chat(ctx, w.id, w.token, w.account, w.name, msg.Phrase, msg.Text))
		case protocol.TypeMute, protocol.TypeUnmute:
			var msg protocol.MuteMessage
			if err := decodeMessage(data, &msg); err != nil {
				return w.error(ctx, protocol.BadMessage, 0, "%s", err)
			}
			if err := msg.Check(); err != nil {
				return w.error(ctx, protocol.BadMessage, 0, "%s", err)
			}
			return w.answer(ctx, msg.Type, w.s.hub.Mute(ctx, w.id, w.token, w.account, *msg.Seat, msg.Type == protocol.TypeMute))
		}
	}
	if json.Unmarshal(data, &head) == nil && (head.Type == protocol.TypePreMove || head.Type == protocol.TypeTakeBack || head.Type == protocol.TypeLeave) {
		var msg protocol.PreMoveMessage
		if err := decodeMessage(data, &msg); err != nil {
			return w.error(ctx, protocol.BadMessage, 0, "%s", err)
		}
		switch {
		case msg.Type == protocol.TypePreMove:
			return w.answer(ctx, "pre-move", w.s.hub.PreMove(ctx, w.id, w.token, msg.Move))
		case msg.Move != "":
			return w.error(ctx, protocol.BadMessage, 0, "%q takes no \"move\"", msg.Type)
		case msg.Type == protocol.TypeTakeBack:
			return w.answer(ctx, "take back", w.s.hub.TakeBack(ctx, w.id, w.token))
		}
		return w.answer(ctx, "leave", w.s.hub.Leave(ctx, w.id, w.token))
	}
	var msg protocol.MoveMessage
	if err := decodeMessage(data, &msg); err != nil {
		return w.error(ctx, protocol.BadMessage, 0, "%s", err)
	}
	if err := msg.Check(); err != nil {
		return w.error(ctx, protocol.BadMessage, 0, "%s", err)
	}
	move, err := msg.Token()
	if err != nil {
		return w.error(ctx, protocol.IllegalMove, 0, "%s", err)
	}
	return w.answer(ctx, "move", w.s.hub.Play(ctx, w.id, w.token, move, *msg.Seq))
}

// decodeMessage decodes one JSON object into msg, refusing unknown
// fields and data after it; the error is for the sender.
func decodeMessage(data []byte, msg any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(msg); err != nil {
		var ae *apiError
		errors.As(jsonError(err), &ae)
		return errors.New(ae.obj.Message)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("malformed JSON: data after the object")
	}
	return nil
}

// answer sends the error of a request (what names it), if any; it
// returns an error only when the connection failed.
func (w *wsConn) answer(ctx context.Context, what string, err error) error {
	if err == nil {
		return nil
	}
	var te *table.Error
	if !errors.As(err, &te) && ctx.Err() != nil {
		return err
	}
	e := errorOf(err)
	if e.obj.Code == protocol.Internal {
		w.s.log.Error(what+" failed", "game", w.id, "err", err)
	}
	return w.error(ctx, e.obj.Code, e.obj.RetryAfter, "%s", e.obj.Message)
}
