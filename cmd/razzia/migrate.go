package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/sqlite"
)

const migrateSynopsis = `
usage: razzia migrate --from SOURCE --to TARGET [--dry-run] [--merge]

Migrate copies everything a razzia database keeps into another one:
games with their seats, moves, clocks, analyses, results and chat;
accounts with their sessions, passkeys, ratings and push subscriptions;
the server's Web Push (VAPID) keys. Ids, times and fencing numbers stay
as they are. Each database is an SQLite file or a postgres:// URL, as
razzia serve's --db, in either direction: from SQLite to PostgreSQL to
move a server to several nodes, or back.

Stop the servers on both databases first: migrate refuses a database a
server is using (an SQLite file razzia serve has locked; a PostgreSQL
database with razzia servers connected or leases on live games), and
keeps SQLite files locked while it copies. The source must exist; the
target must hold no data (a new file, an empty database) unless --merge
is given. Migrate copies nothing back into the source, but brings an
older schema up to date and releases the leases of servers that ended on
an SQLite file, as razzia serve would.

The copy is one transaction: when it fails or is interrupted, the target
is left as it was. --dry-run says what would be copied, and changes
nothing.

Exit status: 0 when the copy is made (or said, with --dry-run), 1 when
it cannot be, 2 for a usage error, 130 or 143 when SIGINT (Ctrl-C) or
SIGTERM stopped it.
`

// migrateName is how migrate's PostgreSQL sessions show in
// pg_stat_activity: not as a server's.
const migrateName = "razzia migrate"

// migrate is the "migrate" command.
func migrate(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signalContext(nil)
	defer stop()
	status := migrateContext(ctx, args, stdout, stderr)
	if ctx.Err() != nil && status == 1 {
		return ctx.status() // 130 after ctrl+c, as a shell expects
	}
	return status
}

// migrateContext is migrate until ctx is done.
func migrateContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := newFlags("migrate")
	from := fl.String("from", "", "the source: an existing SQLite `file` or a postgres:// URL")
	to := fl.String("to", "", "the target: an SQLite `file` (created if missing) or a postgres:// URL")
	dryRun := fl.Bool("dry-run", false, "say what would be copied, and change nothing")
	merge := fl.Bool("merge", false, "add to a target that holds data: keep the rows that are the same")
	wait := fl.Duration("wait", 30*time.Second, "how long to wait for PostgreSQL to answer")
	positional, status, done := parseFlags(fl, migrateSynopsis, args, stdout, stderr)
	switch {
	case done:
		return status
	case len(positional) > 0:
		return usageError(stderr, fl, migrateSynopsis, "unexpected argument %q", positional[0])
	case *from == "" || *to == "":
		return usageError(stderr, fl, migrateSynopsis, "want both --from and --to")
	case sameDatabase(*from, *to):
		return usageError(stderr, fl, migrateSynopsis, "--from and --to name the same database")
	case *wait <= 0:
		return usageError(stderr, fl, migrateSynopsis, "--wait %v: want a positive duration", *wait)
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	src, err := openCopy(ctx, *from, true, *wait, log)
	if err != nil {
		fmt.Fprintf(stderr, "razzia migrate: the source %s: %v\n", redact(*from), err)
		return 1
	}
	defer src.Close()
	if *dryRun {
		return dryRunMigrate(ctx, src, *from, *to, *merge, *wait, log, stdout, stderr)
	}
	return copyInto(ctx, src, *from, *to, *merge, *wait, log, stdout, stderr)
}

// sameDatabase reports whether from and to name one database: the same
// URL, or the same SQLite file however its path is spelled.
func sameDatabase(from, to string) bool {
	if from == to {
		return true
	}
	if isPostgres(from) || isPostgres(to) {
		return false
	}
	a, err1 := filepath.Abs(from)
	b, err2 := filepath.Abs(to)
	if err1 == nil && err2 == nil && a == b {
		return true
	}
	fa, err1 := os.Stat(from)
	fb, err2 := os.Stat(to)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// copyInto copies src into the database to names, with progress on
// stderr and the summary on stdout. An SQLite file it made for a copy
// that then fails is removed: a failed migrate leaves no trace.
func copyInto(ctx context.Context, src copyStore, from, to string, merge bool, wait time.Duration, log *slog.Logger, stdout, stderr io.Writer) int {
	made := false
	if !isPostgres(to) {
		_, err := os.Stat(to)
		made = errors.Is(err, fs.ErrNotExist)
	}
	dst, err := openCopy(ctx, to, false, wait, log)
	if err != nil {
		fmt.Fprintf(stderr, "razzia migrate: the target %s: %v\n", redact(to), err)
		return 1
	}
	tallies, err := dst.Restore(ctx, store.RestoreOptions{Merge: merge}, progress(src, from, stderr))
	if err != nil {
		dst.Close()
		if made {
			for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
				os.Remove(to + suffix)
			}
		}
	}
	switch {
	case errors.Is(err, store.ErrNotEmpty):
		fmt.Fprintf(stderr, "razzia migrate: the target %s: %v: migrate into an empty database, or pass --merge to add to it; nothing was written\n", redact(to), err)
		return 1
	case err != nil && ctx.Err() != nil:
		fmt.Fprintf(stderr, "razzia migrate: interrupted; nothing was written to %s\n", redact(to))
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "razzia migrate: copying into %s: %v; nothing was written\n", redact(to), err)
		return 1
	}
	if err := dst.Close(); err != nil {
		fmt.Fprintf(stderr, "razzia migrate: the target %s: the copy is committed, but closing it failed: %v\n", redact(to), err)
		return 1
	}
	fmt.Fprintf(stdout, "Copied %s to %s:\n", redact(from), redact(to))
	for _, t := range tallies {
		line := t.Kind.Count(t.Added)
		if t.Kept > 0 {
			line += fmt.Sprintf(" (and %d there already, the same)", t.Kept)
		}
		fmt.Fprintf(stdout, "  %s\n", line)
	}
	return 0
}

// progress returns the rows of src, saying on stderr how many of each
// kind it read. Nothing locks a PostgreSQL source, so after the last
// kind it checks again that no server uses it: one that started during
// the copy may have changed it, and nothing is committed.
func progress(src copyStore, from string, stderr io.Writer) store.ReadFunc {
	return func(ctx context.Context, k *store.Kind, yield func(store.Row) error) error {
		n := 0
		err := src.Dump(ctx, k, func(r store.Row) error {
			if n++; n%100000 == 0 {
				fmt.Fprintf(stderr, "razzia migrate: read %s so far…\n", k.Count(n))
			}
			return yield(r)
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "razzia migrate: read %s\n", k.Count(n))
		if copyHook != nil {
			copyHook(k)
		}
		if u, ok := src.(interface{ InUse(context.Context) error }); ok && k == store.Kinds[len(store.Kinds)-1] {
			if err := u.InUse(ctx); err != nil {
				return fmt.Errorf("the source %s: %w; a server started on it during the copy", redact(from), err)
			}
		}
		return nil
	}
}

// copyHook, when a test sets it, runs after each kind is read.
var copyHook func(k *store.Kind)

// dryRunMigrate says what migrate would copy from src, and whether the
// target would take it, writing nothing.
func dryRunMigrate(ctx context.Context, src copyStore, from, to string, merge bool, wait time.Duration, log *slog.Logger, stdout, stderr io.Writer) int {
	counts, err := countRows(ctx, src)
	if err != nil {
		fmt.Fprintf(stderr, "razzia migrate: the source %s: %v\n", redact(from), err)
		return 1
	}
	fmt.Fprintf(stdout, "Would copy %s to %s:\n", redact(from), redact(to))
	for i, k := range store.Kinds {
		fmt.Fprintf(stdout, "  %s\n", k.Count(counts[i]))
	}
	dst, err := openCopy(ctx, to, true, wait, log)
	switch {
	case errors.Is(err, store.ErrNoDatabase):
		fmt.Fprintf(stdout, "The target %s holds no razzia database yet: migrate would create it.\n", redact(to))
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "razzia migrate: the target %s: %v\n", redact(to), err)
		return 1
	}
	defer dst.Close()
	have, err := countRows(ctx, dst)
	if err != nil {
		fmt.Fprintf(stderr, "razzia migrate: the target %s: %v\n", redact(to), err)
		return 1
	}
	var held int
	for _, n := range have {
		held += n
	}
	switch {
	case held == 0:
		fmt.Fprintf(stdout, "The target %s is empty.\n", redact(to))
	case merge:
		fmt.Fprintf(stdout, "The target %s holds data: with --merge, the rows there already would be kept when the same, and one that differs would stop the copy.\n", redact(to))
	default:
		fmt.Fprintf(stderr, "razzia migrate: the target %s holds data: migrate would refuse it; migrate into an empty database, or pass --merge to add to it\n", redact(to))
		return 1
	}
	return 0
}

// countRows counts the rows of each kind of store.Kinds in c.
func countRows(ctx context.Context, c store.Copier) ([]int, error) {
	counts := make([]int, len(store.Kinds))
	for i, k := range store.Kinds {
		err := c.Dump(ctx, k, func(store.Row) error { counts[i]++; return nil })
		if err != nil {
			return nil, err
		}
	}
	return counts, nil
}

// A copyStore is a database migrate copies from or into.
type copyStore interface {
	store.Copier
	Close() error
}

// openCopy opens the database dsn names for a copy, refusing one a server
// uses (openSole), with what to do about it.
func openCopy(ctx context.Context, dsn string, existing bool, wait time.Duration, log *slog.Logger) (copyStore, error) {
	s, err := openSole(ctx, dsn, existing, wait, log, migrateName)
	if errors.Is(err, sqlite.ErrInUse) || errors.Is(err, postgres.ErrInUse) {
		return nil, fmt.Errorf("%w; stop the razzia servers using it (razzia migrate copies a database no server uses), then run migrate again", err)
	}
	return s, err
}

// openSole opens the database dsn names for a command that must be its
// only user, refusing one a server uses (an error wrapping
// sqlite.ErrInUse or postgres.ErrInUse): an SQLite file is locked
// (sqlite.Options.Sole) for as long as it is open, so that no server
// starts on it meanwhile; a PostgreSQL database must have neither razzia
// servers connected nor live leases, and its sessions are named app.
// existing refuses a database that does not exist (an error wrapping
// store.ErrNoDatabase), creating nothing. A PostgreSQL database that does
// not answer is waited for at most wait.
func openSole(ctx context.Context, dsn string, existing bool, wait time.Duration, log *slog.Logger, app string) (copyStore, error) {
	if !isPostgres(dsn) {
		s, err := sqlite.OpenOptions(ctx, dsn, sqlite.Options{Sole: true, Existing: existing})
		if err != nil && !errors.Is(err, sqlite.ErrInUse) && ctx.Err() != nil {
			return nil, errInterrupted
		}
		return s, err
	}
	octx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	s, err := postgres.Open(octx, dsn, postgres.Options{Logger: log, ApplicationName: app, Existing: existing})
	if err != nil {
		return nil, unreachable(dsn, wait, err)
	}
	if err := s.InUse(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// errInterrupted is the error of a database whose opening ctrl+c or
// SIGTERM cut short.
var errInterrupted = errors.New("interrupted; nothing was written")

// unreachable says in words that a PostgreSQL database could not be
// reached, by the address in its URL; other errors are returned as they
// are.
func unreachable(dsn string, wait time.Duration, err error) error {
	host := "the database's host"
	if u, perr := url.Parse(dsn); perr == nil && u.Host != "" {
		host = u.Host
	}
	switch {
	case errors.Is(err, context.Canceled):
		return errInterrupted
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("nothing answers at %s: is PostgreSQL running there, and is the address right?", host)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s did not answer within --wait %v: is PostgreSQL running there, and is the address right?", host, wait)
	}
	return netError(err)
}
