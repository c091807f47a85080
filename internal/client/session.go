package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
)

// maxState bounds a state message: the first one of a connection carries
// every event of the game, tens of kilobytes.
const maxState = 4 << 20

// A State is the server's "state" message: the game, the connection's
// seat, its view of the table and the events since the last message.
type State struct {
	Game protocol.GameInfo
	Seat int            // -1 for a spectator
	View *protocol.View // nil while the game is open
	// Events happened since the previous state of this connection, each
	// told in the client's Lang. The first state of a connection (First)
	// carries every event of the game: replace the log with them.
	Events []protocol.Event
	First  bool
	// Clock is the table's clocks, nil when untimed; TakeOvers every time
	// a bot played for a person; PreMove the seat's own decision ahead
	// and PreMoveDropped why it was not played.
	Clock          *protocol.ClockView
	TakeOvers      []protocol.TakeOver
	PreMove        string
	PreMoveDropped string
	// Offer is the rematch offered at the finished game, once one was
	// (the "rematchOffer" message: the game's last state again, with it).
	Offer *protocol.RematchOffer
	// Size is the message's length in bytes, as sent.
	Size int
	// Chat is a "chat" message (Client.Chat): the State holds nothing else.
	Chat *protocol.ChatMessage
}

// MyTurn reports whether the seat is to move now: then View.Legal lists
// its moves.
func (s *State) MyTurn() bool {
	return s.View != nil && s.Seat >= 0 && s.View.ToMove == s.Seat && len(s.View.Legal) > 0
}

// Over reports whether the game is over (or is an uploaded record).
func (s *State) Over() bool {
	return (s.View != nil && s.View.Phase == "over") || s.Game.Status.Over()
}

// A Conn is one WebSocket connection to a game.
type Conn struct {
	ws    *websocket.Conn
	first bool
	brief bool
	chat  bool   // return chat messages too (Client.Chat)
	last  *State // the last state read, which a rematch offer repeats
	buf   bytes.Buffer
	// patches is the state patches change (protocol version 2).
	patches *patches
	// cat tells the events of protocol version 2, which come without
	// their sentences, in the client's Lang.
	cat *i18n.Catalogue
}

// Dial connects to a game's WebSocket with a seat's token ("" to watch).
// An unknown game is an *Error with code NotFound.
func (c *Client) Dial(ctx context.Context, id, token string) (*Conn, error) {
	u := *c.base
	u.Scheme = map[string]string{"http": "ws", "https": "wss"}[u.Scheme]
	u.Path += "/api/games/" + url.PathEscape(id) + "/ws"
	opts := &websocket.DialOptions{HTTPClient: c.HTTP, HTTPHeader: http.Header{}}
	query := url.Values{}
	if c.Lang != "" {
		query.Set("lang", c.Lang)
	}
	query.Set("protocol", c.protocols())
	if token != "" {
		if c.TokenInQuery {
			query.Set("token", token)
		} else {
			opts.HTTPHeader.Set("Authorization", "Bearer "+token)
		}
	}
	c.addSession(opts.HTTPHeader)
	u.RawQuery = query.Encode()
	ws, err := dial(ctx, u, opts)
	if err != nil {
		return nil, err
	}
	cat, ok := i18n.Lookup(c.Lang)
	if !ok {
		cat = i18n.Default()
	}
	return &Conn{ws: ws, first: true, brief: c.Brief, chat: c.Chat, patches: &patches{}, cat: cat}, nil
}

// dial opens a WebSocket at u; a refused upgrade is the server's *Error.
func dial(ctx context.Context, u url.URL, opts *websocket.DialOptions) (*websocket.Conn, error) {
	ws, resp, err := websocket.Dial(ctx, u.String(), opts)
	if err != nil {
		if resp != nil && resp.StatusCode >= 300 && resp.Body != nil {
			var data [1024]byte
			n, _ := resp.Body.Read(data[:])
			if resp.Request == nil {
				resp.Request = &http.Request{Method: http.MethodGet, URL: &u}
			}
			return nil, httpError(resp, data[:n])
		}
		return nil, err
	}
	ws.SetReadLimit(maxState)
	return ws, nil
}

// Read returns the next state. A server's "error" message is returned as
// an *Error: the connection stays usable. Any other error means the
// connection is lost.
func (c *Conn) Read(ctx context.Context) (*State, error) {
	for {
		typ, err := c.next(ctx)
		if err != nil {
			return nil, err
		}
		if typ != websocket.MessageText {
			continue
		}
		data := c.buf.Bytes()
		if bytes.HasPrefix(data, patchPrefix) {
			m, err := c.patched(ctx, data)
			if err != nil {
				return nil, err
			}
			if m == nil {
				continue // the whole state is asked for
			}
			return c.state(m, len(data), false), nil
		}
		m, err := c.decode(data)
		if err != nil {
			return nil, fmt.Errorf("a message from the server is not the JSON expected: %v", err)
		}
		switch m.Type {
		case protocol.TypeState:
			// In version 2 a whole state replaces the state and the log.
			first := c.first || m.Version != 0
			if err := c.patches.whole(data, m.Version); err != nil {
				return nil, err
			}
			if m.Version != 0 {
				if err := c.expand(m, data); err != nil {
					return nil, fmt.Errorf("a message from the server is not the JSON expected: %v", err)
				}
				c.tell(m)
			}
			return c.state(m, len(data), first), nil

		case protocol.TypeRematchOffer:
			if c.last == nil || m.Offer == nil {
				continue
			}
			st := *c.last
			st.Events, st.First, st.Size, st.Offer = []protocol.Event{}, false, len(data), m.Offer
			c.last = &st
			return &st, nil
		case protocol.TypeError:
			return nil, &Error{Code: m.Code, Message: m.Message, RetryAfter: time.Duration(m.RetryAfter) * time.Second}
		case protocol.TypeChat:
			if c.chat {
				return &State{Chat: &protocol.ChatMessage{Type: m.Type, Lines: m.Lines, Muted: m.Muted}, Size: len(data)}, nil
			}
		}
		// A message of a kind this client does not know: skip it.
	}
}

// state returns the state message m (size bytes as sent).
func (c *Conn) state(m *protocol.Message, size int, first bool) *State {
	st := &State{Game: m.Game, Seat: m.Seat, View: m.View, Events: m.Events, First: first, Size: size,
		Clock: m.Clock, TakeOvers: m.TakeOvers, PreMove: m.PreMove, PreMoveDropped: m.PreMoveDropped}
	if st.Events == nil {
		st.Events = []protocol.Event{}
	}
	if st.Offer = st.Game.RematchOffer; c.last != nil && st.Offer == nil {
		st.Offer = c.last.Offer
	}
	c.first = false
	c.last = st
	return st
}

// expand puts back what a state of protocol version 2 (data, decoded as
// m) leaves out.
func (c *Conn) expand(m *protocol.Message, data []byte) error {
	if c.brief {
		protocol.ExpandBrief(m)
		return nil
	}
	return protocol.Expand(m, data)
}

// tell puts back what the events of a message of protocol version 2 leave
// out, and tells them in the client's language, as the server tells
// version 1's.
func (c *Conn) tell(m *protocol.Message) {
	protocol.ExpandEvents(m)
	players := make([]string, len(m.Game.Seats))
	for i, s := range m.Game.Seats {
		players[i] = s.Name
	}
	for i, e := range m.Events {
		if e.Text == "" {
			m.Events[i].Text = c.cat.Narrate(e.Event, players)
		}
	}
}

// decode decodes a message of the server, or its brief part.
func (c *Conn) decode(data []byte) (*protocol.Message, error) {
	if !c.brief {
		var m protocol.Message
		err := json.Unmarshal(data, &m)
		return &m, err
	}
	b, err := protocol.DecodeBrief(data)
	if err != nil {
		return nil, err
	}
	if b.Type == protocol.TypeError {
		// Rare and small: decoded whole, for its retryAfter.
		var m protocol.Message
		err := json.Unmarshal(data, &m)
		return &m, err
	}
	return &protocol.Message{Type: b.Type, Game: b.Game, Seat: b.Seat, View: b.View.View(), Version: b.Version, Code: b.Code, Message: b.Message}, nil
}

// Move sends a move, a token of View.Legal, with seq the View.Moves it was
// chosen on: if the game has moved on, the server refuses it as stale, so
// a move sent twice is never played twice. The answer is the next state,
// or an *Error from Read.
func (c *Conn) Move(ctx context.Context, move string, seq int) error {
	if seq < 0 {
		return fmt.Errorf("client: a move needs the seq it was chosen on, not %d", seq)
	}
	b, err := json.Marshal(protocol.NewMoveMessage(move, seq))
	if err != nil {
		return err
	}
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// Send sends a message of the protocol other than a move: a
// protocol.PreMoveMessage (premove, takeback, leave) or a
// protocol.RematchMessage. A refusal comes as an *Error from Read.
func (c *Conn) Send(ctx context.Context, msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// Close closes the connection.
func (c *Conn) Close() error { return c.ws.Close(websocket.StatusNormalClosure, "") }

// ErrNotConnected is returned by Session.Move between connections.
var ErrNotConnected = errors.New("client: not connected to the server")

// DefaultBackoff is the wait before reconnecting attempt n (from 0): about
// 1, 2, 4, 8, 15 and then 30 seconds, each ±20%, as the protocol suggests.
func DefaultBackoff(n int) time.Duration {
	steps := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 15 * time.Second, 30 * time.Second}
	d := steps[min(n, len(steps)-1)]
	return time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
}

// A Session is a seat's (or a spectator's) connection to a game that
// reconnects by itself. Next and Move may be called from different
// goroutines.
type Session struct {
	c     *Client
	id    string
	token string
	// Backoff returns the wait before reconnecting attempt n (from 0; a
	// message arriving starts the count afresh); DefaultBackoff when nil.
	Backoff func(n int) time.Duration
	// OnDrop, when set, hears of every lost connection or failed attempt
	// to connect, and how long the session waits before trying again.
	OnDrop func(err error, wait time.Duration)

	// DialTimeout bounds each attempt to connect; DefaultDialTimeout
	// when 0.
	DialTimeout time.Duration

	mu      sync.Mutex
	conn    *Conn
	attempt int
	closed  bool
}

// DefaultDialTimeout is how long an attempt to connect waits for the
// server's answer.
const DefaultDialTimeout = 15 * time.Second

func (s *Session) dialTimeout() time.Duration {
	if s.DialTimeout > 0 {
		return s.DialTimeout
	}
	return DefaultDialTimeout
}

// Session returns a session of the game for the token ("" to watch). It
// connects at the first Next.
func (c *Client) Session(id, token string) *Session {
	return &Session{c: c, id: id, token: token}
}

// Next returns the next state, connecting and reconnecting as needed. An
// *Error is the server refusing a move; the session goes on. It returns
// other errors only when it cannot go on: ctx is done, the session is
// closed, or the server refuses the connection for good (the game does
// not exist: NotFound).
func (s *Session) Next(ctx context.Context) (*State, error) {
	for {
		conn, err := s.connect(ctx)
		if err != nil {
			return nil, err
		}
		st, err := conn.Read(ctx)
		var e *Error
		switch {
		case err == nil:
			s.mu.Lock()
			s.attempt = 0
			s.mu.Unlock()
			return st, nil
		case errors.As(err, &e):
			return nil, err
		case ctx.Err() != nil:
			return nil, ctx.Err()
		}
		s.drop(conn)
		if websocket.CloseStatus(err) == websocket.StatusServiceRestart {
			// The node stops and has handed its games over: another
			// serves this one now, through the same address.
			if err := s.pause(ctx, fmt.Errorf("the server moves the game: %w", err), RestartBackoff()); err != nil {
				return nil, err
			}
			continue
		}
		if err := s.wait(ctx, fmt.Errorf("connection lost: %w", err)); err != nil {
			return nil, err
		}
	}
}

// RestartBackoff is the wait before reconnecting after the server closed
// the connection with status 1012 (service restart): a moment, spread
// so that the clients of a stopping node do not all come back at once.
func RestartBackoff() time.Duration {
	return time.Duration((0.05 + 0.45*rand.Float64()) * float64(time.Second))
}

// connect returns the current connection or dials a new one, waiting
// between failed attempts.
func (s *Session) connect(ctx context.Context) (*Conn, error) {
	for {
		s.mu.Lock()
		conn, closed := s.conn, s.closed
		s.mu.Unlock()
		if closed {
			return nil, errors.New("client: session closed")
		}
		if conn != nil {
			return conn, nil
		}
		// A server that takes the connection and never answers counts as
		// a failed attempt, not as a wait without end.
		dctx, cancel := context.WithTimeout(ctx, s.dialTimeout())
		conn, err := s.c.Dial(dctx, s.id, s.token)
		cancel()
		if err == nil {
			s.mu.Lock()
			if s.closed {
				s.mu.Unlock()
				conn.ws.CloseNow()
				continue
			}
			s.conn = conn
			s.mu.Unlock()
			return conn, nil
		}
		var e *Error
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.As(err, &e) && !e.Temporary() {
			return nil, err
		}
		if err := s.wait(ctx, fmt.Errorf("cannot connect: %w", err)); err != nil {
			return nil, err
		}
	}
}

// wait sleeps before the next attempt, telling OnDrop why.
func (s *Session) wait(ctx context.Context, why error) error {
	s.mu.Lock()
	n := s.attempt
	s.attempt++
	s.mu.Unlock()
	backoff := s.Backoff
	if backoff == nil {
		backoff = DefaultBackoff
	}
	return s.pause(ctx, why, backoff(n))
}

// pause sleeps d before the next attempt, telling OnDrop why.
func (s *Session) pause(ctx context.Context, why error, d time.Duration) error {
	if s.OnDrop != nil {
		s.OnDrop(why, d)
	}
	if !wait(ctx, d) {
		return ctx.Err()
	}
	return nil
}

// drop forgets a broken connection.
func (s *Session) drop(conn *Conn) {
	s.mu.Lock()
	if s.conn == conn {
		s.conn = nil
	}
	s.mu.Unlock()
	conn.ws.CloseNow()
}

// Drop closes the current connection as a failing network would: the
// next Next connects again, after Backoff.
func (s *Session) Drop() {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	if conn != nil {
		s.drop(conn)
	}
}

// Move sends a move on the current connection (see Conn.Move). Between
// connections it returns ErrNotConnected: wait for the next state, which
// tells whether the move arrived before the connection dropped.
func (s *Session) Move(ctx context.Context, move string, seq int) error {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	if conn == nil {
		return ErrNotConnected
	}
	err := conn.Move(ctx, move, seq)
	if err != nil {
		s.drop(conn) // a failed write has closed it: Next reconnects
	}
	return err
}

// Send sends a message on the current connection (see Conn.Send); between
// connections it returns ErrNotConnected.
func (s *Session) Send(ctx context.Context, msg any) error {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	if conn == nil {
		return ErrNotConnected
	}
	err := conn.Send(ctx, msg)
	if err != nil {
		s.drop(conn)
	}
	return err
}

// Chat sends a quick phrase (its id) or free text to the table's chat;
// a refusal comes back through Next, as an *Error.
func (s *Session) Chat(ctx context.Context, phrase, text string) error {
	return s.Send(ctx, protocol.ChatSend{Type: protocol.TypeChat, Phrase: phrase, Text: text})
}

// Rematch offers or accepts (accept) the rematch of the session's
// finished game, or declines it, over HTTP with the session's token. It
// returns the offer and, when accepting, the seat's token at the new
// game (see Follow).
func (s *Session) Rematch(ctx context.Context, accept bool) (protocol.RematchOffer, string, error) {
	var resp protocol.RematchAnswer
	err := s.c.do(ctx, http.MethodPost, "/api/games/"+url.PathEscape(s.id)+"/rematch", s.token, protocol.RematchMessage{Accept: &accept}, &resp)
	return resp.Offer, resp.Token, err
}

// Game returns the id of the session's game.
func (s *Session) Game() string { return s.id }

// Token returns the seat token the session plays with ("" to watch).
func (s *Session) Token() string { return s.token }

// Follow returns a session of game id, such as a rematch, for token (""
// keeps this session's token, as a guest's seat carries over).
func (s *Session) Follow(id, token string) *Session {
	if token == "" {
		token = s.token
	}
	return &Session{c: s.c, id: id, token: token, Backoff: s.Backoff, OnDrop: s.OnDrop, DialTimeout: s.DialTimeout}
}

// Close ends the session and its connection.
func (s *Session) Close() error {
	s.mu.Lock()
	conn := s.conn
	s.conn, s.closed = nil, true
	s.mu.Unlock()
	if conn != nil {
		return conn.Close()
	}
	return nil
}
