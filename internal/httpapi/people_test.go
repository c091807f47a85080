package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/presence"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/store"
)

// live opens b's live socket (with query q) with its cookies, as the
// page does.
func (b *browser) live(q string) *websocket.Conn {
	b.t.Helper()
	u := "ws" + strings.TrimPrefix(b.srv.URL, "http") + "/api/live" + q
	c, _, err := websocket.Dial(servertest.Context(b.t), u, &websocket.DialOptions{HTTPClient: b.hc})
	if err != nil {
		b.t.Fatalf("dial the live socket: %v", err)
	}
	b.t.Cleanup(func() { c.CloseNow() })
	return c
}

// readType reads c's messages until one of type typ and decodes it into
// out.
func readType(t *testing.T, c *websocket.Conn, typ string, out any) {
	t.Helper()
	for {
		_, data, err := c.Read(servertest.Context(t))
		if err != nil {
			t.Fatalf("read, waiting for %q: %v", typ, err)
		}
		var head struct{ Type string }
		json.Unmarshal(data, &head)
		if head.Type == typ {
			if err := json.Unmarshal(data, out); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
}

// readNoticeAndList reads until it has the first notice and an online
// list naming name, in either order: a list made just after the person
// came can go out before the notice of their coming, and the same list
// is not sent twice.
func readNoticeAndList(t *testing.T, c *websocket.Conn, name string) (protocol.NoticeMessage, protocol.OnlineMessage) {
	t.Helper()
	var n protocol.NoticeMessage
	var m protocol.OnlineMessage
	gotNotice, gotList := false, false
	for !gotNotice || !gotList {
		_, data, err := c.Read(servertest.Context(t))
		if err != nil {
			t.Fatalf("read, waiting for a notice and a list naming %s: %v", name, err)
		}
		var head struct{ Type string }
		json.Unmarshal(data, &head)
		switch {
		case head.Type == protocol.TypeNotice && !gotNotice:
			gotNotice = json.Unmarshal(data, &n) == nil
		case head.Type == protocol.TypeOnline && !gotList:
			var l protocol.OnlineMessage
			if json.Unmarshal(data, &l) == nil && named(l, name) != nil {
				m, gotList = l, true
			}
		}
	}
	return n, m
}

// readOnline reads online lists until one satisfies ok.
func readOnline(t *testing.T, c *websocket.Conn, ok func(protocol.OnlineMessage) bool) protocol.OnlineMessage {
	t.Helper()
	for {
		var m protocol.OnlineMessage
		readType(t, c, protocol.TypeOnline, &m)
		if ok(m) {
			return m
		}
	}
}

func named(m protocol.OnlineMessage, name string) *protocol.PersonOnline {
	for i := range m.People {
		if m.People[i].Name == name {
			return &m.People[i]
		}
	}
	return nil
}

// TestOnlineList: the lobby's list names a signed-in player with their
// rating and finish rate, and a guest with a name once they connect; a
// guest cannot go by an account's name, nor a name a seat may not take:
// they are online, counted, unlisted.
func TestOnlineList(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	ann, guest, impostor := newBrowser(t, srv), newBrowser(t, srv), newBrowser(t, srv)
	ann.register("Ann")
	lobby := ann.live("?list=1")
	m := readOnline(t, lobby, func(m protocol.OnlineMessage) bool { return named(m, "Ann") != nil })
	me := named(m, "Ann")
	if me.Guest || me.Rating == nil || me.Finish == nil || me.Finish.Percent != 100 || me.Finish.Games != 0 || me.Profile != "/p/Ann" || me.Activity != "lobby" {
		t.Errorf("Ann in the list: %+v", *me)
	}
	guest.live("?name=Zo%C3%AB")
	if guest.cookie("razzia_guest") == nil {
		t.Error("the guest got no guest cookie")
	}
	m = readOnline(t, lobby, func(m protocol.OnlineMessage) bool { return named(m, "Zoë") != nil })
	if z := named(m, "Zoë"); !z.Guest || z.Rating != nil || z.Finish != nil || m.Online != 2 {
		t.Errorf("Zoë in the list: %+v (online %d)", *z, m.Online)
	}
	impostor.live("?name=ann")
	impostor.live("?name=%E2%80%AEevil") // a direction-changing character
	var a protocol.OnlineAnswer
	ann.must(http.MethodGet, "/api/online", nil, &a)
	if len(a.People) != 2 || a.Online != 3 || a.More != 1 {
		t.Errorf("GET /api/online = %+v: the impostor, one guest without a name, is counted and not listed", a)
	}
	// Seated as "ANN" (a table lets a guest take any free name), the
	// impostor plays, unlisted still.
	id := srv.Create("", "easy").ID
	impostor.must(http.MethodPost, "/api/games/"+id+"/join", protocol.JoinRequest{Name: "ANN"}, nil)
	impostor.tableSocket(id)
	m = readOnline(t, lobby, func(m protocol.OnlineMessage) bool { return m.Playing == 1 })
	if len(m.People) != 2 || named(m, "ANN") != nil || m.Online != 3 {
		t.Errorf("with the impostor seated as ANN: %+v", m)
	}
}

// TestFollowBlockAPI: following and blocking by name, the presence a
// profile shows, the refusals by their codes, and a followed player's
// coming online told at once on the follower's live socket.
func TestFollowBlockAPI(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	ann, bob := newBrowser(t, srv), newBrowser(t, srv)
	ann.register("Ann")
	bob.register("Bob")
	var p protocol.PlayerPresence
	ann.must(http.MethodGet, "/api/players/Bob/presence", nil, &p)
	if p.Online || p.Following || p.Blocking || p.Finish.Percent != 100 || p.LastSeen != nil {
		t.Errorf("Bob before anything: %+v", p)
	}
	ann.must(http.MethodPut, "/api/players/bob/follow", nil, &p)
	if !p.Following || p.Name != "Bob" || p.Followers != 1 {
		t.Errorf("after following: %+v", p)
	}
	for _, c := range []struct {
		name, method, path string
		b                  *browser
		status             int
		code               protocol.Code
	}{
		{"oneself", http.MethodPut, "/api/players/Ann/follow", ann, 400, protocol.SelfRelation},
		{"nobody", http.MethodPut, "/api/players/Zed/block", ann, 404, protocol.NotFound},
		{"a guest", http.MethodPut, "/api/players/Bob/follow", newBrowser(t, srv), 401, protocol.Unauthorized},
		{"presence of nobody", http.MethodGet, "/api/players/Zed/presence", ann, 404, protocol.NotFound},
	} {
		t.Run(c.name, func(t *testing.T) {
			if status, code := c.b.call(c.method, c.path, nil, nil); status != c.status || code != c.code {
				t.Errorf("%s %s: %d %s, want %d %s", c.method, c.path, status, code, c.status, c.code)
			}
		})
	}
	var rel protocol.RelationsAnswer
	ann.must(http.MethodGet, "/api/account/relations", nil, &rel)
	if len(rel.Following) != 1 || rel.Following[0] != "Bob" || len(rel.Blocking) != 0 {
		t.Errorf("relations = %+v", rel)
	}
	// Bob comes online: Ann, who follows him, is told at once.
	annLive := ann.live("")
	bobLive := bob.live("")
	var n protocol.NoticeMessage
	readType(t, annLive, protocol.TypeNotice, &n)
	if n.Kind != protocol.NoticeOnline || n.Name != "Bob" {
		t.Errorf("notice = %+v", n)
	}
	ann.must(http.MethodGet, "/api/players/Bob/presence", nil, &p)
	if !p.Online || p.Activity != "lobby" {
		t.Errorf("Bob online: %+v", p)
	}
	bobLive.Close(websocket.StatusNormalClosure, "")
	ann.must(http.MethodPut, "/api/players/Bob/block", nil, &p)
	ann.must(http.MethodDelete, "/api/players/Bob/follow", nil, &p)
	if !p.Blocking || p.Following {
		t.Errorf("after blocking and unfollowing: %+v", p)
	}
}

// TestSeatPresence: a table's sockets hear each seat's person connected,
// away (the page says it is hidden) and gone, with when they were last
// seen; a bad away message is refused and changes nothing.
func TestSeatPresence(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	id := e.create("", "")
	_, tok0 := e.join(id, "Ann")
	_, tok1 := e.join(id, "Bob")
	a := e.dial(id+"?presence=1", "Authorization", "Bearer "+tok0)
	b := e.dial(id+"?presence=1", "Authorization", "Bearer "+tok1)
	seats := func(c *client, ok func(map[int]protocol.SeatPresence) bool) map[int]protocol.SeatPresence {
		t.Helper()
		for { // until the test's context ends, as c.read says
			m := c.read()
			if m.Type != protocol.TypeSeats {
				continue
			}
			var sm protocol.SeatsMessage
			if err := json.Unmarshal(m.raw, &sm); err != nil {
				t.Fatal(err)
			}
			got := map[int]protocol.SeatPresence{}
			for _, s := range sm.Seats {
				got[s.Seat] = s
			}
			if ok(got) {
				return got
			}
		}
	}
	seats(a, func(s map[int]protocol.SeatPresence) bool {
		return s[0].Presence == protocol.SeatConnected && s[1].Presence == protocol.SeatConnected
	})
	b.send(`{"type":"away","away":true}`)
	seats(a, func(s map[int]protocol.SeatPresence) bool { return s[1].Presence == protocol.SeatAway })
	b.send(`{"type":"away"}`)
	b.wantError(protocol.BadMessage)
	b.send(`{"type":"away","away":"yes"}`)
	b.wantError(protocol.BadMessage)
	b.c.Close(websocket.StatusNormalClosure, "")
	got := seats(a, func(s map[int]protocol.SeatPresence) bool { return s[1].Presence == protocol.SeatGone })
	if got[1].LastSeen == nil || time.Since(*got[1].LastSeen) > time.Minute {
		t.Errorf("Bob gone, last seen %v", got[1].LastSeen)
	}
}

// TestSeatPresenceAwayAtOnce: a page may say it is hidden or shown as
// soon as its socket opens, while the socket's writer records its
// presence: under -race, the two goroutines share the presence safely.
// The race detector sees such a race only in some interleavings: several
// sockets give it more.
func TestSeatPresenceAwayAtOnce(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	id := e.create("", "")
	_, tok0 := e.join(id, "Ann")
	for i := range 10 {
		away := fmt.Sprint(i%2 == 0)
		a := e.dial(id+"?presence=1", "Authorization", "Bearer "+tok0)
		a.send(`{"type":"away","away":` + away + `}`)
		a.send(`{"type":"away","away":` + away + `}`)
		for m := a.read(); m.Type != protocol.TypeSeats; m = a.read() {
		}
		a.c.Close(websocket.StatusNormalClosure, "")
	}
}

// tableSocket opens the table's socket with b's cookies (its session: its
// account's seat).
func (b *browser) tableSocket(id string) *websocket.Conn {
	b.t.Helper()
	return b.tableSocketQuery(id, "")
}

// tableSocketQuery is tableSocket with a query ("?presence=1").
func (b *browser) tableSocketQuery(id, query string) *websocket.Conn {
	b.t.Helper()
	u := "ws" + strings.TrimPrefix(b.srv.URL, "http") + "/api/games/" + id + "/ws" + query
	c, _, err := websocket.Dial(servertest.Context(b.t), u, &websocket.DialOptions{HTTPClient: b.hc})
	if err != nil {
		b.t.Fatalf("dial the table: %v", err)
	}
	b.t.Cleanup(func() { c.CloseNow() })
	return c
}

// chatLines reads c until a chat message with a line and returns its
// lines' names.
func chatNames(t *testing.T, c *websocket.Conn) []string {
	t.Helper()
	for {
		var m protocol.ChatMessage
		readType(t, c, protocol.TypeChat, &m)
		if len(m.Lines) == 0 {
			continue
		}
		var names []string
		for _, l := range m.Lines {
			names = append(names, l.Name)
		}
		return names
	}
}

// annBlocksBob starts a server where the accounts Ann and Bob are
// signed in, Ann blocking Bob.
func annBlocksBob(t *testing.T) (srv *servertest.Server, ann, bob *browser) {
	srv = servertest.New(t, servertest.Options{})
	ann, bob = newBrowser(t, srv), newBrowser(t, srv)
	ann.register("Ann")
	bob.register("Bob")
	ann.must(http.MethodPut, "/api/players/Bob/block", nil, nil)
	return srv, ann, bob
}

// TestBlockHidesChat: a player who blocks another reads none of their
// chat lines, while the others do; and a followed player sitting down at
// a table is told to their follower with the table to watch.
func TestBlockHidesChat(t *testing.T) {
	srv, ann, bob := annBlocksBob(t)
	ann.must(http.MethodPut, "/api/players/Bob/follow", nil, nil)
	annLive := ann.live("")
	id := srv.Create("", "", "easy").ID
	for _, b := range []*browser{ann, bob} {
		b.must(http.MethodPost, "/api/games/"+id+"/join", protocol.JoinRequest{Name: "x"}, nil)
	}
	bob.live("")
	var n protocol.NoticeMessage
	readType(t, annLive, protocol.TypeNotice, &n)
	if n.Kind != protocol.NoticeOnline || n.Name != "Bob" || n.Game != "" {
		t.Errorf("the first notice = %+v, want Bob online", n)
	}
	a, bb := ann.tableSocket(id), bob.tableSocket(id)
	readType(t, annLive, protocol.TypeNotice, &n)
	if n.Kind != protocol.NoticePlaying || n.Name != "Bob" || n.Game != id {
		t.Errorf("the next notice = %+v, want Bob playing at %s", n, id)
	}
	write := func(c *websocket.Conn, text string) {
		if err := c.Write(servertest.Context(t), websocket.MessageText, []byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	write(bb, `{"type":"chat","phrase":"gl"}`)
	write(a, `{"type":"chat","phrase":"gg"}`)
	var bobRead []string
	for len(bobRead) < 2 {
		bobRead = append(bobRead, chatNames(t, bb)...)
	}
	if slices.Sort(bobRead); !slices.Equal(bobRead, []string{"Ann", "Bob"}) {
		t.Errorf("Bob reads %q, want both lines", bobRead)
	}
	if got := chatNames(t, a); len(got) != 1 || got[0] != "Ann" {
		t.Errorf("Ann reads %q: Bob's line is hidden from her, her own is not", got)
	}
}

// TestBlockHidesChatBacklog: the conversation so far, sent with the
// state when a table's socket opens, is told without the lines of the
// players the reader blocks, however the writer takes the two.
func TestBlockHidesChatBacklog(t *testing.T) {
	srv, ann, bob := annBlocksBob(t)
	id := srv.Create("", "", "easy").ID
	for _, b := range []*browser{ann, bob} {
		b.must(http.MethodPost, "/api/games/"+id+"/join", protocol.JoinRequest{Name: "x"}, nil)
	}
	for _, say := range []struct {
		b      *browser
		phrase string
	}{{bob, "gl"}, {ann, "gg"}} {
		c := say.b.tableSocket(id)
		if err := c.Write(servertest.Context(t), websocket.MessageText, []byte(`{"type":"chat","phrase":"`+say.phrase+`"}`)); err != nil {
			t.Fatal(err)
		}
		chatNames(t, c) // said
		c.CloseNow()
	}
	// Each opening has the state and the conversation ready at once: a
	// writer that took either first would show Bob's line about half
	// the time.
	for i := range 12 {
		c := ann.tableSocket(id)
		if got := chatNames(t, c); !slices.Equal(got, []string{"Ann"}) {
			t.Fatalf("opening %d: Ann reads %q, want only her own line", i+1, got)
		}
		c.CloseNow()
	}
}

// TestGuidedGameUnlisted: a learner in a guided first game is online, in
// the lobby as far as the list says: nobody is shown a table to watch.
func TestGuidedGameUnlisted(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	cy := newBrowser(t, srv)
	cy.live("?name=Cy")
	var a struct {
		Game protocol.GameInfo `json:"game"`
	}
	cy.must(http.MethodPost, "/api/tutorial", map[string]string{"name": "Cy"}, &a)
	c := cy.tableSocketQuery(a.Game.ID, "?presence=1")
	var st protocol.StateMessage
	readType(t, c, protocol.TypeState, &st)
	// A table's socket that asks hears its seats' presence right after
	// the state: a guided game's does not, it is no table to share.
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	if _, data, err := c.Read(ctx); err == nil {
		t.Errorf("the guided game's socket sent %s", data)
	}
	var o protocol.OnlineAnswer
	cy.must(http.MethodGet, "/api/online", nil, &o)
	if len(o.People) != 1 || o.People[0].Name != "Cy" || o.People[0].Activity != protocol.ActivityLobby || o.People[0].Game != "" {
		t.Errorf("the online list = %+v, want Cy in the lobby, no table", o)
	}
}

// TestFinishMarked: a game's end marks each account at it: one who left
// (a bot played on for them) has a finish rate of 0 % over one game.
func TestFinishMarked(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	ann := newBrowser(t, srv)
	ann.register("Ann")
	id := srv.Create("", "easy").ID
	ann.must(http.MethodPost, "/api/games/"+id+"/join", protocol.JoinRequest{Name: "x"}, nil)
	c := ann.tableSocket(id)
	if err := c.Write(servertest.Context(t), websocket.MessageText, []byte(`{"type":"leave"}`)); err != nil {
		t.Fatal(err)
	}
	for {
		var st protocol.StateMessage
		readType(t, c, protocol.TypeState, &st)
		if st.Game.Status == protocol.StatusFinished {
			break
		}
	}
	var p protocol.PlayerPresence
	ann.must(http.MethodGet, "/api/players/Ann/presence", nil, &p)
	if p.Finish != (protocol.FinishRate{Percent: 0, Games: 1, Left: 1}) {
		t.Errorf("Ann's finish rate after leaving her only game: %+v", p.Finish)
	}
}

// TestTellReachesPages: what a feature tells an account (a challenge)
// reaches each of its open pages at once, and nobody else's.
func TestTellReachesPages(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	ann, bob := newBrowser(t, srv), newBrowser(t, srv)
	ann.register("Ann")
	bob.register("Bob")
	a1, a2, b := ann.live(""), ann.live("?list=1"), bob.live("")
	acct, err := srv.Store.AccountByKey(t.Context(), playername.Key("Ann"))
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Presence.Tell(t.Context(), presence.AccountKey(acct.ID), []byte(`{"type":"challenge","from":"Bob"}`)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*websocket.Conn{a1, a2} {
		var m struct{ Type, From string }
		readType(t, c, "challenge", &m)
		if m.From != "Bob" {
			t.Errorf("Ann's page got %+v", m)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	if _, data, err := b.Read(ctx); err == nil {
		t.Errorf("Bob's page got %s", data)
	}
}

// TestLiveSocketsLimited: one address holds at most MaxConns live
// sockets, refused beyond with too_many_connections, and as many table
// sockets beside them.
func TestLiveSocketsLimited(t *testing.T) {
	srv := servertest.New(t, servertest.Options{API: httpapi.Options{MaxConns: 2}})
	b := newBrowser(t, srv)
	b.live("")
	b.live("")
	u := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/live"
	c, _, err := websocket.Dial(t.Context(), u, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	var m protocol.ErrorMessage
	readType(t, c, protocol.TypeError, &m)
	if m.Code != protocol.TooManyConnections {
		t.Errorf("the third live socket: %+v", m)
	}
	id := srv.Create("", "easy").ID
	for range 2 {
		var st protocol.StateMessage
		readType(t, b.tableSocket(id), protocol.TypeState, &st)
	}
}

// TestOnlineListCapped: past 100 people the list names the first 100
// (the reader's followed first, wherever their name falls), and says how
// many more are online.
func TestOnlineListCapped(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	ann := newBrowser(t, srv)
	ann.register("Ann")
	ctx := t.Context()
	for i := range 105 {
		name := fmt.Sprintf("P%03d", i)
		a := &store.Account{ID: "id-" + name, Name: name, Key: playername.Key(name), Handle: []byte("h-" + name),
			SeatKey: []byte("k-" + name), Rating: store.Rating{Mu: 25, Sigma: 8}}
		if err := srv.Store.CreateAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
		if _, err := srv.Presence.Connect(ctx, presence.Person{Key: presence.AccountKey(a.ID), Account: a.ID, Name: name}, "", -1); err != nil {
			t.Fatal(err)
		}
	}
	ann.must(http.MethodPut, "/api/players/P104/follow", nil, nil)
	var o protocol.OnlineAnswer
	ann.must(http.MethodGet, "/api/online", nil, &o)
	if len(o.People) != 100 || o.Online != 105 || o.More != 5 {
		t.Fatalf("the list names %d of %d, more %d; want 100 of 105, more 5", len(o.People), o.Online, o.More)
	}
	if first := o.People[0]; first.Name != "P104" || !first.Followed {
		t.Errorf("the list begins with %+v, want P104, followed", first)
	}
	if o.People[1].Name != "P000" || o.People[99].Name != "P098" {
		t.Errorf("after the followed, %s to %s; want P000 to P098", o.People[1].Name, o.People[99].Name)
	}
}

// TestOnlineListDeletedAccount: an account deleted while a page of its
// is open leaves the online list and its count (the count and the list
// agree) and the list is served to everyone else still.
func TestOnlineListDeletedAccount(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	ann, bob := newBrowser(t, srv), newBrowser(t, srv)
	ann.register("Ann")
	bob.register("Bob")
	bob.live("")
	bob.must(http.MethodDelete, "/api/account", nil, nil)
	var a protocol.OnlineAnswer
	ann.must(http.MethodGet, "/api/online", nil, &a)
	if named(protocol.OnlineMessage{People: a.People}, "Bob") != nil || a.Online != len(a.People) || a.More != 0 {
		t.Errorf("GET /api/online after Bob's account went: %+v", a)
	}
}
