package httpapi_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
)

// env is a server in the test (random bots, no delay) with helpers that
// speak raw HTTP and WebSocket, to test the wire itself.
type env struct {
	*servertest.Server
	t   *testing.T
	ctx context.Context
}

func newEnv(t *testing.T, opts httpapi.Options) *env {
	t.Helper()
	if opts.MessageRate == 0 {
		opts.MessageRate, opts.MessageBurst = 10, 20 // the server's defaults
	}
	srv := servertest.New(t, servertest.Options{API: opts, Page: true})
	return &env{Server: srv, t: t, ctx: servertest.Context(t)}
}

// do sends a request and decodes the JSON answer, if any.
func (e *env) do(method, path, body string, header ...string) (*http.Response, map[string]any) {
	e.t.Helper()
	req, err := http.NewRequestWithContext(e.ctx, method, e.URL+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var v map[string]any
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(data, &v); err != nil {
			e.t.Fatalf("%s %s: bad JSON %q: %v", method, path, data, err)
		}
	}
	return resp, v
}

// wantError checks an error answer's status and code.
func wantError(t *testing.T, resp *http.Response, v map[string]any, status int, code string) map[string]any {
	t.Helper()
	obj, _ := v["error"].(map[string]any)
	if resp.StatusCode != status || obj == nil || obj["code"] != code || obj["message"] == "" {
		t.Fatalf("got %d %v, want %d with code %q", resp.StatusCode, v, status, code)
	}
	return obj
}

// create makes a table and returns its id.
func (e *env) create(seats ...string) string {
	e.t.Helper()
	return e.Create(seats...).ID
}

// join takes a seat and returns it with its token.
func (e *env) join(id, name string) (int, string) {
	e.t.Helper()
	return e.Join(id, name)
}

// A client is a WebSocket connection in a test. In protocol version 2
// it keeps the state the patches change (patch_test.go).
type client struct {
	t       *testing.T
	e       *env
	c       *websocket.Conn
	doc     []byte
	version int64
}

func (e *env) dial(id string, header ...string) *client {
	e.t.Helper()
	c, resp, err := e.dialErr(id, header...)
	if err != nil {
		e.t.Fatalf("dial: %v (%v)", err, resp)
	}
	e.t.Cleanup(func() { c.CloseNow() })
	return &client{t: e.t, e: e, c: c}
}

// dialErr dials the game's WebSocket; id may end in a query.
func (e *env) dialErr(id string, header ...string) (*websocket.Conn, *http.Response, error) {
	id, query, _ := strings.Cut(id, "?")
	if query != "" {
		query = "?" + query
	}
	h := http.Header{}
	for i := 0; i+1 < len(header); i += 2 {
		h.Set(header[i], header[i+1])
	}
	url := "ws" + strings.TrimPrefix(e.URL, "http") + "/api/games/" + id + "/ws" + query
	return websocket.Dial(e.ctx, url, &websocket.DialOptions{HTTPHeader: h})
}

// message is any server message, with its bytes.
type message struct {
	protocol.Message
	raw []byte
}

func (c *client) read() message {
	c.t.Helper()
	_, data, err := c.c.Read(c.e.ctx)
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	m := message{raw: data}
	if bytes.HasPrefix(data, []byte(`{"type":"patch"`)) {
		m.Message = c.patched(data)
		return m
	}
	if err := json.Unmarshal(data, &m.Message); err != nil {
		c.t.Fatal(err)
	}
	c.keep(data, m.Version)
	if m.Type == protocol.TypeState && m.Version != 0 {
		if err := protocol.Expand(&m.Message, data); err != nil {
			c.t.Fatal(err)
		}
	}
	return m
}

func (c *client) send(text string) {
	c.t.Helper()
	if err := c.c.Write(c.e.ctx, websocket.MessageText, []byte(text)); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// wantError reads until an error message and checks its code.
func (c *client) wantError(code protocol.Code) message {
	c.t.Helper()
	for {
		m := c.read()
		if m.Type == "error" {
			if m.Code != code || m.Message.Message == "" {
				c.t.Fatalf("got error %q %q, want code %q", m.Code, m.Message.Message, code)
			}
			return m
		}
	}
}

// moveMessage returns a move message.
func moveMessage(move string, seq int) string {
	b, _ := json.Marshal(protocol.NewMoveMessage(move, seq))
	return string(b)
}

// TestFullGame plays a game between two bots and a scripted client over
// HTTP and the WebSocket, then checks the downloaded record.
func TestFullGame(t *testing.T) {
	e := newEnv(t, httpapi.Options{MessageRate: 1e6}) // the bots reply at once
	id := e.create("easy", "", "hard")
	resp, v := e.do("POST", "/api/games/"+id+"/join", `{"name":"Ann","seat":1}`)
	if resp.StatusCode != 200 || v["seat"] != 1.0 {
		t.Fatalf("join: %d %v", resp.StatusCode, v)
	}
	token := v["token"].(string)
	cookies := resp.Cookies()
	if len(cookies) != 1 {
		t.Fatalf("cookies %v", cookies)
	}
	ck := cookies[0]
	if ck.Name != "razzia_"+id || ck.Value != token || ck.Path != "/" || !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.Secure {
		t.Errorf("cookie %+v", ck)
	}

	c := e.dial(id, "Cookie", ck.Name+"="+ck.Value)
	events := 0
	var last message
	for {
		m := c.read()
		if m.Type != "state" {
			t.Fatalf("unexpected %s", m.raw)
		}
		if m.Seat != 1 || m.View == nil {
			t.Fatalf("state for seat %d: %s", m.Seat, m.raw)
		}
		events += len(m.Events)
		last = m
		if m.View.Phase == "over" {
			break
		}
		if m.View.ToMove == 1 {
			if len(m.View.Legal) == 0 {
				t.Fatalf("to move without legal moves: %s", m.raw)
			}
			c.send(moveMessage(m.View.Legal[0], m.View.Moves))
		} else if len(m.View.Legal) != 0 {
			t.Fatalf("legal moves when not to move: %s", m.raw)
		}
	}
	if last.Game.Status != protocol.StatusFinished || len(last.Game.Winners) == 0 {
		t.Errorf("final game %+v", last.Game)
	}

	resp, err := http.Get(e.URL + "/api/games/" + id + "/record")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if cd := resp.Header.Get("Content-Disposition"); cd != `attachment; filename="razzia-`+id+`.json"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	rec, err := razzia.ReadRecord(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := e.Store.Game(e.ctx, id)
	if strings.Join(rec.Moves, "|") != strings.Join(stored.Moves, "|") || len(rec.Moves) != last.View.Moves {
		t.Errorf("the record's %d moves differ from the %d stored", len(rec.Moves), len(stored.Moves))
	}
	g, err := rec.Game()
	if err != nil {
		t.Fatal(err)
	}
	st := g.State()
	if !st.Over() || !slices.Equal(st.Winners(), last.View.Winners) {
		t.Errorf("replayed winners %v, the game's %v", st.Winners(), last.View.Winners)
	}
	if events != len(g.Events()) {
		t.Errorf("the client received %d events, the game has %d", events, len(g.Events()))
	}
	// The game is over: moves get game_over, and the connection stays.
	c.send(moveMessage("pass", last.View.Moves))
	c.wantError("game_over")
}

// twoPlayers starts a game between Ann and Bob and returns the tokens of
// the seat to move and of the other, with their connections.
func twoPlayers(t *testing.T, e *env) (id string, mover, other string, cm, co *client) {
	id = e.create("", "")
	s0, t0 := e.join(id, "Ann")
	_, t1 := e.join(id, "Bob")
	c0 := e.dial(id, "Authorization", "Bearer "+t0)
	m := c0.read()
	if m.Seat != s0 || m.View == nil {
		t.Fatalf("first state %s", m.raw)
	}
	c1 := e.dial(id, "Authorization", "Bearer "+t1)
	c1.read()
	if m.View.ToMove == s0 {
		return id, t0, t1, c0, c1
	}
	return id, t1, t0, c1, c0
}

func TestMoveRejections(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	id, _, _, mover, other := twoPlayers(t, e)
	spectator := e.dial(id)
	if m := spectator.read(); m.Seat != -1 {
		t.Fatalf("spectator seat %d", m.Seat)
	}
	// A seat's token at another table holds no seat here.
	elsewhere := e.create("", "easy")
	_, foreign := e.join(elsewhere, "Mallory")
	intruder := e.dial(id, "Authorization", "Bearer "+foreign)
	if m := intruder.read(); m.Seat != -1 {
		t.Fatalf("another game's token holds seat %d", m.Seat)
	}
	cases := []struct {
		name string
		c    *client
		text string
		code protocol.Code
	}{
		{"out of turn", other, moveMessage("draw", 0), "not_your_turn"},
		{"spectator", spectator, moveMessage("draw", 0), "not_your_seat"},
		{"another game's token", intruder, moveMessage("draw", 0), "not_your_seat"},
		{"illegal bid (R10)", mover, moveMessage("bid 9", 0), "illegal_move"},
		{"client draws a card", mover, moveMessage("draw police", 0), "illegal_move"},
		{"not a move", mover, moveMessage("fly", 0), "illegal_move"},
		{"stale", mover, moveMessage("draw", 5), "stale"},
		{"malformed JSON", mover, `{"type":"move",`, "bad_message"},
		{"unknown field", mover, `{"type":"move","move":"draw","card":"police"}`, "bad_message"},
		{"unknown type", mover, `{"type":"chat","move":"hi"}`, "bad_message"},
		{"a type nobody knows", mover, `{"type":"dance","move":"draw","seq":0}`, "bad_message"},
		{"no type", mover, `{"move":"draw","seq":0}`, "bad_message"},
		{"no move", mover, `{"type":"move"}`, "bad_message"},
		{"wrong type", mover, `{"type":"move","move":7}`, "bad_message"},
		{"two objects", mover, `{"type":"move","move":"draw"}{}`, "bad_message"},
		{"negative seq", mover, `{"type":"move","move":"draw","seq":-1}`, "bad_message"},
		{"no seq", mover, `{"type":"move","move":"draw"}`, "bad_message"},
		{"typed and token disagree", mover, `{"type":"move","move":"call","action":"draw","seq":0}`, "illegal_move"},
		{"unknown action", mover, `{"type":"move","action":"steal","seq":0}`, "illegal_move"},
		{"typed card to draw", mover, `{"type":"move","action":"draw","card":"police","seq":0}`, "bad_message"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.c.send(c.text)
			c.c.wantError(c.code)
		})
	}
	if err := mover.c.Write(e.ctx, websocket.MessageBinary, []byte(moveMessage("draw", 0))); err != nil {
		t.Fatal(err)
	}
	mover.wantError("bad_message")
	stored, _ := e.Store.Game(e.ctx, id)
	if len(stored.Moves) != 0 {
		t.Fatalf("rejected moves were stored: %v", stored.Moves)
	}
	// The rejections closed nothing: the right move still works, and
	// everyone hears of it.
	mover.send(moveMessage("draw", 0))
	for _, c := range []*client{mover, other, spectator} {
		if m := c.read(); m.Type != "state" || m.View.Moves != 1 || len(m.Events) == 0 {
			t.Fatalf("after the move: %s", m.raw)
		}
	}
}

func TestOversizedMessage(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	id, _, _, mover, _ := twoPlayers(t, e)
	mover.send(`{"type":"move","move":"` + strings.Repeat("x", httpapi.MaxMessage) + `"}`)
	mover.wantError("too_large")
	_, _, err := mover.c.Read(e.ctx)
	if websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
		t.Fatalf("after an oversized message: %v, want close status 1009", err)
	}
	// The game goes on for everyone else.
	if info, _, err := e.Hub.Game(e.ctx, id, ""); err != nil || info.Status != protocol.StatusPlaying {
		t.Fatalf("game %+v, %v", info, err)
	}
	// A message of exactly the limit is read (and rejected as a move).
	c := e.dial(id)
	c.read()
	c.send(`{"type":"move","move":"` + strings.Repeat("x", httpapi.MaxMessage-33) + `","seq":0}`)
	c.wantError("not_your_seat")
}

func TestRateLimit(t *testing.T) {
	e := newEnv(t, httpapi.Options{MessageBurst: 3, MessageRate: 1e-9})
	id, _, _, _, other := twoPlayers(t, e)
	_ = id
	for range 3 {
		other.send(moveMessage("draw", 0))
		other.wantError("not_your_turn")
	}
	for range 2 {
		other.send(moveMessage("draw", 0))
		other.wantError("rate_limited")
	}
}

func TestSpectatorSeesNoSecrets(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	id := e.create("easy", "easy")
	stored, _ := e.Store.Game(e.ctx, id)
	secrets := []string{hex.EncodeToString(stored.Seed), base64.StdEncoding.EncodeToString(stored.Seed), `"seed"`}
	c := e.dial(id)
	for {
		m := c.read()
		if m.Seat != -1 || m.View.Seat != -1 || len(m.View.Legal) != 0 {
			t.Fatalf("a spectator's state: %s", m.raw)
		}
		for _, s := range secrets {
			if bytes.Contains(bytes.ToLower(m.raw), bytes.ToLower([]byte(s))) {
				t.Fatalf("the state shows %q: %s", s, m.raw)
			}
		}
		if m.View.Phase == "over" {
			break
		}
	}
	_, v := e.do("GET", "/api/games/"+id, "")
	if b, _ := json.Marshal(v); bytes.Contains(bytes.ToLower(b), []byte("seed")) || v["you"] != -1.0 {
		t.Errorf("game info %s", b)
	}
}

func TestReconnect(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	id, moverToken, _, mover, _ := twoPlayers(t, e)
	mover.send(moveMessage("draw", 0))
	m := mover.read()
	mover.c.Close(websocket.StatusNormalClosure, "tab closed")

	// The cookie brings the seat back, with the current state and every event.
	rec, _ := e.Hub.Record(e.ctx, id)
	g, _ := rec.Game()
	all := len(g.Events())
	for _, again := range []*client{
		e.dial(id, "Cookie", "razzia_"+id+"="+moverToken),
		e.dial(id + "?token=" + moverToken), // for clients that cannot set headers
	} {
		m2 := again.read()
		if m2.Seat != m.Seat || m2.View.Moves != 1 || len(m2.Events) != all {
			t.Fatalf("reconnected: seat %d (was %d), %d moves, %d events of %d", m2.Seat, m.Seat, m2.View.Moves, len(m2.Events), all)
		}
	}
}

func TestUnknownGames(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	for _, id := range []string{"nosuchgame", "abcdefghij", "x"} {
		for _, req := range [][2]string{
			{"GET", "/api/games/" + id},
			{"POST", "/api/games/" + id + "/join"},
			{"GET", "/api/games/" + id + "/record"},
			{"GET", "/api/games/" + id + "/ws"},
		} {
			resp, v := e.do(req[0], req[1], `{"name":"Ann"}`)
			wantError(t, resp, v, http.StatusNotFound, "not_found")
		}
	}
	_, resp, err := e.dialErr("abcdefghij")
	if err == nil || resp == nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("websocket to an unknown game: %v, %v", err, resp)
	}
	resp2, v := e.do("GET", "/api/nothing", "")
	wantError(t, resp2, v, http.StatusNotFound, "not_found")
}

func TestJoinErrors(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	id := e.create("", "hard", "")
	for name, body := range map[string]string{
		"empty":      `{"name":""}`,
		"missing":    `{}`,
		"blank":      `{"name":"  "}`,
		"too long":   `{"name":"` + strings.Repeat("n", razzia.MaxNameLen+1) + `"}`,
		"control":    `{"name":"Ann\u0007"}`,
		"newline":    `{"name":"Ann\nBob"}`,
		"C1 control": `{"name":"Ann\u0085"}`,
	} {
		t.Run("bad name/"+name, func(t *testing.T) {
			resp, v := e.do("POST", "/api/games/"+id+"/join", body)
			wantError(t, resp, v, http.StatusBadRequest, "bad_name")
		})
	}
	resp, v := e.do("POST", "/api/games/"+id+"/join", `{"name":"Ann","seat":1}`)
	wantError(t, resp, v, http.StatusConflict, "seat_taken")
	resp, v = e.do("POST", "/api/games/"+id+"/join", `{"name":"Ann","seat":9}`)
	wantError(t, resp, v, http.StatusBadRequest, "bad_request")
	resp, v = e.do("POST", "/api/games/"+id+"/join", `{"name":"Ann","seat":-1}`)
	wantError(t, resp, v, http.StatusBadRequest, "bad_request")
	e.join(id, "Ann")
	resp, v = e.do("GET", "/api/games/"+id+"/record", "")
	wantError(t, resp, v, http.StatusConflict, "not_started")
	e.join(id, "Bob")
	resp, v = e.do("POST", "/api/games/"+id+"/join", `{"name":"Cy"}`)
	wantError(t, resp, v, http.StatusConflict, "table_full")
}

func TestMalformedRequests(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	cases := []struct {
		name, body, status, code, mention string
	}{
		{"empty", ``, "400", "bad_request", "empty"},
		{"truncated", `{"seats":[`, "400", "bad_request", "malformed"},
		{"syntax", `{"seats":[}`, "400", "bad_request", "malformed"},
		{"unknown field", `{"seats":[{"bot":""},{"bot":""}],"rounds":5}`, "400", "bad_request", `"rounds"`},
		{"unknown seat field", `{"seats":[{"bot":"","name":"x"},{"bot":""}]}`, "400", "bad_request", `"name"`},
		{"wrong type", `{"seats":"two"}`, "400", "bad_request", "seats"},
		{"not an object", `[1,2]`, "400", "bad_request", "object"},
		{"trailing data", `{"seats":[{"bot":""},{"bot":""}]} {}`, "400", "bad_request", "after"},
		{"one seat", `{"seats":[{"bot":""}]}`, "400", "bad_request", "2 to 5"},
		{"six seats", `{"seats":[{},{},{},{},{},{}]}`, "400", "bad_request", "2 to 5"},
		{"no seats", `{}`, "400", "bad_request", "2 to 5"},
		{"bad level", `{"seats":[{"bot":"god"},{}]}`, "400", "bad_request", "god"},
		{"too large", `{"seats":[` + strings.Repeat(`{"bot":""},`, 500) + `{}]}`, "413", "too_large", "bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, v := e.do("POST", "/api/games", c.body)
			status := map[string]int{"400": 400, "413": 413}[c.status]
			obj := wantError(t, resp, v, status, c.code)
			if msg := obj["message"].(string); !strings.Contains(msg, c.mention) {
				t.Errorf("message %q does not mention %q", msg, c.mention)
			}
		})
	}
	resp, v := e.do("GET", "/api/games?status=lost", "")
	wantError(t, resp, v, 400, "bad_request")
}

func TestOrigins(t *testing.T) {
	e := newEnv(t, httpapi.Options{Origins: []string{"club.example"}})
	id := e.create("", "")
	_, resp, err := e.dialErr(id, "Origin", "http://evil.example")
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign origin: %v, %v", err, resp)
	}
	c, _, err := e.dialErr(id, "Origin", "https://club.example")
	if err != nil {
		t.Fatalf("allowed origin: %v", err)
	}
	c.CloseNow()
	c, _, err = e.dialErr(id, "Origin", e.URL)
	if err != nil {
		t.Fatalf("same origin: %v", err)
	}
	c.CloseNow()
	// A browser's cross-site POST is refused; the same site's is not.
	resp2, v := e.do("POST", "/api/games/"+id+"/join", `{"name":"Eve"}`, "Sec-Fetch-Site", "cross-site")
	wantError(t, resp2, v, http.StatusForbidden, "forbidden")
	resp2, v = e.do("POST", "/api/games/"+id+"/join", `{"name":"Eve"}`, "Origin", "http://evil.example")
	wantError(t, resp2, v, http.StatusForbidden, "forbidden")
	resp2, _ = e.do("POST", "/api/games/"+id+"/join", `{"name":"Ann"}`, "Sec-Fetch-Site", "same-origin", "Origin", e.URL)
	if resp2.StatusCode != 200 {
		t.Errorf("same-origin join: %d", resp2.StatusCode)
	}
}

func TestUpload(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	good := `{"format":"razzia-record/1","players":["Ann","Bob"],"moves":["draw car","draw police","pass","pass"]}`
	resp, v := e.do("POST", "/api/records", good)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d %v", resp.StatusCode, v)
	}
	g := v["game"].(map[string]any)
	if g["status"] != "archived" || g["moves"] != 4.0 {
		t.Errorf("uploaded %v", g)
	}
	id := g["id"].(string)
	// Viewable like a finished game.
	c := e.dial(id)
	m := c.read()
	if m.Game.Status != protocol.StatusArchived || m.View == nil || m.View.Moves != 4 || len(m.Events) == 0 {
		t.Errorf("watching the upload: %s", m.raw)
	}
	resp, err := http.Get(e.URL + "/api/games/" + id + "/record")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := razzia.ReadRecord(resp.Body)
	resp.Body.Close()
	if err != nil || strings.Join(rec.Moves, ",") != "draw car,draw police,pass,pass" {
		t.Errorf("download of the upload: %v, %v", rec, err)
	}

	bad := []struct {
		name, body string
		move       float64
		token      string
	}{
		{"illegal move", `{"format":"razzia-record/1","players":["Ann","Bob"],"moves":["draw car","bid 9"]}`, 2, "bid 9"},
		{"unknown card", `{"format":"razzia-record/1","players":["Ann","Bob"],"moves":["draw unicorn"]}`, 1, "draw unicorn"},
		{"not JSON", `hello`, 0, ""},
		{"format", `{"format":"razzia-record/9","players":["Ann","Bob"],"moves":[]}`, 0, ""},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			resp, v := e.do("POST", "/api/records", b.body)
			obj := wantError(t, resp, v, http.StatusBadRequest, "bad_record")
			if obj["move"] != b.move || obj["token"] != b.token {
				t.Errorf("got move %v token %v, want %v %q", obj["move"], obj["token"], b.move, b.token)
			}
		})
	}
	resp, v = e.do("POST", "/api/records", strings.Repeat(" ", razzia.MaxRecordSize+1))
	wantError(t, resp, v, http.StatusRequestEntityTooLarge, "too_large")
}

func TestListAndPages(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	open := e.create("", "medium")
	resp, v := e.do("GET", "/api/games?status=open", "")
	games := v["games"].([]any)
	if resp.StatusCode != 200 || len(games) != 1 || games[0].(map[string]any)["id"] != open {
		t.Errorf("list: %d %v", resp.StatusCode, v)
	}
	g := games[0].(map[string]any)
	if g["invite"] != "/g/"+open || g["players"] != 2.0 {
		t.Errorf("game info %v", g)
	}
	for _, h := range []string{"X-Content-Type-Options", "Content-Security-Policy", "X-Frame-Options"} {
		if resp.Header.Get(h) == "" {
			t.Errorf("no %s header", h)
		}
	}
	_, v = e.do("GET", "/api/games?status=playing", "")
	if games := v["games"].([]any); len(games) != 0 {
		t.Errorf("playing: %v", games)
	}
	resp, err := http.Get(e.URL + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "ok" {
		t.Errorf("healthz says %q", body)
	}
	resp, err = http.Get(e.URL + "/g/" + open)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `id="join-form"`) {
		t.Errorf("the web handler is not mounted: %q", body)
	}
}

// TestClose: closing the server ends the WebSockets, a table's and the
// live one, with 1012 (service restart), which tells the clients to
// connect again at once.
func TestClose(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	id := e.create("", "")
	c := e.dial(id)
	c.read()
	live, _, err := websocket.Dial(e.ctx, "ws"+strings.TrimPrefix(e.URL, "http")+"/api/live", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer live.CloseNow()
	done := make(chan struct{})
	go func() {
		e.API.Close()
		close(done)
	}()
	_, _, err = c.c.Read(e.ctx)
	if websocket.CloseStatus(err) != websocket.StatusServiceRestart {
		t.Errorf("the table's socket after Close: %v", err)
	}
	for err = nil; err == nil; _, _, err = live.Read(e.ctx) {
	}
	if websocket.CloseStatus(err) != websocket.StatusServiceRestart {
		t.Errorf("the live socket after Close: %v", err)
	}
	<-done
	if errors.Is(e.ctx.Err(), context.DeadlineExceeded) {
		t.Fatal("Close timed out")
	}
}

// TestDuplicateMove: a move sent twice is played once. A move without seq
// is refused, since the server could not tell a resend from a new move
// once the turn comes round again; with seq, the resend is stale.
func TestDuplicateMove(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	id, _, _, mover, other := twoPlayers(t, e)
	for range 2 {
		mover.send(`{"type":"move","move":"draw"}`)
		mover.wantError("bad_message")
	}
	// The typed form is a move as good as the token.
	mover.send(`{"type":"move","action":"draw","seq":0}`)
	if m := mover.read(); m.Type != "state" || m.View.Moves != 1 {
		t.Fatalf("after a typed draw: %s", m.raw)
	}
	other.read()
	mover.send(moveMessage("draw", 0)) // the same move again
	mover.wantError("stale")
	other.send(moveMessage("draw", 1))
	other.read()
	if m := mover.read(); m.View.Moves != 2 || m.View.ToMove != m.Seat {
		t.Fatalf("the turn should be back with the mover: %s", m.raw)
	}
	mover.send(moveMessage("draw", 0)) // resent once more when the turn is back
	mover.wantError("stale")
	if stored, _ := e.Store.Game(e.ctx, id); len(stored.Moves) != 2 {
		t.Fatalf("stored moves %v, want the two draws", stored.Moves)
	}
}

// TestNarration: the state's events carry their sentences in the language
// the WebSocket URL asks for, English by default.
func TestNarration(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	id, _, _, mover, _ := twoPlayers(t, e)
	mover.send(moveMessage("draw", 0))
	mover.read()
	for _, tt := range []struct{ query, want string }{
		{"", "draws"}, {"?lang=de", "zieht"}, {"?lang=nl-BE", "trekt"}, {"?lang=xx", "draws"},
	} {
		c := e.dial(id + tt.query)
		m := c.read()
		if len(m.Events) != 1 || !strings.Contains(m.Events[0].Text, tt.want) {
			t.Errorf("%q: events %+v, want a sentence with %q", tt.query, m.Events, tt.want)
		}
	}
}
