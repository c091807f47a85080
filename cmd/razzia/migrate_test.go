package main

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
	"github.com/razziagame/razzia/internal/store/sqlite"
	"github.com/razziagame/razzia/internal/store/storetest"
)

func runMigrate(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	status = run(append([]string{"migrate"}, args...), strings.NewReader(""), &out, &errb)
	return status, out.String(), errb.String()
}

// fillSQLite makes the SQLite database at path and fills every table of
// it (storetest.Fill).
func fillSQLite(t *testing.T, path string) {
	t.Helper()
	s, err := sqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	storetest.Fill(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// dumpDB returns every row of every kind of the database dsn names.
func dumpDB(t *testing.T, dsn string) map[string][]store.Row {
	t.Helper()
	var c copyStore
	var err error
	if isPostgres(dsn) {
		c, err = postgres.Open(t.Context(), dsn, postgres.Options{ApplicationName: "razzia test", Existing: true})
	} else {
		c, err = sqlite.OpenOptions(t.Context(), dsn, sqlite.Options{Existing: true})
	}
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return storetest.DumpAll(t, c)
}

func sameRows(t *testing.T, what string, want, got map[string][]store.Row) {
	t.Helper()
	for _, d := range storetest.DiffDumps(want, got) {
		t.Errorf("%s: %s", what, d)
	}
}

// TestMigrate fills every table of an SQLite database, copies it to
// PostgreSQL and back to SQLite, and finds every row in both; copies
// again only with --merge; and refuses a PostgreSQL source a server uses.
func TestMigrate(t *testing.T) {
	t.Parallel() // a PostgreSQL cluster of its own, mostly waiting
	pg := pgtest.DirectDB(t)
	dir := t.TempDir()
	from, back := filepath.Join(dir, "from.db"), filepath.Join(dir, "back.db")
	fillSQLite(t, from)

	status, out, errs := runMigrate(t, "--from", from, "--to", pg)
	if status != 0 {
		t.Fatalf("migrate SQLite to PostgreSQL: status %d, %s%s", status, out, errs)
	}
	for _, line := range []string{"  2 accounts\n", "  1 session\n", "  2 passkeys\n", "  1 passkey challenge under way\n",
		"  8 games\n", "  24 seats\n", "  1 VAPID key pair (Web Push)\n", "  4 chat messages\n", "  1 chat mute\n",
		"  1 push subscription\n", "  1 account's push settings\n", "  3 analyses\n"} {
		if !strings.Contains(out, line) {
			t.Errorf("migrate's summary lacks %q:\n%s", line, out)
		}
	}
	if !strings.Contains(errs, "read 8 games\n") {
		t.Errorf("migrate's progress lacks the games read:\n%s", errs)
	}
	// The source's leases were released when migrate locked it, as a
	// server's are: the rest is as Fill made it.
	want := dumpDB(t, from)
	sameRows(t, "PostgreSQL", want, dumpDB(t, pg))

	if status, out, errs := runMigrate(t, "--from", pg, "--to", back); status != 0 {
		t.Fatalf("migrate PostgreSQL to SQLite: status %d, %s%s", status, out, errs)
	}
	sameRows(t, "SQLite after the round trip", want, dumpDB(t, back))

	status, _, errs = runMigrate(t, "--from", from, "--to", pg)
	if status != 1 || !strings.Contains(errs, "holds data already") || !strings.Contains(errs, "--merge") {
		t.Errorf("migrate into a database with data: status %d, %q", status, errs)
	}
	status, out, errs = runMigrate(t, "--from", from, "--to", pg, "--merge")
	if status != 0 || !strings.Contains(out, "0 games (and 8 there already, the same)") {
		t.Errorf("migrate --merge of the same rows: status %d, %s%s", status, out, errs)
	}
	sameRows(t, "PostgreSQL after the merge", want, dumpDB(t, pg))

	// A server on the source: refused, and nothing made.
	server, err := postgres.Open(t.Context(), pg, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	target := filepath.Join(dir, "never.db")
	status, _, errs = runMigrate(t, "--from", pg, "--to", target)
	if status != 1 || !strings.Contains(errs, "connected to it, from 127.0.0.1") || !strings.Contains(errs, "stop the razzia servers") {
		t.Errorf("migrate from a database a server uses: status %d, %q", status, errs)
	}
	if _, err := os.Stat(target); err == nil {
		t.Errorf("the refused migrate made %s", target)
	}
}

// TestMigrateServerStarts: a server that starts on a PostgreSQL source
// during the copy, which nothing locks, fails the copy before its commit.
// Not parallel: it sets copyHook.
func TestMigrateServerStarts(t *testing.T) {
	pg := pgtest.DirectDB(t)
	dir := t.TempDir()
	from, to := filepath.Join(dir, "from.db"), filepath.Join(dir, "to.db")
	fillSQLite(t, from)
	if status, out, errs := runMigrate(t, "--from", from, "--to", pg); status != 0 {
		t.Fatalf("migrate SQLite to PostgreSQL: status %d, %s%s", status, out, errs)
	}
	var server *postgres.Store
	copyHook = func(k *store.Kind) {
		if k.Table == "games" && server == nil {
			var err error
			if server, err = postgres.Open(t.Context(), pg, postgres.Options{}); err != nil {
				t.Error(err)
			}
		}
	}
	defer func() {
		copyHook = nil
		if server != nil {
			server.Close()
		}
	}()
	status, _, errs := runMigrate(t, "--from", pg, "--to", to)
	if status != 1 || !strings.Contains(errs, "a server started on it during the copy") || !strings.Contains(errs, "nothing was written") {
		t.Errorf("migrate from a database a server started on: status %d, %q", status, errs)
	}
	if _, err := os.Stat(to); err == nil {
		t.Errorf("the failed migrate left %s", to)
	}
}

// TestMigrateEmptyPostgres: a PostgreSQL source without razzia's tables
// (a mistyped database name) is refused, and given none.
func TestMigrateEmptyPostgres(t *testing.T) {
	t.Parallel()
	pg := pgtest.DirectDB(t)
	target := filepath.Join(t.TempDir(), "to.db")
	status, _, errs := runMigrate(t, "--from", pg, "--to", target)
	if status != 1 || !strings.Contains(errs, "no razzia database") || !strings.Contains(errs, "the source") {
		t.Errorf("migrate from an empty database: status %d, %q", status, errs)
	}
	conn, err := pgx.Connect(t.Context(), pg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	var tables int
	if err := conn.QueryRow(t.Context(), "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()").Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if tables != 0 {
		t.Errorf("the refused source has %d tables now, want none", tables)
	}
	if _, err := os.Stat(target); err == nil {
		t.Errorf("the refused migrate made %s", target)
	}
}

// TestMigrateRefuses: bad sources and targets are refused with an error
// that names them, exit status 1, and nothing written.
func TestMigrateRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	filled := filepath.Join(dir, "filled.db")
	fillSQLite(t, filled)
	garbage := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(garbage, []byte("not a database at all\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// hold opens path as razzia serve does, until close.
	hold := func(path string) (close func()) {
		s, err := sqlite.OpenOptions(t.Context(), path, sqlite.Options{Sole: true})
		if err != nil {
			t.Fatal(err)
		}
		return func() { s.Close() }
	}
	holding := func(path string) func(t *testing.T) {
		return func(t *testing.T) { t.Cleanup(hold(path)) }
	}
	for _, c := range []struct {
		name     string
		setup    func(t *testing.T)
		from, to string
		extra    []string
		says     []string
	}{
		{name: "missing source", from: filepath.Join(dir, "nosuch.db"), to: "new.db",
			says: []string{"the source", "no razzia database at", "nosuch.db", "does not exist"}},
		{name: "missing directory", from: "/nonexistent/dir/x.db", to: "new.db", says: []string{"the source", "/nonexistent/dir", "does not exist"}},
		{name: "directory", from: dir, to: "new.db", says: []string{"the source", "is a directory"}},
		{name: "not a database", from: garbage, to: "new.db", says: []string{"the source", "notes.txt", "not an SQLite database"}},
		{name: "source in use", setup: holding(filled), from: filled, to: "new.db",
			says: []string{"the source", "filled.db", "in use", "stop the razzia servers"}},
		{name: "target in use", setup: holding(filepath.Join(dir, "served.db")), from: filled, to: filepath.Join(dir, "served.db"),
			says: []string{"the target", "served.db", "in use"}},
		{name: "target with data", from: filled, to: "copy.db", setup: func(t *testing.T) {
			fillSQLite(t, filepath.Join(dir, "copy.db"))
		}, says: []string{"the target", "copy.db", "holds data already", "accounts", "games", "--merge", "nothing was written"}},
		{name: "target refuses", from: filled, to: "postgres://razzia@127.0.0.1:1/razzia", extra: []string{"--wait", "200ms"},
			says: []string{"the target", "127.0.0.1:1", "refused"}},
		{name: "source refuses", from: "postgres://razzia@127.0.0.1:1/razzia", to: "new.db", extra: []string{"--wait", "200ms"},
			says: []string{"the source", "127.0.0.1:1", "refused"}},
		{name: "bad target URL", from: filled, to: "postgres://%zz", says: []string{"the target", "postgres://(unreadable URL)", "URL"}},
		{name: "dry run, target with data", from: filled, to: "copy.db", extra: []string{"--dry-run"},
			says: []string{"copy.db holds data: migrate would refuse it"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			to := c.to
			if !isPostgres(to) && !filepath.IsAbs(to) {
				to = filepath.Join(dir, to)
			}
			if c.setup != nil {
				c.setup(t)
			}
			_, targetBefore := os.Stat(to)
			var before map[string][]store.Row
			if targetBefore == nil && c.name != "target in use" {
				// Locked, as migrate locks it: the leases of servers
				// that ended are released, and nothing else changes.
				hold(to)()
				before = dumpDB(t, to)
			}
			status, out, errs := runMigrate(t, append([]string{"--from", c.from, "--to", to}, c.extra...)...)
			if status != 1 {
				t.Errorf("status %d, want 1; %s%s", status, out, errs)
			}
			for _, s := range c.says {
				if !strings.Contains(errs, s) {
					t.Errorf("the error %q does not say %q", errs, s)
				}
			}
			if isPostgres(to) {
				return
			}
			if _, err := os.Stat(to); targetBefore != nil && err == nil {
				t.Errorf("the refused migrate made %s", to)
			}
			if before != nil {
				sameRows(t, "the refused target", before, dumpDB(t, to))
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "nosuch.db")); err == nil {
		t.Error("migrate made the missing source")
	}
}

// TestMigrateUnreadable: a source the user may not read is refused,
// naming the file.
func TestMigrateUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every file")
	}
	dir := t.TempDir()
	from := filepath.Join(dir, "locked.db")
	fillSQLite(t, from)
	if err := os.Chmod(from, 0); err != nil {
		t.Fatal(err)
	}
	status, _, errs := runMigrate(t, "--from", from, "--to", filepath.Join(dir, "to.db"))
	if status != 1 || !strings.Contains(errs, "locked.db") || !strings.Contains(errs, "permission denied") {
		t.Errorf("migrate from an unreadable file: status %d, %q", status, errs)
	}
}

// TestMigrateUnreachable: a PostgreSQL target that refuses connections or
// never answers is given up on after --wait and said in words, by the
// address of its URL, and the SQLite target is left as it was.
func TestMigrateUnreachable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	from := filepath.Join(dir, "from.db")
	fillSQLite(t, from)
	silent := silentServer(t)
	for _, tc := range []struct {
		host string
		want []string // one of them: a refused port is tried again until --wait ends, and may be in a try then
	}{
		{"127.0.0.1:1", []string{"nothing answers at 127.0.0.1:1: is PostgreSQL running there, and is the address right?",
			"127.0.0.1:1 did not answer within --wait 200ms: is PostgreSQL running there"}},
		{silent, []string{silent + " did not answer within --wait 200ms: is PostgreSQL running there"}},
	} {
		to := "postgres://razzia@" + tc.host + "/razzia"
		status, _, errs := runMigrate(t, "--from", from, "--to", to, "--wait", "200ms")
		said := slices.ContainsFunc(tc.want, func(w string) bool { return strings.Contains(errs, "razzia migrate: the target "+to+": "+w) })
		if status != 1 || !said {
			t.Errorf("migrate to %s: status %d, stderr %q; want 1 and one of %q", tc.host, status, errs, tc.want)
		}
	}
}

// TestMigrateInterrupted: ctrl+c or SIGTERM while migrate waits for its
// target ends it with 130 or 143, saying so. Not parallel: it replaces
// the signal functions.
func TestMigrateInterrupted(t *testing.T) {
	dir := t.TempDir()
	from := filepath.Join(dir, "from.db")
	fillSQLite(t, from)
	to := "postgres://razzia@" + silentServer(t) + "/razzia"
	for _, s := range interruptions {
		t.Run(s.name, func(t *testing.T) {
			notifySignals = func(ch chan<- os.Signal, _ ...os.Signal) { ch <- s.sig }
			stopSignals = func(chan<- os.Signal) {}
			t.Cleanup(func() { notifySignals, stopSignals = defaultNotify, defaultStop })
			status, _, errs := runMigrate(t, "--from", from, "--to", to, "--wait", "1m")
			if status != s.status || !strings.Contains(errs, ": interrupted; nothing was written") {
				t.Errorf("status %d, stderr %q; want %d and that it was interrupted", status, errs, s.status)
			}
		})
	}
}

// TestMigrateFailedCopy: a copy that fails midway (a row the target's
// schema refuses) names the row, writes nothing, and removes the SQLite
// file it made.
func TestMigrateFailedCopy(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	from, to := filepath.Join(dir, "from.db"), filepath.Join(dir, "to.db")
	fillSQLite(t, from)
	// A session whose account is gone, as no razzia writes it: SQLite
	// checks foreign keys only when told to.
	db, err := sql.Open("sqlite", from)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO sessions (hash, account_id, created, expires) VALUES (x'00ff', 'nobody', 1, 2)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	status, _, errs := runMigrate(t, "--from", from, "--to", to)
	if status != 1 || !strings.Contains(errs, "session hash=00ff") || !strings.Contains(errs, "nothing was written") {
		t.Errorf("migrate of a row the target refuses: status %d, %q", status, errs)
	}
	if _, err := os.Stat(to); err == nil {
		t.Errorf("the failed migrate left %s", to)
	}
}

// TestMigrateDryRun says what would be copied, by kind, and writes
// nothing.
func TestMigrateDryRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	from, to := filepath.Join(dir, "from.db"), filepath.Join(dir, "to.db")
	fillSQLite(t, from)
	status, out, errs := runMigrate(t, "--from", from, "--to", to, "--dry-run")
	if status != 0 {
		t.Fatalf("status %d: %s%s", status, out, errs)
	}
	for _, line := range []string{"Would copy", "  2 accounts\n", "  1 session\n", "  8 games\n", "  1 chat mute\n",
		"  1 VAPID key pair (Web Push)\n", "migrate would create it"} {
		if !strings.Contains(out, line) {
			t.Errorf("the dry run does not say %q:\n%s", line, out)
		}
	}
	if _, err := os.Stat(to); err == nil {
		t.Errorf("the dry run made %s", to)
	}
}

func TestMigrateUsage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "razzia.db")
	checkUsage(t, []usageCase{
		{"help", []string{"migrate", "--help"}, nil, 0, "--from"},
		{"help command", []string{"help", "migrate"}, nil, 0, "--dry-run"},
		{"usage lists migrate", []string{"help"}, nil, 0, "migrate"},
		{"no flags", []string{"migrate"}, nil, 2, "want both --from and --to"},
		{"no target", []string{"migrate", "--from", db}, nil, 2, "want both"},
		{"same", []string{"migrate", "--from", db, "--to", db}, nil, 2, "the same database"},
		{"same file spelled twice", []string{"migrate", "--from", db, "--to", filepath.Dir(db) + "/./razzia.db"}, nil, 2, "the same database"},
		{"argument", []string{"migrate", "--from", db, "--to", db + "2", "extra"}, nil, 2, `unexpected argument "extra"`},
		{"bad wait", []string{"migrate", "--from", db, "--to", db + "2", "--wait", "0s"}, nil, 2, "--wait 0s"},
	})
}
