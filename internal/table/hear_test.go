package table

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// hearing is a store that hands notices to a function (store.Hearer), on
// a goroutine of its own, as PostgreSQL's listener does; it has no
// Subscribe.
type hearing struct {
	store.Store
	heard atomic.Int64
}

func (s *hearing) Subscribe(context.Context, ...string) (<-chan store.Notice, error) {
	return nil, errors.New("Subscribe on a store that hears: a node hears with Hear")
}

func (s *hearing) Hear(ctx context.Context, f func(store.Notice), channels ...string) (<-chan struct{}, error) {
	notices, err := s.Store.Subscribe(ctx, channels...)
	if err != nil {
		return nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for n := range notices {
			s.heard.Add(1)
			f(n)
		}
	}()
	return done, nil
}

// watchSeats watches the game on h with the seats' tokens, until the
// test ends.
func watchSeats(t *testing.T, h *Hub, id string, tokens [2]string) [2]*Subscription {
	t.Helper()
	var seats [2]*Subscription
	for i, token := range tokens {
		var err error
		if seats[i], err = h.Watch(testContext(t), id, Watcher{Token: token}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(seats[i].Close)
	}
	return seats
}

// toMove waits until the seats see the game after moves moves, and
// returns the seat to move with its view.
func toMove(t *testing.T, seats [2]*Subscription, moves int) (int, Update) {
	t.Helper()
	at := func(u Update) bool { return u.View != nil && u.View.Moves == moves }
	u := await(t, seats[0], at)
	if seat := u.View.ToMove; seat != 0 {
		return seat, await(t, seats[seat], at)
	}
	return 0, u
}

// TestNodeHears: a node on a store that hands it notices (store.Hearer)
// hears them there, with no goroutine of its own between: its replica
// follows the owner's moves, and the moves it passes to the owner are
// answered by their notices.
func TestNodeHears(t *testing.T) {
	st := memstore.New()
	owner := nodeHub(t, st)
	heard := &hearing{Store: st}
	replica := nodeHub(t, heard)
	ctx := testContext(t)
	id, tokens := seatAnnAndBob(t, owner)
	seats := watchSeats(t, replica, id, tokens)
	for n := range 6 {
		via := replica
		if n%2 == 1 {
			via = owner
		}
		seat, u := toMove(t, seats, n)
		if err := via.Play(ctx, id, tokens[seat], u.View.Legal[0], n); err != nil {
			t.Fatalf("move %d: %v", n+1, err)
		}
	}
	toMove(t, seats, 6)
	if heard.heard.Load() == 0 {
		t.Error("the node heard no notice through Hear")
	}
}

// TestReplicaPassesWritesOn: a replica that passed a write to the game's
// owner passes the next ones without waiting for its game's goroutine,
// which may be busy broadcasting: a move through it is made while that
// goroutine is held.
func TestReplicaPassesWritesOn(t *testing.T) {
	st := memstore.New()
	owner, replica := nodeHub(t, st), nodeHub(t, st)
	ctx := testContext(t)
	id, tokens := seatAnnAndBob(t, owner)
	seats := watchSeats(t, replica, id, tokens)
	seat, u := toMove(t, seats, 0)
	if err := replica.Play(ctx, id, tokens[seat], u.View.Legal[0], 0); err != nil {
		t.Fatal(err)
	}
	seat, u = toMove(t, seats, 1)
	l, _ := replica.live.get(id)
	held, release := make(chan struct{}), make(chan struct{})
	l.post(func(*loop) {
		close(held)
		<-release
	})
	<-held
	defer close(release)
	short, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := replica.Play(short, id, tokens[seat], u.View.Legal[0], 1); err != nil {
		t.Fatalf("a move through a replica whose goroutine is held: %v", err)
	}
}

// TestNoticePassedOver: a node passes over, without decoding them (no
// allocation, though the clock's quotes are escaped), the notices of the
// moves and clocks of the games it runs (its own) and of those it does
// not serve; it decodes the others, and a move that answers its request
// wherever its game runs.
func TestNoticePassedOver(t *testing.T) {
	h := nodeHub(t, memstore.New())
	id, _ := seatAnnAndBob(t, h)
	clock := []byte(`{"running":0}`)
	heard := func(c store.Change) float64 {
		n := store.Notice{Channel: store.ChangesChannel, Payload: c.Payload()}
		return testing.AllocsPerRun(50, func() { h.notice(n) })
	}
	for name, c := range map[string]store.Change{
		"its own move":              store.MoveChange(id, 40, "bid 9", store.StatusPlaying, clock),
		"its own clock":             store.ClockChange(id, 41, store.StatusPlaying, clock),
		"a move of a game not here": store.MoveChange("elsewhere", 3, "bid 9", store.StatusPlaying, clock),
	} {
		if !h.passOver(c.Payload()) {
			t.Errorf("%s: decoded", name)
		}
		if a := heard(c); a != 0 {
			t.Errorf("%s: %v allocations heard, want none", name, a)
		}
	}
	asked := store.MoveChange("elsewhere", 3, "bid 9", store.StatusPlaying, clock).Asked(&store.Ask{Node: h.node, ID: 7})
	for name, c := range map[string]store.Change{
		"a move that answers its request": asked,
		"its own lease":                   {Game: id, Kind: store.ChangeLease, Node: "other"},
		"a chat":                          {Game: "elsewhere", Kind: store.ChangeChat},
	} {
		if h.passOver(c.Payload()) {
			t.Errorf("%s: passed over", name)
		}
	}
}

// TestForwarderChannelsReused: the channel of a request passed on serves
// the next one once no answer can come to it, and a late answer never
// reaches another request: one delivered and not received keeps its
// channel out of use.
func TestForwarderChannelsReused(t *testing.T) {
	var f forwarder
	f.init()
	id, ch := f.add()
	f.remove(id, ch, false) // no answer came: the channel serves again
	next, again := f.add()
	if again != ch {
		t.Error("a channel no answer came to is not used again")
	}
	f.deliver(id, answer{Kind: "late"}) // to a request gone: nobody hears it
	f.deliver(next, answer{Seat: 2})
	if a := <-again; a.Seat != 2 {
		t.Fatalf("the next request got %+v", a)
	}
	f.remove(next, again, true)
	late, ch := f.add()
	if ch != again {
		t.Error("a channel whose answer was received is not used again")
	}
	f.deliver(late, answer{Kind: "late"}) // delivered, never received
	f.remove(late, ch, false)
	_, fresh := f.add()
	if fresh == ch || len(fresh) != 0 {
		t.Errorf("a channel holding a late answer serves another request")
	}
}
