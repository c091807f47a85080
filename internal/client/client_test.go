package client

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/table"
)

// server is an in-process Razzia server (memory store, random bots that
// move at once) whose connections the test can cut.
type server struct {
	*httptest.Server
	ln *cutListener
}

// cutListener remembers its connections so a test can cut them all,
// WebSockets included, as a network failure would.
type cutListener struct {
	net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func (l *cutListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.mu.Lock()
		l.conns = append(l.conns, c)
		l.mu.Unlock()
	}
	return c, err
}

func (l *cutListener) cut() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.conns {
		c.Close()
	}
	l.conns = nil
}

func newServer(t *testing.T) *server {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	hub := table.New(memstore.New(), table.Options{
		Logger: quiet,
		NewBot: func(_ string, seed uint64) (bot.Bot, error) { return bot.New("random", seed) },
	})
	api := httpapi.New(hub, nil, httpapi.Options{Logger: quiet, MessageRate: 1000, MessageBurst: 1000})
	srv := httptest.NewUnstartedServer(api)
	ln := &cutListener{Listener: srv.Listener}
	srv.Listener = ln
	srv.Start()
	t.Cleanup(func() {
		api.Close()
		srv.Close()
		hub.Close()
	})
	return &server{Server: srv, ln: ln}
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func newClient(t *testing.T, s *server) *Client {
	t.Helper()
	c, err := New(s.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fastBackoff reconnects at once.
func fastBackoff(int) time.Duration { return 10 * time.Millisecond }

// playToEnd plays the session's seat with the first legal move until the
// game is over, calling each after every state. It returns the events of
// the game as the session's log holds them.
func playToEnd(t *testing.T, ctx context.Context, s *Session, each func(*State)) (*State, []razzia.Event) {
	t.Helper()
	var log []razzia.Event
	for {
		st, err := s.Next(ctx)
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		if st.First {
			log = nil
		}
		log = append(log, st.Events...)
		if each != nil {
			each(st)
		}
		if st.Over() {
			return st, log
		}
		if st.MyTurn() {
			if err := s.Move(ctx, st.View.Legal[0], st.View.Moves); err != nil && !errors.Is(err, ErrNotConnected) {
				t.Logf("Move: %v", err) // the connection dropped: the next state tells
			}
		}
	}
}

func TestPlayGame(t *testing.T) {
	for _, query := range []bool{false, true} {
		name := map[bool]string{false: "bearer", true: "query token"}[query]
		t.Run(name, func(t *testing.T) {
			srv := newServer(t)
			c := newClient(t, srv)
			c.TokenInQuery = query
			ctx := testContext(t)
			info, err := c.Create(ctx, []string{"easy", "", "medium"})
			if err != nil {
				t.Fatal(err)
			}
			if info.Status != "open" || info.Players != 3 || info.Invite != "/g/"+info.ID || !info.Seats[1].Open {
				t.Fatalf("created %+v", info)
			}
			seat, token, err := c.Join(ctx, info.ID, "Ann", -1)
			if err != nil || seat != 1 || token == "" {
				t.Fatalf("Join = %d, %q, %v", seat, token, err)
			}
			if _, you, err := c.Game(ctx, info.ID, token); err != nil || you != 1 {
				t.Fatalf("Game: you = %d, %v; want seat 1", you, err)
			}
			s := c.Session(info.ID, token)
			defer s.Close()
			last, log := playToEnd(t, ctx, s, nil)
			if last.Seat != 1 || len(last.View.Winners) == 0 || last.Game.Status != "finished" {
				t.Errorf("last state: seat %d, winners %v, status %s", last.Seat, last.View.Winners, last.Game.Status)
			}
			// The log is the game's story: it replays the record's events.
			rec, err := c.Record(ctx, info.ID)
			if err != nil {
				t.Fatal(err)
			}
			g, err := rec.Game()
			if err != nil {
				t.Fatal(err)
			}
			if got, want := marshal(t, log), marshal(t, g.Events()); got != want {
				t.Errorf("events differ from the record's:\n got %.400s\nwant %.400s", got, want)
			}
		})
	}
}

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The client reconnects after the server drops the connection, and the
// first state of the new connection carries the whole story.
func TestReconnect(t *testing.T) {
	srv := newServer(t)
	c := newClient(t, srv)
	ctx := testContext(t)
	info, err := c.Create(ctx, []string{"", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	_, token, err := c.Join(ctx, info.ID, "Ann", 0)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Session(info.ID, token)
	defer s.Close()
	s.Backoff = fastBackoff
	var drops []error
	s.OnDrop = func(err error, _ time.Duration) { drops = append(drops, err) }

	firsts, states := 0, 0
	last, log := playToEnd(t, ctx, s, func(st *State) {
		states++
		if st.First {
			firsts++
			if st.View != nil && len(st.Events) == 0 && st.View.Moves > 0 {
				t.Errorf("first state after reconnecting has no events at move %d", st.View.Moves)
			}
		}
		if states%25 == 0 {
			srv.ln.cut()
		}
	})
	if firsts < 2 || len(drops) == 0 {
		t.Fatalf("%d connections, %d drops: the test never reconnected", firsts, len(drops))
	}
	if !last.Over() {
		t.Fatal("not over")
	}
	rec, err := c.Record(ctx, info.ID)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := rec.Game()
	if got, want := marshal(t, log), marshal(t, g.Events()); got != want {
		t.Errorf("after %d reconnections the log differs from the record's events", firsts-1)
	}
}

func TestErrors(t *testing.T) {
	srv := newServer(t)
	c := newClient(t, srv)
	ctx := testContext(t)
	info, err := c.Create(ctx, []string{"", ""})
	if err != nil {
		t.Fatal(err)
	}
	_, ann, err := c.Join(ctx, info.ID, "Ann", 0)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("http", func(t *testing.T) {
		tests := []struct {
			name   string
			err    error
			code   Code
			status int
		}{
			{"unknown game", second(c.Join(ctx, "zzzzzzzzzz", "Ann", -1)), NotFound, 404},
			{"empty name", second(c.Join(ctx, info.ID, "", -1)), BadName, 400},
			{"seat taken", second(c.Join(ctx, info.ID, "Bob", 0)), SeatTaken, 409},
			{"bad level", errOf(c.Create(ctx, []string{"", "genius"})), BadRequest, 400},
			{"no record yet", errOf(c.Record(ctx, info.ID)), NotStarted, 409},
		}
		for _, tt := range tests {
			var e *Error
			if !errors.As(tt.err, &e) || !errors.Is(tt.err, tt.code) || e.Status != tt.status || e.Message == "" {
				t.Errorf("%s: error %#v, want code %s and status %d", tt.name, tt.err, tt.code, tt.status)
			}
		}
	})

	t.Run("dial unknown game", func(t *testing.T) {
		_, err := c.Dial(ctx, "zzzzzzzzzz", "")
		if !errors.Is(err, NotFound) {
			t.Errorf("Dial = %v, want not_found", err)
		}
		// A session gives up at once instead of retrying forever.
		_, err = c.Session("zzzzzzzzzz", "").Next(ctx)
		if !errors.Is(err, NotFound) {
			t.Errorf("Next = %v, want not_found", err)
		}
	})

	t.Run("websocket", func(t *testing.T) {
		_, bob, err := c.Join(ctx, info.ID, "Bob", 1)
		if err != nil {
			t.Fatal(err)
		}
		// The cheques are dealt by lot, so either may hold the highest and start (R6).
		first, err := c.Dial(ctx, info.ID, ann)
		if err != nil {
			t.Fatal(err)
		}
		st, err := first.Read(ctx)
		first.Close()
		if err != nil || st.View == nil {
			t.Fatalf("first state %+v, %v", st, err)
		}
		mover, other := ann, bob
		if st.View.ToMove == 1 {
			mover, other = bob, ann
		}
		tests := []struct {
			token, move string
			seq         int
			code        Code
		}{
			{other, "draw", 0, NotYourTurn},
			{mover, "bid 99", -1, IllegalMove},
			{mover, "draw", 5, Stale},
		}
		for _, tt := range tests {
			conn, err := c.Dial(ctx, info.ID, tt.token)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			st, err := conn.Read(ctx)
			if err != nil || !st.First || st.View == nil {
				t.Fatalf("first state %+v, %v", st, err)
			}
			if err := conn.Move(ctx, tt.move, tt.seq); err != nil {
				t.Fatal(err)
			}
			// States of changes before the move may come first.
			for range 5 {
				if _, err = conn.Read(ctx); err != nil {
					break
				}
			}
			var e *Error
			if !errors.As(err, &e) || e.Code != tt.code || e.Status != 0 {
				t.Errorf("%s: %v, want %s", tt.move, err, tt.code)
			}
		}
	})
}

func second(_ int, _ string, err error) error { return err }

func errOf[T any](_ T, err error) error { return err }

func TestParseInvite(t *testing.T) {
	tests := []struct {
		in, server, id string
	}{
		{"k3x9q2m7ab", "", "k3x9q2m7ab"},
		{"/g/k3x9q2m7ab", "", "k3x9q2m7ab"},
		{"http://localhost:8080/g/k3x9q2m7ab", "http://localhost:8080", "k3x9q2m7ab"},
		{" https://club.example/razzia/g/k3x9q2m7ab/ ", "https://club.example/razzia", "k3x9q2m7ab"},
		{"http://h/g/k3x9q2m7ab?x=1#y", "http://h", "k3x9q2m7ab"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			server, id, err := ParseInvite(tt.in)
			if err != nil || server != tt.server || id != tt.id {
				t.Errorf("ParseInvite = %q, %q, %v; want %q, %q", server, id, err, tt.server, tt.id)
			}
		})
	}
	for _, bad := range []string{"", "http://h/", "http://h/x/k3x9q2m7ab", "/g/K3X!", "a/b", "http:///g/abc"} {
		if s, id, err := ParseInvite(bad); err == nil {
			t.Errorf("ParseInvite(%q) = %q, %q; want an error", bad, s, id)
		}
	}
}

func TestNew(t *testing.T) {
	for _, bad := range []string{"", "localhost:8080", "ftp://h", "http://", "ws://h"} {
		if _, err := New(bad); err == nil {
			t.Errorf("New(%q): no error", bad)
		}
	}
	c, err := New("https://club.example/razzia/")
	if err != nil || c.URL() != "https://club.example/razzia" {
		t.Errorf("New = %v, %v", c, err)
	}
}

// Events decode to the engine's: encoding them again gives the same JSON,
// every kind of event included.
func TestDecodeEvents(t *testing.T) {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"A", "B", "C"}, Seed: []byte("events")})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for s := g.State(); !s.Over(); s = g.State() {
		legal := g.LegalMoves()
		if err := g.Play(legal[r.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	want := marshal(t, g.Events())
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(want), &raw); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, r := range raw {
		var k struct{ Kind string }
		json.Unmarshal(r, &k)
		kinds[k.Kind] = true
	}
	if len(kinds) < 8 {
		t.Errorf("the game has only the kinds %v", kinds)
	}
	if got := marshal(t, decodeEvents(raw)); got != want {
		t.Errorf("events changed:\n got %.300s\nwant %.300s", got, want)
	}
	// Unknown kinds and fields are ignored.
	extra := []json.RawMessage{json.RawMessage(`{"kind":"earthquake","seat":1}`), json.RawMessage(`{"kind":"bid","seat":1,"cheque":9,"mood":"bold"}`)}
	if got := marshal(t, decodeEvents(extra)); got != `[{"kind":"bid","seat":1,"cheque":9}]` {
		t.Errorf("decoding unknown kinds and fields: %s", got)
	}
}
