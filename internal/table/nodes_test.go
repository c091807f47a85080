package table

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// The lease times of the tests of several nodes: short, so that a dead
// node's games are taken over quickly.
const (
	testLeaseTTL = 300 * time.Millisecond
	testForward  = 200 * time.Millisecond
)

// waitsOnTimers runs a test that mostly waits out leases, forwarding
// timeouts and read gaps, taking little CPU, beside the others of its kind
// once the package's serial tests are done: one after another they were
// the package's last five seconds, and the suite's.
func waitsOnTimers(t *testing.T) { t.Parallel() }

// nodeHub returns a node of a cluster on st, closed when the test ends.
func nodeHub(t *testing.T, st store.Store, change ...func(*Options)) *Hub {
	t.Helper()
	opts := testOptions(t)
	opts.Rand = nil // each node its own ids and tokens
	opts.LeaseTTL, opts.ForwardTimeout = testLeaseTTL, testForward
	opts.ReplicaReadGap = time.Microsecond
	for _, c := range change {
		c(&opts)
	}
	h := New(st, opts)
	t.Cleanup(func() { h.Close() })
	return h
}

// steady gives a node leases and forwarding times that outlast a loaded
// machine's pauses (the race detector, CI's load): for the tests of
// several nodes that stop none, where a renewal late by the short
// testLeaseTTL would move the game to the other node mid-test, and the
// writes meanwhile be refused ("the game is moving") or its end be heard
// late.
func steady(o *Options) { o.LeaseTTL, o.ForwardTimeout = time.Minute, 30*time.Second }

// crash stops the Hub as a killed process stops: nothing is handed over,
// its leases lapse by themselves.
func (h *Hub) crash() {
	h.live.close()
	h.cancel()
	h.wg.Wait()
}

// owner returns the node that holds the game's lease.
func owner(t *testing.T, st store.Store, id string) string {
	t.Helper()
	l, err := st.Lease(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return l.Node
}

// changes subscribes to the store's changes for the test.
func changes(t *testing.T, st store.Store) <-chan store.Notice {
	t.Helper()
	ch, err := st.Subscribe(t.Context(), store.ChangesChannel)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// waitLease reads changes until node acquires the game's lease.
func waitLease(t *testing.T, ctx context.Context, ch <-chan store.Notice, id, node string) {
	t.Helper()
	for {
		select {
		case n := <-ch:
			c, err := store.ParseChange(n.Payload)
			if err == nil && c.Game == id && c.Kind == store.ChangeLease && c.Node == node {
				return
			}
		case <-ctx.Done():
			t.Fatalf("%s did not take game %s", node, id)
		}
	}
}

// seatPlayer plays a seat through one node, always its first legal move,
// until the game is over, and returns the last update it saw. A move
// refused as stale or for the moment (a node taking the game over) is
// left to the next update, as a client does.
func seatPlayer(t *testing.T, ctx context.Context, h *Hub, id, token string) Update {
	sub, err := h.Watch(ctx, id, Watcher{Token: token})
	if err != nil {
		t.Error(err)
		return Update{}
	}
	defer sub.Close()
	var last Update
	for {
		select {
		case u, ok := <-sub.Updates():
			if !ok {
				return last
			}
			last = u
			if u.View == nil || u.View.ToMove != u.Seat || len(u.View.Legal) == 0 {
				continue
			}
			// A move sent again on an update that repeats the state (a
			// lease or clock change) is refused as stale, or, after the
			// last move, as over: the next update shows where it stands.
			err := h.Play(ctx, id, token, u.View.Legal[0], u.View.Moves)
			if err != nil && !errors.Is(err, ErrStale) && !errors.Is(err, ErrUnavailable) && !errors.Is(err, ErrGameOver) {
				t.Errorf("move %d through %s: %v", u.View.Moves, h.Node(), err)
				return last
			}
		case <-ctx.Done():
			t.Errorf("seat %s on %s: the game did not end", token[:4], h.Node())
			return last
		}
	}
}

// checkFinal checks that the game is over in the store and that an
// update a watcher saw last is the replay of its record.
func checkFinal(t *testing.T, st store.Store, id string, last Update) {
	t.Helper()
	g, err := st.Game(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	game, err := match.Replay(g)
	if err != nil {
		t.Fatalf("the stored moves do not replay: %v", err)
	}
	if g.Status != store.StatusFinished || !game.Over() {
		t.Fatalf("stored %s after %d moves, over %v", g.Status, len(g.Moves), game.Over())
	}
	want := protocol.NewView(game.View(last.Seat))
	if last.View == nil || last.View.Moves != want.Moves || !slices.Equal(last.View.Winners, want.Winners) {
		t.Errorf("seat %d saw last %+v, the record's replay %+v", last.Seat, last.View, want)
	}
}

// TestNodesShareGames: one game, its players on different nodes. Only the
// node that created it runs it; the others pass it their players' writes
// and follow it with the moves its notices carry, reading the store only
// for what they missed: in one process, and on PostgreSQL.
func TestNodesShareGames(t *testing.T) { onNodeStores(t, nodesShareGames) }

// nodesShareGames runs TestNodesShareGames with the store of each node
// from open, counting the moves the replicas read.
func nodesShareGames(t *testing.T, open func(t *testing.T) store.Store) {
	ctx := testContext(t)
	// Leases that a busy machine cannot let lapse: this test is about
	// passing writes to a live owner; the take-overs have tests of their own.
	steady := func(o *Options) { o.LeaseTTL, o.ForwardTimeout = time.Hour, 10*time.Second }
	st, onB, onC := open(t), &countStore{Store: open(t)}, &countStore{Store: open(t)}
	a, b, c := nodeHub(t, st, steady), nodeHub(t, onB, steady), nodeHub(t, onC, steady)
	in, creator, err := created(a.Create(ctx, TableSetup{Seats: []string{"", "easy", "", ""}}))
	if err != nil {
		t.Fatal(err)
	}
	if got := owner(t, st, in.ID); got != a.Node() {
		t.Fatalf("the game is run by %q, want its creator %s", got, a.Node())
	}
	// Seats taken through nodes that do not run the game.
	spectator, err := c.Watch(ctx, in.ID, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	defer spectator.Close()
	seatAnn, ann, err := b.Join(ctx, in.ID, -1, Person{Name: "Ann"})
	if err != nil || seatAnn != 0 {
		t.Fatalf("Join through b = %d, %v", seatAnn, err)
	}
	_, _, err = c.Join(ctx, in.ID, -1, Person{Name: "ann"})
	wantKind(t, err, ErrNameTaken) // the owner's refusal, passed back
	_, eve, err := c.Join(ctx, in.ID, 3, Person{Name: "Eve"})
	if err != nil {
		t.Fatal(err)
	}
	// Eve gives her seat up through a node that does not run the game,
	// and takes it again.
	if err := b.GiveUp(ctx, in.ID, eve, 3); err != nil {
		t.Fatalf("GiveUp through b: %v", err)
	}
	if _, eve, err = c.Join(ctx, in.ID, 3, Person{Name: "Eve"}); err != nil {
		t.Fatal(err)
	}
	wantKind(t, b.Remove(ctx, in.ID, "not the creator", 3), ErrNotCreator)
	if err := c.Remove(ctx, in.ID, creator, 3); err != nil {
		t.Fatalf("Remove through c: %v", err)
	}
	wantKind(t, c.Play(ctx, in.ID, eve, "draw", 0), ErrNotYourSeat) // removed
	// A bot's level changed through a node that does not run the game.
	wantKind(t, b.SetLevel(ctx, in.ID, "not the creator", 1, "medium"), ErrNotCreator)
	wantKind(t, b.SetLevel(ctx, in.ID, creator, 1, "godlike"), ErrBadRequest)
	if err := b.SetLevel(ctx, in.ID, creator, 1, "medium"); err != nil {
		t.Fatalf("SetLevel through b: %v", err)
	}
	if g, err := st.Game(ctx, in.ID); err != nil || g.Seats[1].Bot != "medium" {
		t.Fatalf("seat 1 after SetLevel through b: %+v, %v; want the medium bot", g.Seats[1], err)
	}
	_, bob, err := c.Join(ctx, in.ID, 2, Person{Name: "Bob"})
	if err != nil {
		t.Fatal(err)
	}
	// c serves the game to a spectator already: Bob's seat is his at once.
	if sub, err := c.Watch(ctx, in.ID, Watcher{Token: bob}); err != nil {
		t.Fatal(err)
	} else if u, _ := next(t, ctx, sub); u.Seat != 2 {
		t.Fatalf("Bob watching through c right after his join sees seat %d, want 2", u.Seat)
	} else {
		sub.Close()
	}
	_, cy, err := a.Join(ctx, in.ID, 3, Person{Name: "Cy"})
	if err != nil {
		t.Fatal(err)
	}
	var (
		wg   sync.WaitGroup
		last = make([]Update, 3)
	)
	for i, p := range []struct {
		h     *Hub
		token string
	}{{b, ann}, {c, bob}, {a, cy}} {
		wg.Go(func() { last[i] = seatPlayer(t, ctx, p.h, in.ID, p.token) })
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for _, u := range last {
		checkFinal(t, st, in.ID, u)
	}
	var seen Update
	for u := range spectator.Updates() {
		seen = u
	}
	checkFinal(t, st, in.ID, seen)
	if got := owner(t, st, in.ID); got != a.Node() {
		t.Errorf("the game ended run by %q, want %s all along", got, a.Node())
	}
	if n := testCounter(t, b.metrics.committed); n != 0 {
		t.Errorf("node b committed %v moves of a game it does not run", n)
	}
	g, err := st.Game(ctx, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	read := onB.moves() + onC.moves()
	t.Logf("the replicas read %d moves", read)
	// Two replicas each reading every move would read twice the game.
	if moves := len(g.Moves); read > moves/4 {
		t.Errorf("the replicas read %d moves of the store, for a game of %d: want the notices' moves applied", read, moves)
	}
}

// TestNodeDies: the node that runs a game dies mid-game. Another takes
// the game over once the lease lapses: its bots resume, and the writes
// passed to the dead node are made by the one that took it.
func TestNodeDies(t *testing.T) {
	waitsOnTimers(t)
	ctx := testContext(t)
	st := memstore.New()
	a, b := nodeHub(t, st), nodeHub(t, st)
	in, _, err := created(a.Create(ctx, TableSetup{Seats: []string{"easy", "", "medium"}}))
	if err != nil {
		t.Fatal(err)
	}
	_, ann, err := b.Join(ctx, in.ID, 1, Person{Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := b.Watch(ctx, in.ID, Watcher{Token: ann})
	if err != nil {
		t.Fatal(err)
	}
	// A few moves with a alive, then it dies with Ann to move.
	for played := 0; ; {
		u, ok := next(t, ctx, sub)
		if !ok {
			t.Fatal("the game ended early")
		}
		if u.View == nil || u.View.ToMove != 1 {
			continue
		}
		if played == 3 {
			break
		}
		if err := b.Play(ctx, in.ID, ann, u.View.Legal[0], u.View.Moves); err != nil {
			t.Fatal(err)
		}
		played++
	}
	sub.Close()
	before, _ := st.Game(ctx, in.ID)
	a.crash()
	last := seatPlayer(t, ctx, b, in.ID, ann)
	checkFinal(t, st, in.ID, last)
	after, _ := st.Game(ctx, in.ID)
	if !slices.Equal(after.Moves[:len(before.Moves)], before.Moves) {
		t.Errorf("the moves before the death changed:\n%q\n%q", before.Moves, after.Moves)
	}
	if testCounter(t, b.metrics.takenOver) != 1 {
		t.Error("node b did not count the game it took over")
	}
}

// TestLeaseLost: a node cut off from the store's leases (it can neither
// renew nor take them, as when it is paused or partitioned) stops running
// the game once its lease may have lapsed: another node takes it over, the
// cut-off node commits nothing more, and its watchers see the game go on
// from the store.
func TestLeaseLost(t *testing.T) {
	waitsOnTimers(t)
	ctx := testContext(t)
	st := memstore.New()
	cutA, onB := &cutStore{Store: st}, &cutStore{Store: st}
	a := nodeHub(t, cutA, func(o *Options) { o.BotDelay = 5 * time.Millisecond })
	in, _, err := created(a.Create(ctx, TableSetup{Seats: []string{"easy", "easy", "easy"}}))
	if err != nil {
		t.Fatal(err)
	}
	watcher, err := a.Watch(ctx, in.ID, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close()
	for u, _ := next(t, ctx, watcher); u.Game.Moves < 3; u, _ = next(t, ctx, watcher) {
	}
	ch := changes(t, st)
	cutA.cut(true)
	b := nodeHub(t, onB, func(o *Options) { o.BotDelay = 5 * time.Millisecond })
	waitLease(t, ctx, ch, in.ID, b.Node())
	var last Update
	for u := range watcher.Updates() {
		last = u
	}
	checkFinal(t, st, in.ID, last)
	byA, byB := cutA.committed(), onB.committed()
	if len(byA) < 3 || len(byB) == 0 || slices.Max(byA) >= slices.Min(byB) {
		t.Errorf("a committed moves %v, b %v: want a's all before b's", byA, byB)
	}
	if testCounter(t, a.metrics.lost) != 1 {
		t.Error("the cut-off node did not count the game it lost")
	}
}

// cutStore cuts a node off from the leases (renewing or taking them),
// and notes the moves it commits.
type cutStore struct {
	store.Store
	mu      sync.Mutex
	off     bool
	commits []int // the index of each move committed
}

func (s *cutStore) cut(off bool) { s.mu.Lock(); s.off = off; s.mu.Unlock() }

func (s *cutStore) isCut() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.off
}

func (s *cutStore) RenewLeases(ctx context.Context, leases []store.Lease, ttl time.Duration) ([]store.Lease, error) {
	if s.isCut() {
		return nil, errors.New("network unreachable")
	}
	return s.Store.RenewLeases(ctx, leases, ttl)
}

func (s *cutStore) AcquireLease(ctx context.Context, id, node string, ttl time.Duration) (store.Lease, error) {
	if s.isCut() {
		return store.Lease{}, errors.New("network unreachable")
	}
	return s.Store.AcquireLease(ctx, id, node, ttl)
}

func (s *cutStore) AppendTimedMove(ctx context.Context, id string, fence store.Fence, index int, token string, status store.Status, clock []byte) error {
	err := s.Store.AppendTimedMove(ctx, id, fence, index, token, status, clock)
	if err == nil {
		s.mu.Lock()
		s.commits = append(s.commits, index)
		s.mu.Unlock()
	}
	return err
}

func (s *cutStore) committed() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.commits)
}

// TestDrain: a node that hands its games over releases their leases, and
// the other nodes take them at once, long before the leases would lapse.
func TestDrain(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	long := func(o *Options) { o.LeaseTTL = time.Hour }
	a, b := nodeHub(t, st, long), nodeHub(t, st, long)
	in, _, err := created(a.Create(ctx, TableSetup{Seats: []string{"", "easy", "easy"}}))
	if err != nil {
		t.Fatal(err)
	}
	_, ann, err := a.Join(ctx, in.ID, 0, Person{Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	onA, err := a.Watch(ctx, in.ID, Watcher{Token: ann})
	if err != nil {
		t.Fatal(err)
	}
	defer onA.Close()
	u, _ := next(t, ctx, onA)
	ch := changes(t, st)
	if err := a.Drain(ctx); err != nil {
		t.Fatalf("Drain: %v", err)
	}
	waitLease(t, ctx, ch, in.ID, b.Node())
	if a.Ready(ctx) == nil {
		t.Error("a draining node says it is ready")
	}
	if _, _, err := created(a.Create(ctx, TableSetup{Seats: []string{"", "easy"}})); !errors.Is(err, ErrClosed) {
		t.Errorf("a draining node creates tables: %v", err)
	}
	// Ann's connection to a still works: a passes her moves on.
	for u.View == nil || u.View.ToMove != 0 {
		u, _ = next(t, ctx, onA)
	}
	// The new owner may still be loading the game: the move is refused
	// for the moment, and sent again after a moment, as a client does.
	for {
		err := a.Play(ctx, in.ID, ann, u.View.Legal[0], u.View.Moves)
		if err == nil {
			break
		}
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("a move through the drained node: %v", err)
		}
		select {
		case <-time.After(20 * time.Millisecond):
		case <-ctx.Done():
			t.Fatalf("a move through the drained node: %v", err)
		}
	}
	checkFinal(t, st, in.ID, seatPlayer(t, ctx, b, in.ID, ann))
}

// TestNobodyToHandOver: a write that no node can make, since the only
// node is handing its games over, is refused as temporary, in bounded
// time.
func TestNobodyToHandOver(t *testing.T) {
	waitsOnTimers(t)
	ctx := testContext(t)
	st := memstore.New()
	a := nodeHub(t, st)
	in, _, err := created(a.Create(ctx, TableSetup{Seats: []string{"", ""}}))
	if err != nil {
		t.Fatal(err)
	}
	tokens := make([]string, 2)
	for i, name := range []string{"Ann", "Bob"} {
		if _, tokens[i], err = a.Join(ctx, in.ID, i, Person{Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	sub, err := a.Watch(ctx, in.ID, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := next(t, ctx, sub)
	sub.Close()
	ann := tokens[u.View.ToMove] // the seat to move
	start := time.Now()
	err = a.Play(ctx, in.ID, ann, "draw", 0)
	wantKind(t, err, ErrUnavailable)
	var e *Error
	if errors.As(err, &e); e.RetryAfter <= 0 {
		t.Errorf("ErrUnavailable without a RetryAfter: %+v", e)
	}
	if waited, bound := time.Since(start), 2*(testLeaseTTL+testForward); waited > bound {
		t.Errorf("the refusal took %v, more than %v", waited, bound)
	}
	// A node that comes takes the game, and the same write goes through.
	b := nodeHub(t, st)
	if _, err := b.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Play(ctx, in.ID, ann, "draw", 0); err != nil {
		t.Fatalf("once a node runs the game: %v", err)
	}
}

// TestRenewalsBatched: a node renews all its leases in one store call.
func TestRenewalsBatched(t *testing.T) {
	ctx := testContext(t)
	st := &countStore{Store: memstore.New()}
	a := nodeHub(t, st)
	for range 5 {
		if _, _, err := created(a.Create(ctx, TableSetup{Seats: []string{"", ""}})); err != nil {
			t.Fatal(err)
		}
	}
	a.renew()
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.renewals) == 0 || st.renewals[len(st.renewals)-1] != 5 {
		t.Errorf("renewal calls of %v leases, want 5 in the last", st.renewals)
	}
	if st.single != 0 {
		t.Errorf("%d leases renewed one by one", st.single)
	}
}

type countStore struct {
	store.Store
	mu       sync.Mutex
	renewals []int
	single   int
	read     int // the moves DeltasSince returned
}

func (s *countStore) DeltasSince(ctx context.Context, from map[string]int) (map[string]store.Delta, error) {
	deltas, err := s.Store.DeltasSince(ctx, from)
	s.mu.Lock()
	for _, d := range deltas {
		s.read += len(d.Moves)
	}
	s.mu.Unlock()
	return deltas, err
}

func (s *countStore) moves() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.read
}

func (s *countStore) RenewLeases(ctx context.Context, leases []store.Lease, ttl time.Duration) ([]store.Lease, error) {
	s.mu.Lock()
	s.renewals = append(s.renewals, len(leases))
	s.mu.Unlock()
	return s.Store.RenewLeases(ctx, leases, ttl)
}

func (s *countStore) RenewLease(ctx context.Context, l store.Lease, ttl time.Duration) (store.Lease, error) {
	s.mu.Lock()
	s.single++
	s.mu.Unlock()
	return s.Store.RenewLease(ctx, l, ttl)
}

func TestNodeID(t *testing.T) {
	for name, want := range map[string]string{
		"web-1.example.org": "web-1-example-org-",
		"":                  "node-",
		"ÄÖ":                "node-",
		"A_very_long_host_name_of_a_cloud_provider_1234": "a-very-long-host-name-of-a-clou-",
	} {
		id := NewNodeID(name)
		if err := CheckNode(id); err != nil {
			t.Errorf("NewNodeID(%q) = %q: %v", name, id, err)
		}
		if len(id) != len(want)+8 || id[:len(want)] != want {
			t.Errorf("NewNodeID(%q) = %q, want %q and 8 random characters", name, id, want)
		}
		if store.CheckChannel(NodeChannel(id)) != nil {
			t.Errorf("NodeChannel(%q) = %q is no channel", id, NodeChannel(id))
		}
	}
	if NewNodeID("web") == NewNodeID("web") {
		t.Error("two processes of one name are one node")
	}
	for _, bad := range []string{"", "Web", "web_1", "web 1", "a-very-long-host-name-of-a-cloud-provider-12345"} {
		if CheckNode(bad) == nil {
			t.Errorf("CheckNode(%q) = nil", bad)
		}
	}
}

// errorOfAnswer: the errors a node passes back keep their kind, message
// and wait.
func TestAnswerRoundTrip(t *testing.T) {
	for _, err := range []error{
		nil,
		reject(ErrNotYourTurn, "it is Bob's turn"),
		&Error{Kind: ErrRateLimited, Msg: "slow down", RetryAfter: 1500 * time.Millisecond},
		errNotOwner,
		errors.New("the database is on fire"),
	} {
		_, got := answerOf(2, err).result()
		switch {
		case err == nil:
			if got != nil {
				t.Errorf("success came back as %v", got)
			}
		case errors.Is(err, errNotOwner):
			if !errors.Is(got, errNotOwner) {
				t.Errorf("%v came back as %v", err, got)
			}
		default:
			var want, e *Error
			if !errors.As(err, &want) {
				want = unavailable()
			}
			if !errors.As(got, &e) || e.Kind != want.Kind || e.Msg != want.Msg || e.RetryAfter != want.RetryAfter {
				t.Errorf("%v came back as %#v", err, got)
			}
		}
	}
	if seat, err := answerOf(2, nil).result(); seat != 2 || err != nil {
		t.Errorf("a join's seat came back as %d, %v", seat, err)
	}
	if _, err := (answer{Kind: "a kind of a newer version"}).result(); !errors.Is(err, ErrInternal) {
		t.Errorf("an unknown kind came back as %v", err)
	}
}

// testCounter returns a counter's value.
func testCounter(t *testing.T, c prometheus.Counter) float64 {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}

// TestLateAnswer: the owner makes a write passed to it, but its answer
// never reaches the asker (lost, or too late); the asker finds the write
// in the store and reports it made, rather than unavailable.
func TestLateAnswer(t *testing.T) {
	waitsOnTimers(t)
	ctx := testContext(t)
	st := memstore.New()
	a := nodeHub(t, &muteStore{Store: st})
	b := nodeHub(t, st)
	in, _, err := created(a.Create(ctx, TableSetup{Seats: []string{"", ""}}))
	if err != nil {
		t.Fatal(err)
	}
	_, ann, err := b.Join(ctx, in.ID, 0, Person{Name: "Ann"})
	if err != nil {
		t.Fatalf("a join whose answer was lost: %v", err)
	}
	_, bob, err := b.Join(ctx, in.ID, 1, Person{Name: "Bob"})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := b.Watch(ctx, in.ID, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := next(t, ctx, sub)
	sub.Close()
	token := []string{ann, bob}[u.View.ToMove]
	if err := b.Play(ctx, in.ID, token, "draw", 0); err != nil {
		t.Fatalf("a move whose answer was lost: %v", err)
	}
	if g, _ := st.Game(ctx, in.ID); len(g.Moves) != 1 {
		t.Fatalf("%d moves stored, want 1", len(g.Moves))
	}
	// A move that was not made is not reported made: unavailable, or
	// stale if b took the game over meanwhile (a late renewal of a's).
	if err := b.Play(ctx, in.ID, token, "draw", 5); !errors.Is(err, ErrUnavailable) && !errors.Is(err, ErrStale) {
		t.Errorf("a move with a seq not reached: %v", err)
	}
}

// muteStore loses every message a node publishes: its answers never
// arrive.
type muteStore struct{ store.Store }

func (muteStore) Publish(context.Context, string, string) error { return nil }

// TestCreateRace: another node's scanner looks for games nobody runs
// right after a new game is stored; it never takes the new game, whose
// creator runs it. (Stored first and leased after, the game was taken.)
func TestCreateRace(t *testing.T) {
	ctx := testContext(t)
	st := &hookStore{Store: memstore.New()}
	a := nodeHub(t, st)
	b := nodeHub(t, st)
	st.afterCreate = func() {
		if n, err := b.scan(ctx); n != 0 || err != nil {
			t.Errorf("the other node's scan took %d games, %v", n, err)
		}
	}
	in, _, err := created(a.Create(ctx, TableSetup{Seats: []string{"", "easy"}}))
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if got := owner(t, st, in.ID); got != a.Node() {
		t.Fatalf("the game is run by %q, want its creator %s", got, a.Node())
	}
	if _, _, err := a.Join(ctx, in.ID, 0, Person{Name: "Ann"}); err != nil {
		t.Fatal(err)
	}
}

// hookStore calls afterCreate after each game it creates.
type hookStore struct {
	store.Store
	afterCreate func()
}

func (s *hookStore) CreateGame(ctx context.Context, g *store.Game) error {
	err := s.Store.CreateGame(ctx, g)
	if err == nil && s.afterCreate != nil {
		s.afterCreate()
	}
	return err
}

func (s *hookStore) CreateOwnedGame(ctx context.Context, g *store.Game, node string, ttl time.Duration) (store.Lease, error) {
	l, err := s.Store.CreateOwnedGame(ctx, g, node, ttl)
	if err == nil && s.afterCreate != nil {
		s.afterCreate()
	}
	return l, err
}

// lateSeatStore loses the node's answers (muteStore) and holds its seat
// writes until proceed is closed, after telling entered.
type lateSeatStore struct {
	muteStore
	entered, proceed, stored chan struct{}
}

func (s *lateSeatStore) TakeSeat(ctx context.Context, id string, fence store.Fence, seat int, st store.Seat, status store.Status) error {
	close(s.entered)
	<-s.proceed
	defer close(s.stored)
	return s.muteStore.TakeSeat(ctx, id, fence, seat, st, status)
}

// readHookStore tells reads of a game on read, when set.
type readHookStore struct {
	store.Store
	read atomic.Pointer[chan struct{}]
}

func (s *readHookStore) Game(ctx context.Context, id string) (*store.Game, error) {
	g, err := s.Store.Game(ctx, id)
	if ch := s.read.Load(); ch != nil {
		select {
		case *ch <- struct{}{}:
		default:
		}
	}
	return g, err
}

// TestJoinAnsweredLate: a join passed to the owner, whose answer is lost
// and which the owner stores only after the asker looked for it, then
// made again by the asker once it took the game over, is the join made:
// its seat, not "already seated".
func TestJoinAnsweredLate(t *testing.T) {
	waitsOnTimers(t)
	ctx := testContext(t)
	st := memstore.New()
	late := &lateSeatStore{muteStore: muteStore{st}, entered: make(chan struct{}), proceed: make(chan struct{}), stored: make(chan struct{})}
	a := nodeHub(t, late)
	reads := &readHookStore{Store: st}
	// b waits for the owner longer than a's lease lasts: it takes the
	// game over before it gives the join up.
	b := nodeHub(t, reads, func(o *Options) { o.LeaseTTL = 5 * testLeaseTTL })
	in, _, err := created(a.Create(ctx, TableSetup{Seats: []string{"", "", "easy"}})) // open after the join
	if err != nil {
		t.Fatal(err)
	}
	type joined struct {
		seat int
		err  error
	}
	done := make(chan joined, 1)
	go func() {
		seat, _, err := b.Join(ctx, in.ID, 0, Person{Name: "Ann", Token: "ann-token"})
		done <- joined{seat, err}
	}()
	<-late.entered // a makes the join, slowly
	read := make(chan struct{}, 1)
	reads.read.Store(&read)
	select {
	case <-read: // b looked for the join in the store, in vain
	case <-ctx.Done():
		t.Fatal("b never looked for the join")
	}
	close(late.proceed) // a stores it now, and its answer is lost
	<-late.stored
	a.crash() // and a stops: b takes the game over, and makes the join again
	j := <-done
	if j.err != nil || j.seat != 0 {
		t.Fatalf("Join = seat %d, %v; want seat 0: it was made", j.seat, j.err)
	}
	if g, _ := st.Game(ctx, in.ID); match.SeatOf(g.Seats, hashToken("ann-token")) != 0 {
		t.Errorf("seats %+v: Ann's token does not hold seat 0", g.Seats)
	}
}
