package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
	"github.com/razziagame/razzia/internal/store/sqlite"
)

// asRazzia, in the environment of a process started from the test binary,
// makes that process run the command instead of the tests: the tests that
// need razzia as a process of its own (to kill it) get it without a build.
const asRazzia = "RAZZIA_TEST_RUN_COMMAND"

// Most tests here wait on servers, nodes and bot programs, far more than
// they compute: pgtest.Main runs up to 4 at once, not as many as there are
// CPUs (unless -test.parallel says).
func TestMain(m *testing.M) {
	if os.Getenv(asRazzia) == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	// The terminal of the play tests, which run in parallel and so
	// cannot set it each (t.Setenv).
	os.Setenv("TERM", "xterm-256color")
	os.Setenv("NO_COLOR", "")
	pgtest.Main(m)
}

// razziaCommand returns the command razzia with the arguments, run by the
// test binary itself.
func razziaCommand(t *testing.T, ctx context.Context, args ...string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, self, args...)
	cmd.Env = append(os.Environ(), asRazzia+"=1")
	return cmd
}

// A server is a running razzia serve process.
type server struct {
	t      *testing.T
	cmd    *exec.Cmd
	url    string // http://127.0.0.1:PORT
	stderr *syncBuffer
	exited chan struct{}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServer runs razzia serve on a free port and waits for its URL.
func startServer(t *testing.T, ctx context.Context, db string, args ...string) *server {
	t.Helper()
	// No analysis of finished games unless asked for: a worker would
	// spend its core on each game these tests finish.
	base := []string{"serve", "--addr", "127.0.0.1:0", "--db", db, "--log-format", "json", "--analysis-workers", "0"}
	cmd := razziaCommand(t, context.WithoutCancel(ctx), append(base, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, cmd: cmd, stderr: &syncBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-s.exited
		if t.Failed() {
			t.Logf("server log:\n%s", s.stderr.String())
		}
	})
	line := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		l, _ := r.ReadString('\n')
		line <- l
		io.Copy(io.Discard, r)
	}()
	select {
	case l := <-line:
		const prefix = "Razzia is running: open "
		if !strings.HasPrefix(l, prefix) {
			t.Fatalf("the server said %q; log:\n%s", l, s.stderr.String())
		}
		s.url = strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(l, prefix)), "/")
	case <-ctx.Done():
		t.Fatalf("the server did not start; log:\n%s", s.stderr.String())
	}
	return s
}

// kill ends the server with a signal and waits for it.
func (s *server) kill(ctx context.Context, sig os.Signal) {
	s.t.Helper()
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.t.Fatal(err)
	}
	select {
	case <-s.exited:
	case <-ctx.Done():
		s.t.Fatalf("the server did not stop after %v", sig)
	}
}

// client returns a protocol client of the server.
func (s *server) client() *client.Client {
	s.t.Helper()
	c, err := client.New(s.url)
	if err != nil {
		s.t.Fatal(err)
	}
	return c
}

// waitFor watches the game until cond holds for a state and returns it:
// it reads the states the server sends as the game goes on.
func (s *server) waitFor(ctx context.Context, id string, cond func(*client.State) bool) *client.State {
	s.t.Helper()
	conn, err := s.client().Dial(ctx, id, "")
	if err != nil {
		s.t.Fatal(err)
	}
	defer conn.Close()
	for {
		st, err := conn.Read(ctx)
		if err != nil {
			s.t.Fatalf("game %s: waited in vain: %v", id, err)
		}
		if cond(st) {
			return st
		}
	}
}

// A player plays a seat over the WebSocket, always its first legal move.
type player struct {
	t    *testing.T
	c    *client.Conn
	last *client.State
}

func (s *server) connect(ctx context.Context, id, token string) *player {
	s.t.Helper()
	c, err := s.client().Dial(ctx, id, token)
	if err != nil {
		s.t.Fatal(err)
	}
	return &player{t: s.t, c: c}
}

// next reads the next state. A rate_limited move is sent again after a
// pause, as docs/protocol.md advises: the bots reply at once, so Ann moves
// faster than a person.
func (p *player) next(ctx context.Context) {
	p.t.Helper()
	for {
		st, err := p.c.Read(ctx)
		var refused *client.Error
		switch {
		case errors.As(err, &refused) && refused.Code == protocol.RateLimited:
			select {
			case <-time.After(200 * time.Millisecond):
			case <-ctx.Done():
			}
			p.send(ctx)
			continue
		case err != nil:
			p.t.Fatalf("read: %v", err)
		}
		p.last = st
		return
	}
}

// toMove reads states until the seat is to move or the game is over.
func (p *player) toMove(ctx context.Context) bool {
	for {
		if p.last.Over() {
			return false
		}
		if p.last.MyTurn() {
			return true
		}
		p.next(ctx)
	}
}

func (p *player) play(ctx context.Context) {
	p.t.Helper()
	p.send(ctx)
	p.next(ctx)
}

// send sends the seat's first legal move in the last state.
func (p *player) send(ctx context.Context) {
	p.t.Helper()
	if err := p.c.Move(ctx, p.last.View.Legal[0], p.last.View.Moves); err != nil {
		p.t.Fatal(err)
	}
}

// TestRestart kills the server mid-game with SIGKILL, starts it again on
// the same database, and checks that every game continues exactly where
// it was and ends as an uninterrupted replay of its record. On SQLite:
// the same on PostgreSQL is TestNodesKilled's, three times in one game.
func TestRestart(t *testing.T) {
	t.Parallel() // a process of its own, mostly waiting
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	// The killed server's leases would keep the games for a minute,
	// past the test's time: the new server, the file's sole user, takes
	// them at once.
	testRestart(t, filepath.Join(t.TempDir(), "razzia.db"), "1m")
}

// testRestart kills a server on the database db mid-game with SIGKILL:
// the next one goes on with every game where it was. The servers hold
// games for the lease time ttl.
func testRestart(t *testing.T, db, ttl string) {
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	// Ann plays as fast as the test can: the limit meant for people
	// would make her wait a fifth of a second for most moves.
	args := []string{"--bot-delay", "3ms", "--seat-move-rate", "1000", "--message-rate", "1000", "--lease-ttl", ttl}
	s1 := startServer(t, ctx, db, args...)

	// Game A: bots and a person; game B: bots only.
	c1 := s1.client()
	idB := must(tableOf(c1.Create(ctx, []string{"easy", "medium", "easy", "medium"}))).ID
	idA := must(tableOf(c1.Create(ctx, []string{"easy", "", "medium", "easy"}))).ID
	seat, token, err := c1.Join(ctx, idA, "Ann", -1)
	if err != nil {
		t.Fatal(err)
	}
	p := s1.connect(ctx, idA, token)
	p.next(ctx)
	for range 4 {
		if !p.toMove(ctx) {
			t.Fatal("game A ended early")
		}
		p.play(ctx)
	}
	if !p.toMove(ctx) {
		t.Fatal("game A ended early")
	}
	// Game A waits for Ann; game B is under way.
	s1.waitFor(ctx, idB, func(st *client.State) bool { return st.Game.Moves >= 10 })
	beforeA, beforeB := must(c1.Record(ctx, idA)), must(c1.Record(ctx, idB))
	if len(beforeA.Moves) != p.last.View.Moves {
		t.Fatalf("game A: the record has %d moves, the table %d", len(beforeA.Moves), p.last.View.Moves)
	}
	if g, err := beforeB.Game(); err != nil {
		t.Fatal(err)
	} else if g.Over() {
		t.Fatal("game B is not mid-game at the kill")
	}
	s1.kill(ctx, syscall.SIGKILL)
	p.c.Close()

	s2 := startServer(t, ctx, db, args...)
	c2 := s2.client()
	// Ann rejoins her seat and sees the state as it was.
	p = s2.connect(ctx, idA, token)
	p.next(ctx)
	replayA, err := beforeA.Game()
	if err != nil {
		t.Fatal(err)
	}
	if want := protocol.NewView(replayA.View(seat)); p.last.Seat != seat || !sameJSON(t, p.last.View, want) {
		t.Fatalf("after the restart Ann sees seat %d:\n%s\nwant seat %d:\n%s", p.last.Seat, mustJSON(p.last.View), seat, mustJSON(want))
	}
	for p.toMove(ctx) {
		p.play(ctx)
	}
	finalB := s2.waitFor(ctx, idB, (*client.State).Over).Game

	for _, c := range []struct {
		name   string
		id     string
		before *razzia.Record
	}{{"A", idA, beforeA}, {"B", idB, beforeB}} {
		rec := must(c2.Record(ctx, c.id))
		if len(rec.Moves) < len(c.before.Moves) || !slices.Equal(rec.Moves[:len(c.before.Moves)], c.before.Moves) {
			t.Errorf("game %s: the moves before the kill changed:\nbefore %v\nafter  %v", c.name, c.before.Moves, rec.Moves)
		}
		g, err := rec.Game()
		if err != nil {
			t.Fatalf("game %s: the record does not replay: %v", c.name, err)
		}
		if !g.Over() {
			t.Errorf("game %s: the record ends before the game", c.name)
		}
		if want := protocol.NewView(g.View(seat)); c.name == "A" && !sameJSON(t, p.last.View, want) {
			t.Errorf("game A's final state differs from the replay of its record:\n%s\nwant\n%s", mustJSON(p.last.View), mustJSON(want))
		}
		if c.name == "B" {
			st := g.State()
			if !slices.Equal(finalB.Winners, st.Winners()) || finalB.Moves != len(rec.Moves) {
				t.Errorf("game B: the server says %+v, the replay %v after %d moves", finalB, st.Winners(), len(rec.Moves))
			}
		}
	}
	p.c.Close()

	// SIGTERM is a graceful stop.
	s2.kill(ctx, syscall.SIGTERM)
	if code := s2.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("after SIGTERM the exit status is %d, want 0", code)
	}
	if !strings.Contains(s2.stderr.String(), `"stopped"`) {
		t.Errorf("no orderly stop in the log:\n%s", s2.stderr.String())
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// sameJSON reports whether got and want encode the same.
func sameJSON(t *testing.T, got, want any) bool {
	t.Helper()
	return string(mustJSON(got)) == string(mustJSON(want))
}

// must returns v, failing the test run on an error.
// tableOf drops the creator token of a Create.
func tableOf(info protocol.GameInfo, _ string, err error) (protocol.GameInfo, error) {
	return info, err
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestServeDamagedDatabase: a database file that is not sound stops the
// server at start with a clear error and exit status 1, and is left alone.
func TestServeDamagedDatabase(t *testing.T) {
	t.Parallel() // a process of its own, mostly waiting
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	dir := t.TempDir()

	// A sound database with a game in it, to damage.
	good := filepath.Join(dir, "good.db")
	st, err := sqlite.Open(ctx, good)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		g := &store.Game{ID: strings.Repeat(string(rune('a'+i)), 10), Status: store.StatusOpen,
			Seats: make([]store.Seat, 4), Cheques: razzia.ChequeSets(4), Seed: make([]byte, 32), Moves: []string{}}
		if err := st.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{
		"not a database":   []byte("these are my notes, not a database\n"),
		"truncated header": data[:60],
		"truncated":        data[:len(data)/2],
	} {
		t.Run(name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "razzia.db")
			if err := os.WriteFile(db, content, 0o600); err != nil {
				t.Fatal(err)
			}
			msg := serveRefused(t, ctx, db)
			if !strings.Contains(msg, "razzia serve:") || !strings.Contains(msg, "damaged") || !strings.Contains(msg, db) {
				t.Errorf("the error does not name the damaged file:\n%s", msg)
			}
			if after, _ := os.ReadFile(db); !bytes.Equal(after, content) {
				t.Error("the damaged file was changed")
			}
		})
	}
}

// A second razzia serve on a SQLite file that one serves already stops at
// start with a clear error and exit status 1; the first serves on.
func TestServeDatabaseInUse(t *testing.T) {
	t.Parallel() // processes of its own, mostly waiting
	if testing.Short() {
		t.Skip("runs the server")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	db := filepath.Join(t.TempDir(), "razzia.db")
	first := startServer(t, ctx, db)
	if msg := serveRefused(t, ctx, db); !strings.Contains(msg, "razzia serve:") || !strings.Contains(msg, "in use by another process") || !strings.Contains(msg, db) {
		t.Errorf("the error does not say the file is in use:\n%s", msg)
	}
	if _, _, err := first.client().Create(ctx, []string{"easy", "easy"}); err != nil {
		t.Errorf("the first server after the second was refused: %v", err)
	}
}

// serveRefused runs razzia serve on the database db, in this process
// (the servers it must refuse are other processes, or none), which must
// stop at start with exit status 1 and say nothing on standard output,
// and returns what it wrote on standard error.
func serveRefused(t *testing.T, ctx context.Context, db string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if status := serveContext(ctx, []string{"--addr", "127.0.0.1:0", "--db", db}, &stdout, &stderr); status != 1 {
		t.Fatalf("exit status %d, want 1; stderr:\n%s", status, stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("the server said it runs: %q", stdout.String())
	}
	return stderr.String()
}
