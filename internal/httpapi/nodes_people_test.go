package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

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

// pgNodes returns a maker of servers that share one PostgreSQL database,
// each with the options given (one at most), its store set.
func pgNodes(t *testing.T) func(...servertest.Options) *servertest.Server {
	db := pgschema.Migrated.DB(t)
	return func(opts ...servertest.Options) *servertest.Server {
		var o servertest.Options
		if len(opts) > 0 {
			o = opts[0]
		}
		o.Store = func(*memstore.Store) store.Store {
			st, err := postgres.Open(t.Context(), db, postgres.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		}
		return servertest.New(t, o)
	}
}

// TestPeopleAcrossNodes: two servers on one PostgreSQL database. A player
// connected to one is in the other's online list; at a table, a seat's
// person connected to one node is connected, then gone, on the other.
func TestPeopleAcrossNodes(t *testing.T) {
	node := pgNodes(t)
	a, b := node(), node()
	ann, bob := newBrowser(t, a), newBrowser(t, a)
	ann.register("Ann")
	bob.register("Bob")
	onB := func(x *browser) *browser { return &browser{t: t, srv: b, hc: x.hc} }

	annLive := ann.live("")
	list := onB(bob).live("?list=1")
	readOnline(t, list, func(m protocol.OnlineMessage) bool { return named(m, "Ann") != nil && named(m, "Bob") != nil })
	annLive.Close(websocket.StatusNormalClosure, "")

	id := a.Create("", "", "easy").ID
	for _, x := range []*browser{ann, bob} {
		x.must(http.MethodPost, "/api/games/"+id+"/join", protocol.JoinRequest{Name: "x"}, nil)
	}
	annTable := ann.tableSocket(id)
	bobTable := onB(bob).tableSocketQuery(id, "?presence=1")
	seat := func(want string) {
		t.Helper()
		for {
			var m protocol.SeatsMessage
			readType(t, bobTable, protocol.TypeSeats, &m)
			for _, s := range m.Seats {
				if s.Seat == 0 && s.Presence == want {
					return
				}
			}
		}
	}
	seat(protocol.SeatConnected)
	annTable.Close(websocket.StatusNormalClosure, "")
	seat(protocol.SeatGone)
}

// TestHoldAcrossNodesWired: at a blitz table whose two people are
// connected to two servers on one PostgreSQL database, the new round's
// held clock waits for the one on the other node, and starts as soon as
// they leave (presence tells the node that runs the table).
func TestHoldAcrossNodesWired(t *testing.T) {
	node := pgNodes(t)
	a, b := node(), node()
	ann := newBrowser(t, a)
	var created protocol.GameAnswer
	ann.must(http.MethodPost, "/api/games", protocol.CreateRequest{Seats: []protocol.SeatRequest{{}, {}}, Pace: "blitz"}, &created)
	id := created.Game.ID
	var joined [2]protocol.JoinAnswer
	for i, name := range []string{"Ann", "Bob"} {
		newBrowser(t, a).must(http.MethodPost, "/api/games/"+id+"/join", protocol.JoinRequest{Name: name}, &joined[i])
	}
	dial := func(srv *servertest.Server, token string) *client {
		u := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/games/" + id + "/ws"
		c, _, err := websocket.Dial(servertest.Context(t), u, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.CloseNow() })
		return &client{t: t, e: &env{Server: srv, t: t, ctx: servertest.Context(t)}, c: c}
	}
	cs := []*client{dial(a, joined[0].Token), dial(b, joined[1].Token)}
	// Play round 1 (the first legal move each turn) until the next
	// round's clock is held.
	latest := make([]message, 2)
	state := func(i int) message {
		for {
			if m := cs[i].read(); m.Type == protocol.TypeState {
				latest[i] = m
				return m
			}
		}
	}
	for i := range cs {
		state(i)
	}
	for latest[0].Clock == nil || latest[0].Clock.HeldUntil == 0 {
		v := latest[0].View
		mover := 0
		if latest[1].Seat == v.ToMove {
			mover = 1
		}
		for latest[mover].View.Moves < v.Moves {
			state(mover)
		}
		cs[mover].send(moveMessage(latest[mover].View.Legal[0], v.Moves))
		for latest[0].View.Moves == v.Moves {
			state(0)
		}
	}
	cs[0].send(`{"type":"continue"}`)
	for len(latest[0].Clock.Continued) == 0 {
		state(0)
	}
	if latest[0].Clock.Running != -1 {
		t.Fatalf("Ann continued while Bob reads on the other node: the clock %+v, want it held", latest[0].Clock)
	}
	left := time.Now()
	cs[1].c.Close(websocket.StatusNormalClosure, "")
	for latest[0].Clock.Running < 0 {
		state(0)
	}
	// The grace is 15 s: a clock that started within 5 s started because
	// Bob left.
	if d := time.Since(left); d > 5*time.Second {
		t.Errorf("the clock started %v after Bob left: at the grace's end, not when he left", d)
	}
}
