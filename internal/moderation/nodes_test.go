package moderation_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/cookiejar"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/postgres/pgschema"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// TestMain stops the PostgreSQL test cluster, if a test started one.
func TestMain(m *testing.M) { pgtest.Main(m) }

const password = "correct horse battery staple"

// person is someone signed in to a server over HTTP (a browser's cookie)
// and through the protocol client (for the tables), which reads the chat.
type person struct {
	t   *testing.T
	hc  *http.Client
	c   *client.Client
	url string
}

// register makes the account name on srv and signs it in.
func register(t *testing.T, srv *servertest.Server, name string) *person {
	t.Helper()
	return enter(t, srv, name, "/api/account", http.StatusCreated)
}

// on returns the person signed in on another server of the same database.
func (p *person) on(t *testing.T, srv *servertest.Server, name string) *person {
	t.Helper()
	return enter(t, srv, name, "/api/session", http.StatusOK)
}

// enter registers or signs in (path) name on srv, over HTTP and through
// the protocol client.
func enter(t *testing.T, srv *servertest.Server, name, path string, want int) *person {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	p := &person{t: t, hc: &http.Client{Jar: jar}, url: srv.URL}
	if status, code := p.call("POST", path, protocol.RegisterRequest{Name: name, Password: password}, nil); status != want {
		t.Fatalf("%s %s: %d %s", path, name, status, code)
	}
	p.c = signedIn(t, srv, name)
	return p
}

func signedIn(t *testing.T, srv *servertest.Server, name string) *client.Client {
	t.Helper()
	c := srv.Client()
	c.Chat = true
	if _, err := c.SignIn(servertest.Context(t), name, password); err != nil {
		t.Fatal(err)
	}
	return c
}

// call sends a JSON request and decodes the answer into out; it returns
// the status and the error's code.
func (p *person) call(method, path string, body, out any) (int, protocol.Code) {
	p.t.Helper()
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(servertest.Context(p.t), method, p.url+path, bytes.NewReader(b))
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.hc.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		var e protocol.ErrorBody
		json.NewDecoder(resp.Body).Decode(&e)
		if e.Error == nil {
			return resp.StatusCode, ""
		}
		return resp.StatusCode, e.Error.Code
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			p.t.Fatal(err)
		}
	}
	return resp.StatusCode, ""
}

func (p *person) must(method, path string, body, out any) {
	p.t.Helper()
	if status, code := p.call(method, path, body, out); code != "" || status >= 300 {
		p.t.Fatalf("%s %s: %d %s", method, path, status, code)
	}
}

// told opens the person's live socket, as every page does, and returns
// a function that reads the next moderation message on it.
func (p *person) told() func() protocol.ModerationMessage {
	p.t.Helper()
	ctx := servertest.Context(p.t)
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(p.url, "http")+"/api/live", &websocket.DialOptions{HTTPClient: p.hc})
	if err != nil {
		p.t.Fatalf("dial the live socket: %v", err)
	}
	p.t.Cleanup(func() { c.CloseNow() })
	return func() protocol.ModerationMessage {
		p.t.Helper()
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				p.t.Fatalf("read the live socket: %v", err)
			}
			var m protocol.ModerationMessage
			if json.Unmarshal(data, &m) == nil && m.Type == protocol.TypeModeration {
				return m
			}
		}
	}
}

// until reads conn until f holds; an error with the code want ends it.
func until(t *testing.T, conn *client.Conn, want protocol.Code, f func(*client.State) bool) {
	t.Helper()
	for {
		st, err := conn.Read(servertest.Context(t))
		var ce *client.Error
		switch {
		case err != nil && want != "" && errors.As(err, &ce) && ce.Code == want:
			return
		case err != nil:
			t.Fatalf("read: %v", err)
		case f(st):
			return
		}
	}
}

// TestModerationAcrossNodes: two servers on one PostgreSQL database; the
// game is run by node A. From node B, Bob reports Cy's line, and Ann, the
// operator, removes it (Bob, watching through B, sees it go) and bans Cy:
// the seat passes to a bot on A, which plays it to the end while Bob plays
// on through B; Cy's page on A is told of both actions at once; A refuses
// Cy's chat and a new table; neither node shows her online.
func TestModerationAcrossNodes(t *testing.T) {
	db := pgschema.Migrated.DB(t)
	node := func() *servertest.Server {
		return servertest.New(t, servertest.Options{Store: func(*memstore.Store) store.Store {
			st, err := postgres.Open(t.Context(), db, postgres.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		}})
	}
	a, b := node(), node()
	ctx := servertest.Context(t)
	ann := register(t, a, "Ann").on(t, b, "Ann")
	bob := register(t, a, "Bob").on(t, b, "Bob")
	cy := register(t, a, "Cy")

	id := a.Create("", "").ID // A runs it
	_, bobTok, err := bob.c.Join(ctx, id, "", -1)
	if err != nil {
		t.Fatal(err)
	}
	cySeat, cyTok, err := cy.c.Join(ctx, id, "", -1)
	if err != nil {
		t.Fatal(err)
	}
	bobConn, err := bob.c.Dial(ctx, id, bobTok) // through B
	if err != nil {
		t.Fatal(err)
	}
	cyConn, err := cy.c.Dial(ctx, id, cyTok) // through A
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bobConn.Close(); cyConn.Close() })
	if err := cyConn.Send(ctx, protocol.ChatSend{Type: protocol.TypeChat, Text: "you play like a fool"}); err != nil {
		t.Fatal(err)
	}
	line := func(removed bool) func(*client.State) bool {
		return func(st *client.State) bool {
			return st.Chat != nil && slices.ContainsFunc(st.Chat.Lines, func(l protocol.ChatLine) bool {
				return l.Seq == 0 && l.Removed == removed && (removed == (l.Text == ""))
			})
		}
	}
	until(t, bobConn, "", line(false))

	cyTold := cy.told() // Cy's page, on A
	var filed protocol.ReportAnswer
	bob.must("POST", "/api/reports", protocol.ReportRequest{Player: "Cy", Game: id, Kind: protocol.ReportChat, Reason: "insults", Lines: []int{0}}, &filed)
	seq := 0
	ann.must("POST", "/api/moderation/actions", protocol.ActionRequest{Kind: protocol.ActionStrike, Game: id, Line: &seq, Reason: "an insult"}, nil)
	until(t, bobConn, "", line(true))

	var banned protocol.ActionAnswer
	ann.must("POST", "/api/moderation/actions", protocol.ActionRequest{Kind: protocol.ActionBan, Player: "Cy", Reason: "insults", Report: filed.ID}, &banned)
	if !slices.Equal(banned.Removed, []string{id}) {
		t.Errorf("the ban took the seats of %v, want %s", banned.Removed, id)
	}
	removed := func(st *client.State) bool {
		return slices.ContainsFunc(st.TakeOvers, func(to protocol.TakeOver) bool {
			return to.Seat == cySeat && to.Reason == protocol.ReasonRemoved && to.BackMove == nil
		})
	}
	until(t, bobConn, "", removed)
	for _, kind := range []string{protocol.ActionStrike, protocol.ActionBan} {
		if m := cyTold(); m.Action.Kind != kind || m.Action.Operator != "Ann" || m.Standing.Banned != (kind == protocol.ActionBan) {
			t.Errorf("Cy's page on A is told %+v, want her %s by Ann", m, kind)
		}
	}
	// A hears of the ban from the database's notice: within its latency.
	for deadline := time.Now().Add(10 * time.Second); a.Moderation.NameBarred("Cy") == nil; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("node A did not hear of the ban")
		}
	}
	if err := cyConn.Send(ctx, protocol.ChatSend{Type: protocol.TypeChat, Phrase: "gg"}); err != nil {
		t.Fatal(err)
	}
	until(t, cyConn, protocol.ChatMuted, func(*client.State) bool { return false })
	if _, code := cy.call("POST", "/api/games", protocol.CreateRequest{Seats: []protocol.SeatRequest{{}, {Bot: "easy"}}}, nil); code != protocol.Banned {
		t.Errorf("Cy creates a table on A: %s, want banned", code)
	}
	// Both nodes hide her, connected to A though she is.
	for node, p := range map[string]*person{"A": cy, "B": bob} {
		var pr protocol.PlayerPresence
		if p.must("GET", "/api/players/Cy/presence", nil, &pr); pr.Online || pr.LastSeen != nil {
			t.Errorf("node %s shows Cy, banned, as %+v", node, pr)
		}
	}

	// Bob plays on through B; the bot plays Cy's seat on A.
	s := bob.c.Session(id, bobTok)
	defer s.Close()
	for {
		st, err := s.Next(ctx)
		if err != nil {
			var ce *client.Error
			if errors.As(err, &ce) {
				continue // a move the game outran
			}
			t.Fatal(err)
		}
		if st.Over() {
			if !removed(st) {
				t.Errorf("the game ended with the take-overs %+v", st.TakeOvers)
			}
			return
		}
		if st.MyTurn() {
			if err := s.Move(ctx, st.View.Legal[0], st.View.Moves); err != nil && !errors.Is(err, client.ErrNotConnected) {
				t.Logf("move: %v", err)
			}
		}
	}
}
