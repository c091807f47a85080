// Package client speaks the Razzia server protocol of docs/protocol.md:
// it creates and joins games over HTTP and plays them over the game's
// WebSocket, reconnecting when the connection drops. "razzia bot" and
// "razzia play --server" use it.
//
// A typical player:
//
//	c, _ := client.New("http://localhost:8080")
//	seat, token, err := c.Join(ctx, id, "Ann", -1)
//	s := c.Session(id, token)
//	defer s.Close()
//	for {
//		st, err := s.Next(ctx)
//		// an *Error is the server refusing a move; other errors end the session
//		if st.MyTurn() {
//			s.Move(ctx, choose(st.View), st.View.Moves)
//		}
//		if st.Over() { break }
//	}
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/protocol"
)

// A Client talks to one server. Its methods are safe for concurrent use.
type Client struct {
	base *url.URL
	// HTTP makes the requests; http.DefaultClient when nil.
	HTTP *http.Client
	// TokenInQuery sends the seat token on the WebSocket URL (?token=)
	// instead of in an Authorization header.
	TokenInQuery bool
	// Lang is the language events are told in (their Text), such as
	// "de"; empty for English: by the server in protocol version 1, by
	// the client in version 2, whose events come untold.
	Lang string
	// Brief decodes only the part of each state a player needs to move
	// (protocol.BriefMessage): State.View then holds only its seat, moves,
	// phase, toMove and legal, and State.Events is empty. A load generator
	// reads so, at a fraction of the cost of decoding whole states.
	Brief bool
	// Chat makes Read return the table's chat too: a "chat" message as a
	// State with only Chat set. Without it chat messages are skipped.
	Chat bool
	// Protocol is the newest version of the game's WebSocket protocol the
	// client asks for: 0 for the newest it speaks (protocol.Version2: a
	// whole state, then patches, which Read turns into whole States),
	// protocol.Version1 for a whole state after every change.
	Protocol int

	mu      sync.Mutex
	session string // the signed-in session's secret (SignIn)
	guest   string // a guest's secret key for Play now (meet.go)
}

// New returns a client of the server at the URL, such as
// "http://localhost:8080" (http or https; a path prefix is kept).
func New(server string) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(server))
	if err != nil {
		return nil, fmt.Errorf("server %q: %v", server, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("server %q: want an http:// or https:// URL with a host, such as http://localhost:8080", server)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawQuery, u.Fragment, u.RawPath = "", "", ""
	return &Client{base: u}, nil
}

// URL returns the server's URL.
func (c *Client) URL() string { return c.base.String() }

// ParseInvite reads an invite: a link such as
// "http://localhost:8080/g/k3x7q2m5ab", its path "/g/k3x7q2m5ab", or a bare
// game id. It returns the server of a full link ("" otherwise) and the id.
func ParseInvite(link string) (server, id string, err error) {
	link = strings.TrimSpace(link)
	path := link
	if strings.Contains(link, "://") {
		u, err := url.Parse(link)
		if err != nil || u.Host == "" {
			return "", "", fmt.Errorf("invite %q: not a link", link)
		}
		path = u.Path
		u.Path, u.RawPath, u.RawQuery, u.Fragment = "", "", "", ""
		server = u.String()
	}
	path = strings.TrimRight(path, "/")
	if i := strings.LastIndex(path, "/g/"); i >= 0 {
		if server != "" {
			server += path[:i] // a server under a path prefix
		}
		path = path[i+len("/g/"):]
	} else if server != "" || strings.Contains(path, "/") {
		return "", "", fmt.Errorf("invite %q: want a link to a table, such as http://host/g/k3x7q2m5ab, or a game id", link)
	}
	if !protocol.ValidID(path) {
		return "", "", fmt.Errorf("invite %q: %q is not a game id (%d characters of a-z and 2-7)", link, path, protocol.IDLen)
	}
	return server, path, nil
}

// A Table is a table to create.
type Table struct {
	// Seats has one entry per seat: "" for a seat open to a person, or a
	// server bot's level (easy, medium, hard).
	Seats []string
	// Pace is the id of a preset of GET /api/paces ("rapid", "day1",
	// ...; "" for the default).
	Pace string
	// Rated makes a rated table: only signed-in players take its seats.
	Rated bool
	// Name, if given, is the name the creator joins under next: the
	// server refuses the table for a name it would refuse the join.
	Name string
}

// Create creates a casual table at the default pace with one seat per
// entry of seats (see Table); CreateTable creates any table.
func (c *Client) Create(ctx context.Context, seats []string) (protocol.GameInfo, string, error) {
	return c.CreateTable(ctx, Table{Seats: seats})
}

// CreateTable creates the table t. It returns the table and the
// creator's token, which Remove asks for.
func (c *Client) CreateTable(ctx context.Context, t Table) (protocol.GameInfo, string, error) {
	req := protocol.CreateRequest{Seats: []protocol.SeatRequest{}, Pace: t.Pace, Rated: t.Rated, Name: t.Name}
	for _, s := range t.Seats {
		req.Seats = append(req.Seats, protocol.SeatRequest{Bot: s})
	}
	var resp protocol.CreateAnswer
	err := c.do(ctx, http.MethodPost, "/api/games", "", req, &resp)
	return resp.Game, resp.CreatorToken, err
}

// Remove frees seat, taken by a person, at a table that has not started;
// creatorToken is the one Create returned.
func (c *Client) Remove(ctx context.Context, id, creatorToken string, seat int) (protocol.GameInfo, error) {
	var resp protocol.GameAnswer
	err := c.do(ctx, http.MethodDelete, fmt.Sprintf("/api/games/%s/seats/%d", url.PathEscape(id), seat), creatorToken, nil, &resp)
	return resp.Game, err
}

// GiveUp frees seat, held by token, at a table that has not started:
// the seat is open for someone else and the token stops working. Once
// the game has started it is refused (protocol.AlreadyStarted).
func (c *Client) GiveUp(ctx context.Context, id, token string, seat int) (protocol.GameInfo, error) {
	return c.Remove(ctx, id, token, seat) // the same route: the server knows the seat's token
}

// SetLevel gives the bot of seat another level (easy, medium, hard...)
// at a table that has not started; creatorToken is the one Create
// returned. A rated table takes the levels rated on the server only.
func (c *Client) SetLevel(ctx context.Context, id, creatorToken string, seat int, level string) (protocol.GameInfo, error) {
	var resp protocol.GameAnswer
	path := fmt.Sprintf("/api/games/%s/seats/%d/level", url.PathEscape(id), seat)
	err := c.do(ctx, http.MethodPut, path, creatorToken, protocol.LevelRequest{Level: level}, &resp)
	return resp.Game, err
}

// Cancel closes a table that waits for players; creatorToken is the one
// Create returned.
func (c *Client) Cancel(ctx context.Context, id, creatorToken string) (protocol.GameInfo, error) {
	var resp protocol.GameAnswer
	err := c.do(ctx, http.MethodDelete, "/api/games/"+url.PathEscape(id), creatorToken, nil, &resp)
	return resp.Game, err
}

// Game returns a game's info and the seat token holds in it (-1 for none).
func (c *Client) Game(ctx context.Context, id, token string) (protocol.GameInfo, int, error) {
	var resp protocol.SeatAnswer
	if err := c.do(ctx, http.MethodGet, "/api/games/"+url.PathEscape(id), token, nil, &resp); err != nil {
		return protocol.GameInfo{}, -1, err
	}
	return resp.Game, resp.You, nil
}

// Join takes a seat of an open game under the name: the seat asked for, or
// the first open one when seat is negative. It returns the seat and its
// token, the only proof that the seat is the caller's: keep it.
func (c *Client) Join(ctx context.Context, id, name string, seat int) (int, string, error) {
	req := protocol.JoinRequest{Name: name}
	if seat >= 0 {
		req.Seat = &seat
	}
	var resp protocol.JoinAnswer
	if err := c.do(ctx, http.MethodPost, "/api/games/"+url.PathEscape(id)+"/join", "", req, &resp); err != nil {
		return -1, "", err
	}
	return resp.Seat, resp.Token, nil
}

// Record downloads a started game's record.
func (c *Client) Record(ctx context.Context, id string) (*razzia.Record, error) {
	var raw json.RawMessage
	if err := c.do(ctx, http.MethodGet, "/api/games/"+url.PathEscape(id)+"/record", "", nil, &raw); err != nil {
		return nil, err
	}
	return razzia.ReadRecord(bytes.NewReader(raw))
}

// List returns the games with the status ("" for all of them), most
// recently updated first.
func (c *Client) List(ctx context.Context, status protocol.Status) ([]protocol.GameInfo, error) {
	var resp protocol.ListAnswer
	err := c.do(ctx, http.MethodGet, "/api/games?status="+url.QueryEscape(string(status)), "", nil, &resp)
	return resp.Games, err
}

// Replay returns every step of a started game, its events told in the
// client's Lang.
func (c *Client) Replay(ctx context.Context, id string) (protocol.ReplayAnswer, error) {
	var resp protocol.ReplayAnswer
	err := c.do(ctx, http.MethodGet, "/api/games/"+url.PathEscape(id)+"/replay"+c.langQuery("?"), "", nil, &resp)
	return resp, err
}

// Upload uploads a record to view it; the answer is the archived game.
func (c *Client) Upload(ctx context.Context, rec *razzia.Record) (protocol.GameInfo, error) {
	var resp protocol.GameAnswer
	err := c.do(ctx, http.MethodPost, "/api/records", "", rec, &resp)
	return resp.Game, err
}

// langQuery returns the query parameter of the client's language after
// sep, or "".
func (c *Client) langQuery(sep string) string {
	if c.Lang == "" {
		return ""
	}
	return sep + url.Values{"lang": {c.Lang}}.Encode()
}

// do sends a request with a JSON body (unless nil) and decodes the JSON
// answer into out; an error answer is an *Error.
func (c *Client) do(ctx context.Context, method, path, token string, body, out any) error {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base.String()+path, r)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	c.addSession(req.Header)
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return fmt.Errorf("%s %s: %v", method, path, err)
	}
	if resp.StatusCode >= 300 {
		return httpError(resp, data)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: the server's answer is not the JSON expected: %v", method, path, err)
	}
	return nil
}

// httpError reads an error answer: the protocol's error object, or, from
// something that is not a Razzia server, the status.
func httpError(resp *http.Response, data []byte) error {
	var e protocol.ErrorBody
	if json.Unmarshal(data, &e) == nil && e.Error != nil && e.Error.Code != "" {
		return &Error{Code: e.Error.Code, Message: e.Error.Message, Status: resp.StatusCode,
			RetryAfter: time.Duration(e.Error.RetryAfter) * time.Second}
	}
	return fmt.Errorf("%s %s: the server answered %s", resp.Request.Method, resp.Request.URL.Path, resp.Status)
}
