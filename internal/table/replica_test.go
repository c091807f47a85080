package table

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// readCounter counts the games a node reads whole from the store.
type readCounter struct {
	store.Store
	games atomic.Int64
}

func (r *readCounter) Game(ctx context.Context, id string) (*store.Game, error) {
	r.games.Add(1)
	return r.Store.Game(ctx, id)
}

// TestReplicaFollowsTimedMoves: a node that serves a timed game it does
// not run applies each new move and the clock that came with it, carried
// by the move's notice, and never reads the game whole again; its
// watchers see each move with its clock.
func TestReplicaFollowsTimedMoves(t *testing.T) {
	st := memstore.New()
	owner := nodeHub(t, st)
	counted := &readCounter{Store: st}
	replica := nodeHub(t, counted)
	ctx := testContext(t)
	in, _, err := created(owner.Create(ctx, TableSetup{Seats: []string{"", ""}, Pace: "rapid"}))
	if err != nil {
		t.Fatal(err)
	}
	var tokens [2]string
	for i, name := range []string{"Ann", "Bob"} {
		if _, tokens[i], err = owner.Join(ctx, in.ID, i, Person{Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	sub, err := replica.Watch(ctx, in.ID, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	// The players, on the owner, see their legal moves.
	var seats [2]*Subscription
	for i, token := range tokens {
		if seats[i], err = owner.Watch(ctx, in.ID, Watcher{Token: token}); err != nil {
			t.Fatal(err)
		}
		defer seats[i].Close()
	}
	u := await(t, sub, func(u Update) bool { return u.View != nil && u.Clock != nil })
	before := counted.games.Load()
	for moves := 1; moves <= 12; moves++ {
		seat := u.View.ToMove
		mine := await(t, seats[seat], func(v Update) bool { return v.View != nil && v.View.Moves == moves-1 })
		if err := owner.Play(ctx, in.ID, tokens[seat], mine.View.Legal[0], mine.View.Moves); err != nil {
			t.Fatalf("move %d: %v", moves, err)
		}
		u = await(t, sub, func(u Update) bool { return u.View != nil && u.View.Moves == moves })
		if u.View.Phase == "over" {
			break
		}
		if u.Clock == nil || (u.View.ToMove >= 0 && u.Clock.Running != u.View.ToMove) {
			t.Fatalf("move %d: the replica shows the clock of seat %d running, seat %d to move", moves, u.Clock.Running, u.View.ToMove)
		}
	}
	// The notices of the two seats taken may come after the replica
	// started, and each reads the game: no move does.
	if n := counted.games.Load() - before; n > 2 {
		t.Errorf("the replica read the game whole %d times while it followed 12 moves, want at most 2 (the seats' notices)", n)
	}
}

// readLog records when a node read the new moves of games, and of which,
// and tells read of each read done. While gate is set, a read waits for
// it to close, having told began.
type readLog struct {
	store.Store
	mu    sync.Mutex
	at    []time.Time
	games [][]string
	read  chan []string
	gate  chan struct{}
	began chan []string
}

func (r *readLog) DeltasSince(ctx context.Context, from map[string]int) (map[string]store.Delta, error) {
	games := slices.Sorted(maps.Keys(from))
	r.mu.Lock()
	r.at = append(r.at, time.Now())
	r.games = append(r.games, games)
	gate := r.gate
	r.mu.Unlock()
	if gate != nil {
		select {
		case r.began <- games:
		case <-ctx.Done():
		}
		select {
		case <-gate:
		case <-ctx.Done():
		}
	}
	d, err := r.Store.DeltasSince(ctx, from)
	r.read <- games
	return d, err
}

// bareMoves hands a node the store's notices of moves without the moves
// they carry, as a node of an older version sends them. It hands them
// over one at a time and sends the channel of each on handed once the
// node took it: a node that took a notice has handled those before.
type bareMoves struct {
	store.Store
	handed chan string
}

func (s bareMoves) Subscribe(ctx context.Context, channels ...string) (<-chan store.Notice, error) {
	in, err := s.Store.Subscribe(ctx, channels...)
	if err != nil {
		return nil, err
	}
	out := make(chan store.Notice)
	go func() {
		defer close(out)
		for n := range in {
			c, err := store.ParseChange(n.Payload)
			changed := n.Channel == store.ChangesChannel && err == nil
			if changed {
				c.Token, c.Clock = "", ""
				n.Payload = c.Payload()
			}
			select {
			case out <- n:
			case <-ctx.Done():
				return
			}
			if s.handed != nil {
				select {
				case s.handed <- n.Channel:
				default: // nobody waits for it
				}
			}
		}
	}()
	return out, nil
}

// TestReplicaReadsTogether: a replica reads the moves announced without
// them while it waits out ReplicaReadGap after its last read together, in
// one read, and its reads begin at least that far apart. The owner keeps
// its leases however slow the machine: the replica runs no game.
func TestReplicaReadsTogether(t *testing.T) {
	waitsOnTimers(t)
	const gap = 300 * time.Millisecond
	st := memstore.New()
	keep := func(o *Options) { o.LeaseTTL = time.Hour }
	owner := nodeHub(t, st, keep)
	ctx := testContext(t)
	var (
		ids     [3]string
		tokens  [3][2]string
		seats   [3][2]*Subscription
		watched [3]*Subscription
		toMove  [3]int
	)
	for g := range ids {
		in, _, err := created(owner.Create(ctx, TableSetup{Seats: []string{"", ""}}))
		if err != nil {
			t.Fatal(err)
		}
		ids[g] = in.ID
		for i, name := range []string{"Ann", "Bob"} {
			if _, tokens[g][i], err = owner.Join(ctx, in.ID, i, Person{Name: name}); err != nil {
				t.Fatal(err)
			}
			if seats[g][i], err = owner.Watch(ctx, in.ID, Watcher{Token: tokens[g][i]}); err != nil {
				t.Fatal(err)
			}
			defer seats[g][i].Close()
		}
	}
	// The replica starts once the seats are taken: the notice of a seat
	// taken makes a replica read its game whole, and one that came late
	// would bring it the moves below.
	handed := make(chan string, 100)
	reads := &readLog{Store: bareMoves{st, handed}, read: make(chan []string, 100), began: make(chan []string, 1)}
	replica := nodeHub(t, reads, keep, func(o *Options) { o.ReplicaReadGap = gap })
	for g, id := range ids {
		var err error
		if watched[g], err = replica.Watch(ctx, id, Watcher{}); err != nil {
			t.Fatal(err)
		}
		defer watched[g].Close()
		toMove[g] = await(t, watched[g], func(u Update) bool { return u.View != nil }).View.ToMove
	}
	// A replica's game reads its moves once when it starts following it:
	// let those reads pass first, so that the moves below reach it by the
	// reads under test.
	for started := map[string]bool{}; len(started) < len(ids); {
		select {
		case games := <-reads.read:
			for _, g := range games {
				started[g] = true
			}
		case <-ctx.Done():
			t.Fatal("the replica never read the games it follows")
		}
	}
	gate := make(chan struct{})
	reads.mu.Lock()
	first := len(reads.games) // the reads under test
	reads.gate = gate
	reads.mu.Unlock()
	play := func(g int) {
		t.Helper()
		seat := toMove[g]
		mine := await(t, seats[g][seat], func(v Update) bool { return v.View != nil && v.View.Moves == 0 })
		if err := owner.Play(ctx, ids[g], tokens[g][seat], mine.View.Legal[0], 0); err != nil {
			t.Fatal(err)
		}
	}
	moved := func(g int) { await(t, watched[g], func(u Update) bool { return u.View != nil && u.View.Moves == 1 }) }
	// The moves of games 1 and 2 are announced while the read of game 0's
	// waits, however slow the machine, and the replica has heard both
	// notices before it goes on: the next read must take them together.
	play(0)
	select {
	case games := <-reads.began:
		if !slices.Equal(games, []string{ids[0]}) {
			t.Fatalf("the replica read %v first, want the move of %s alone", games, ids[0])
		}
	case <-ctx.Done():
		t.Fatal("the replica never read the move of the first game")
	}
	play(1)
	play(2)
	// A request for no game, which the replica passes over, after them.
	last := NodeChannel(replica.node)
	nothing, err := json.Marshal(envelope{Req: &match.Command{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Publish(ctx, last, string(nothing)); err != nil {
		t.Fatal(err)
	}
	for heard := ""; heard != last; {
		select {
		case heard = <-handed:
		case <-ctx.Done():
			t.Fatal("the replica never heard the notices of the moves")
		}
	}
	reads.mu.Lock()
	reads.gate = nil
	reads.mu.Unlock()
	close(gate)
	moved(0)
	moved(1)
	moved(2)
	reads.mu.Lock()
	defer reads.mu.Unlock()
	// The store sees a read a little after the node began it, by a delay
	// that varies: a tenth of the gap allows for it.
	for i := 1; i < len(reads.at); i++ {
		if d := reads.at[i].Sub(reads.at[i-1]); d < gap*9/10 {
			t.Errorf("read %d of %v began %v after the one before, less than the gap of %v", i, reads.games[i], d, gap)
		}
	}
	together := false
	for _, games := range reads.games[first:] {
		one, two := slices.Contains(games, ids[1]), slices.Contains(games, ids[2])
		if one != two {
			t.Errorf("the moves of %s and %s, made at once, were read apart: reads %v", ids[1], ids[2], reads.games[first:])
			break
		}
		together = together || one
	}
	if !together {
		t.Errorf("the moves of %s and %s were not read by the replica: reads %v", ids[1], ids[2], reads.games[first:])
	}
}

// newReplica seats Ann and Bob at a table of one node and returns
// another node, b, with a replica of the game, l, made as a request to
// b would make it, before that request's call.
func newReplica(t *testing.T) (b *Hub, id string, l *loop) {
	t.Helper()
	st := memstore.New()
	a := nodeHub(t, st, func(o *Options) { o.LeaseTTL = time.Hour })
	id, _ = seatAnnAndBob(t, a)
	b = nodeHub(t, st)
	l, _, err := b.find(testContext(t), id)
	if err != nil {
		t.Fatal(err)
	}
	return b, id, l
}

// TestReplicaWaitsForItsCall: a new replica stays until the request it
// was made for comes, though a post (the moves it read as it started)
// came first; else the request finds it ended and a second is made.
func TestReplicaWaitsForItsCall(t *testing.T) {
	ctx := testContext(t)
	_, _, l := newReplica(t)
	ran := make(chan struct{})
	l.post(func(*loop) { close(ran) })
	<-ran
	if err := l.call(ctx, func(*loop) error { return nil }); err != nil {
		t.Fatalf("the replica's first call: %v", err)
	}
}

// TestReplicaLeftByItsCaller: a new replica whose caller gave up before
// its call was taken does not stay for it.
func TestReplicaLeftByItsCaller(t *testing.T) {
	ctx := testContext(t)
	b, id, l := newReplica(t)
	busy, free := make(chan struct{}), make(chan struct{})
	l.post(func(*loop) { close(busy); <-free })
	<-busy
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if err := b.with(gone, id, func(*loop) error { return nil }, nil); err == nil {
		t.Fatal("a call with a context cancelled was served")
	}
	close(free)
	select {
	case <-l.done:
	case <-ctx.Done():
		t.Fatal("the replica stayed for a caller that gave up")
	}
}
