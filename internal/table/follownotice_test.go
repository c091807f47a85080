package table

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// callStore counts, by method, the reads of the store a node makes and
// its leases' and scans' calls.
type callStore struct {
	store.Store
	mu    sync.Mutex
	calls map[string]int
}

func (s *callStore) count(method string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.calls == nil {
		s.calls = map[string]int{}
	}
	s.calls[method]++
}

// since returns the calls made after before, by method.
func (s *callStore) since(before map[string]int) map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for m, n := range s.calls {
		if d := n - before[m]; d > 0 {
			out[m] = d
		}
	}
	return out
}

func (s *callStore) snapshot() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.calls)
}

func (s *callStore) Game(ctx context.Context, id string) (*store.Game, error) {
	s.count("Game")
	return s.Store.Game(ctx, id)
}

func (s *callStore) List(ctx context.Context, st store.Status, limit int) ([]store.Summary, error) {
	s.count("List")
	return s.Store.List(ctx, st, limit)
}

func (s *callStore) DeltasSince(ctx context.Context, from map[string]int) (map[string]store.Delta, error) {
	s.count("DeltasSince")
	return s.Store.DeltasSince(ctx, from)
}

func (s *callStore) Lease(ctx context.Context, id string) (store.Lease, error) {
	s.count("Lease")
	return s.Store.Lease(ctx, id)
}

func (s *callStore) AcquireLease(ctx context.Context, id, node string, ttl time.Duration) (store.Lease, error) {
	s.count("AcquireLease")
	return s.Store.AcquireLease(ctx, id, node, ttl)
}

func (s *callStore) RenewLeases(ctx context.Context, leases []store.Lease, ttl time.Duration) ([]store.Lease, error) {
	s.count("RenewLeases")
	return s.Store.RenewLeases(ctx, leases, ttl)
}

func (s *callStore) Unowned(ctx context.Context, limit int) ([]string, error) {
	s.count("Unowned")
	return s.Store.Unowned(ctx, limit)
}

func (s *callStore) Chat(ctx context.Context, id string) (store.Chat, error) {
	s.count("Chat")
	return s.Store.Chat(ctx, id)
}

func (s *callStore) Analysis(ctx context.Context, id string) (store.Analysis, error) {
	s.count("Analysis")
	return s.Store.Analysis(ctx, id)
}

func (s *callStore) Publish(ctx context.Context, channel, payload string) error {
	s.count("Publish")
	return s.Store.Publish(ctx, channel, payload)
}

func (s *callStore) AppendTimedMove(ctx context.Context, id string, fence store.Fence, index int, token string, status store.Status, clock []byte) error {
	s.count("AppendTimedMove")
	return s.Store.AppendTimedMove(ctx, id, fence, index, token, status, clock)
}

// TestReplicaReadsNoMove: a node that follows a timed game another node
// runs applies each move and its clock from the move's notice: while it
// follows ten moves it calls the store not once (no whole game, no new
// moves, no lease, no chat). The owner, for its part, only appends the
// moves: its lease renewals and its scans for games nobody runs keep to
// their period and are not made per move. In one process, and on
// PostgreSQL, whose notice carries the move.
func TestReplicaReadsNoMove(t *testing.T) { onNodeStores(t, replicaReadsNoMove) }

func replicaReadsNoMove(t *testing.T, open func(t *testing.T) store.Store) {
	ctx := testContext(t)
	// Hour-long leases: a renewal or a scan in the moves' time is one the
	// moves asked for, not the period's.
	keep := func(o *Options) { o.LeaseTTL, o.ForwardTimeout = time.Hour, 10*time.Second }
	onA, onB := &callStore{Store: open(t)}, &callStore{Store: open(t)}
	a, b := nodeHub(t, onA, keep), nodeHub(t, onB, keep)
	in, _, err := created(a.Create(ctx, TableSetup{Seats: []string{"", ""}, Pace: "rapid"}))
	if err != nil {
		t.Fatal(err)
	}
	var tokens [2]string
	var seats [2]*Subscription
	for i, name := range []string{"Ann", "Bob"} {
		if _, tokens[i], err = a.Join(ctx, in.ID, i, Person{Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	for i, token := range tokens {
		if seats[i], err = a.Watch(ctx, in.ID, Watcher{Token: token}); err != nil {
			t.Fatal(err)
		}
		defer seats[i].Close()
	}
	sub, err := b.Watch(ctx, in.ID, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	u := await(t, sub, func(u Update) bool { return u.View != nil && u.View.Moves == 0 })
	play := func(moves int) Update {
		t.Helper()
		seat := u.View.ToMove
		mine := await(t, seats[seat], func(v Update) bool { return v.View != nil && v.View.Moves == moves-1 })
		if err := a.Play(ctx, in.ID, tokens[seat], mine.View.Legal[0], mine.View.Moves); err != nil {
			t.Fatalf("move %d: %v", moves, err)
		}
		u = await(t, sub, func(u Update) bool { return u.View != nil && u.View.Moves == moves })
		return u
	}
	// The first move, then a call through the replica's goroutine: the
	// seats' notices, heard before the move's, have been handled (each
	// reads the game) before the count begins.
	play(1)
	if _, _, err := b.Game(ctx, in.ID, ""); err != nil {
		t.Fatal(err)
	}
	const moves = 10
	beforeA, beforeB := onA.snapshot(), onB.snapshot()
	for n := 2; n <= 1+moves; n++ {
		if u := play(n); u.View.Phase == "over" {
			t.Fatalf("the game ended at move %d: the test wants %d moves", n, 1+moves)
		}
	}
	// On PostgreSQL a seat's notice (its person connected) can come after
	// the count began and read the game once: allowed, as it is not per
	// move; a read per move (DeltasSince: 10 when the notice's move is
	// ignored) is not.
	for call, n := range onB.since(beforeB) {
		if n >= moves/2 {
			t.Errorf("the replica called %s %d times while it followed %d moves, want (about) none", call, n, moves)
		}
	}
	got := onA.since(beforeA)
	if got["AppendTimedMove"] != moves {
		t.Errorf("the owner appended %d moves, want %d", got["AppendTimedMove"], moves)
	}
	delete(got, "AppendTimedMove")
	if len(got) > 0 {
		t.Errorf("the owner called the store for more than the moves while %d were played: %v, want no renewal, scan or read", moves, got)
	}
}

// BenchmarkReplicaFollow measures what a node spends on a move of a game
// another node runs, from the move's notice to the update of one
// spectator watching there: parsing the notice, applying the move and
// encoding the spectators' view. A games' moves come in notices only
// (none is in the store), so that any read of the store would fail it.
func BenchmarkReplicaFollow(b *testing.B) {
	st := memstore.New()
	h := New(st, Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), LeaseTTL: time.Hour, Node: "replica"})
	defer h.Close()
	ctx := b.Context()
	var (
		sub   *Subscription
		id    string
		moves []string
		n     int
	)
	start := func(i int) {
		// Digits as letters: an id has no 0, 1, 8 or 9.
		id = "follow" + strings.Map(func(r rune) rune { return r - '0' + 'a' }, fmt.Sprintf("%04d", i))
		g := playedGame(b, id, "untimed", "Ann", "Bob", "Cy", "Dee")
		moves, g.Moves, g.Status, g.Clock = g.Moves, []string{}, store.StatusPlaying, nil
		if err := st.CreateGame(ctx, g); err != nil {
			b.Fatal(err)
		}
		if _, err := st.AcquireLease(ctx, id, "owner", time.Hour); err != nil {
			b.Fatal(err)
		}
		var err error
		if sub, err = h.Watch(ctx, id, Watcher{}); err != nil {
			b.Fatal(err)
		}
		<-sub.Updates()
		n = 0
	}
	start(0)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if n == len(moves) {
			b.StopTimer()
			sub.Close()
			start(i)
			b.StartTimer()
		}
		status := store.StatusPlaying
		if n == len(moves)-1 {
			status = store.StatusFinished
		}
		h.notice(store.Notice{Channel: store.ChangesChannel, Payload: store.MoveChange(id, n, moves[n], status, nil).Payload()})
		n++
		for u := range sub.Updates() {
			if u.View != nil && u.View.Moves == n {
				break
			}
		}
	}
	sub.Close()
}
