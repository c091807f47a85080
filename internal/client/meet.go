package client

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/coder/websocket"

	"github.com/razziagame/razzia/internal/protocol"
)

// Play now and challenges (docs/protocol.md, "Play now and challenges"):
// a guest is known to the server by a secret key of its own, sent as the
// guest cookie, which the client makes on first use; a signed-in client
// is its account.

// guestCookie is the cookie that names a guest to Play now.
const guestCookie = "razzia_guest"

// meetPath is the path of the requests of Play now and challenges.
func meetPath(kind, id, action string) string {
	p := "/api/" + kind
	if id != "" {
		p += "/" + url.PathEscape(id)
	}
	if action != "" {
		p += "/" + action
	}
	return p
}

// asGuest gives the client a guest key unless it has one or is signed
// in, so that its requests and its lobby WebSocket are one person's.
func (c *Client) asGuest() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.guest == "" && c.session == "" {
		c.guest = rand.Text()
	}
}

// Seeks returns the open Play-now requests and the client's own.
func (c *Client) Seeks(ctx context.Context) (protocol.SeeksAnswer, error) {
	c.asGuest()
	var resp protocol.SeeksAnswer
	err := c.do(ctx, http.MethodGet, meetPath("seeks", "", ""), "", nil, &resp)
	return resp, err
}

// Seek makes a Play-now request; the answer is the request as the server
// paired it at once, or open.
func (c *Client) Seek(ctx context.Context, req protocol.SeekRequest) (protocol.SeekInfo, error) {
	c.asGuest()
	var resp protocol.SeekAnswer
	err := c.do(ctx, http.MethodPost, meetPath("seeks", "", ""), "", req, &resp)
	return resp.Seek, err
}

// JoinSeek answers another's open request: a request with its settings,
// under the name (a guest's).
func (c *Client) JoinSeek(ctx context.Context, id, name string) (protocol.SeekInfo, error) {
	c.asGuest()
	var resp protocol.SeekAnswer
	err := c.do(ctx, http.MethodPost, meetPath("seeks", id, "join"), "", protocol.SeekJoinRequest{Name: name}, &resp)
	return resp.Seek, err
}

// CancelSeek cancels the client's open request.
func (c *Client) CancelSeek(ctx context.Context, id string) (protocol.SeekInfo, error) {
	var resp protocol.SeekAnswer
	err := c.do(ctx, http.MethodDelete, meetPath("seeks", id, ""), "", nil, &resp)
	return resp.Seek, err
}

// SeekSeat returns the seat of the client's paired request, with its
// token.
func (c *Client) SeekSeat(ctx context.Context, id string) (protocol.SeekSeatAnswer, error) {
	var resp protocol.SeekSeatAnswer
	err := c.do(ctx, http.MethodPost, meetPath("seeks", id, "seat"), "", nil, &resp)
	return resp, err
}

// Challenges returns the signed-in client's challenges.
func (c *Client) Challenges(ctx context.Context) ([]protocol.ChallengeInfo, error) {
	var resp protocol.ChallengesAnswer
	err := c.do(ctx, http.MethodGet, meetPath("challenges", "", ""), "", nil, &resp)
	return resp.Challenges, err
}

// Challenge challenges the people named to a table at the pace.
func (c *Client) Challenge(ctx context.Context, req protocol.ChallengeRequest) (protocol.ChallengeInfo, error) {
	var resp protocol.ChallengeAnswer
	err := c.do(ctx, http.MethodPost, meetPath("challenges", "", ""), "", req, &resp)
	return resp.Challenge, err
}

// CancelChallenge withdraws the client's open challenge.
func (c *Client) CancelChallenge(ctx context.Context, id string) (protocol.ChallengeInfo, error) {
	var resp protocol.ChallengeAnswer
	err := c.do(ctx, http.MethodDelete, meetPath("challenges", id, ""), "", nil, &resp)
	return resp.Challenge, err
}

// Answer accepts a challenge, or declines it with a reason
// (protocol.DeclineReasons).
func (c *Client) Answer(ctx context.Context, id string, accept bool, reason string) (protocol.ChallengeInfo, error) {
	var resp protocol.ChallengeAnswer
	err := c.do(ctx, http.MethodPost, meetPath("challenges", id, "answer"), "", protocol.AnswerRequest{Accept: accept, Reason: reason}, &resp)
	return resp.Challenge, err
}

// ChallengeSeat returns the client's seat at an accepted challenge's
// table, with its token.
func (c *Client) ChallengeSeat(ctx context.Context, id string) (protocol.SeekSeatAnswer, error) {
	var resp protocol.SeekSeatAnswer
	err := c.do(ctx, http.MethodPost, meetPath("challenges", id, "seat"), "", nil, &resp)
	return resp, err
}

// A MeetConn is the live socket of a lobby (GET /api/live?seeks=1):
// while it is open the client is online, and it hears what becomes of its
// requests and challenges, and every request as it changes.
type MeetConn struct {
	ws *websocket.Conn
}

// DialLobby opens the live socket as a lobby; name is the name a guest
// is listed under among the people online ("": unlisted).
func (c *Client) DialLobby(ctx context.Context, name string) (*MeetConn, error) {
	c.asGuest()
	u := *c.base
	u.Scheme = map[string]string{"http": "ws", "https": "wss"}[u.Scheme]
	u.Path += "/api/live"
	q := url.Values{"seeks": {"1"}}
	if name != "" {
		q.Set("name", name)
	}
	u.RawQuery = q.Encode()
	opts := &websocket.DialOptions{HTTPClient: c.HTTP, HTTPHeader: http.Header{}}
	c.addSession(opts.HTTPHeader)
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
	return &MeetConn{ws: ws}, nil
}

// Read returns the next message of Play now or challenges (seek,
// challenge, seeks, resync), skipping the live socket's others; an error
// ends the connection.
func (m *MeetConn) Read(ctx context.Context) (protocol.MeetMessage, error) {
	for {
		var msg protocol.MeetMessage
		_, data, err := m.ws.Read(ctx)
		if err != nil {
			return msg, err
		}
		if err := json.Unmarshal(data, &msg); err != nil {
			return msg, fmt.Errorf("a message from the server is not the JSON expected: %v", err)
		}
		switch msg.Type {
		case protocol.TypeSeek, protocol.TypeChallenge, protocol.TypeSeeks, protocol.TypeResync:
			return msg, nil
		}
	}
}

// Close closes the connection.
func (m *MeetConn) Close() error { return m.ws.Close(websocket.StatusNormalClosure, "bye") }

// An Online is one person online, as GET /api/online lists them.
type Online struct {
	Name     string `json:"name"`
	Guest    bool   `json:"guest"`
	Activity string `json:"activity"`
	Game     string `json:"game"`
	Rating   *struct {
		Display     int  `json:"display"`
		Provisional bool `json:"provisional"`
	} `json:"rating"`
	Finish *struct {
		Percent int `json:"percent"`
		Games   int `json:"games"`
	} `json:"finish"`
}

// OnlineList is the answer of GET /api/online.
type OnlineList struct {
	People  []Online `json:"people"`
	Online  int      `json:"online"`
	Playing int      `json:"playing"`
}

// Online returns who is online on the server; a server that does not
// tell is an *Error with code NotFound.
func (c *Client) Online(ctx context.Context) (OnlineList, error) {
	var resp OnlineList
	err := c.do(ctx, http.MethodGet, "/api/online", "", nil, &resp)
	return resp, err
}
