package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

func exec(t *testing.T, url string, sql string) {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(t.Context(), sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// TestBadURL: what waiting cannot fix is a clear error at once.
func TestBadURL(t *testing.T) {
	t.Parallel()
	good := migrated.DB(t)
	at := strings.LastIndex(good, "/")
	cases := []struct{ name, url, says string }{
		{"not a URL", "postgres://%zz", "URL"},
		{"unknown database", good[:at] + "/no_such_database?sslmode=disable", "no_such_database"},
		{"unknown user", strings.Replace(good, "postgres@", "nobody@", 1), "nobody"},
		{"unknown host", "postgres://postgres@no-such-host.invalid:5432/razzia", "no-such-host.invalid"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			start := time.Now()
			s, err := Open(ctx, c.url, Options{})
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			t.Log(err)
			if ctx.Err() != nil || time.Since(start) > 20*time.Second {
				t.Errorf("Open waited %v instead of failing at once", time.Since(start))
			}
			if !strings.Contains(err.Error(), c.says) {
				t.Errorf("error %q does not say %q", err, c.says)
			}
		})
	}
}

// lines is a slog handler that passes each message to a channel.
type lines chan string

func (l lines) Enabled(context.Context, slog.Level) bool { return true }
func (l lines) Handle(_ context.Context, r slog.Record) error {
	select {
	case l <- r.Message:
	default:
	}
	return nil
}
func (l lines) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l lines) WithGroup(string) slog.Handler      { return l }

// TestWaitsForDatabase: Open waits for a database that is down, saying
// so in the log, and opens once it is up.
func TestWaitsForDatabase(t *testing.T) {
	t.Parallel()
	c := pgtest.Stoppable(t)
	url := c.DB(t)
	c.Stop(t)
	log := make(lines, 16)
	opened := make(chan error, 1)
	go func() {
		s, err := Open(t.Context(), url, Options{Logger: slog.New(log)})
		if err == nil {
			s.Close()
		}
		opened <- err
	}()
	select {
	case msg := <-log:
		if !strings.Contains(msg, "unreachable") {
			t.Errorf("log line %q", msg)
		}
	case err := <-opened:
		t.Fatalf("Open returned %v while the database was down", err)
	}
	c.Start(t)
	if err := <-opened; err != nil {
		t.Fatalf("Open after the database came up: %v", err)
	}
}

// TestRestart: the database restarts mid-game. Writes fail while it is
// down, none committed is lost, the game goes on when it is back, and
// subscribers are told they may have missed notices.
func TestRestart(t *testing.T) {
	t.Parallel()
	c := pgtest.Stoppable(t)
	s := open(t, c.DB(t))
	defer s.Close()
	g := &store.Game{ID: "restart001", Status: store.StatusPlaying, Seats: make([]store.Seat, 2)}
	if err := s.CreateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	l, err := s.AcquireLease(t.Context(), g.ID, "node-a", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := s.Subscribe(t.Context(), store.ChangesChannel)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range 5 {
		tok := fmt.Sprintf("bid %d", i)
		if err := s.AppendMove(t.Context(), g.ID, l.Fence, i, tok, store.StatusPlaying); err != nil {
			t.Fatal(err)
		}
		want = append(want, tok)
	}
	c.Stop(t)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	err = s.AppendMove(ctx, g.ID, l.Fence, 5, "pass", store.StatusPlaying)
	cancel()
	if err == nil || errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("AppendMove with the database down = %v, want an error of the database", err)
	}
	if err := s.Health(t.Context()); err == nil {
		t.Error("Health with the database down: nil")
	}
	c.Start(t)
	// The subscriber hears that it may have missed notices once the
	// listener is back: from then on it hears every change again.
	for n := range changes {
		if n.Missed {
			break
		}
	}
	waitHealthy(t, s)
	if err := s.AppendMove(t.Context(), g.ID, l.Fence, 5, "pass", store.StatusPlaying); err != nil {
		t.Fatalf("AppendMove after the restart: %v", err)
	}
	want = append(want, "pass")
	got, err := s.Game(t.Context(), g.ID)
	if err != nil || !slices.Equal(got.Moves, want) {
		t.Fatalf("after the restart: %+v, %v; want moves %q", got, err, want)
	}
	for {
		select {
		case n := <-changes:
			if n.Missed {
				continue
			}
			ch, err := store.ParseChange(n.Payload)
			if err != nil {
				t.Fatal(err)
			}
			if ch.Moves == 6 {
				return
			}
		case <-time.After(30 * time.Second):
			t.Fatal("no notice of the move after the restart")
		}
	}
}

// waitHealthy waits until the pool has reconnected.
func waitHealthy(t *testing.T, s *Store) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := s.Health(t.Context())
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not healthy 30s after the restart: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestNewerSchema: a schema a newer Razzia migrated is refused at Open,
// naming both versions, and a running store reports it unhealthy.
func TestNewerSchema(t *testing.T) {
	t.Parallel()
	url := pgtest.DB(t)
	s := open(t, url)
	defer s.Close()
	exec(t, url, "INSERT INTO "+versionTable+" (version_id, is_applied) VALUES (42, true)")
	if err := s.Health(t.Context()); !errors.Is(err, store.ErrSchema) {
		t.Errorf("Health after a newer migration = %v, want ErrSchema", err)
	}
	_, err := Open(t.Context(), url, Options{})
	if !errors.Is(err, store.ErrSchema) {
		t.Fatalf("Open = %v, want ErrSchema", err)
	}
	t.Log(err)
	for _, want := range []string{"version 42", fmt.Sprintf("razzia's %d", s.schema)} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// TestForeignTables: a schema with another application's tables is
// refused and left as it was.
func TestForeignTables(t *testing.T) {
	t.Parallel()
	url := pgtest.DB(t)
	exec(t, url, "CREATE TABLE users (id int PRIMARY KEY, email text); CREATE TABLE games (id text)")
	_, err := Open(t.Context(), url, Options{})
	if !errors.Is(err, store.ErrSchema) || !strings.Contains(err.Error(), "games, users") {
		t.Fatalf("Open = %v, want ErrSchema naming the tables", err)
	}
	t.Log(err)
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	rows, _ := conn.Query(t.Context(), "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || !slices.Equal(tables, []string{"games", "users"}) {
		t.Errorf("tables after Open: %q, %v; want only the other application's", tables, err)
	}
}

// TestNodesStartTogether: nodes opening one new database at once migrate
// it once, under the lock, and all open.
func TestNodesStartTogether(t *testing.T) {
	t.Parallel()
	url := pgtest.DB(t)
	const nodes = 4
	var wg sync.WaitGroup
	errs := make([]error, nodes)
	for i := range nodes {
		wg.Go(func() {
			s, err := Open(t.Context(), url, Options{})
			if err == nil {
				err = s.Health(t.Context())
				s.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

// TestNodes: two stores on one database are two nodes: changes and
// published notices reach the other, and the leases fence across them.
func TestNodes(t *testing.T) {
	t.Parallel()
	url := migrated.DB(t)
	a, b := open(t, url), open(t, url)
	defer a.Close()
	defer b.Close()
	changes, err := b.Subscribe(t.Context(), store.ChangesChannel, "node_a_inbox")
	if err != nil {
		t.Fatal(err)
	}
	inbox, err := a.Subscribe(t.Context(), "node_a_inbox")
	if err != nil {
		t.Fatal(err)
	}
	g := &store.Game{ID: "nodes00001", Status: store.StatusPlaying, Seats: make([]store.Seat, 2)}
	if err := a.CreateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	la, err := a.AcquireLease(t.Context(), g.ID, "node-a", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.AcquireLease(t.Context(), g.ID, "node-b", time.Minute); !errors.Is(err, store.ErrLeaseHeld) {
		t.Errorf("node b's AcquireLease = %v, want ErrLeaseHeld", err)
	}
	if err := a.AppendMove(t.Context(), g.ID, la.Fence, 0, "draw", store.StatusPlaying); err != nil {
		t.Fatal(err)
	}
	// Node b passes a move to the owner, node a.
	if err := b.Publish(t.Context(), "node_a_inbox", "nodes00001 1 bid 9"); err != nil {
		t.Fatal(err)
	}
	kinds := []store.ChangeKind{store.ChangeCreated, store.ChangeLease, store.ChangeMove}
	for _, want := range kinds {
		select {
		case n := <-changes:
			c, err := store.ParseChange(n.Payload)
			if err != nil || c.Kind != want || c.Game != g.ID {
				t.Errorf("node b got %+v (%v), want a %s change", n, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("node b got no %s change", want)
		}
	}
	for name, ch := range map[string]<-chan store.Notice{"a": inbox, "b": changes} {
		select {
		case n := <-ch:
			if n.Channel != "node_a_inbox" || n.Payload != "nodes00001 1 bid 9" {
				t.Errorf("node %s got %+v", name, n)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("node %s got nothing on node_a_inbox", name)
		}
	}
}
