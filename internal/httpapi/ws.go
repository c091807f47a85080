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
	m := stateOf(&u, cat, true)
	return encodeOnce(m.AppendJSON)
}

// stateScratch holds the buffers the state messages are encoded in, so
// that each message costs one allocation of its own size.
var stateScratch = sync.Pool{New: func() any { return new([]byte) }}

// reconnectReason goes with the close status 1012 (service restart) that
// ends every WebSocket when the node stops: the client should connect
// again at once, reaching another node (docs/protocol.md).
const reconnectReason = "the server is restarting: reconnect"

// ws serves a game's live protocol: state messages out, moves in. It
// admits the connection (the limit per address, the game, the server not
// stopping), upgrades it and serves it.
func (s *Server) ws(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	version, err := protocol.NegotiateVersion(r.URL.Query().Get("protocol"))
	if err != nil {
		s.fail(w, r, newError(protocol.UnsupportedVersion, "%s", err))
		return
	}
	client := s.peerOf(r).key()
	if !s.clients.add(client, s.opts.MaxConns) {
		s.refuse(w, r, newError(protocol.TooManyConnections,
			"your address has %d connections to this server, the most it takes: close one (another tab?) and try again", s.opts.MaxConns))
		return
	}
	defer s.clients.done(client)
	conn := &wsConn{s: s, id: id, token: tokenOf(r, id, true), client: client, version: version,
		limit: rate.NewLimiter(rate.Limit(s.opts.MessageRate), s.opts.MessageBurst), resyncs: newResyncLimiter()}
	// The signed-in account, if any: it writes free text in the chat,
	// and a spectator chats only signed in.
	if se, err := s.sessionOf(r); err == nil {
		conn.account, conn.name = se.Account.ID, se.Account.Name
	}
	// Subscribe first, so an unknown game is a plain 404.
	sub, err := s.hub.Watch(r.Context(), id, table.Watcher{Token: conn.token, Account: conn.account, Direct: conn.direct})
	if errors.Is(err, table.ErrTooManyConnections) {
		s.refuse(w, r, err)
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer sub.Close()
	conn.sub = sub
	if !s.track() {
		s.fail(w, r, newError(protocol.Unavailable, "the server is shutting down"))
		return
	}
	defer s.conns.Done()
	if !conn.upgrade(w, r) {
		return
	}
	defer conn.c.CloseNow()
	defer conn.startPresence(r.Context(), s.personOf(r, ""), r.URL.Query().Get("presence") == "1")()
	conn.cat = catalogue(r)
	conn.keys = variantsOf(conn.cat)
	conn.serve(sub)
}

// serve runs an accepted connection until it ends: a reader for the
// client's messages and a keep-alive beside the writer of the game's
// states, chat and rematch offer.
func (w *wsConn) serve(sub *table.Subscription) {
	w.s.metrics.clients.Inc()
	defer w.s.metrics.clients.Dec()
	w.run(w.read, func(ctx context.Context, done <-chan struct{}) {
		w.pump(ctx, sub, done)
	})
}

// run runs an accepted connection until body returns: read handles the
// client's messages and a keep-alive pings it, beside body, which writes;
// done closes when either ends or the server stops (s.ctx): one channel,
// so that the writer waits on one case for the three.
func (w *wsConn) run(read func(context.Context), body func(ctx context.Context, done <-chan struct{})) {
	w.c.SetReadLimit(maxMessage)
	// The reader has its own context: cancelling a read closes the
	// connection at once, and Close should say goodbye first.
	ctx, cancel := context.WithCancel(context.Background())
	w.touch()
	done := make(chan struct{})
	var once sync.Once
	end := func() { once.Do(func() { close(done) }) }
	unwatch := context.AfterFunc(w.s.ctx, end)
	defer unwatch()
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		defer end()
		read(ctx)
	}()
	aliveDone := make(chan struct{})
	go func() {
		defer close(aliveDone)
		defer end()
		w.keepAlive(ctx)
	}()
	defer func() {
		w.c.CloseNow()
		cancel()
		<-readDone
		<-aliveDone
	}()
	body(ctx, done)
}

// ended ends the connection once run's done closed: with a call to
// reconnect when the server stops.
func (w *wsConn) ended() {
	if w.s.ctx.Err() != nil {
		w.c.Close(websocket.StatusServiceRestart, reconnectReason)
	}
}

// pump writes what the game sends to the client until the connection or
// the server ends (done), or the table closes. It holds the writer's
// lock (wmu) while it handles what it took, so that the game's goroutine
// writes a state itself (direct) only between.
func (w *wsConn) pump(ctx context.Context, sub *table.Subscription, done <-chan struct{}) {
	updates, chats := sub.Updates(), sub.Chat()
	var offers <-chan protocol.RematchOffer // once the game is over
	w.ctx, w.done = ctx, done
	w.ready.Store(true)
	// The table sends its state before its chat, but a select takes
	// either: a chat line is held until a state was written, as which
	// lines the reader hides depends on the seats the state tells. The
	// first state comes on updates, never direct: it is sent at Watch,
	// before this writer is ready.
	stated := false
	for {
		var err error
		var chatIn <-chan protocol.ChatMessage
		if stated {
			chatIn = chats
		}
		select {
		case m, ok := <-chatIn:
			if !ok {
				chats = nil
				continue
			}
			w.wmu.Lock()
			m = w.unblocked(m)
			err = w.send(ctx, "a chat message", func() ([]byte, error) { return json.Marshal(m) })
			w.wmu.Unlock()
		case u, ok := <-updates:
			stated = true
			if !ok {
				w.wmu.Lock()
				feed, stay := w.afterGame(ctx, w.status)
				w.wmu.Unlock()
				if !stay {
					return
				}
				updates = nil
				if feed != nil {
					defer feed.Close()
					offers = feed.Offers()
				}
				continue
			}
			w.wmu.Lock()
			err = w.sendUpdate(ctx, u)
			sub.Handled()
			w.wmu.Unlock()
		case <-w.seatsChanged():
			w.wmu.Lock()
			err = w.sendSeats(ctx)
			w.wmu.Unlock()
		case o := <-offers:
			err = w.send(ctx, "a rematch offer", func() ([]byte, error) { return rematchOfferMessage(o) })
		case <-done:
			w.ended()
			return
		}
		if err != nil {
			return
		}
	}
}

// sendUpdate writes the update's state and follows it in presence; wmu
// is held.
func (w *wsConn) sendUpdate(ctx context.Context, u table.Update) error {
	w.status = u.Game.Status
	// Every connection that sees the same thing in the same language
	// sends the same bytes, encoded once.
	err := w.send(ctx, "a state", func() ([]byte, error) { return w.stateBytes(u, w.cat) })
	if err == nil {
		err = w.seatUpdate(ctx, u)
	}
	return err
}

// direct writes the update from the game's goroutine (table.Watcher's
// Direct), which saves waking the socket's writer (pump) for it: only
// when that writer is idle (it took no update it has not written, which
// the Subscription knows, and holds no lock), nothing waits to go out on
// the socket (so the write cannot wait), and the update asks nothing of
// presence but what the socket knows. Otherwise it reports false and the
// update goes to the writer. A failed write closes the connection.
func (w *wsConn) direct(u table.Update) bool {
	if !w.nonBlocking || !w.ready.Load() || !w.wmu.TryLock() {
		return false
	}
	defer w.wmu.Unlock()
	select {
	case <-w.done:
		return false
	default:
	}
	if !w.nc.idle() || !w.presenceKnows(u) {
		return false
	}
	w.status = u.Game.Status
	data, err := w.stateBytes(u, w.cat)
	if err != nil {
		w.s.log.Error("cannot encode a state", "game", w.id, "err", err)
	} else {
		w.touch()
		err = w.c.Write(context.Background(), websocket.MessageText, data)
	}
	if err == nil {
		err = w.seatUpdate(w.ctx, u) // nothing to do: presenceKnows
	}
	if err != nil {
		// Closing the network connection never waits, where the
		// WebSocket's close may wait for a handshake under way.
		w.nc.Close()
	}
	return true
}

// send writes the message encode makes (what names it in the log); the
// error is the encoder's or the connection's.
func (w *wsConn) send(ctx context.Context, what string, encode func() ([]byte, error)) error {
	data, err := encode()
	if err != nil {
		w.s.log.Error("cannot encode "+what, "game", w.id, "err", err)
		return err
	}
	return w.write(ctx, data)
}

// afterGame decides what happens when the game sends no more states:
// stay reports whether the connection stays open, for the chat after the
// game and, when the game finished, its rematch offer (feed, which the
// caller closes). The node stopping closes it with a call to reconnect,
// and a table that closed unplayed with why.
func (w *wsConn) afterGame(ctx context.Context, status protocol.Status) (feed *table.RematchFeed, stay bool) {
	select {
	case <-w.s.hub.Done():
		w.c.Close(websocket.StatusServiceRestart, reconnectReason)
		return nil, false
	default:
	}
	switch status {
	case protocol.StatusExpired, protocol.StatusCancelled:
		// The hub says why, as it says to every later request.
		_, _, err := w.s.hub.Game(ctx, w.id, "")
		e := errorOf(err)
		w.error(ctx, e.obj.Code, 0, "%s", e.obj.Message)
		w.c.Close(websocket.StatusNormalClosure, "the table "+string(status))
		return nil, false
	case protocol.StatusFinished:
		feed, err := w.s.hub.WatchRematch(ctx, w.id)
		if err != nil {
			w.s.log.Warn("cannot watch the rematch offer", "game", w.id, "err", err)
			return nil, true
		}
		return feed, true
	}
	return nil, true
}

// accept upgrades the connection, freed from the HTTP server's read and
// write timeouts: a WebSocket lives as long as it answers pings. It
// returns nil when Accept refused (and answered): a bad origin is 403.
// Its writes never block (sendConn).
func (s *Server) accept(w http.ResponseWriter, r *http.Request, id string) *websocket.Conn {
	c, _ := s.acceptSend(w, r, id)
	return c
}

// acceptSend is accept, which also returns the connection's sendConn
// (how it took the connection over).
func (s *Server) acceptSend(w http.ResponseWriter, r *http.Request, id string) (*websocket.Conn, *hijackWriter) {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	h := &hijackWriter{ResponseWriter: w}
	c, err := websocket.Accept(h, r, &websocket.AcceptOptions{OriginPatterns: s.opts.Origins})
	if err != nil {
		s.log.Info("websocket refused", "game", id, "origin", r.Header.Get("Origin"), "err", err)
		return nil, nil
	}
	return c, h
}

// upgrade accepts the connection as the socket w; false when Accept
// refused (and answered).
func (w *wsConn) upgrade(rw http.ResponseWriter, r *http.Request) bool {
	c, h := w.s.acceptSend(rw, r, w.id)
	if c == nil {
		return false
	}
	w.c, w.nc, w.nonBlocking = c, h.conn, h.nonBlocking
	return true
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
	client        string         // the peer's key, for the limits per client
	limit         *rate.Limiter  // the messages the client may send
	pres          *tablePresence // a table socket's presence (seats.go); nil without
	last          atomic.Int64   // when a message last passed either way, Unix nanoseconds
	// nc is the network connection under c, whose writes never block;
	// nonBlocking says they never wait either (sendConn).
	nc          *sendConn
	nonBlocking bool

	// The writer's: wmu is held by whoever writes a state (the pump, or
	// the game's goroutine in direct), which the fields below are
	// guarded by, and presence's part (pres). ready says that the pump
	// runs, with its context (ctx) and the end of the connection (done).
	wmu    sync.Mutex
	ready  atomic.Bool
	ctx    context.Context
	done   <-chan struct{}
	cat    *i18n.Catalogue
	status protocol.Status // the last update's game's

	// The protocol's version, and in version 2 what the writer sent last
	// (its own) and the client's requests for a whole state.
	version int
	keys    variants
	sub     *table.Subscription
	sent    sentState
	resyncs *rate.Limiter
}

// touch notes that a message passed.
func (w *wsConn) touch() { w.last.Store(time.Now().UnixNano()) }

func (w *wsConn) write(ctx context.Context, data []byte) error {
	w.touch()
	return w.writeBounded(ctx, data)
}

// pong answers a client's ping; unlike write, it leaves the connection
// as idle as it was.
func (w *wsConn) pong(ctx context.Context) error {
	return w.writeBounded(ctx, pongMessage)
}

// writeBounded writes a message once what was written before went out
// to the socket (sendConn.wait), or fails once ctx has ended. The
// connection's write never blocks; a peer that reads nothing for
// writeWait fails it, and closes the connection.
func (w *wsConn) writeBounded(ctx context.Context, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if w.nc != nil {
		if err := w.nc.wait(); err != nil {
			return err
		}
	}
	return w.c.Write(context.Background(), websocket.MessageText, data)
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

// unwatched is the context of a connection's reads: run closes the
// connection before it cancels its context, which unblocks a read, so a
// context the library would watch at each message is only a cost.
var unwatched = context.Background()

// read handles the client's messages until the connection ends. Each
// is read into one buffer of the connection, which its handler only
// decodes (nothing keeps it past the handler).
func (w *wsConn) read(ctx context.Context) {
	var (
		buf   bytes.Buffer
		limit io.LimitedReader
	)
	for {
		typ, r, err := w.c.Reader(unwatched)
		if err != nil {
			return
		}
		// Read one byte past the limit to tell an oversized message, so
		// the client hears why before the connection closes.
		buf.Reset()
		limit = io.LimitedReader{R: r, N: maxMessage + 1}
		if _, err := buf.ReadFrom(&limit); err != nil {
			return
		}
		data := buf.Bytes()
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
// connection failed. The message is decoded once (inbound.go), and its
// type picks its handler in wsHandlers; a message of no known type is
// judged as a move, whose check names the types.
func (w *wsConn) handle(ctx context.Context, typ websocket.MessageType, data []byte) error {
	if typ != websocket.MessageText {
		return w.error(ctx, protocol.BadMessage, 0, "send JSON text messages, not binary ones")
	}
	var m inbound
	h, err := parseInbound(data, &m)
	if err != nil {
		return w.error(ctx, protocol.BadMessage, 0, "%s", err)
	}
	return h.handle(w, ctx, &m)
}

// A wsHandler answers one type of message from the client: form is the
// type's message, whose fields handle reads of an inbound; handle
// returns an error only when the connection failed.
type wsHandler struct {
	form   any
	fields []string // form's, by their JSON names
	handle func(w *wsConn, ctx context.Context, m *inbound) error
}

func newHandler(form any, handle func(w *wsConn, ctx context.Context, m *inbound) error) *wsHandler {
	return &wsHandler{form: form, fields: fieldsOf(form), handle: handle}
}

// wsHandlers are the handlers of the client's messages by type.
var wsHandlers = map[string]*wsHandler{
	protocol.TypeMove:     newHandler(protocol.MoveMessage{}, (*wsConn).move),
	protocol.TypePreMove:  newHandler(protocol.PreMoveMessage{}, (*wsConn).preMove),
	protocol.TypeTakeBack: newHandler(protocol.PreMoveMessage{}, (*wsConn).takeBack),
	protocol.TypeLeave:    newHandler(protocol.PreMoveMessage{}, (*wsConn).leave),
	protocol.TypeContinue: newHandler(protocol.PreMoveMessage{}, (*wsConn).continueRound),
	protocol.TypeRematch:  newHandler(protocol.RematchMessage{}, (*wsConn).rematch),
	protocol.TypeChat:     newHandler(protocol.ChatSend{}, (*wsConn).chat),
	protocol.TypeMute:     newHandler(protocol.MuteMessage{}, (*wsConn).mute),
	protocol.TypeUnmute:   newHandler(protocol.MuteMessage{}, (*wsConn).mute),
	protocol.TypeResync:   newHandler(protocol.ResyncMessage{}, (*wsConn).resync),
	protocol.TypeAway:     newHandler(protocol.AwayMessage{}, (*wsConn).awayMessage),
}

// handlerOf returns the handler of a type of message, the move's for a
// type nobody knows (its check names the types).
func handlerOf(typ string) *wsHandler {
	if h, ok := wsHandlers[typ]; ok {
		return h
	}
	return wsHandlers[protocol.TypeMove]
}

// messageType returns the "type" of a message, "" when it has none or is
// not a JSON object.
func messageType(data []byte) string {
	var head struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(data, &head) != nil {
		return ""
	}
	return head.Type
}

// checker is a message that can say what is wrong with its form.
type checker interface{ Check() error }

// decodeChecked decodes data into msg (refusing unknown fields) and checks its
// form when it can; the error is for the sender.
func decodeChecked(data []byte, msg any) error {
	if err := decodeMessage(data, msg); err != nil {
		return err
	}
	if c, ok := msg.(checker); ok {
		return c.Check()
	}
	return nil
}

func (w *wsConn) move(ctx context.Context, m *inbound) error {
	msg := protocol.MoveMessage{Type: m.Type, Move: m.Move, Action: m.Action, Cheque: m.Cheque, Cards: m.Cards, Seq: m.Seq}
	if err := msg.Check(); err != nil {
		return w.error(ctx, protocol.BadMessage, 0, "%s", err)
	}
	move, err := msg.Token()
	if err != nil {
		return w.error(ctx, protocol.IllegalMove, 0, "%s", err)
	}
	return w.answer(ctx, "move", w.s.hub.Play(ctx, w.id, w.token, move, *msg.Seq))
}

func (w *wsConn) preMove(ctx context.Context, m *inbound) error {
	return w.answer(ctx, "pre-move", w.s.hub.PreMove(ctx, w.id, w.token, m.Move))
}

func (w *wsConn) takeBack(ctx context.Context, m *inbound) error {
	if err := noMove(m); err != nil {
		return w.error(ctx, protocol.BadMessage, 0, "%s", err)
	}
	return w.answer(ctx, "take back", w.s.hub.TakeBack(ctx, w.id, w.token))
}

func (w *wsConn) leave(ctx context.Context, m *inbound) error {
	if err := noMove(m); err != nil {
		return w.error(ctx, protocol.BadMessage, 0, "%s", err)
	}
	return w.answer(ctx, "leave", w.s.hub.Leave(ctx, w.id, w.token))
}

func (w *wsConn) continueRound(ctx context.Context, m *inbound) error {
	if err := noMove(m); err != nil {
		return w.error(ctx, protocol.BadMessage, 0, "%s", err)
	}
	return w.answer(ctx, "continue", w.s.hub.Continue(ctx, w.id, w.token))
}

// noMove checks a "takeback", "leave" or "continue", which has the form
// of a pre-move without its move.
func noMove(m *inbound) error {
	if m.Move != "" {
		return fmt.Errorf("%q takes no \"move\"", m.Type)
	}
	return nil
}

func (w *wsConn) chat(ctx context.Context, m *inbound) error {
	msg := protocol.ChatSend{Type: m.Type, Phrase: m.Phrase, Text: m.Text}
	if err := msg.Check(); err != nil {
		return w.error(ctx, protocol.BadMessage, 0, "%s", err)
	}
	return w.answer(ctx, "chat", w.s.hub.Chat(ctx, w.id, table.ChatRequest{Token: w.token, Account: w.account, Name: w.name, Phrase: msg.Phrase, Text: msg.Text}))
}

func (w *wsConn) mute(ctx context.Context, m *inbound) error {
	msg := protocol.MuteMessage{Type: m.Type, Seat: m.Seat}
	if err := msg.Check(); err != nil {
		return w.error(ctx, protocol.BadMessage, 0, "%s", err)
	}
	return w.answer(ctx, msg.Type, w.s.hub.Mute(ctx, w.id, table.MuteRequest{Token: w.token, Account: w.account, Seat: *msg.Seat, On: msg.Type == protocol.TypeMute}))
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
