package httpapi_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/coder/websocket"

	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// TestMain stops the PostgreSQL test cluster, if a test started one.
func TestMain(m *testing.M) { pgtest.Main(m) }

var migrated = &pgtest.Template{
	Prepare: func(ctx context.Context, url string) error {
		st, err := postgres.Open(ctx, url, postgres.Options{})
		if err != nil {
			return err
		}
		return st.Close()
	},
	Keep: []string{"razzia_schema_version"},
}

// TestPeopleAcrossNodes: two servers on one PostgreSQL database. A player
// connected to one is in the other's online list; at a table, a seat's
// person connected to one node is connected, then gone, on the other.
func TestPeopleAcrossNodes(t *testing.T) {
	db := migrated.DB(t)
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
