package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
)

func newClient(t *testing.T, s *servertest.Server) *client.Client {
	t.Helper()
	c, err := client.New(s.URL + "/")
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
func playToEnd(t *testing.T, ctx context.Context, s *client.Session, each func(*client.State)) (*client.State, []razzia.Event) {
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
		for _, e := range st.Events {
			if e.Text == "" {
				t.Fatalf("an event without its sentence: %+v", e)
			}
			log = append(log, e.Event)
		}
		if each != nil {
			each(st)
		}
		if st.Over() {
			return st, log
		}
		if st.MyTurn() {
			if err := s.Move(ctx, st.View.Legal[0], st.View.Moves); err != nil && !errors.Is(err, client.ErrNotConnected) {
				t.Logf("Move: %v", err) // the connection dropped: the next state tells
			}
		}
	}
}

func TestPlayGame(t *testing.T) {
	for _, query := range []bool{false, true} {
		name := map[bool]string{false: "bearer", true: "query token"}[query]
		t.Run(name, func(t *testing.T) {
			srv := servertest.New(t, servertest.Options{})
			c := newClient(t, srv)
			c.TokenInQuery = query
			ctx := servertest.Context(t)
			info, _, err := c.Create(ctx, []string{"easy", "", "medium"})
			if err != nil {
				t.Fatal(err)
			}
			if info.Status != protocol.StatusOpen || info.Players != 3 || info.Invite != "/g/"+info.ID || !info.Seats[1].Open {
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
			if last.Seat != 1 || len(last.View.Winners) == 0 || last.Game.Status != protocol.StatusFinished {
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
	srv := servertest.New(t, servertest.Options{})
	c := newClient(t, srv)
	ctx := servertest.Context(t)
	info, _, err := c.Create(ctx, []string{"", "easy"})
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
	last, log := playToEnd(t, ctx, s, func(st *client.State) {
		states++
		if st.First {
			firsts++
			if st.View != nil && len(st.Events) == 0 && st.View.Moves > 0 {
				t.Errorf("first state after reconnecting has no events at move %d", st.View.Moves)
			}
		}
		if states%25 == 0 {
			srv.Cut()
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
	srv := servertest.New(t, servertest.Options{})
	c := newClient(t, srv)
	ctx := servertest.Context(t)
	info, _, err := c.Create(ctx, []string{"", ""})
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
			code   protocol.Code
			status int
		}{
			{"unknown game", second(c.Join(ctx, "zzzzzzzzzz", "Ann", -1)), protocol.NotFound, 404},
			{"empty name", second(c.Join(ctx, info.ID, "", -1)), protocol.BadName, 400},
			{"seat taken", second(c.Join(ctx, info.ID, "Bob", 0)), protocol.SeatTaken, 409},
			{"bad level", third(c.Create(ctx, []string{"", "genius"})), protocol.BadRequest, 400},
			{"unknown pace", third(c.CreateTable(ctx, client.Table{Seats: []string{"", "easy"}, Pace: "bullet"})), protocol.BadRequest, 400},
			{"cancel without the creator token", errOf(c.Cancel(ctx, info.ID, ann)), protocol.NotCreator, 403},
			{"no record yet", errOf(c.Record(ctx, info.ID)), protocol.NotStarted, 409},
		}
		for _, tt := range tests {
			var e *client.Error
			if !errors.As(tt.err, &e) || !errors.Is(tt.err, tt.code) || e.Status != tt.status || e.Message == "" {
				t.Errorf("%s: error %#v, want code %s and status %d", tt.name, tt.err, tt.code, tt.status)
			}
		}
	})

	t.Run("dial unknown game", func(t *testing.T) {
		_, err := c.Dial(ctx, "zzzzzzzzzz", "")
		if !errors.Is(err, protocol.NotFound) {
			t.Errorf("Dial = %v, want not_found", err)
		}
		// A session gives up at once instead of retrying forever.
		_, err = c.Session("zzzzzzzzzz", "").Next(ctx)
		if !errors.Is(err, protocol.NotFound) {
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
			code        protocol.Code
		}{
			{other, "draw", 0, protocol.NotYourTurn},
			{mover, "bid 99", 0, protocol.IllegalMove},
			{mover, "draw", 5, protocol.Stale},
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
			var e *client.Error
			if !errors.As(err, &e) || e.Code != tt.code || e.Status != 0 {
				t.Errorf("%s: %v, want %s", tt.move, err, tt.code)
			}
		}
	})
}

func second(_ int, _ string, err error) error { return err }

func third[T any](_ T, _ string, err error) error { return err }

func errOf[T any](_ T, err error) error { return err }

func TestParseInvite(t *testing.T) {
	tests := []struct {
		in, server, id string
	}{
		{"k3x7q2m5ab", "", "k3x7q2m5ab"},
		{"/g/k3x7q2m5ab", "", "k3x7q2m5ab"},
		{"http://localhost:8080/g/k3x7q2m5ab", "http://localhost:8080", "k3x7q2m5ab"},
		{" https://club.example/razzia/g/k3x7q2m5ab/ ", "https://club.example/razzia", "k3x7q2m5ab"},
		{"http://h/g/k3x7q2m5ab?x=1#y", "http://h", "k3x7q2m5ab"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			server, id, err := client.ParseInvite(tt.in)
			if err != nil || server != tt.server || id != tt.id {
				t.Errorf("ParseInvite = %q, %q, %v; want %q, %q", server, id, err, tt.server, tt.id)
			}
		})
	}
	for _, bad := range []string{"", "http://h/", "http://h/x/k3x7q2m5ab", "/g/K3X!", "a/b", "http:///g/abc"} {
		if s, id, err := client.ParseInvite(bad); err == nil {
			t.Errorf("client.ParseInvite(%q) = %q, %q; want an error", bad, s, id)
		}
	}
}

func TestNew(t *testing.T) {
	for _, bad := range []string{"", "localhost:8080", "ftp://h", "http://", "ws://h"} {
		if _, err := client.New(bad); err == nil {
			t.Errorf("New(%q): no error", bad)
		}
	}
	c, err := client.New("https://club.example/razzia/")
	if err != nil || c.URL() != "https://club.example/razzia" {
		t.Errorf("New = %v, %v", c, err)
	}
}

// TestBrief reads the same state whole and brief: the brief one carries
// the game, the turn and the legal moves, and no events.
func TestBrief(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	ctx := servertest.Context(t)
	id := srv.Create("", "").ID // two people: nothing moves but what the test plays
	_, token := srv.Join(id, "Ann")
	_, bob := srv.Join(id, "Bob")
	// A move, so that the state has events.
	for _, tok := range []string{token, bob} {
		st, err := srv.Dial(id, tok).Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.MyTurn() {
			if err := srv.Hub.Play(ctx, id, tok, st.View.Legal[0], 0); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	whole := newClient(t, srv)
	brief := newClient(t, srv)
	brief.Brief = true
	var states [2]*client.State
	for i, c := range []*client.Client{whole, brief} {
		conn, err := c.Dial(ctx, id, token)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if states[i], err = conn.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	ws, bs := states[0], states[1]
	if bs.Game.ID != id || bs.Seat != ws.Seat || bs.View.ToMove != ws.View.ToMove || bs.View.Phase != ws.View.Phase ||
		bs.View.Moves != ws.View.Moves || bs.MyTurn() != ws.MyTurn() || len(bs.View.Legal) != len(ws.View.Legal) ||
		!bs.First || bs.Size != ws.Size || bs.Size == 0 {
		t.Errorf("brief %+v %+v, whole %+v %+v", bs, *bs.View, ws, *ws.View)
	}
	if len(ws.Events) == 0 || len(bs.Events) != 0 || bs.View.Seats != nil || ws.View.Seats == nil {
		t.Errorf("events: whole %d, brief %d; brief seats %v: want the brief without them", len(ws.Events), len(bs.Events), bs.View.Seats)
	}
}

func TestCreatePacedAndCancel(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	c := newClient(t, srv)
	ctx := servertest.Context(t)
	info, creator, err := c.CreateTable(ctx, client.Table{Seats: []string{"", ""}, Pace: "day2"})
	if err != nil {
		t.Fatal(err)
	}
	if info.Pace == nil || info.Pace.ID != "day2" || info.Pace.Kind != "correspondence" {
		t.Errorf("pace = %+v, want day2", info.Pace)
	}
	got, err := c.Cancel(ctx, info.ID, creator)
	if err != nil || got.Status != protocol.StatusCancelled {
		t.Fatalf("Cancel = %s, %v; want cancelled", got.Status, err)
	}
	if _, _, err := c.Join(ctx, info.ID, "Ann", -1); !errors.Is(err, protocol.TableCancelled) {
		t.Errorf("joining a cancelled table: %v, want table_cancelled", err)
	}
}

// TestSetLevel: the creator gives a bot another level before the start;
// a token that is not the creator's, or a seat of a person, changes
// nothing.
func TestSetLevel(t *testing.T) {
	srv := servertest.New(t, servertest.Options{LevelBots: true})
	c := newClient(t, srv)
	ctx := servertest.Context(t)
	info, creator, err := c.Create(ctx, []string{"", "easy", ""})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.SetLevel(ctx, info.ID, creator, 1, "hard")
	if err != nil || got.Seats[1].Bot != "hard" {
		t.Fatalf("SetLevel = %+v, %v; want seat 1 hard", got.Seats, err)
	}
	if _, err := c.SetLevel(ctx, info.ID, "not-the-creator", 1, "easy"); !errors.Is(err, protocol.NotCreator) {
		t.Errorf("another's SetLevel: %v, want not_creator", err)
	}
	if _, err := c.SetLevel(ctx, info.ID, creator, 0, "easy"); !errors.Is(err, protocol.BadRequest) {
		t.Errorf("a person's seat: %v, want bad_request", err)
	}
	if after, _, err := c.Game(ctx, info.ID, ""); err != nil || after.Seats[1].Bot != "hard" {
		t.Errorf("after the refusals: %+v, %v; want seat 1 still hard", after.Seats, err)
	}
}

// TestGiveUp: a guest gives their seat up before the start and another
// person takes it; once the game has started it is refused.
func TestGiveUp(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	c := newClient(t, srv)
	ctx := servertest.Context(t)
	info, _, err := c.Create(ctx, []string{"", "", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	seat, gus, err := c.Join(ctx, info.ID, "Gus", -1)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.GiveUp(ctx, info.ID, gus, seat)
	if err != nil || !got.Seats[seat].Open {
		t.Fatalf("GiveUp = %+v, %v; want seat %d open", got.Seats, err, seat)
	}
	if again, _, err := c.Join(ctx, info.ID, "Ann", seat); err != nil || again != seat {
		t.Fatalf("Ann joins seat %d: %d, %v", seat, again, err)
	}
	_, bob, err := c.Join(ctx, info.ID, "Bob", -1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GiveUp(ctx, info.ID, bob, 1-seat); !errors.Is(err, protocol.AlreadyStarted) {
		t.Errorf("giving up after the start: %v, want already_started", err)
	}
}
