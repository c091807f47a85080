package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// nodeLimits lift the limits of one client address and seat: the players
// of these tests all come from 127.0.0.1 and move at once.
var nodeLimits = []string{"--seat-move-rate", "1000", "--seat-move-burst", "1000",
	"--message-rate", "1000", "--message-burst", "1000", "--join-burst", "100", "--create-burst", "100"}

// A cluster is razzia serve processes on one PostgreSQL database, and
// the test's own connection to it, to read leases and hear changes.
type cluster struct {
	t    *testing.T
	ctx  context.Context
	db   string
	st   store.Store
	args []string

	mu       sync.Mutex
	nodes    map[string]*server // the running nodes, by --node name
	next     int
	failures []string // what failed, said again after the servers' logs
}

// newCluster starts n nodes on the database, each with the arguments.
func newCluster(t *testing.T, ctx context.Context, db string, n int, args ...string) *cluster {
	t.Helper()
	st, err := postgres.Open(ctx, db, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := &cluster{t: t, ctx: ctx, db: db, st: st, args: append(slices.Clone(nodeLimits), args...), nodes: map[string]*server{}}
	// Registered before any node starts, so it runs after their cleanups
	// have printed their logs, which would bury the failures: a CI
	// report shows only the end of the output.
	t.Cleanup(func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if len(c.failures) > 0 {
			t.Logf("what failed, again:\n%s", strings.Join(c.failures, "\n"))
		}
	})
	for range n {
		c.start()
	}
	return c
}

// errorf reports a failure, as t.Errorf does, and keeps it to say again
// at the end.
func (c *cluster) errorf(format string, args ...any) {
	c.t.Helper()
	msg := fmt.Sprintf(format, args...)
	c.mu.Lock()
	c.failures = append(c.failures, msg)
	c.mu.Unlock()
	c.t.Error(msg)
}

// fatalf reports a failure, as t.Fatalf does, and keeps it to say again
// at the end.
func (c *cluster) fatalf(format string, args ...any) {
	c.t.Helper()
	c.errorf(format, args...)
	c.t.FailNow()
}

// start starts one more node, named n0, n1 and so on.
func (c *cluster) start() (string, *server) {
	c.t.Helper()
	c.mu.Lock()
	name := fmt.Sprintf("n%d", c.next)
	c.next++
	c.mu.Unlock()
	s := startServer(c.t, c.ctx, c.db, append([]string{"--node", name}, c.args...)...)
	c.mu.Lock()
	c.nodes[name] = s
	c.mu.Unlock()
	return name, s
}

// node returns the running node of the name.
func (c *cluster) node(name string) *server {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nodes[name]
}

// alive returns the running nodes, by name.
func (c *cluster) alive() []*server {
	c.mu.Lock()
	defer c.mu.Unlock()
	var names []string
	for name := range c.nodes {
		names = append(names, name)
	}
	slices.Sort(names)
	var ss []*server
	for _, name := range names {
		ss = append(ss, c.nodes[name])
	}
	return ss
}

// stop ends a node with the signal and forgets it.
func (c *cluster) stop(name string, sig syscall.Signal) {
	c.t.Helper()
	s := c.node(name)
	c.mu.Lock()
	delete(c.nodes, name)
	c.mu.Unlock()
	s.kill(c.ctx, sig)
}

// nodeName is the --node name of a node id (the name, a dash, a suffix).
func nodeName(id string) string {
	i := strings.LastIndexByte(id, '-')
	if i < 0 {
		return id
	}
	return id[:i]
}

// owner returns the name of the node that holds the game's lease.
func (c *cluster) owner(id string) string {
	c.t.Helper()
	l, err := c.st.Lease(c.ctx, id)
	if err != nil {
		c.fatalf("%v", err)
	}
	return nodeName(l.Node)
}

// changes hears the changes of game id committed from now on.
func (c *cluster) changes(id string) <-chan store.Change {
	c.t.Helper()
	ns, err := c.st.Subscribe(c.ctx, store.ChangesChannel)
	if err != nil {
		c.fatalf("%v", err)
	}
	out := make(chan store.Change, 1024)
	go func() {
		defer close(out)
		for n := range ns {
			if n.Missed {
				c.errorf("store notices were missed")
				continue
			}
			ch, err := store.ParseChange(n.Payload)
			if err == nil && ch.Game == id {
				out <- ch
			}
		}
	}()
	return out
}

// until reads changes until one satisfies cond, and returns it.
func (c *cluster) until(ch <-chan store.Change, what string, cond func(store.Change) bool) store.Change {
	c.t.Helper()
	for {
		select {
		case x, ok := <-ch:
			if !ok {
				c.fatalf("waiting for %s: the notices ended", what)
			}
			if cond(x) {
				return x
			}
		case <-c.ctx.Done():
			c.fatalf("waiting for %s: %v", what, c.ctx.Err())
		}
	}
}

// game returns the game as stored.
func (c *cluster) game(id string) *store.Game {
	c.t.Helper()
	g, err := c.st.Game(c.ctx, id)
	if err != nil {
		c.fatalf("%v", err)
	}
	return g
}

// checkRecord checks that the stored game is over, that it kept every
// earlier snapshot of its moves as a prefix (no move lost or replaced),
// and that the last state each player saw is the replay of the record at
// its seat. It returns the replay.
func (c *cluster) checkRecord(id string, before [][]string, players ...*roamer) *razzia.Game {
	c.t.Helper()
	g := c.game(id)
	if g.Status != store.StatusFinished {
		c.fatalf("the game is %s after %d moves", g.Status, len(g.Moves))
	}
	for i, b := range before {
		if len(g.Moves) < len(b) || !slices.Equal(g.Moves[:len(b)], b) {
			c.errorf("the %d moves stored at stop %d are not the start of the record:\n%q\n%q", len(b), i, b, g.Moves)
		}
	}
	rec := &razzia.Record{Format: razzia.RecordFormat, Cheques: g.Cheques, Moves: g.Moves}
	for _, s := range g.Seats {
		rec.Players = append(rec.Players, s.Name)
	}
	game, err := rec.Game()
	if err != nil {
		c.fatalf("the record does not replay: %v", err)
	}
	if !game.Over() {
		c.fatalf("the record of %d moves ends before the game", len(g.Moves))
	}
	for _, p := range players {
		if want := protocol.NewView(game.View(p.seat)); p.last == nil || !sameJSON(c.t, p.last.View, want) {
			c.errorf("seat %d saw last:\n%s\nthe replay of the record:\n%s", p.seat, mustJSON(p.last.View), mustJSON(want))
		}
	}
	return game
}

// metric returns the value of a metric without labels on the node's
// /metrics.
func (s *server) metric(name string) float64 {
	s.t.Helper()
	resp, err := http.Get(s.url + "/metrics")
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				s.t.Fatalf("%s: %v", name, err)
			}
			return f
		}
	}
	s.t.Fatalf("no %s in /metrics", name)
	return 0
}

// A roamer plays a seat with its first legal move, through any node of
// the cluster: when its node dies it connects to another, as a browser
// behind a load balancer would.
type roamer struct {
	c     *cluster
	id    string
	token string
	seat  int
	conn  *client.Conn
	last  *client.State
	drops int
}

// dial connects through the first running node that takes the
// connection, starting with the one named.
func (r *roamer) dial(first string) error {
	nodes := r.c.alive()
	if s := r.c.node(first); s != nil {
		nodes = append([]*server{s}, nodes...)
	}
	for _, s := range nodes {
		cl, err := client.New(s.url)
		if err != nil {
			return err
		}
		if r.conn, err = cl.Dial(r.c.ctx, r.id, r.token); err == nil {
			return nil
		}
	}
	return fmt.Errorf("seat %d: no node takes the connection", r.seat)
}

// play plays until the game is over.
func (r *roamer) play() {
	c := r.c
	defer func() { r.conn.Close() }()
	for {
		st, err := r.conn.Read(c.ctx)
		var refused *client.Error
		switch {
		case errors.As(err, &refused):
			// The rule every client's seat loop follows. A move passed to
			// a node that died may have been made before its answer was
			// lost: sent again, it is stale, or the game is over by then.
			switch client.AfterRefusal(refused.Code) {
			case client.Resync:
				continue // a state follows
			case client.Resend:
				// unavailable (the game changing nodes) or rate_limited:
				// send the move again after a moment.
				select {
				case <-time.After(100 * time.Millisecond):
				case <-c.ctx.Done():
					c.errorf("seat %d: %v", r.seat, c.ctx.Err())
					return
				}
				if r.last.MyTurn() {
					r.move()
				}
				continue
			}
			c.errorf("seat %d at move %d: %v", r.seat, r.last.View.Moves, err)
			return
		case err != nil:
			if c.ctx.Err() != nil {
				c.errorf("seat %d: %v", r.seat, err)
				return
			}
			r.drops++
			r.conn.Close()
			if err := r.dial(""); err != nil {
				c.errorf("%v", err)
				return
			}
			continue
		}
		r.last = st
		if st.Over() {
			return
		}
		if st.MyTurn() {
			r.move()
		}
	}
}

// move sends the first legal move; a connection lost meanwhile shows at
// the next Read.
func (r *roamer) move() {
	r.conn.Move(r.c.ctx, r.last.View.Legal[0], r.last.View.Moves)
}

// seat takes a seat for name through the node and returns its player,
// connected to the node.
func (c *cluster) seat(id, node, name string) *roamer {
	c.t.Helper()
	cl, err := client.New(c.node(node).url)
	if err != nil {
		c.fatalf("%v", err)
	}
	seat, token, err := cl.Join(c.ctx, id, name, -1)
	if err != nil {
		c.fatalf("%v", err)
	}
	r := &roamer{c: c, id: id, token: token, seat: seat}
	if err := r.dial(node); err != nil {
		c.fatalf("%v", err)
	}
	return r
}

// create creates a table through the node.
func (c *cluster) create(node string, seats ...string) string {
	c.t.Helper()
	cl, err := client.New(c.node(node).url)
	if err != nil {
		c.fatalf("%v", err)
	}
	return must(tableOf(cl.Create(c.ctx, seats))).ID
}

// nodesTest starts a test of several nodes, in parallel with the others
// (they mostly wait), and returns its context.
func nodesTest(t *testing.T) context.Context {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs several servers")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// TestNodesKilled: three razzia serve processes on one PostgreSQL, two
// players on different nodes and two bots at one table. The node that
// runs the game is killed with SIGKILL three times mid-game (and a new
// node started each time): another takes the game over within about the
// lease time, the bots go on, the players' connections come back through
// the nodes alive, and the record holds every move made, once.
func TestNodesKilled(t *testing.T) {
	ctx := nodesTest(t)
	const ttl = time.Second
	c := newCluster(t, ctx, pgtest.DirectDB(t), 3, "--lease-ttl", ttl.String(), "--bot-delay", "5ms")
	id := c.create("n0", "", "easy", "", "medium")
	ch := c.changes(id)
	ann, bob := c.seat(id, "n1", "Ann"), c.seat(id, "n2", "Bob")
	if got := c.owner(id); got != "n0" {
		c.fatalf("the game is run by %s, want n0, where it was created", got)
	}
	var wg sync.WaitGroup
	wg.Go(ann.play)
	wg.Go(bob.play)

	var before [][]string
	for kill := range 3 {
		c.until(ch, fmt.Sprintf("move %d", 12*(kill+1)), func(x store.Change) bool {
			return x.Kind == store.ChangeMove && x.Moves >= 12*(kill+1)
		})
		// The moves are read before the owner: a node slowed by the race
		// detector on a busy machine can lose the game to another just
		// before the kill, and the moves that one made before the kill
		// would count against its take-over.
		before = append(before, c.game(id).Moves)
		victim := c.owner(id)
		c.stop(victim, syscall.SIGKILL)
		killed := time.Now()
		c.start()
		took := c.until(ch, "the take-over", func(x store.Change) bool {
			return x.Kind == store.ChangeLease && x.Node != "" && nodeName(x.Node) != victim
		})
		waited := time.Since(killed)
		t.Logf("kill %d of %s at move %d: %s took the game over after %v", kill+1, victim, len(before[kill]), nodeName(took.Node), waited.Round(time.Millisecond))
		if took.Moves < len(before[kill]) {
			c.errorf("the game had %d moves just before the kill, %d at the take-over", len(before[kill]), took.Moves)
		}
		// The lease had at most ttl to run; the scan comes every ttl/4.
		if waited > 4*ttl {
			c.errorf("the take-over came %v after the kill, lease time %v", waited, ttl)
		}
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	c.checkRecord(id, before, ann, bob)
	if ann.drops+bob.drops == 0 {
		t.Log("no player's node was killed: the players never roamed")
	}
}

// TestNodePaused: the node that runs a game is frozen with SIGSTOP past
// its lease, while Ann, connected to it, is to move; another node takes
// the game over. Ann's move, sent to the frozen node, reaches it when it
// thaws (SIGCONT) and it is made once, by the node that took the game:
// the thawed node commits nothing more (its count of moves committed is
// the number the game had when it lost it), and serves Ann the game on.
func TestNodePaused(t *testing.T) {
	ctx := nodesTest(t)
	// A lease of 2 s: with 1 s, a node slowed by the race detector on a
	// busy machine now and then missed its renewals before the pause.
	c := newCluster(t, ctx, pgtest.DirectDB(t), 2, "--lease-ttl", "2s", "--bot-delay", "5ms")
	id := c.create("n0", "", "easy", "medium")
	ch := c.changes(id)
	ann := c.seat(id, "n0", "Ann")
	defer ann.conn.Close()
	read := func() {
		t.Helper()
		for {
			st, err := ann.conn.Read(ctx)
			var refused *client.Error
			if errors.As(err, &refused) && refused.Code == protocol.Stale {
				continue // overtaken: the state that follows tells
			}
			if errors.As(err, &refused) && refused.Temporary() {
				// unavailable: the game was changing nodes (n0, slowed on
				// a busy machine, can lose it before the pause) and the
				// move was not made. The protocol says to send it again
				// after a moment; waiting for a state instead waited
				// forever (CI).
				select {
				case <-time.After(100 * time.Millisecond):
				case <-ctx.Done():
					t.Fatalf("Ann at move %d: %v", ann.last.View.Moves, ctx.Err())
				}
				if ann.last.MyTurn() {
					ann.move()
				}
				continue
			}
			if err != nil {
				t.Fatalf("Ann at move %d: %v", ann.last.View.Moves, err)
			}
			ann.last = st
			return
		}
	}
	for read(); !ann.last.MyTurn() || ann.last.View.Moves < 6; read() {
		if ann.last.MyTurn() {
			ann.move()
		}
	}
	n0 := c.node("n0")
	if err := n0.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	thawed := false
	thaw := func() {
		if !thawed {
			thawed = true
			n0.cmd.Process.Signal(syscall.SIGCONT)
		}
	}
	defer thaw()
	took := c.until(ch, "the take-over", func(x store.Change) bool { return x.Kind == store.ChangeLease && nodeName(x.Node) == "n1" })
	if took.Moves != ann.last.View.Moves {
		t.Fatalf("n1 took the game at move %d, Ann is to make move %d", took.Moves, ann.last.View.Moves)
	}
	ann.move() // into the frozen node's socket
	thaw()
	for read(); !ann.last.Over(); read() {
		if ann.last.MyTurn() {
			ann.move()
		}
	}
	c.checkRecord(id, nil, ann)
	if got := n0.metric("razzia_moves_committed_total"); got != float64(took.Moves) {
		t.Errorf("the paused node committed %v moves, want the %d the game had when n1 took it over", got, took.Moves)
	}
	if got := n0.metric("razzia_leases_lost_total"); got != 1 {
		t.Errorf("the paused node lost %v leases, want 1", got)
	}
}

// TestNodeTerminated: SIGTERM to the node that runs a game hands it over:
// another node takes it at once, long before the lease would lapse, and
// the player's client, told to reconnect, comes back through the load
// balancer without waiting and plays the game to its end.
func TestNodeTerminated(t *testing.T) {
	ctx := nodesTest(t)
	c := newCluster(t, ctx, pgtest.DirectDB(t), 2, "--lease-ttl", "30s", "--bot-delay", "5ms")
	// The load balancer: it sends every request to the node named.
	var target atomic.Pointer[url.URL]
	target.Store(must(url.Parse(c.node("n0").url)))
	lb := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(target.Load()) }})
	t.Cleanup(lb.Close)
	cl, err := client.New(lb.URL)
	if err != nil {
		t.Fatal(err)
	}
	id := must(tableOf(cl.Create(ctx, []string{"easy", "", "medium"}))).ID
	ch := c.changes(id)
	_, token, err := cl.Join(ctx, id, "Ann", -1)
	if err != nil {
		t.Fatal(err)
	}
	s := cl.Session(id, token)
	defer s.Close()
	s.Backoff = func(int) time.Duration { return time.Hour } // a reconnection on a lost connection would never come
	var waits []time.Duration
	s.OnDrop = func(_ error, d time.Duration) { waits = append(waits, d) }
	n0 := c.node("n0")
	lease, err := c.st.Lease(ctx, id)
	if err != nil || nodeName(lease.Node) != "n0" {
		t.Fatalf("lease %+v, %v: want n0's", lease, err)
	}
	terminated := false
	var last *client.State
	for {
		st, err := s.Next(ctx)
		var refused *client.Error
		if errors.As(err, &refused) && refused.Code == protocol.Stale {
			continue
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		last = st
		if st.Over() {
			break
		}
		if !terminated && st.View != nil && st.View.Moves >= 10 {
			terminated = true
			target.Store(must(url.Parse(c.node("n1").url)))
			// Not c.stop: n0 closes its WebSockets as it stops, and waits
			// for this goroutine to read the close.
			if err := n0.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			took := c.until(ch, "the hand-over", func(x store.Change) bool { return x.Kind == store.ChangeLease && nodeName(x.Node) == "n1" })
			if now := time.Now(); !now.Before(lease.Expires) {
				t.Errorf("n1 took the game at %v, after n0's lease lapsed (%v): it was not handed over", now, lease.Expires)
			}
			t.Logf("handed over at move %d", took.Moves)
		}
		if st.MyTurn() {
			if err := s.Move(ctx, st.View.Legal[0], st.View.Moves); err != nil && !errors.Is(err, client.ErrNotConnected) {
				t.Fatal(err)
			}
		}
	}
	if !terminated {
		t.Fatal("the game ended before the hand-over")
	}
	if len(waits) != 1 || waits[0] >= time.Second {
		t.Errorf("the client waited %v before reconnecting, want once under a second", waits)
	}
	c.checkRecord(id, nil, &roamer{seat: last.Seat, last: last})
	select {
	case <-n0.exited:
	case <-ctx.Done():
		t.Fatal("n0 did not stop after SIGTERM")
	}
	if code := n0.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("after SIGTERM n0's exit status is %d, want 0", code)
	}
	if log := n0.stderr.String(); !strings.Contains(log, `"game handed over"`) || !strings.Contains(log, `"game":"`+id+`"`) {
		t.Errorf("n0's log tells no hand-over of game %s:\n%s", id, log)
	}
}

// TestNodesDatabaseRestart: PostgreSQL restarts mid-game under two nodes.
// No committed move is lost, and the game goes on when the database is
// back (its lease, lapsed meanwhile, taken again), to the same end for a
// spectator as the replay of its record.
func TestNodesDatabaseRestart(t *testing.T) {
	ctx := nodesTest(t)
	pg := pgtest.NewCluster(t)
	c := newCluster(t, ctx, pg.DB(t), 2, "--lease-ttl", "1s", "--bot-delay", "5ms")
	id := c.create("n0", "easy", "easy", "medium")
	watcher := &roamer{c: c, id: id, seat: -1}
	if err := watcher.dial("n1"); err != nil {
		t.Fatal(err)
	}
	defer watcher.conn.Close()
	read := func() {
		t.Helper()
		st, err := watcher.conn.Read(ctx)
		if err != nil {
			t.Fatalf("the spectator on n1: %v", err)
		}
		if watcher.last != nil && st.Game.Moves < watcher.last.Game.Moves {
			t.Fatalf("the spectator saw move %d after move %d", st.Game.Moves, watcher.last.Game.Moves)
		}
		watcher.last = st
	}
	for read(); watcher.last.Game.Moves < 10; read() {
	}
	before := c.game(id).Moves
	pg.Stop(t)
	pg.Start(t)
	for read(); !watcher.last.Over(); read() {
	}
	if watcher.last.Game.Moves <= len(before) {
		t.Errorf("the game ended at move %d, before the restart at move %d", watcher.last.Game.Moves, len(before))
	}
	c.checkRecord(id, [][]string{before}, watcher)
}
