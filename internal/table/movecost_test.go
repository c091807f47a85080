package table

import (
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/race"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// TestOwnNoticeCostsNothing: the notice of a move the node committed
// itself, which every node hears too, costs its owner no allocation once
// decoded: it made the change already.
func TestOwnNoticeCostsNothing(t *testing.T) {
	h := newHub(t, memstore.New())
	id, _ := seatAnnAndBob(t, h)
	c := store.MoveChange(id, 0, "draw:lamp", store.StatusPlaying, []byte(`{"pace":"untimed"}`))
	if n := testing.AllocsPerRun(100, func() { h.changed(c) }); n != 0 {
		t.Errorf("an own move's notice allocates %v times, want 0", n)
	}
}

// TestCallCostsNothing: a call into a game's goroutine, which every
// move makes, allocates nothing of its own.
func TestCallCostsNothing(t *testing.T) {
	skipPoolsUnderRace(t)
	h := newHub(t, memstore.New())
	id, _ := seatAnnAndBob(t, h)
	l, _ := h.live.get(id)
	ctx := testContext(t)
	f := func(*loop) error { return nil }
	if n := testing.AllocsPerRun(100, func() { l.call(ctx, f) }); n != 0 {
		t.Errorf("a call allocates %v times, want 0", n)
	}
}

// TestDescribeShares: a table's description at a move shares with the
// last what did not change, and describes anew what did; the moves it
// tells other goroutines cost nothing either.
func TestDescribeShares(t *testing.T) {
	h := newHub(t, memstore.New())
	id, _ := seatAnnAndBob(t, h)
	l, _ := h.live.get(id)
	l.call(testContext(t), func(l *loop) error {
		fresh := l.info()
		l.describe()
		if n := testing.AllocsPerRun(100, func() { l.describe() }); n != 0 {
			t.Errorf("describing an unchanged table allocates %v times, want 0", n)
		}
		if n := testing.AllocsPerRun(100, l.show); n != 0 {
			t.Errorf("showing the moves of a table whose status is the same allocates %v times, want 0", n)
		}
		changed := l.described
		changed.Seats = slices.Clone(changed.Seats)
		changed.Seats[1].Name = "Mallory"
		changed.Pace = &protocol.PaceInfo{ID: "blitz"}
		in := describeAfter(l.m, l.id, l.env.limits.OpenTTL, &changed)
		if !reflect.DeepEqual(in, fresh) {
			t.Errorf("described after a different description:\n%+v\nwant\n%+v", in, fresh)
		}
		if changed.Seats[1].Name != "Mallory" || changed.Pace.ID != "blitz" {
			t.Errorf("the last description was changed: %+v", changed)
		}
		return nil
	})
}

// BenchmarkHubMove measures a move's cost to the Hub alone, on the
// memory store: four people at a table, each watching it (the updates
// taken, never encoded: that is the HTTP API's), a move made by the seat
// to move; games follow one another. Its allocations a move do not depend
// on the machine's load:
//
//	go test ./internal/table -run '^$' -bench HubMove -benchtime 10000x -benchmem
func BenchmarkHubMove(b *testing.B) {
	st := memstore.New()
	h := New(st, Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), LeaseTTL: time.Minute,
		Limits: Limits{SeatMoveRate: 1e9, SeatMoveBurst: 1 << 30, MaxPerClient: 1 << 30, MaxOpen: 1 << 30}})
	b.Cleanup(func() { h.Close() })
	ctx := b.Context()
	var t *benchTable
	b.ReportAllocs()
	for b.Loop() {
		if t == nil || t.next == len(t.moves) {
			b.StopTimer()
			t = newHubBenchTable(b, h, st)
			b.StartTimer()
		}
		i := t.next
		if err := h.Play(ctx, t.id, t.tokens[t.movers[i]], t.moves[i], i); err != nil {
			b.Fatal(err)
		}
		t.next++
	}
}

// A benchTable is a game of four people on a Hub, watched by each, with
// the moves it will be played with.
type benchTable struct {
	id     string
	tokens [4]string
	moves  []string
	movers []int
	next   int
}

func newHubBenchTable(b *testing.B, h *Hub, st store.Store) *benchTable {
	ctx := b.Context()
	in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "", "", ""}, Pace: "untimed"}))
	if err != nil {
		b.Fatal(err)
	}
	t := &benchTable{id: in.ID}
	for i := range t.tokens {
		t.tokens[i] = fmt.Sprintf("token-%s-%d", in.ID, i)
		if _, _, err := h.Join(ctx, in.ID, i, Person{Name: fmt.Sprintf("P%d", i), Token: t.tokens[i]}); err != nil {
			b.Fatal(err)
		}
		sub, err := h.Watch(ctx, in.ID, Watcher{Token: t.tokens[i]})
		if err != nil {
			b.Fatal(err)
		}
		go func() {
			for range sub.Updates() {
			}
		}()
		b.Cleanup(sub.Close)
	}
	g, err := st.Game(ctx, in.ID)
	if err != nil {
		b.Fatal(err)
	}
	mirror, err := razzia.NewGame(razzia.Setup{Players: match.PlayerNames(g.Seats), Cheques: g.Cheques, Seed: g.Seed})
	if err != nil {
		b.Fatal(err)
	}
	for n := 0; !mirror.Over(); n++ {
		legal := mirror.LegalMoves()
		m := legal[n%len(legal)]
		t.movers = append(t.movers, mirror.ToMove())
		t.moves = append(t.moves, m.String())
		if err := mirror.Play(m); err != nil {
			b.Fatal(err)
		}
	}
	return t
}

// TestSeatViewsCostNothing: the view of a seat not to move is made with
// its showing, without an allocation of its own.
func TestSeatViewsCostNothing(t *testing.T) {
	h := newHub(t, memstore.New())
	id, _ := seatAnnAndBob(t, h)
	l, _ := h.live.get(id)
	l.call(testContext(t), func(l *loop) error {
		waiting := (l.m.Game.ToMove() + 1) % 2
		public := testing.AllocsPerRun(100, func() { l.showing().view(-1) })
		both := testing.AllocsPerRun(100, func() {
			sh := l.showing()
			sh.view(-1)
			sh.view(waiting)
		})
		if both != public {
			t.Errorf("a showing with the spectators' view allocates %v times, with a waiting seat's too %v, want the same", public, both)
		}
		return nil
	})
}

// TestApplyCostsNothing: passing a write to a game's goroutine, which
// every move does, allocates nothing of its own (here it finds that the
// loop does not run the game: the game's own work is not counted).
func TestApplyCostsNothing(t *testing.T) {
	skipPoolsUnderRace(t)
	h := newHub(t, memstore.New())
	id, tokens := seatAnnAndBob(t, h)
	l, _ := h.live.get(id)
	ctx := testContext(t)
	sub, err := h.Watch(ctx, id, Watcher{Token: tokens[0]}) // a replica runs while watched
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	var lease store.Lease
	l.call(ctx, func(l *loop) error {
		lease, l.lease, l.holder = l.lease, store.Lease{}, "node-b"
		return nil
	})
	defer l.call(ctx, func(l *loop) error {
		l.lease, l.holder = lease, ""
		return nil
	})
	c := match.Command{Kind: match.Play, Game: id, Hash: hashToken(tokens[0]), Move: "call", Seq: 0}
	at := time.Now()
	n := testing.AllocsPerRun(100, func() {
		if _, holder, err := applyIn(ctx, l, c, at); err != errNotOwner || holder != "node-b" {
			t.Fatalf("applied in a replica: holder %q, %v; want node-b, errNotOwner", holder, err)
		}
	})
	if n != 0 {
		t.Errorf("passing a write allocates %v times, want 0", n)
	}
}

// skipPoolsUnderRace skips a test that counts the allocations a
// sync.Pool saves: the race detector drops pooled values at random.
func skipPoolsUnderRace(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector drops what a sync.Pool holds at random")
	}
}
