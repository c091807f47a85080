package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/razziagame/razzia/internal/protocol"
)

// The session cookie the server signs browsers in with; a Client sends
// its Session in it.
const sessionCookie = protocol.SessionCookie

// Register makes an account that signs in with a password and signs the
// client in (Session).
func (c *Client) Register(ctx context.Context, name, password string) (protocol.AccountInfo, error) {
	return c.signIn(ctx, "/api/account", name, password)
}

// SignIn signs the client in with the account's name and password: from
// then on its requests, seats and WebSockets are the account's, and a
// Join sits under the account's name.
func (c *Client) SignIn(ctx context.Context, name, password string) (protocol.AccountInfo, error) {
	return c.signIn(ctx, "/api/session", name, password)
}

func (c *Client) signIn(ctx context.Context, path, name, password string) (protocol.AccountInfo, error) {
	var resp protocol.SessionAnswer
	if err := c.do(ctx, http.MethodPost, path, "", protocol.RegisterRequest{Name: name, Password: password}, &resp); err != nil {
		return protocol.AccountInfo{}, err
	}
	c.mu.Lock()
	c.session = resp.Token
	c.mu.Unlock()
	return resp.Account, nil
}

// SignOut ends the client's session.
func (c *Client) SignOut(ctx context.Context) error {
	var resp struct{}
	err := c.do(ctx, http.MethodDelete, "/api/session", "", nil, &resp)
	c.mu.Lock()
	c.session = ""
	c.mu.Unlock()
	return err
}

// Account returns the signed-in account.
func (c *Client) Account(ctx context.Context) (protocol.AccountInfo, error) {
	var resp protocol.AccountAnswer
	err := c.do(ctx, http.MethodGet, "/api/account", "", nil, &resp)
	return resp.Account, err
}

// MyGames returns the signed-in player's games, those where it is their
// turn first.
func (c *Client) MyGames(ctx context.Context) ([]protocol.MyGame, error) {
	var resp protocol.MyGamesAnswer
	err := c.do(ctx, http.MethodGet, "/api/account/games", "", nil, &resp)
	return resp.Games, err
}

// Profile returns the public profile of the player called name.
func (c *Client) Profile(ctx context.Context, name string) (protocol.Profile, error) {
	var resp protocol.ProfileAnswer
	err := c.do(ctx, http.MethodGet, "/api/players/"+url.PathEscape(name), "", nil, &resp)
	return resp.Profile, err
}

// Leaderboard returns the leaderboard.
func (c *Client) Leaderboard(ctx context.Context) (protocol.LeaderboardAnswer, error) {
	var resp protocol.LeaderboardAnswer
	err := c.do(ctx, http.MethodGet, "/api/leaderboard", "", nil, &resp)
	return resp, err
}

// addSession puts the client's session, if any, on the request's headers.
func (c *Client) addSession(h http.Header) {
	c.mu.Lock()
	s, g := c.session, c.guest
	c.mu.Unlock()
	if s != "" {
		h.Add("Cookie", (&http.Cookie{Name: sessionCookie, Value: s}).String())
	}
	if g != "" {
		h.Add("Cookie", (&http.Cookie{Name: guestCookie, Value: g}).String())
	}
}
