package table

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	runtimemetrics "runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// tapStore counts what a node publishes and the notices it hears, with
// their bytes. The Hub hears through Hear; Subscribe is for the others.
type tapStore struct {
	store.Store
	published, heard, bytes atomic.Int64
}

func (s *tapStore) Publish(ctx context.Context, channel, payload string) error {
	s.published.Add(1)
	return s.Store.Publish(ctx, channel, payload)
}

func (s *tapStore) Subscribe(ctx context.Context, channels ...string) (<-chan store.Notice, error) {
	in, err := s.Store.Subscribe(ctx, channels...)
	if err != nil {
		return nil, err
	}
	out := make(chan store.Notice, cap(in))
	go func() {
		defer close(out)
		for n := range in {
			s.heard.Add(1)
			s.bytes.Add(int64(len(n.Payload)))
			out <- n
		}
	}()
	return out, nil
}

// Hear counts what the store hears for f, on the store's goroutine as
// the Hub hears it there.
func (s *tapStore) Hear(ctx context.Context, f func(store.Notice), channels ...string) (<-chan struct{}, error) {
	return s.Store.(store.Hearer).Hear(ctx, func(n store.Notice) {
		s.heard.Add(1)
		s.bytes.Add(int64(len(n.Payload)))
		f(n)
	}, channels...)
}

// costs are the counts BenchmarkMoveAcrossNodes reports: PostgreSQL's
// statements and their work (pg_stat_statements), and what the nodes
// published and heard.
type costs struct {
	statements, rows, blocks, dirtied, walRecords, walBytes int64
	published, heard, bytes                                 int64
	xacts                                                   int64 // transaction ids taken: writes and notifications
	goroutines, switches                                    int64 // the process's (scheduling)
}

func (c costs) minus(d costs) costs {
	return costs{c.statements - d.statements, c.rows - d.rows, c.blocks - d.blocks, c.dirtied - d.dirtied,
		c.walRecords - d.walRecords, c.walBytes - d.walBytes, c.published - d.published, c.heard - d.heard, c.bytes - d.bytes,
		c.xacts - d.xacts, c.goroutines - d.goroutines, c.switches - d.switches}
}

func (c costs) plus(d costs) costs {
	return costs{c.statements + d.statements, c.rows + d.rows, c.blocks + d.blocks, c.dirtied + d.dirtied,
		c.walRecords + d.walRecords, c.walBytes + d.walBytes, c.published + d.published, c.heard + d.heard, c.bytes + d.bytes,
		c.xacts + d.xacts, c.goroutines + d.goroutines, c.switches + d.switches}
}

// scheduling returns the goroutines this process has started, and the
// times its threads waited (voluntary context switches, from /proc: a
// thread sleeps when its goroutines all wait, and a goroutine woken wakes
// one), or -1 where /proc does not say.
func scheduling() (goroutines, switches int64) {
	s := []runtimemetrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	runtimemetrics.Read(s)
	if s[0].Value.Kind() == runtimemetrics.KindUint64 {
		goroutines = int64(s[0].Value.Uint64())
	}
	tasks, _ := filepath.Glob("/proc/self/task/*/status")
	if len(tasks) == 0 {
		return goroutines, -1
	}
	for _, f := range tasks {
		b, _ := os.ReadFile(f) // a thread gone meanwhile counts no more
		for line := range strings.Lines(string(b)) {
			if v, ok := strings.CutPrefix(line, "voluntary_ctxt_switches:"); ok {
				n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				switches += n
			}
		}
	}
	return goroutines, switches
}

// BenchmarkMoveAcrossNodes measures what a move costs a cluster of two
// nodes on PostgreSQL when its player is on another node than the game's
// owner, as in deploy/measure three: the move passed to the owner,
// committed, announced, and followed by the players' node, until the
// mover sees it. Besides the time and the allocations of both nodes, it
// reports per move the statements PostgreSQL ran and their rows, buffers
// touched and dirtied and WAL written, the transactions that wrote or
// notified (each commits with a record, and PostgreSQL wakes every
// listening session at a notifying one's commit), the notices the nodes
// published and heard, and the goroutines the process (both nodes and the
// benchmark's watchers) started and its threads' voluntary context
// switches (a thread sleeps when its goroutines all wait; a goroutine
// woken wakes one): figures that the machine's load barely changes.
// A game's set-up is left out of them. Run it with a count of moves:
//
//	go test ./internal/table -run '^$' -bench MoveAcrossNodes -benchtime 400x
//
// Where its goroutines wait and what wakes them, a move:
//
//	go test ./internal/table -run '^$' -bench MoveAcrossNodes -benchtime 1000x -trace t.out
//	go tool trace -d=parsed t.out | go run ./internal/tools/wakes -per 1000
func BenchmarkMoveAcrossNodes(b *testing.B) {
	cluster := pgtest.NewCluster(b, append([]string{"shared_preload_libraries=pg_stat_statements"}, pgtest.Fast...)...)
	url := cluster.DB(b)
	ctx := b.Context()
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	defer admin.Close(context.Background())
	// In a schema of its own: Razzia's holds Razzia's tables only.
	if _, err := admin.Exec(ctx, "CREATE SCHEMA pgss; CREATE EXTENSION pg_stat_statements SCHEMA pgss"); err != nil {
		b.Fatal(err)
	}
	node := func(name string) (*Hub, *tapStore) {
		st, err := postgres.Open(ctx, url, postgres.Options{})
		if err != nil {
			b.Fatal(err)
		}
		tap := &tapStore{Store: st}
		h := New(tap, Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Node: name,
			LeaseTTL: time.Hour, ForwardTimeout: 10 * time.Second,
			Limits: Limits{SeatMoveRate: 1e9, SeatMoveBurst: 1 << 30, MaxPerClient: 1 << 30, MaxOpen: 1 << 30, MaxBotGames: 1 << 30}})
		b.Cleanup(func() { h.Close(); st.Close() })
		return h, tap
	}
	owner, onOwner := node("owner")
	seats, onSeats := node("seats")
	var xactsTaken atomic.Int64
	counts := func() costs {
		var c costs
		if err := admin.QueryRow(ctx, `SELECT coalesce(sum(calls), 0), coalesce(sum(rows), 0),
			coalesce(sum(shared_blks_hit + shared_blks_read), 0), coalesce(sum(shared_blks_dirtied), 0),
			coalesce(sum(wal_records), 0), coalesce(sum(wal_bytes), 0)::bigint
			FROM pgss.pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
				AND query NOT LIKE '%pg_stat_statements%'`).
			Scan(&c.statements, &c.rows, &c.blocks, &c.dirtied, &c.walRecords, &c.walBytes); err != nil {
			b.Fatal(err)
		}
		// The next transaction id, less those this function takes: every
		// transaction that writes or notifies takes one, and commits
		// with a record of its own.
		if err := admin.QueryRow(ctx, "SELECT pg_current_xact_id()::text::bigint").Scan(&c.xacts); err != nil {
			b.Fatal(err)
		}
		c.xacts -= xactsTaken.Add(1)
		c.goroutines, c.switches = scheduling()
		for _, t := range []*tapStore{onOwner, onSeats} {
			c.published += t.published.Load()
			c.heard += t.heard.Load()
			c.bytes += t.bytes.Load()
		}
		return c
	}
	g := newCostGame(b, owner, seats)
	b.ReportAllocs()
	var total costs
	from := counts()
	for b.Loop() {
		if g.over() {
			b.StopTimer()
			total = total.plus(counts().minus(from))
			g.close()
			g = newCostGame(b, owner, seats)
			from = counts()
			b.StartTimer()
		}
		g.play(b)
	}
	b.StopTimer()
	total = total.plus(counts().minus(from))
	g.close()
	n := float64(b.N)
	for _, m := range []struct {
		v    int64
		unit string
	}{
		{total.statements, "statements/move"}, {total.rows, "rows/move"}, {total.blocks, "buffers/move"},
		{total.dirtied, "dirtied/move"}, {total.walRecords, "walrecords/move"}, {total.walBytes, "walbytes/move"},
		{total.published, "published/move"}, {total.heard, "heard/move"}, {total.bytes, "heardbytes/move"},
		{total.xacts, "transactions/move"}, {total.goroutines, "goroutines/move"}, {total.switches, "ctxswitches/move"},
	} {
		b.ReportMetric(float64(m.v)/n, m.unit)
	}
}

// costGame is a game of four seats run by one node and played through
// another, where its seats watch.
type costGame struct {
	id     string
	via    *Hub
	tokens [4]string
	subs   [4]*Subscription
	last   [4]Update
	moves  int
	done   bool
}

func newCostGame(b *testing.B, owner, via *Hub) *costGame {
	ctx := b.Context()
	t, err := owner.Create(ctx, TableSetup{Seats: []string{"", "", "", ""}, Pace: "untimed"})
	if err != nil {
		b.Fatal(err)
	}
	g := &costGame{id: t.Info.ID, via: via}
	for i := range g.tokens {
		if _, g.tokens[i], err = owner.Join(ctx, g.id, i, Person{Name: fmt.Sprintf("P%d", i)}); err != nil {
			b.Fatal(err)
		}
	}
	for i, token := range g.tokens {
		if g.subs[i], err = via.Watch(ctx, g.id, Watcher{Token: token}); err != nil {
			b.Fatal(err)
		}
	}
	g.await(b, 0)
	return g
}

// await waits until every seat has seen the game after its first moves
// moves.
func (g *costGame) await(b *testing.B, moves int) {
	deadline := time.NewTimer(20 * time.Second) // one a move: the nodes' allocations are measured
	defer deadline.Stop()
	for i, s := range g.subs {
		for g.last[i].View == nil || g.last[i].View.Moves < moves {
			select {
			case u, ok := <-s.Updates():
				if !ok {
					b.Fatalf("seat %d: the subscription ended", i)
				}
				if u.View != nil {
					g.last[i] = u
				}
			case <-deadline.C:
				b.Fatalf("seat %d saw no move %d", i, moves)
			}
		}
	}
	g.done = g.last[0].View.Phase == "over"
}

func (g *costGame) over() bool { return g.done }

// play makes the move of the seat to move, through the other node, and
// waits for every seat to see it.
func (g *costGame) play(b *testing.B) {
	v := g.last[g.last[0].View.ToMove].View
	if err := g.via.Play(b.Context(), g.id, g.tokens[v.ToMove], v.Legal[0], g.moves); err != nil {
		b.Fatalf("move %d: %v", g.moves+1, err)
	}
	g.moves++
	g.await(b, g.moves)
}

func (g *costGame) close() {
	for _, s := range g.subs {
		s.Close()
	}
}
