package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/coder/websocket"

	"github.com/razziagame/razzia/internal/protocol"
)

// Tournaments returns the server's tournaments: coming, running, and the
// latest finished.
func (c *Client) Tournaments(ctx context.Context) (protocol.TournamentList, error) {
	var resp protocol.TournamentList
	err := c.do(ctx, http.MethodGet, "/api/tournaments", "", nil, &resp)
	return resp, err
}

// Tournament returns tournament id as the signed-in account sees it.
func (c *Client) Tournament(ctx context.Context, id string) (protocol.Tournament, error) {
	var resp protocol.Tournament
	err := c.do(ctx, http.MethodGet, "/api/tournaments/"+url.PathEscape(id), "", nil, &resp)
	return resp, err
}

// GameTournament returns the tournament game id is a table of, nil when
// it is none.
func (c *Client) GameTournament(ctx context.Context, id string) (*protocol.TournamentSummary, error) {
	var resp protocol.GameTournament
	err := c.do(ctx, http.MethodGet, "/api/games/"+url.PathEscape(id)+"/tournament", "", nil, &resp)
	return resp.Tournament, err
}

// CreateTournament organises a tournament (signed in).
func (c *Client) CreateTournament(ctx context.Context, s protocol.TournamentSettings) (protocol.Tournament, error) {
	var resp protocol.Tournament
	err := c.do(ctx, http.MethodPost, "/api/tournaments", "", s, &resp)
	return resp, err
}

// JoinTournament enters the signed-in account in tournament id; password
// is a private one's.
func (c *Client) JoinTournament(ctx context.Context, id, password string) (protocol.Tournament, error) {
	var resp protocol.Tournament
	err := c.do(ctx, http.MethodPost, "/api/tournaments/"+url.PathEscape(id)+"/join", "", protocol.TournamentRequest{Password: password}, &resp)
	return resp, err
}

// TournamentAction is a player's action in tournament id:
// protocol.ActionWithdraw, ActionPause or ActionResume.
func (c *Client) TournamentAction(ctx context.Context, id, action string) (protocol.Tournament, error) {
	var resp protocol.Tournament
	err := c.do(ctx, http.MethodPost, "/api/tournaments/"+url.PathEscape(id)+"/"+url.PathEscape(action), "", struct{}{}, &resp)
	return resp, err
}

// Organise is the organiser's action in tournament id (protocol.ActionStart
// and the others); name names the player ActionRemove removes.
func (c *Client) Organise(ctx context.Context, id, action, name string) (protocol.Tournament, error) {
	var resp protocol.Tournament
	err := c.do(ctx, http.MethodPost, "/api/tournaments/"+url.PathEscape(id)+"/organise/"+url.PathEscape(action), "",
		protocol.TournamentRequest{Name: name}, &resp)
	return resp, err
}

// WatchTournament follows tournament id on its WebSocket: the channel
// receives the tournament at once and at every change, as the signed-in
// account sees it, and is closed when the connection ends (or ctx is
// done); the caller watches again to go on.
func (c *Client) WatchTournament(ctx context.Context, id string) (<-chan protocol.Tournament, error) {
	u := *c.base
	u.Scheme = map[string]string{"http": "ws", "https": "wss"}[u.Scheme]
	u.Path += "/api/tournaments/" + url.PathEscape(id) + "/ws"
	opts := &websocket.DialOptions{HTTPClient: c.HTTP, HTTPHeader: http.Header{}}
	c.addSession(opts.HTTPHeader)
	ws, err := dial(ctx, u, opts)
	if err != nil {
		return nil, err
	}
	out := make(chan protocol.Tournament, 1)
	go func() {
		defer close(out)
		defer ws.CloseNow()
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				return
			}
			var m protocol.TournamentMessage
			if json.Unmarshal(data, &m) != nil || m.Type != protocol.TypeTournament {
				continue
			}
			// Only the latest matters: a slow reader skips to it.
			select {
			case <-out:
			default:
			}
			out <- m.Tournament
		}
	}()
	return out, nil
}
