package httpapi_test

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/table"
)

// The attacks on the whole server, with the limits a server
// has by default unless a test names its own.

// limited is a server with the default limits but those given.
func limited(t *testing.T, api httpapi.Options, hub table.Limits) *env {
	t.Helper()
	srv := servertest.New(t, servertest.Options{API: api, Hub: table.Options{Limits: hub}, Limits: true, Page: true})
	return &env{Server: srv, t: t, ctx: servertest.Context(t)}
}

// post answers the status and the error code, if any.
func (e *env) post(path, body string, header ...string) (*http.Response, protocol.Code) {
	e.t.Helper()
	resp, v := e.do("POST", path, body, header...)
	if obj, ok := v["error"].(map[string]any); ok {
		return resp, protocol.Code(obj["code"].(string))
	}
	return resp, ""
}

const twoOpen = `{"seats":[{"bot":""},{"bot":""}]}`

// One client creating tables without end: the first CreateBurst are
// created, then rate_limited with a retry time; another address is not
// held back. (Before: 18,096 open games in 3 s, each with a goroutine.)
func TestCreateFlood(t *testing.T) {
	e := limited(t, httpapi.Options{}, table.Limits{})
	created, limited := 0, 0
	for range 50 {
		resp, code := e.post("/api/games", twoOpen)
		switch {
		case resp.StatusCode == http.StatusCreated:
			created++
		case code == protocol.RateLimited:
			limited++
			if resp.Header.Get("Retry-After") == "" {
				t.Fatal("rate_limited without Retry-After")
			}
		default:
			t.Fatalf("%d %s", resp.StatusCode, code)
		}
	}
	if want := httpapi.DefaultOptions().CreateBurst; created != want || limited != 50-want {
		t.Errorf("created %d, refused %d; want %d created", created, limited, want)
	}
	if n := len(mustList(t, e, "open")); n != created {
		t.Errorf("%d open tables, want %d: a refused one was made", n, created)
	}
	// An uploaded record is a game stored too: the same limit.
	if resp, code := e.post("/api/records", `{"format":"razzia-record/1","players":["A","B"],"moves":[]}`); code != protocol.RateLimited {
		t.Errorf("an upload past the limit: %d %s", resp.StatusCode, code)
	}
	t.Logf("figure: one client, 50 requests: %d tables created, %d refused", created, limited)
}

// Past the rate, the tables a client holds are capped: rate allows, the
// cap refuses with too_many_games.
func TestTablesPerClient(t *testing.T) {
	e := limited(t, httpapi.Options{CreateRate: 1e6, CreateBurst: 1 << 20}, table.Limits{MaxPerClient: 3})
	for range 3 {
		if resp, code := e.post("/api/games", twoOpen); resp.StatusCode != http.StatusCreated {
			t.Fatalf("%d %s", resp.StatusCode, code)
		}
	}
	if resp, code := e.post("/api/games", twoOpen); resp.StatusCode != http.StatusTooManyRequests || code != protocol.TooManyGames {
		t.Fatalf("the fourth table: %d %s, want 429 too_many_games", resp.StatusCode, code)
	}
}

func mustList(t *testing.T, e *env, status string) []any {
	t.Helper()
	_, v := e.do("GET", "/api/games?status="+status, "")
	return v["games"].([]any)
}

// One client taking every open seat: JoinBurst seats, then rate_limited.
// The creator removes a squatter: their token stops working and the seat
// is open again; only the creator's token may do it. (Before: 130 seats
// in 18 ms.)
func TestSeatSquatting(t *testing.T) {
	e := limited(t, httpapi.Options{JoinRate: 1e-6, JoinBurst: 10, CreateRate: 1e6, CreateBurst: 1 << 20}, table.Limits{MaxPerClient: 1 << 20})
	var ids []string
	for range 26 {
		ids = append(ids, e.create("", "", "", "", ""))
	}
	taken := 0
	for i := range 130 {
		resp, v := e.do("POST", "/api/games/"+ids[i/5]+"/join", fmt.Sprintf(`{"name":"Squatter %c"}`, 'a'+i%5))
		if resp.StatusCode == http.StatusOK {
			taken++
			continue
		}
		wantError(t, resp, v, http.StatusTooManyRequests, "rate_limited")
	}
	if taken != 10 {
		t.Errorf("one client took %d seats, want 10", taken)
	}
	t.Logf("figure: one client, 130 joins: %d seats taken", taken)

	// A squatter at a new table, removed by its creator.
	resp, v := e.do("POST", "/api/games", `{"seats":[{"bot":""},{"bot":""},{"bot":"easy"}]}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %v", resp.StatusCode, v)
	}
	id := v["game"].(map[string]any)["id"].(string)
	creator := v["creatorToken"].(string)
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "razzia_creator_"+id {
			cookie = c
		}
	}
	if cookie == nil || cookie.Value != creator || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		t.Fatalf("the creator's cookie: %+v", cookie)
	}
	// This address is out of joins: the squatter joins in the Hub.
	seat, tok, err := e.Hub.Join(e.ctx, id, 0, table.Person{Name: "Mallory"})
	if err != nil || seat != 0 {
		t.Fatal(seat, err)
	}
	del := "/api/games/" + id + "/seats/0"
	if r, v := e.do("DELETE", del, ""); r.StatusCode != http.StatusForbidden {
		t.Fatalf("without the creator's token: %d %v", r.StatusCode, v)
	}
	if r, v := e.do("DELETE", "/api/games/"+id+"/seats/1", "", "Authorization", "Bearer "+tok); r.StatusCode != http.StatusForbidden || v["error"].(map[string]any)["code"] != "not_creator" {
		t.Fatalf("with the squatter's own token, another seat: %d %v", r.StatusCode, v)
	}
	if r, v := e.do("DELETE", "/api/games/"+id+"/seats/2", "", "Cookie", cookie.Name+"="+cookie.Value); r.StatusCode != http.StatusBadRequest {
		t.Fatalf("removing a bot: %d %v", r.StatusCode, v)
	}
	r, v := e.do("DELETE", del, "", "Cookie", cookie.Name+"="+cookie.Value)
	if r.StatusCode != http.StatusOK || !v["game"].(map[string]any)["seats"].([]any)[0].(map[string]any)["open"].(bool) {
		t.Fatalf("the creator removes: %d %v", r.StatusCode, v)
	}
	if _, v := e.do("GET", "/api/games/"+id, "", "Authorization", "Bearer "+tok); v["you"] != -1.0 {
		t.Errorf("the removed token still holds seat %v", v["you"])
	}
	if _, v := e.do("GET", "/api/games/"+id, "", "Cookie", cookie.Name+"="+cookie.Value); v["creator"] != true {
		t.Errorf("the creator is not told so: %v", v)
	}
}

// Too many WebSockets from one address, or spectators of one game: the
// connection is told too_many_connections in a message a browser can
// read, then closed with status 1013. (Before: 200 of 200 accepted.)
func TestConnectionLimits(t *testing.T) {
	e := limited(t, httpapi.Options{MaxConns: 3}, table.Limits{MaxSpectators: 2})
	id := e.create("", "easy")
	refused := func(c *websocket.Conn) {
		t.Helper()
		_, data, err := c.Read(e.ctx)
		if err != nil || !strings.Contains(string(data), `"too_many_connections"`) {
			t.Fatalf("first message %s, %v; want the error too_many_connections", data, err)
		}
		if _, _, err := c.Read(e.ctx); websocket.CloseStatus(err) != websocket.StatusTryAgainLater {
			t.Fatalf("then %v, want close status 1013", err)
		}
	}
	a, b := e.dial(id), e.dial(id)
	a.read()
	b.read()
	c, _, err := e.dialErr(id) // the third spectator of the game
	if err != nil {
		t.Fatal(err)
	}
	refused(c)
	_, tok := e.join(id, "Ann")
	p := e.dial(id, "Authorization", "Bearer "+tok) // a player: the third connection of the address
	p.read()
	d, _, err := e.dialErr(id) // the fourth of the address
	if err != nil {
		t.Fatal(err)
	}
	refused(d)
}

// 200 connections of one seat sending moves: each seat's moves are
// limited over all its connections, and what is refused changes
// nothing. (Before: 2,020 moves a second reached the game.)
func TestSeatMovesAcrossConnections(t *testing.T) {
	e := limited(t, httpapi.Options{MessageRate: 1e6, MessageBurst: 1 << 20, MaxConns: 1 << 20}, table.Limits{SeatMoveRate: 1e-6, SeatMoveBurst: 5})
	id := e.create("", "")
	_, ann := e.join(id, "Ann")
	e.join(id, "Bob")
	var conns []*client
	for range 20 {
		c := e.dial(id, "Authorization", "Bearer "+ann)
		c.read()
		conns = append(conns, c)
	}
	reached, refused := 0, 0
	for _, c := range conns {
		for range 3 {
			c.send(moveMessage("draw", 99)) // stale: if it reaches the game
			switch m := c.read(); m.Code {
			case protocol.Stale:
				reached++
			case protocol.RateLimited:
				refused++
				if m.RetryAfter <= 0 {
					t.Fatalf("rate_limited without retryAfter: %s", m.raw)
				}
			default:
				t.Fatalf("unexpected %s", m.raw)
			}
		}
	}
	if reached != 5 || refused != 55 {
		t.Errorf("20 connections × 3 moves: %d reached the game, %d refused; want 5 and 55", reached, refused)
	}
	if info, _, _ := e.Hub.Game(e.ctx, id, ""); info.Moves != 0 {
		t.Errorf("refused moves changed the game: %d moves", info.Moves)
	}
	t.Logf("figure: 20 connections of one seat, 60 moves: %d reached the game", reached)
}

// A request body trickled byte by byte is cut off at ReadTimeout, and so
// are headers. (Before: still open after 60 s at 1 byte per 5 s.)
func TestSlowClient(t *testing.T) {
	e := limited(t, httpapi.Options{ReadTimeout: 300 * time.Millisecond}, table.Limits{})
	for _, c := range []struct{ name, head string }{
		{"body", "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"},
		{"headers", "GET /api/games HTTP/1.1\r\nHost: x\r\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", e.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			start := time.Now()
			if _, err := io.WriteString(conn, c.head); err != nil {
				t.Fatal(err)
			}
			// Trickle a byte each 50 ms until the server gives up: it
			// answers (408 or an error) or closes; 5 s would be a failure.
			got := make(chan error, 1)
			go func() {
				_, err := bufio.NewReader(conn).ReadByte()
				got <- err
			}()
			tick := time.NewTicker(50 * time.Millisecond)
			defer tick.Stop()
			deadline := time.After(5 * time.Second)
			for {
				select {
				case <-got:
					if d := time.Since(start); d > 2*time.Second {
						t.Fatalf("cut off after %v", d)
					}
					t.Logf("figure: trickled %s cut off after %v", c.name, time.Since(start).Round(10*time.Millisecond))
					return
				case <-tick.C:
					conn.Write([]byte(" "))
				case <-deadline:
					t.Fatal("the server still waits after 5 s")
				}
			}
		})
	}
}

// Answers are compressed as the client accepts: the API, the page's
// assets; not a WebSocket upgrade, not without Accept-Encoding.
func TestCompression(t *testing.T) {
	e := limited(t, httpapi.Options{CreateRate: 1e6, CreateBurst: 1 << 20}, table.Limits{MaxPerClient: 1 << 20, MaxOpen: 1 << 20})
	for range 100 {
		e.create("", "easy")
	}
	get := func(path, accept string) (*http.Response, []byte) {
		req, _ := http.NewRequestWithContext(e.ctx, "GET", e.URL+path, nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		resp, err := http.DefaultTransport.RoundTrip(req) // no transparent decompression
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	for _, path := range []string{"/api/games", "/static/js/render.js"} {
		plain, body := get(path, "")
		if plain.Header.Get("Content-Encoding") != "" {
			t.Errorf("%s compressed for a client that did not ask", path)
		}
		resp, zipped := get(path, "gzip")
		if resp.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(resp.Header.Get("Vary"), "Accept-Encoding") {
			t.Fatalf("%s: Content-Encoding %q, Vary %q", path, resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"))
		}
		zr, err := gzip.NewReader(strings.NewReader(string(zipped)))
		if err != nil {
			t.Fatal(err)
		}
		unzipped, _ := io.ReadAll(zr)
		if string(unzipped) != string(body) {
			t.Errorf("%s: the gzip body is not the plain one", path)
		}
		t.Logf("figure: %s %d bytes, gzip %d", path, len(body), len(zipped))
	}
	// Content compressed already is sent as it is.
	for ct, want := range map[string]bool{
		"application/json; charset=utf-8": true, "text/javascript; charset=utf-8": true, "text/css": true,
		"image/svg+xml": true, "image/png": false, "image/jpeg": false, "image/webp": false,
		"font/woff2": false, "application/zip": false, "application/gzip": false,
	} {
		if got := httpapi.Compressible(ct); got != want {
			t.Errorf("compressible(%q) = %v, want %v", ct, got, want)
		}
	}
	// The WebSocket is upgraded as before, with compression asked for.
	c := e.dial(e.create("", "easy"), "Accept-Encoding", "gzip")
	c.read()
}

// A client that stops answering pings is cut off; one that answers but
// says nothing is closed as idle. (Before: still open after 5 s, no ping.)
func TestDeadAndIdleWebSockets(t *testing.T) {
	e := limited(t, httpapi.Options{PingInterval: 20 * time.Millisecond, PongTimeout: 20 * time.Millisecond, IdleTimeout: 200 * time.Millisecond}, table.Limits{})
	id := e.create("", "easy")
	t.Run("dead", func(t *testing.T) {
		var raw net.Conn
		hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, n, a string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, n, a)
			raw = c
			return c, err
		}}}
		url := "ws" + strings.TrimPrefix(e.URL, "http") + "/api/games/" + id + "/ws"
		c, _, err := websocket.Dial(e.ctx, url, &websocket.DialOptions{HTTPClient: hc})
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseNow()
		// Never read through the WebSocket again, so pings go unanswered;
		// read the raw bytes until the server closes.
		raw.SetReadDeadline(time.Now().Add(5 * time.Second))
		start := time.Now()
		if _, err := io.Copy(io.Discard, raw); err != nil {
			t.Fatalf("the server still holds a client that answers no ping: %v", err)
		}
		t.Logf("figure: a dead client cut off after %v", time.Since(start).Round(10*time.Millisecond))
	})
	t.Run("idle", func(t *testing.T) {
		c := e.dial(id)
		c.read()
		_, _, err := c.c.Read(e.ctx) // answers pings while it waits
		var ce websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.StatusNormalClosure || ce.Reason != "idle" {
			t.Fatalf("an idle connection: %v, want closed as idle", err)
		}
	})
	t.Run("pinging", func(t *testing.T) {
		// The page's pings are answered at once, yet keep nothing open.
		// The server waits long for the pongs of its own pings here: this
		// client reads only after each of its pings.
		e := limited(t, httpapi.Options{PingInterval: 20 * time.Millisecond, PongTimeout: time.Second, IdleTimeout: 200 * time.Millisecond}, table.Limits{})
		id := e.create("", "easy")
		c := e.dial(id)
		c.read()
		start := time.Now()
		pongs := 0
		for {
			if err := c.c.Write(e.ctx, websocket.MessageText, []byte(`{"type":"ping"}`)); err != nil {
				break
			}
			_, data, err := c.c.Read(e.ctx)
			var ce websocket.CloseError
			if errors.As(err, &ce) && ce.Reason != "idle" {
				t.Fatalf("a pinging connection closed with %v, want idle", err)
			}
			if err != nil {
				// Closed as idle; the close may also race the client's
				// answer to a ping and show as a broken pipe.
				if time.Since(start) < 200*time.Millisecond {
					t.Fatalf("closed after %v, before the idle timeout: %v", time.Since(start), err)
				}
				break
			}
			if string(data) != `{"type":"pong"}` {
				t.Fatalf("a ping answered %s, want a pong", data)
			}
			pongs++
			if time.Since(start) > 5*time.Second {
				t.Fatalf("pings kept an idle connection open for 5 s (%d pongs)", pongs)
			}
			time.Sleep(110 * time.Millisecond) // under the 10 messages a second allowed; a pace, not a synchronisation
		}
		if pongs == 0 {
			t.Errorf("no pong came")
		}
	})
}

// Behind a reverse proxy: X-Forwarded-For names the client only when the
// proxy is trusted, and X-Forwarded-Proto: https makes the cookies
// Secure. From anyone else the headers change nothing: spoofing them
// wins no more tables and no Secure cookie.
func TestTrustedProxies(t *testing.T) {
	spoof := func(i int) []string {
		return []string{"X-Forwarded-For", fmt.Sprintf("203.0.113.%d", i), "X-Forwarded-Proto", "https"}
	}
	t.Run("untrusted", func(t *testing.T) {
		e := limited(t, httpapi.Options{CreateBurst: 2, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}, table.Limits{})
		for i := range 3 {
			resp, code := e.post("/api/games", twoOpen, spoof(i)...)
			if i < 2 {
				for _, c := range resp.Cookies() {
					if c.Secure {
						t.Errorf("a spoofed X-Forwarded-Proto made the cookie Secure")
					}
				}
				continue
			}
			if code != protocol.RateLimited {
				t.Fatalf("spoofed addresses won a third table: %d %s", resp.StatusCode, code)
			}
		}
	})
	t.Run("trusted", func(t *testing.T) {
		proxies, err := httpapi.ParseProxies("127.0.0.1, ::1")
		if err != nil {
			t.Fatal(err)
		}
		e := limited(t, httpapi.Options{CreateBurst: 2, TrustedProxies: proxies}, table.Limits{})
		for i := range 3 { // three clients behind the proxy
			resp, code := e.post("/api/games", twoOpen, spoof(i)...)
			if resp.StatusCode != http.StatusCreated {
				t.Fatalf("client %d behind the proxy: %d %s", i, resp.StatusCode, code)
			}
			if c := resp.Cookies(); len(c) != 1 || !c[0].Secure {
				t.Errorf("behind a TLS proxy the cookie is %+v, want Secure", c)
			}
		}
		// The client, not the proxy, is limited; a hop the client wrote
		// itself, left of the client's address, changes nothing.
		for range 2 {
			e.post("/api/games", twoOpen, "X-Forwarded-For", "203.0.113.9")
		}
		if resp, code := e.post("/api/games", twoOpen, "X-Forwarded-For", "198.51.100.1, 203.0.113.9"); code != protocol.RateLimited {
			t.Fatalf("a forged hop won a table: %d %s", resp.StatusCode, code)
		}
	})
	if _, err := httpapi.ParseProxies("10.0.0.0/8,not-an-address"); err == nil {
		t.Error("ParseProxies accepted a bad address")
	}
}

// Names that hide, reorder or impersonate are refused, and so is a second
// player of the same name at a table, by its key.
func TestNames(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	id := e.create("", "", "", "hard")
	for _, n := range []string{"Bot 2 (hard)", "\u202eevil", "A\u200bnn", "\u3164"} {
		resp, v := e.do("POST", "/api/games/"+id+"/join", fmt.Sprintf(`{"name":%q}`, n))
		wantError(t, resp, v, http.StatusBadRequest, "bad_name")
	}
	e.join(id, "Ann")
	for _, n := range []string{"Ann", "ANN", "Ａｎｎ"} {
		resp, v := e.do("POST", "/api/games/"+id+"/join", fmt.Sprintf(`{"name":%q}`, n))
		wantError(t, resp, v, http.StatusConflict, "name_taken")
	}
}

// An open table that waited too long: watchers see it expire and are
// told table_expired; later requests get 410 table_expired, not 404.
func TestExpiredTable(t *testing.T) {
	e := limited(t, httpapi.Options{}, table.Limits{OpenTTL: 100 * time.Millisecond})
	id := e.create("", "easy")
	c := e.dial(id)
	for {
		m := c.read()
		if m.Type == "error" {
			if m.Code != protocol.TableExpired {
				t.Fatalf("error %s", m.raw)
			}
			break
		}
		if m.Game.Status == protocol.StatusExpired {
			continue
		}
	}
	if _, _, err := c.c.Read(e.ctx); websocket.CloseStatus(err) != websocket.StatusNormalClosure {
		t.Errorf("after table_expired: %v", err)
	}
	for _, req := range [][2]string{{"GET", "/api/games/" + id}, {"POST", "/api/games/" + id + "/join"}, {"GET", "/api/games/" + id + "/ws"}} {
		resp, v := e.do(req[0], req[1], `{"name":"Ann"}`)
		wantError(t, resp, v, http.StatusGone, "table_expired")
	}
}
