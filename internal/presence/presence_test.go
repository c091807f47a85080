package presence

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/postgres/pgschema"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
	"github.com/razziagame/razzia/internal/testclock"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var migrated = pgschema.Migrated

// A fakeClock moves only when the test advances it.
type fakeClock = testclock.Clock

func newFakeClock() *fakeClock { return testclock.New() }

// stores opens the store of each node: one memstore they share, or a
// connection each to one PostgreSQL database.
var stores = map[string]func(t *testing.T) func() store.Store{
	"memstore": func(t *testing.T) func() store.Store {
		st := memstore.New()
		t.Cleanup(func() { st.Close() })
		return func() store.Store { return st }
	},
	"postgres": func(t *testing.T) func() store.Store {
		db := migrated.DB(t)
		return func() store.Store {
			st, err := postgres.Open(t.Context(), db, postgres.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		}
	},
}

// node starts the presence of a node on st with clk's time.
func node(t *testing.T, st store.Store, name string, clk *fakeClock) *Service {
	t.Helper()
	s := New(st, Options{Node: name, Now: clk.Now, AfterFunc: clk.AfterFunc})
	s.ticked = make(chan struct{}, 64)
	if err := s.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// kill stops the node as a killed process stops: its rows stay, its beat
// lapses.
func (s *Service) kill() {
	s.cancel()
	<-s.done
}

// beatAll advances the clock by one beat and waits until each live node
// has handled it (the clock has not moved otherwise since they started).
func beatAll(clk *fakeClock, nodes ...*Service) {
	clk.Advance(DefaultBeat)
	for _, n := range nodes {
		<-n.ticked
	}
}

// next returns the next event of f that is not Changed, within a real
// second: the notices between nodes take real time.
func next(t *testing.T, f *Feed) Event {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case e := <-f.Events():
			if e.Kind != Changed {
				return e
			}
		case <-timeout:
			t.Fatal("no presence event within 5 s (real time)")
			return Event{}
		}
	}
}

var ann = Person{Key: "a:ann", Account: "ann", Name: "Ann"}

func forStores(t *testing.T, run func(t *testing.T, open func() store.Store)) {
	for name, mk := range stores {
		t.Run(name, func(t *testing.T) {
			run(t, mk(t))
		})
	}
}

// TestOnlineAcrossNodes: a person who connects to one node is online on
// the other within 5 s (at once by the clock, a notice's delay in real
// time), and offline Linger after closing their last page, not before;
// a page opened meanwhile keeps them online without a new "online".
func TestOnlineAcrossNodes(t *testing.T) {
	forStores(t, func(t *testing.T, open func() store.Store) {
		ctx := t.Context()
		clk := newFakeClock()
		a, b := node(t, open(), "node-a", clk), node(t, open(), "node-b", clk)
		feed := b.Feed()
		defer feed.Close()
		start := time.Now()
		c, err := a.Connect(ctx, ann, "", -1)
		if err != nil {
			t.Fatal(err)
		}
		if e := next(t, feed); e.Kind != Online || e.Status.Name != "Ann" || e.Status.Activity != Lobby {
			t.Fatalf("event = %+v, want Ann online in the lobby", e)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("online on the other node after %v, want within 5 s", d)
		}
		if !b.OnlineAccount("ann") || b.OnlineAccount("bob") {
			t.Error("OnlineAccount on node b: want ann only")
		}
		// Ann goes from the lobby to a table: the page closes, the next opens.
		c.Close()
		if e := next(t, feed); e.Kind != Lingering {
			t.Fatalf("event = %+v, want Lingering", e)
		}
		clk.Advance(DefaultLinger / 2)
		c2, err := a.Connect(ctx, ann, "g1", 0)
		if err != nil {
			t.Fatal(err)
		}
		waitStatus(t, b, ann.Key, func(st Status) bool { return st.Activity == Playing && st.Game == "g1" })
		clk.Advance(DefaultLinger)
		if !b.Online(ann.Key) {
			t.Fatal("Ann went offline while a page of hers was open")
		}
		c2.Close()
		if e := next(t, feed); e.Kind != Lingering {
			t.Fatalf("event = %+v, want Lingering", e)
		}
		clk.Advance(DefaultLinger - time.Millisecond)
		if !b.Online(ann.Key) {
			t.Fatal("Ann offline before Linger passed")
		}
		clk.Advance(time.Millisecond)
		if e := next(t, feed); e.Kind != Offline || e.Status.Key != ann.Key {
			t.Fatalf("event = %+v, want Ann offline", e)
		}
		if b.Online(ann.Key) || a.Online(ann.Key) {
			t.Error("Ann still online after Linger")
		}
	})
}

// waitStatus waits (real time, at most 5 s) until the person's status on
// s satisfies ok.
func waitStatus(t *testing.T, s *Service, key string, ok func(Status) bool) {
	t.Helper()
	f := s.Feed()
	defer f.Close()
	timeout := time.After(5 * time.Second)
	for {
		if st, on := s.Lookup(key); on && ok(st) {
			return
		}
		select {
		case <-f.Events():
		case <-timeout:
			st, on := s.Lookup(key)
			t.Fatalf("status of %s = %+v (online %v) after 5 s", key, st, on)
		}
	}
}

// TestNodeDies: the people of a node that dies without a word are
// offline on the others within 60 s of its last beat.
func TestNodeDies(t *testing.T) {
	forStores(t, func(t *testing.T, open func() store.Store) {
		clk := newFakeClock()
		a, b := node(t, open(), "node-a", clk), node(t, open(), "node-b", clk)
		feed := b.Feed()
		defer feed.Close()
		if _, err := a.Connect(t.Context(), ann, "", -1); err != nil {
			t.Fatal(err)
		}
		if e := next(t, feed); e.Kind != Online {
			t.Fatalf("event = %+v, want Online", e)
		}
		a.kill()
		died := clk.Now()
		for clk.Now().Sub(died) <= time.Minute && b.Online(ann.Key) {
			beatAll(clk, b)
		}
		if b.Online(ann.Key) {
			t.Fatalf("Ann still online %v after her node died", clk.Now().Sub(died))
		}
		t.Logf("offline %v after the node's death", clk.Now().Sub(died))
		// The store forgets the dead node's rows too, and notes when Ann
		// was last seen: at the dead node's last beat's expiry.
		rows, err := b.st.Presence(t.Context(), clk.Now())
		if err != nil || len(rows) != 0 {
			t.Errorf("store rows after the death = %+v, %v", rows, err)
		}
	})
}

// TestSeatsAcrossNodes: a seat's presence (connected, away, gone) is the
// same on every node, whichever node its person is connected to.
func TestSeatsAcrossNodes(t *testing.T) {
	forStores(t, func(t *testing.T, open func() store.Store) {
		ctx := t.Context()
		clk := newFakeClock()
		a, b := node(t, open(), "node-a", clk), node(t, open(), "node-b", clk)
		changes, stop := b.WatchGame("g1")
		defer stop()
		waitSeats := func(want map[int]Seat) {
			t.Helper()
			timeout := time.After(5 * time.Second)
			for {
				got := b.Seats("g1")
				if len(got) == len(want) && func() bool {
					for k, v := range want {
						if got[k] != v {
							return false
						}
					}
					return true
				}() {
					return
				}
				select {
				case <-changes:
				case <-timeout:
					t.Fatalf("seats on node b = %v, want %v", got, want)
				}
			}
		}
		seat0, err := a.Connect(ctx, ann, "g1", 0)
		if err != nil {
			t.Fatal(err)
		}
		// A guest's seat known by its seat only, and a spectator.
		seat1, err := a.Connect(ctx, Person{}, "g1", 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Connect(ctx, Person{Key: "g:kim", Name: "Kim"}, "g1", -1); err != nil {
			t.Fatal(err)
		}
		waitSeats(map[int]Seat{0: {Connected: true}, 1: {Connected: true}})
		if err := seat1.SetAway(ctx, true); err != nil {
			t.Fatal(err)
		}
		waitSeats(map[int]Seat{0: {Connected: true}, 1: {Connected: true, Away: true}})
		seat0.Close()
		waitSeats(map[int]Seat{1: {Connected: true, Away: true}})
		seen, err := b.SeatsSeen(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := seen[1]; !ok {
			t.Errorf("SeatsSeen = %v: the connected seat 1 is seen now", seen)
		}
		// Ann lingers, listed as she was; Kim watches; the seat without a
		// person is nobody.
		if people := b.People(); len(people) != 2 || people[0].Name != "Ann" || people[0].Activity != Playing ||
			people[1].Name != "Kim" || people[1].Activity != Watching {
			t.Errorf("People = %+v, want Ann playing (lingering) and Kim watching", people)
		}
	})
}

// TestResyncAfterMissed: a node that may have missed notices reads every
// row again and ends where the others are.
func TestResyncAfterMissed(t *testing.T) {
	clk := newFakeClock()
	st := memstore.New()
	t.Cleanup(func() { st.Close() })
	a := node(t, st, "node-a", clk)
	b := New(st, Options{Node: "node-b", Now: clk.Now, AfterFunc: clk.AfterFunc})
	// Node b was not listening while Ann connected to node a.
	if _, err := a.Connect(t.Context(), ann, "g1", 2); err != nil {
		t.Fatal(err)
	}
	if b.Online(ann.Key) {
		t.Fatal("b knows Ann before it started")
	}
	if err := b.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if st, ok := b.Lookup(ann.Key); !ok || st.Activity != Playing || st.Game != "g1" {
		t.Errorf("after Start, b sees Ann as %+v (online %v), want playing g1", st, ok)
	}
	if seats := b.Seats("g1"); !seats[2].Connected {
		t.Errorf("after Start, b sees the seats of g1 as %v", seats)
	}
}

// TestStatusAggregates: a person's status is their most telling
// connection: playing over watching over the lobby, away only when every
// page is hidden.
func TestStatusAggregates(t *testing.T) {
	ctx := t.Context()
	clk := newFakeClock()
	st := memstore.New()
	t.Cleanup(func() { st.Close() })
	a := node(t, st, "node-a", clk)
	lobby, err := a.Connect(ctx, ann, "", -1)
	if err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	watch, err := a.Connect(ctx, ann, "g1", -1)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, act Activity, game string, away bool) {
		t.Helper()
		s, ok := a.Lookup(ann.Key)
		if !ok || s.Activity != act || s.Game != game || s.Away != away {
			t.Errorf("%s: status %+v (online %v), want %v %q away %v", what, s, ok, act, game, away)
		}
	}
	check("lobby and watching", Watching, "g1", false)
	play, err := a.Connect(ctx, ann, "g2", 1)
	if err != nil {
		t.Fatal(err)
	}
	check("and playing", Playing, "g2", false)
	for _, c := range []*Conn{lobby, watch} {
		if err := c.SetAway(ctx, true); err != nil {
			t.Fatal(err)
		}
	}
	check("two pages hidden", Playing, "g2", false)
	if err := play.SetAway(ctx, true); err != nil {
		t.Fatal(err)
	}
	check("every page hidden", Playing, "g2", true)
	play.Close()
	check("the table closed", Watching, "g1", true)
	if s, _ := a.Lookup(ann.Key); !s.Since.Equal(clk.Now().Add(-time.Second)) {
		t.Errorf("Since = %v, want the lobby's connection's %v", s.Since, clk.Now().Add(-time.Second))
	}
	lobby.Close()
	watch.Close()
	check("every page closed: lingering as last seen", Watching, "g1", true)
	if people := a.People(); len(people) != 1 || people[0].Name != "Ann" {
		t.Errorf("People = %+v, want Ann", people)
	}
}

// TestTell: a message told to a person reaches their open inboxes on
// every node, once, and no other person's; one told to the lobbies
// reaches every inbox that asked for them; an inbox that falls behind
// gets a resync in place of what it lost.
func TestTell(t *testing.T) {
	forStores(t, func(t *testing.T, open func() store.Store) {
		clk := newFakeClock()
		a, b := node(t, open(), "node-a", clk), node(t, open(), "node-b", clk)
		onA, stopA := a.Inbox("a:ann", false)
		defer stopA()
		onB, stopB := b.Inbox("a:ann", true)
		defer stopB()
		other, stopO := b.Inbox("g:bob", false)
		defer stopO()
		receive := func(name string, c <-chan []byte, want []byte) {
			t.Helper()
			select {
			case got := <-c:
				if string(got) != string(want) {
					t.Errorf("%s got %s, want %s", name, got, want)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%s got nothing within 5 s", name)
			}
		}
		msg := []byte(`{"type":"challenge","from":"Bob"}`)
		if err := a.Tell(t.Context(), "a:ann", msg); err != nil {
			t.Fatal(err)
		}
		receive("node a", onA, msg)
		receive("node b", onB, msg)
		if err := a.Tell(t.Context(), "a:ann", []byte("not json")); err == nil {
			t.Error("a message that is not JSON was told")
		}
		if err := a.Tell(t.Context(), "a:ann", []byte(`"`+strings.Repeat("x", store.MaxPayload)+`"`)); !errors.Is(err, ErrTooLong) {
			t.Errorf("a message too long: %v", err)
		}
		seeks := []byte(`{"type":"seeks"}`)
		if err := a.TellLobbies(t.Context(), seeks); err != nil {
			t.Fatal(err)
		}
		receive("node b's lobby", onB, seeks)
		select {
		case got := <-other:
			t.Errorf("Bob's inbox got %s", got)
		case got := <-onA:
			t.Errorf("node a got a second message %s", got)
		default:
		}
		for range inboxBuffer + 5 {
			if err := a.Tell(t.Context(), "a:ann", msg); err != nil {
				t.Fatal(err)
			}
		}
		var last []byte
		for range inboxBuffer {
			last = <-onA
		}
		if string(last) != string(Resync) {
			t.Errorf("an inbox that fell behind ends with %s, want %s", last, Resync)
		}
	})
}

// TestCopiesAgree: many connections made, moved, hidden and closed at
// once on two nodes leave both nodes' copies of the rows the same as the
// store's.
func TestCopiesAgree(t *testing.T) {
	forStores(t, func(t *testing.T, open func() store.Store) {
		ctx := t.Context()
		clk := newFakeClock()
		nodes := []*Service{node(t, open(), "node-a", clk), node(t, open(), "node-b", clk)}
		feeds := []*Feed{nodes[0].Feed(), nodes[1].Feed()}
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n := nodes[g%2]
				var open []*Conn
				for i := range 30 {
					p := Person{Key: fmt.Sprintf("g:%d", (g*7+i)%11), Name: "Kim"}
					switch i % 4 {
					case 0, 1:
						c, err := n.Connect(ctx, p, fmt.Sprintf("t%d", i%3), i%5-1)
						if err != nil {
							t.Error(err)
							return
						}
						open = append(open, c)
					case 2:
						if len(open) > 0 {
							open[0].SetAway(ctx, i%8 == 2)
							open[0].SetSeat(ctx, i%3)
						}
					case 3:
						if len(open) > 0 {
							open[len(open)-1].Close()
							open = open[:len(open)-1]
						}
					}
				}
			}()
		}
		wg.Wait()
		want, err := nodes[0].st.Presence(ctx, clk.Now())
		if err != nil {
			t.Fatal(err)
		}
		timeout := time.After(5 * time.Second)
		for i, n := range nodes {
			for {
				n.mu.Lock()
				got := slices.Collect(maps.Values(n.rows))
				n.mu.Unlock()
				store.SortPresence(got)
				if slices.EqualFunc(got, want, func(a, b store.PresenceRow) bool {
					return a.Node == b.Node && a.Conn == b.Conn && a.Person == b.Person && a.Game == b.Game &&
						a.Seat == b.Seat && a.Away == b.Away && a.Since.Equal(b.Since)
				}) {
					break
				}
				// Not yet: the notices still coming change the copy.
				select {
				case <-feeds[i].Events():
				case <-feeds[i].Lost():
				case <-timeout:
					t.Fatalf("%s holds %d rows, the store %d:\n%+v\nwant %+v", n.opts.Node, len(got), len(want), got, want)
				}
			}
		}
	})
}

// flakyDrops is a store whose DropPresence fails while down is set.
type flakyDrops struct {
	store.Store
	mu   sync.Mutex
	down bool
}

func (f *flakyDrops) DropPresence(ctx context.Context, node string, conn int64, at time.Time) error {
	f.mu.Lock()
	down := f.down
	f.mu.Unlock()
	if down {
		return errors.New("the database is down")
	}
	return f.Store.DropPresence(ctx, node, conn, at)
}

// TestDropRetried: a row the store could not drop when its connection
// closed is dropped at the next beat once the store is back, so that no
// node reads a ghost of it.
func TestDropRetried(t *testing.T) {
	clk := newFakeClock()
	mem := memstore.New()
	t.Cleanup(func() { mem.Close() })
	st := &flakyDrops{Store: mem, down: true}
	a := node(t, st, "node-a", clk)
	c, err := a.Connect(t.Context(), ann, "", -1)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if rows, _ := mem.Presence(t.Context(), clk.Now()); len(rows) != 1 {
		t.Fatalf("with the store down, it holds %d rows, want the one not dropped", len(rows))
	}
	st.mu.Lock()
	st.down = false
	st.mu.Unlock()
	beatAll(clk, a)
	if rows, _ := mem.Presence(t.Context(), clk.Now()); len(rows) != 0 {
		t.Errorf("after a beat with the store back, it holds %+v", rows)
	}
}
