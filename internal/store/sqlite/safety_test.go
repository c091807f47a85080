package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// foreign makes a database file as another application would.
func foreign(t *testing.T, path string, stmts ...string) []byte {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestForeignDatabase: a file of another application is refused, named,
// and left byte for byte as it was.
func TestForeignDatabase(t *testing.T) {
	cases := []struct {
		name  string
		stmts []string
		says  string
	}{
		{"tables", []string{"CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)", "INSERT INTO users VALUES (1, 'a@example.org')"}, "users"},
		{"a games table of its own", []string{"CREATE TABLE games (id TEXT, title TEXT)", "CREATE TABLE scores (game TEXT, points INT)"}, "games, scores"},
		{"another application id", []string{"PRAGMA application_id = 1234"}, "0x000004d2"},
		{"another application id and tables", []string{"PRAGMA application_id = 0x4d504b47", "CREATE TABLE t (x)"}, "0x4d504b47"},
		{"in WAL mode", []string{"PRAGMA journal_mode = WAL", "CREATE TABLE notes (body TEXT)"}, "notes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "other.db")
			before := foreign(t, path, c.stmts...)
			s, err := Open(t.Context(), path)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded on another application's database")
			}
			t.Log(err)
			if !errors.Is(err, store.ErrSchema) || errors.Is(err, store.ErrCorrupt) {
				t.Errorf("error %q: want ErrSchema, not ErrCorrupt", err)
			}
			for _, want := range []string{path, "another application", c.says} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
				t.Error("Open changed the file")
			}
		})
	}
}

// TestMarked: a new database carries Razzia's application id.
func TestMarked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "razzia.db")
	open(t, path).Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := b[68:72]; !bytes.Equal(got, []byte("RZZA")) {
		t.Errorf("application id bytes %q, want RZZA", got)
	}
}

// TestUpgradeFromVersion1: a database of the first schema, without the
// mark, as every server kept before, opens and its games go on.
func TestUpgradeFromVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db := atVersion(t, path, 1)
	for _, q := range []string{
		`INSERT INTO games (id, status, cheques, seed, created, updated) VALUES ('old0000001', 'playing', '[[2,7],[3,6]]', NULL, 1, 2)`,
		`INSERT INTO seats VALUES ('old0000001', 0, 'Ann', '', x'01'), ('old0000001', 1, 'Bot', 'hard', NULL)`,
		`INSERT INTO moves VALUES ('old0000001', 0, 'draw'), ('old0000001', 1, 'bid 9')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s := open(t, path)
	defer s.Close()
	if err := s.AppendMove(t.Context(), "old0000001", store.NoFence, 1, "pass", store.StatusPlaying); !errors.Is(err, store.ErrConflict) {
		t.Errorf("AppendMove over a stored move = %v, want ErrConflict", err)
	}
	if err := s.AppendMove(t.Context(), "old0000001", store.NoFence, 2, "pass", store.StatusPlaying); err != nil {
		t.Fatal(err)
	}
	g, err := s.Game(t.Context(), "old0000001")
	if err != nil || strings.Join(g.Moves, ",") != "draw,bid 9,pass" {
		t.Fatalf("Game = %+v, %v", g, err)
	}
	// The games table was rebuilt (version 3): its seats survived, and
	// the foreign keys are on again and hold.
	if len(g.Seats) != 2 || g.Seats[0].Name != "Ann" || g.Seats[1].Bot != "hard" || g.CreatorHash != nil {
		t.Errorf("after the upgrade: seats %+v, creator %x", g.Seats, g.CreatorHash)
	}
	var on int
	if err := s.wc.QueryRowContext(t.Context(), "PRAGMA foreign_keys").Scan(&on); err != nil || on != 1 {
		t.Errorf("PRAGMA foreign_keys = %d, %v after the upgrade; want 1", on, err)
	}
	if rows, err := s.wc.QueryContext(t.Context(), "PRAGMA foreign_key_check"); err != nil || rows.Next() {
		t.Errorf("PRAGMA foreign_key_check finds a problem (%v)", err)
	} else {
		rows.Close()
	}
	if err := s.Health(t.Context()); err != nil {
		t.Errorf("Health after the upgrade: %v", err)
	}
}

// TestNewerSchema: a database a newer Razzia migrated is refused at Open
// with both versions named, and a running store reports it unhealthy.
func TestNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "razzia.db")
	s := open(t, path)
	defer s.Close()
	if err := s.Health(t.Context()); err != nil {
		t.Fatal(err)
	}
	// Another process, a newer razzia, migrates the file further.
	db, err := s.open(writePragmas)
	if err != nil {
		t.Fatal(err)
	}
	newer := s.schema + 1
	if _, err := db.Exec("INSERT INTO goose_db_version (version_id, is_applied) VALUES (?, 1)", newer); err != nil {
		t.Fatal(err)
	}
	db.Close()
	err = s.Health(t.Context())
	if !errors.Is(err, store.ErrSchema) {
		t.Errorf("Health after a newer migration = %v, want ErrSchema", err)
	}
	_, err = Open(t.Context(), path)
	if !errors.Is(err, store.ErrSchema) {
		t.Fatalf("Open of a newer schema = %v, want ErrSchema", err)
	}
	t.Log(err)
	for _, want := range []string{path, fmt.Sprint("version ", newer), fmt.Sprint(s.schema), "newer"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// TestSecondProcessFenced: two stores on one file, as two processes would
// be: the leases in the file fence the second out.
func TestSecondProcessFenced(t *testing.T) {
	path := filepath.Join(t.TempDir(), "razzia.db")
	a, b := open(t, path), open(t, path)
	defer a.Close()
	defer b.Close()
	g := &store.Game{ID: "shared0001", Status: store.StatusPlaying, Seats: make([]store.Seat, 2)}
	if err := a.CreateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	l, err := a.AcquireLease(t.Context(), g.ID, "process-a", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.AcquireLease(t.Context(), g.ID, "process-b", time.Minute); !errors.Is(err, store.ErrLeaseHeld) {
		t.Errorf("the second process's AcquireLease = %v, want ErrLeaseHeld", err)
	}
	if err := b.AppendMove(t.Context(), g.ID, store.NoFence, 0, "draw", store.StatusPlaying); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("the second process's AppendMove = %v, want ErrLeaseLost", err)
	}
	if err := a.AppendMove(t.Context(), g.ID, l.Fence, 0, "bid 9", store.StatusPlaying); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Game(t.Context(), g.ID); err != nil || strings.Join(got.Moves, ",") != "bid 9" {
		t.Errorf("the second process reads %+v, %v; want the first's move", got, err)
	}
}

// TestGroupFailsAlone: writes that arrive together commit in one group,
// and a conflicting one fails without failing the others.
func TestGroupFailsAlone(t *testing.T) {
	t.Parallel() // waits on the writer's tick
	s, err := OpenOptions(t.Context(), filepath.Join(t.TempDir(), "razzia.db"), Options{Tick: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, id := range []string{"group00001", "group00002"} {
		if err := s.CreateGame(t.Context(), &store.Game{ID: id, Status: store.StatusPlaying, Seats: make([]store.Seat, 2)}); err != nil {
			t.Fatal(err)
		}
	}
	before := s.groups.Load()
	writes := []struct {
		id    string
		index int
		token string
	}{
		{"group00001", 0, "draw"},
		{"group00001", 0, "pass"}, // the same index: one of the two fails
		{"group00002", 0, "bid 9"},
		{"group00002", 5, "call"}, // a wrong index fails
		{"absent0001", 0, "draw"}, // an unknown game fails
	}
	errs := make([]error, len(writes))
	var wg sync.WaitGroup
	for i, w := range writes {
		wg.Go(func() {
			errs[i] = s.AppendMove(t.Context(), w.id, store.NoFence, w.index, w.token, store.StatusPlaying)
		})
	}
	wg.Wait()
	if n := s.groups.Load() - before; n != 1 {
		t.Errorf("%d groups committed, want the %d writes in one", n, len(writes))
	}
	if (errs[0] == nil) == (errs[1] == nil) || !errors.Is(errors.Join(errs[0], errs[1]), store.ErrConflict) {
		t.Errorf("two moves at one index: %v and %v; want one ErrConflict", errs[0], errs[1])
	}
	if errs[2] != nil {
		t.Errorf("the other game's move: %v", errs[2])
	}
	if !errors.Is(errs[3], store.ErrConflict) || !errors.Is(errs[4], store.ErrNotFound) {
		t.Errorf("wrong index: %v; unknown game: %v", errs[3], errs[4])
	}
	for id, want := range map[string]int{"group00001": 1, "group00002": 1} {
		if g, err := s.Game(t.Context(), id); err != nil || len(g.Moves) != want {
			t.Errorf("%s: %+v, %v; want %d move", id, g, err, want)
		}
	}
}

// fullDiskEnv, when set to a database path, makes TestHealthFullDisk the
// child whose files cannot grow.
const fullDiskEnv = "RAZZIA_STORE_FULL_DISK_CHILD"

// TestHealthFullDisk: when commits fail for want of space (the child's
// file size limit stands in for a full disk), Health says so; writes fail
// and leave the data as it was.
func TestHealthFullDisk(t *testing.T) {
	if path := os.Getenv(fullDiskEnv); path != "" {
		fullDiskChild(path)
		return
	}
	t.Parallel() // waits on its child
	path := filepath.Join(t.TempDir(), "razzia.db")
	s := open(t, path)
	if err := s.CreateGame(t.Context(), &store.Game{ID: "full000001", Status: store.StatusPlaying, Seats: make([]store.Seat, 2)}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHealthFullDisk$", "-test.count=1")
	cmd.Env = append(os.Environ(), fullDiskEnv+"="+path)
	out, err := cmd.CombinedOutput()
	t.Logf("child:\n%s", out)
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	for _, want := range []string{"health before: <nil>", "health full: sqlite:", "append full: sqlite:"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the child did not say %q", want)
		}
	}
	s = open(t, path)
	defer s.Close()
	if err := s.Health(t.Context()); err != nil {
		t.Errorf("Health with space again: %v", err)
	}
	if g, err := s.Game(t.Context(), "full000001"); err != nil || len(g.Moves) != 0 {
		t.Errorf("after the failed write: %+v, %v", g, err)
	}
}

func fullDiskChild(path string) {
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(1)
	}
	fmt.Println("health before:", s.Health(ctx))
	// No file of this process may grow past its first byte from now on.
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 1, Max: 1}); err != nil {
		fmt.Println("setrlimit:", err)
		os.Exit(1)
	}
	fmt.Println("health full:", s.Health(ctx))
	fmt.Println("append full:", s.AppendMove(ctx, "full000001", store.NoFence, 0, "draw", store.StatusPlaying))
	os.Exit(0)
}
