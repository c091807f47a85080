// Package sqlite keeps games in an SQLite database file: the store a club
// server needs with nothing else installed. It uses modernc.org/sqlite
// (pure Go) in WAL mode with synchronous=FULL, so a method that returns nil
// has its change on disk, and it migrates the schema when it opens.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/razziagame/razzia/internal/store"
)

// Store is a store.Store kept in one SQLite database file. Its methods are
// safe for concurrent use; each is one transaction.
type Store struct {
	path string
	w    *sql.DB // one connection: writers queue here, not on SQLITE_BUSY
	r    *sql.DB // readers: WAL lets them run beside the writer
}

var _ store.Store = (*Store)(nil)

// The pragmas of every connection. busy_timeout comes first so that the
// others wait for a lock another process holds instead of failing.
const (
	writePragmas = "_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)" +
		"&_pragma=foreign_keys(1)&_txlock=immediate"
	readPragmas = "_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_pragma=query_only(1)"
	readers     = 4
)

//go:embed migrations/*.sql
var migrations embed.FS

// header starts every SQLite 3 database file.
const header = "SQLite format 3\x00"

// Open opens the database at path, creating it if it does not exist, checks
// it with PRAGMA quick_check and brings its schema up to date. A file that
// is not a sound SQLite database gives an error wrapping store.ErrCorrupt
// that names the file; Open never changes such a file.
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("sqlite: no database file name")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("sqlite: database %s: %w", path, err)
	}
	if err := precheck(abs); err != nil {
		return nil, err
	}
	s := &Store{path: abs}
	if s.w, err = s.connect(ctx, writePragmas, 1); err != nil {
		return nil, err
	}
	if err := s.quickCheck(ctx); err != nil {
		s.w.Close()
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		s.w.Close()
		return nil, err
	}
	if s.r, err = s.connect(ctx, readPragmas, readers); err != nil {
		s.w.Close()
		return nil, err
	}
	return s, nil
}

// precheck gives a clear error for what SQLite reports only vaguely: a
// directory, an unreadable file, a file that is not a database at all.
func precheck(path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		dir := filepath.Dir(path)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("sqlite: database %s: the directory %s does not exist", path, dir)
		}
		return nil // a new database
	}
	if err != nil {
		return fmt.Errorf("sqlite: database %s: %w", path, err)
	}
	if fi.IsDir() {
		return fmt.Errorf("sqlite: database %s is a directory, not a file: give the path of a database file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("sqlite: cannot read database %s: %w", path, err)
	}
	defer f.Close()
	buf := make([]byte, len(header))
	n, err := io.ReadFull(f, buf)
	switch {
	case n == 0 && err == io.EOF:
		return nil // an empty file is an empty database
	case err == io.ErrUnexpectedEOF || (err == nil && string(buf) != header):
		return corrupt(path, "the file is not an SQLite database")
	case err != nil:
		return fmt.Errorf("sqlite: cannot read database %s: %w", path, err)
	}
	return nil
}

// connect opens a pool of at most n connections with the pragmas and
// makes one, so that errors in opening show here.
func (s *Store) connect(ctx context.Context, pragmas string, n int) (*sql.DB, error) {
	// A file: URI, escaped, so that no character of the path is taken
	// for a parameter.
	dsn := (&url.URL{Scheme: "file", Path: s.path, RawQuery: pragmas}).String()
	if !strings.HasPrefix(dsn, "file://") {
		return nil, fmt.Errorf("sqlite: database %s: cannot make a file URI", s.path)
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, s.wrap("open", err)
	}
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	db.SetConnMaxLifetime(0)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, s.wrap("open", err)
	}
	return db, nil
}

// quickCheck runs PRAGMA quick_check, which reads every page: a damaged
// database is refused at start, before anyone plays on it.
func (s *Store) quickCheck(ctx context.Context) error {
	rows, err := s.w.QueryContext(ctx, "PRAGMA quick_check")
	if err != nil {
		return s.wrap("check", err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var msg string
		if err := rows.Scan(&msg); err != nil {
			return s.wrap("check", err)
		}
		for line := range strings.Lines(msg) {
			line = strings.TrimSpace(line)
			if line != "ok" && line != "*** in database main ***" && len(problems) < 3 {
				problems = append(problems, line)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return s.wrap("check", err)
	}
	if len(problems) > 0 {
		return corrupt(s.path, "quick_check: "+strings.Join(problems, "; "))
	}
	return nil
}

// migrate applies the embedded migrations the database lacks.
func (s *Store) migrate(ctx context.Context) error {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, s.w, fsys, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return fmt.Errorf("sqlite: database %s: migrations: %w", s.path, err)
	}
	// Not p.Close: it would close s.w.
	if _, err := p.Up(ctx); err != nil {
		return s.wrap("migrate", err)
	}
	return nil
}

// Close implements store.Store.
func (s *Store) Close() error {
	var errs []error
	for _, db := range []*sql.DB{s.r, s.w} {
		if db != nil {
			errs = append(errs, db.Close())
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("sqlite: close %s: %w", s.path, err)
	}
	return nil
}

// wrap names the file and the operation in err, and marks a damaged
// database with store.ErrCorrupt.
func (s *Store) wrap(op string, err error) error {
	if isCorrupt(err) {
		return corrupt(s.path, op+": "+err.Error())
	}
	return fmt.Errorf("sqlite: %s %s: %w", op, s.path, err)
}

func isCorrupt(err error) bool {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Code() & 0xff { // the primary code of an extended one
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return true
	}
	return false
}

func corrupt(path, detail string) error {
	return fmt.Errorf("sqlite: database %s: %w (%s); restore it from a backup, or move it aside to start with an empty database",
		path, store.ErrCorrupt, detail)
}
