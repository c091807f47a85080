package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
	"github.com/razziagame/razzia/internal/store/sqlite"
)

// buildRazzia builds the command into a temporary directory.
func buildRazzia(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "razzia")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
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
func startServer(t *testing.T, ctx context.Context, bin, db string, args ...string) *server {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db, "--log-format", "json"}, args...)...)
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

// call sends a JSON request and decodes the answer into v.
func (s *server) call(ctx context.Context, method, path, body string, v any) {
	s.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, method, s.url+path, strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		s.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, data)
	}
	if err := json.Unmarshal(data, v); err != nil {
		s.t.Fatalf("%s %s: %v: %s", method, path, err, data)
	}
}

type gameInfo struct {
	ID      string       `json:"id"`
	Status  store.Status `json:"status"`
	Moves   int          `json:"moves"`
	Winners []int        `json:"winners"`
}

func (s *server) create(ctx context.Context, seats ...string) string {
	s.t.Helper()
	var parts []string
	for _, b := range seats {
		parts = append(parts, `{"bot":"`+b+`"}`)
	}
	var v struct{ Game gameInfo }
	s.call(ctx, "POST", "/api/games", `{"seats":[`+strings.Join(parts, ",")+`]}`, &v)
	return v.Game.ID
}

func (s *server) info(ctx context.Context, id string) gameInfo {
	s.t.Helper()
	var v struct{ Game gameInfo }
	s.call(ctx, "GET", "/api/games/"+id, "", &v)
	return v.Game
}

func (s *server) record(ctx context.Context, id string) *razzia.Record {
	s.t.Helper()
	var rec razzia.Record
	s.call(ctx, "GET", "/api/games/"+id+"/record", "", &rec)
	return &rec
}

// waitFor polls the game until cond holds.
func (s *server) waitFor(ctx context.Context, id string, cond func(gameInfo) bool) gameInfo {
	s.t.Helper()
	for {
		in := s.info(ctx, id)
		if cond(in) {
			return in
		}
		select {
		case <-ctx.Done():
			s.t.Fatalf("game %s: waited in vain; last %+v", id, in)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

type stateMsg struct {
	Type    string          `json:"type"`
	Seat    int             `json:"seat"`
	View    json.RawMessage `json:"view"`
	Code    string          `json:"code"`
	Message string          `json:"message"`
}

// A player plays a seat over the WebSocket, always its first legal move.
type player struct {
	t    *testing.T
	c    *websocket.Conn
	last razzia.Snapshot
	raw  json.RawMessage
	seat int
}

func (s *server) connect(ctx context.Context, id, token string) *player {
	s.t.Helper()
	url := "ws" + strings.TrimPrefix(s.url, "http") + "/api/games/" + id + "/ws"
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
	if err != nil {
		s.t.Fatal(err)
	}
	c.SetReadLimit(1 << 20)
	return &player{t: s.t, c: c}
}

// next reads the next state. A rate_limited move is sent again after a
// pause, as docs/protocol.md advises: the bots reply at once, so Ann moves
// faster than a person.
func (p *player) next(ctx context.Context) {
	p.t.Helper()
	for {
		var m stateMsg
		if err := wsjson.Read(ctx, p.c, &m); err != nil {
			p.t.Fatalf("read: %v", err)
		}
		switch m.Type {
		case "error":
			if m.Code == "rate_limited" {
				select {
				case <-time.After(200 * time.Millisecond):
				case <-ctx.Done():
				}
				p.send(ctx)
				continue
			}
			p.t.Fatalf("error %s: %s", m.Code, m.Message)
		case "state":
			p.seat, p.raw = m.Seat, m.View
			p.last = razzia.Snapshot{}
			if err := json.Unmarshal(m.View, &p.last); err != nil {
				p.t.Fatal(err)
			}
			return
		}
	}
}

// toMove reads states until the seat is to move or the game is over.
func (p *player) toMove(ctx context.Context) bool {
	for {
		if p.last.Phase == "over" {
			return false
		}
		if p.last.ToMove == p.seat && len(p.last.Legal) > 0 {
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
	msg := map[string]any{"type": "move", "move": p.last.Legal[0], "seq": p.last.Moves}
	if err := wsjson.Write(ctx, p.c, msg); err != nil {
		p.t.Fatal(err)
	}
}

// TestRestart kills the server mid-game with SIGKILL, starts it again on
// the same database, and checks that every game continues exactly where
// it was and ends as an uninterrupted replay of its record.
func TestRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	bin := buildRazzia(t)
	t.Run("sqlite", func(t *testing.T) { testRestart(t, bin, filepath.Join(t.TempDir(), "razzia.db")) })
	t.Run("postgres", func(t *testing.T) { testRestart(t, bin, pgtest.DB(t)) })
}

// testRestart kills a server on the database db mid-game with SIGKILL:
// the next one goes on with every game where it was.
func testRestart(t *testing.T, bin, db string) {
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	s1 := startServer(t, ctx, bin, db, "--bot-delay", "3ms")

	// Game A: bots and a person; game B: bots only.
	idB := s1.create(ctx, "easy", "medium", "easy", "medium")
	idA := s1.create(ctx, "easy", "", "medium", "easy")
	var joined struct {
		Seat  int
		Token string
	}
	s1.call(ctx, "POST", "/api/games/"+idA+"/join", `{"name":"Ann"}`, &joined)
	p := s1.connect(ctx, idA, joined.Token)
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
	s1.waitFor(ctx, idB, func(in gameInfo) bool { return in.Moves >= 10 })
	beforeA, beforeB := s1.record(ctx, idA), s1.record(ctx, idB)
	if len(beforeA.Moves) != p.last.Moves {
		t.Fatalf("game A: the record has %d moves, the table %d", len(beforeA.Moves), p.last.Moves)
	}
	if g, err := beforeB.Game(); err != nil {
		t.Fatal(err)
	} else if st := g.State(); st.Over() {
		t.Fatal("game B is not mid-game at the kill")
	}
	s1.kill(ctx, syscall.SIGKILL)
	p.c.CloseNow()

	s2 := startServer(t, ctx, bin, db, "--bot-delay", "3ms")
	// Ann rejoins her seat and sees the state as it was.
	p = s2.connect(ctx, idA, joined.Token)
	p.next(ctx)
	replayA, err := beforeA.Game()
	if err != nil {
		t.Fatal(err)
	}
	if p.seat != joined.Seat || !sameJSON(t, p.raw, replayA.View(joined.Seat).Snapshot()) {
		t.Fatalf("after the restart Ann sees seat %d:\n%s\nwant seat %d:\n%s", p.seat, p.raw, joined.Seat, mustJSON(replayA.View(joined.Seat).Snapshot()))
	}
	for p.toMove(ctx) {
		p.play(ctx)
	}
	finalB := s2.waitFor(ctx, idB, func(in gameInfo) bool { return in.Status == store.StatusFinished })

	for _, c := range []struct {
		name   string
		id     string
		before *razzia.Record
	}{{"A", idA, beforeA}, {"B", idB, beforeB}} {
		rec := s2.record(ctx, c.id)
		if len(rec.Moves) < len(c.before.Moves) || !slices.Equal(rec.Moves[:len(c.before.Moves)], c.before.Moves) {
			t.Errorf("game %s: the moves before the kill changed:\nbefore %v\nafter  %v", c.name, c.before.Moves, rec.Moves)
		}
		g, err := rec.Game()
		if err != nil {
			t.Fatalf("game %s: the record does not replay: %v", c.name, err)
		}
		if st := g.State(); !st.Over() {
			t.Errorf("game %s: the record ends before the game", c.name)
		}
		if c.name == "A" && !sameJSON(t, p.raw, g.View(joined.Seat).Snapshot()) {
			t.Errorf("game A's final state differs from the replay of its record:\n%s\nwant\n%s", p.raw, mustJSON(g.View(joined.Seat).Snapshot()))
		}
		if c.name == "B" {
			st := g.State()
			if !slices.Equal(finalB.Winners, st.Winners()) || finalB.Moves != len(rec.Moves) {
				t.Errorf("game B: the server says %+v, the replay %v after %d moves", finalB, st.Winners(), len(rec.Moves))
			}
		}
	}
	p.c.CloseNow()

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

// sameJSON reports whether raw encodes the same value as v.
func sameJSON(t *testing.T, raw json.RawMessage, v any) bool {
	t.Helper()
	var a, b any
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(mustJSON(v), &b); err != nil {
		t.Fatal(err)
	}
	return string(mustJSON(a)) == string(mustJSON(b))
}

// TestServeDamagedDatabase: a database file that is not sound stops the
// server at start with a clear error and exit status 1, and is left alone.
func TestServeDamagedDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	bin := buildRazzia(t)
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
			var stdout, stderr bytes.Buffer
			cmd := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0", "--db", db)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("exit: %v, want status 1; stderr:\n%s", err, stderr.String())
			}
			msg := stderr.String()
			if !strings.Contains(msg, "razzia serve:") || !strings.Contains(msg, "damaged") || !strings.Contains(msg, db) {
				t.Errorf("the error does not name the damaged file:\n%s", msg)
			}
			if stdout.Len() != 0 {
				t.Errorf("the server said it runs: %q", stdout.String())
			}
			if after, _ := os.ReadFile(db); !bytes.Equal(after, content) {
				t.Error("the damaged file was changed")
			}
		})
	}
}
