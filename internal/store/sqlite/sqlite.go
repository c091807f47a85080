// Package sqlite keeps games in an SQLite database file: the store a club
// server needs with nothing else installed. It uses modernc.org/sqlite
// (pure Go) in WAL mode with synchronous=FULL, so a method that returns nil
// has its change on disk, and it migrates the schema when it opens.
//
// Writes go to one writer that commits them in groups (store.Batcher: a
// write that finds it idle commits at once in its caller's goroutine): the
// writes that arrive while the previous transaction commits (or within
// Options.Tick) share one transaction and one sync to disk, each in its own
// savepoint, so that a write that fails (a conflicting move, a lost lease)
// fails alone and the others commit; a write alone needs no savepoint, nor
// a move, which changes nothing before it fails alone. Its statements are
// prepared once.
//
// # Schema
//
// games (id, status, cheques as JSON, seed, created and updated in Unix
// nanoseconds, move_count, lease_node, lease_fence, lease_expires,
// creator_hash, and listed: the lists' order, the time updated but 0
// while a game is played, so that a move writes no index entry), seats
// (game_id, idx, name, bot, token_hash) and moves (game_id, idx, token,
// and the game's time updated and clock as a move in play left them, so
// that such a move writes its own row alone: see lastMove), keyed by
// (game_id, idx) so that no move index is stored twice, and
// health (one row a health check rewrites). The file is marked with
// application_id 0x525a5a41 ('RZZA'); a file with another mark, or with
// tables and neither the mark nor Razzia's tables, is refused unchanged.
//
// Leases are kept in the games table, with expiry by this host's clock
// (every process on one file shares it), so a second process on the same
// file is fenced out too. Notices are delivered within the process only.
package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/razziagame/razzia/internal/store"
)

// Store is a store.Store kept in one SQLite database file. Its methods are
// safe for concurrent use.
type Store struct {
	path string
	opts Options
	w    *sql.DB // one connection, the writer's (one group at a time)
	// wc is w's connection, held: the writer's groups are its BEGIN and
	// COMMIT, and its statements are prepared on it once, so that a
	// group binds no statement and starts no goroutine (as sql.Tx does).
	wc     *sql.Conn
	wtx    wtx     // the writer's group, made again for each
	r      *sql.DB // readers: WAL lets them run beside the writer
	schema int64   // the newest migration here, which the database has
	stmts  statements
	hot    hotStatements // on wc's driver connection
	broker store.Broker
	lock   *os.File // with Options.Sole, the file whose flock this store holds

	batch     *store.Batcher[*op] // the writer: one transaction a group
	closeOnce sync.Once
	closeErr  error

	lastErr atomic.Pointer[batchError] // the last failed commit, nil after a good one
	groups  atomic.Int64               // groups committed, for tests and metrics
	pages   atomic.Int64               // pages the writer wrote to the log (with a checkpointer)
	copies  atomic.Int64               // checkpoints the checkpointer made

	ckpt     *sql.DB       // the checkpointer's connection; nil when the writer checkpoints
	ckptStop chan struct{} // closed to stop the checkpointer
	ckptDone chan struct{} // closed when it has stopped
}

// Options tune a Store; the zero value is the default.
type Options struct {
	// Tick is how long the writer waits for more writes before it
	// commits a group. Zero commits what arrived while the last commit
	// ran, which is how groups form under load with no added delay.
	Tick time.Duration
	// MaxBatch caps the writes of one transaction (default 1024).
	MaxBatch int
	// CheckpointEvery is how often, while writes come, a connection of
	// its own looks whether the write-ahead log has grown by
	// CheckpointPages since it last copied it into the database, and
	// then copies it (a passive checkpoint, which never blocks the
	// writer); zero means DefaultCheckpointEvery. A negative value leaves
	// checkpoints to SQLite, which runs one in the commit that fills the
	// log past 1000 pages: that commit, and every move waiting for the
	// next one, waits for it.
	CheckpointEvery time.Duration
	// CheckpointPages is how many pages the log grows by between two
	// copies (default DefaultCheckpointPages). A copy costs its syncs
	// and a write of every page it copies, however often that page
	// changed since the last copy: the rarer the copies, the fewer the
	// syncs and writes a move, and the same at any rate of moves.
	CheckpointPages int
	// Sole makes this store the only one open on the database, among all
	// processes, until it is closed: Open takes an exclusive lock on the
	// file (flock(2), which the system drops when the process ends) and
	// fails with an error wrapping ErrInUse if another store holds it.
	// With the lock held, no other process can be running the games whose
	// leases the database records, so Open releases those leases, and a
	// server restarted after a crash takes its games back at once instead
	// of after their lease time. razzia serve opens its database so.
	Sole bool
	// Existing refuses a database file that is missing or empty, and
	// creates nothing: for a database to read, such as razzia migrate's
	// source, where a mistyped name must not become a new, empty database.
	Existing bool
	// Now is the clock a game's Created and Updated times are stamped
	// from (default time.Now): the game hub's, so that a clock resumed
	// from when the game last changed runs on the hub's time. Leases keep
	// the real clock.
	Now func() time.Time
}

// ErrInUse is the error of a database that another store opened with
// Options.Sole holds: another razzia serve on the same file.
var ErrInUse = errors.New("the database is in use by another process (one razzia serve per SQLite database: several nodes need PostgreSQL)")

// DefaultCheckpointEvery is the default of Options.CheckpointEvery.
const DefaultCheckpointEvery = 250 * time.Millisecond

// DefaultCheckpointPages is the default of Options.CheckpointPages:
// SQLite's own, a log of 4 MiB, a copy about every 4 s at 100 moves a
// second and every 0.45 s at 1,000 (a move writes about 2.2 pages).
const DefaultCheckpointPages = 1000

var _ store.Store = (*Store)(nil)

// The pragmas of every connection. busy_timeout comes first so that the
// others wait for a lock another process holds instead of failing.
const (
	writePragmas = "_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)" +
		"&_pragma=foreign_keys(1)&_txlock=immediate"
	readPragmas = "_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_pragma=query_only(1)"
	readers     = 4
	// The writer's, when another connection checkpoints: the log may
	// not shrink while it is in use, but is cut back to 64 MiB when it
	// starts over.
	noCheckpoint = "&_pragma=wal_autocheckpoint(0)&_pragma=journal_size_limit(67108864)"
	ckptPragmas  = "_pragma=busy_timeout(5000)"
)

//go:embed migrations/*.sql
var migrations embed.FS

// header starts every SQLite 3 database file.
const header = "SQLite format 3\x00"

// applicationID marks Razzia's databases: 'RZZA'.
const applicationID = 0x525a5a41

// Open opens the database at path with the default options.
func Open(ctx context.Context, path string) (*Store, error) {
	return OpenOptions(ctx, path, Options{})
}

// OpenOptions opens the database at path, creating it if it does not
// exist, checks it with PRAGMA quick_check and brings its schema up to
// date. A file that is not a sound SQLite database gives an error wrapping
// store.ErrCorrupt, one of another application or of a newer Razzia an
// error wrapping store.ErrSchema; both name the file, and Open never
// changes such a file.
func OpenOptions(ctx context.Context, path string, opts Options) (_ *Store, err error) {
	if path == "" {
		return nil, errors.New("sqlite: no database file name")
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 1024
	}
	if opts.CheckpointEvery == 0 {
		opts.CheckpointEvery = DefaultCheckpointEvery
	}
	if opts.CheckpointPages <= 0 {
		opts.CheckpointPages = DefaultCheckpointPages
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("sqlite: database %s: %w", path, err)
	}
	if err := precheck(abs); err != nil {
		return nil, err
	}
	if opts.Existing {
		if err := exists(abs); err != nil {
			return nil, err
		}
	}
	s := &Store{path: abs, opts: opts}
	if opts.Sole {
		if s.lock, err = lockFile(abs); err != nil {
			return nil, err
		}
		defer func() {
			if s.lock != nil && err != nil { // a failed Open closed its connections
				s.lock.Close()
			}
		}()
	}
	if err := s.checkOurs(ctx); err != nil {
		return nil, err
	}
	pragmas := writePragmas
	if opts.CheckpointEvery > 0 {
		pragmas += noCheckpoint
	}
	if s.w, err = s.connect(ctx, pragmas, 1); err != nil {
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
	if s.lock != nil {
		// Whoever held these leases has ended: the lock says so.
		if _, err := s.w.ExecContext(ctx, "UPDATE games SET lease_node = NULL, lease_expires = NULL WHERE lease_node IS NOT NULL"); err != nil {
			s.w.Close()
			return nil, s.wrap("release the leases of ended processes", err)
		}
	}
	if s.wc, err = s.w.Conn(ctx); err != nil {
		s.w.Close()
		return nil, s.wrap("connect", err)
	}
	if err := s.stmts.prepare(ctx, s.wc); err != nil {
		s.wc.Close()
		s.w.Close()
		return nil, s.wrap("prepare", err)
	}
	err = s.wc.Raw(func(c any) error {
		p, ok := c.(driver.ConnPrepareContext)
		if !ok {
			return fmt.Errorf("the driver's connection %T prepares with no context", c)
		}
		return s.hot.prepare(ctx, p)
	})
	if err != nil {
		s.stmts.close()
		s.wc.Close()
		s.w.Close()
		return nil, s.wrap("prepare", err)
	}
	if s.r, err = s.connect(ctx, readPragmas, readers); err != nil {
		s.closeStatements()
		s.wc.Close()
		s.w.Close()
		return nil, err
	}
	if opts.CheckpointEvery > 0 {
		if s.ckpt, err = s.connect(ctx, ckptPragmas, 1); err != nil {
			s.closeStatements()
			s.r.Close()
			s.wc.Close()
			s.w.Close()
			return nil, err
		}
		s.ckptStop, s.ckptDone = make(chan struct{}), make(chan struct{})
		go s.checkpoints()
	}
	s.batch = store.NewBatcher(opts.MaxBatch, opts.Tick, s.commit)
	return s, nil
}

// checkpoints looks every Options.CheckpointEvery whether the log has
// grown by Options.CheckpointPages since the last copy, and then copies
// its committed pages into the database, beside the writer, so that no
// commit waits for a checkpoint. It only moves pages that are on disk
// already: a move is durable once its group's commit synced the log.
func (s *Store) checkpoints() {
	defer close(s.ckptDone)
	t := time.NewTicker(s.opts.CheckpointEvery)
	defer t.Stop()
	var copied int64 // the pages written to the log before the last copy
	for {
		select {
		case <-s.ckptStop:
			return
		case <-t.C:
		}
		s.checkpoint(&copied)
	}
}

// checkpoint copies the log into the database if it grew by
// Options.CheckpointPages since copied, the pages written before the
// last copy, which it then updates. A checkpoint that fails (the
// database is busy) is tried again at the next tick.
func (s *Store) checkpoint(copied *int64) {
	n := s.pages.Load()
	if n-*copied < int64(s.opts.CheckpointPages) {
		return
	}
	var busy, log, moved int
	if err := s.ckpt.QueryRow("PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &log, &moved); err == nil {
		*copied = n
		s.copies.Add(1)
	}
}

// checkOurs refuses a database of another application before anything
// writes to it: through a read-only connection it reads the application
// id and the tables. An older Razzia database has no mark but our tables.
func (s *Store) checkOurs(ctx context.Context) error {
	if fi, err := os.Stat(s.path); err != nil || fi.Size() == 0 {
		return nil // a new database
	}
	db, err := s.open("mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return s.wrap("open", err)
	}
	defer db.Close()
	var id int64
	if err := db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&id); err != nil {
		return s.wrap("check", err)
	}
	switch uint32(id) {
	case applicationID:
		return nil
	case 0:
	default:
		return fmt.Errorf("sqlite: database %s: %w: it belongs to another application (application_id 0x%08x); give razzia a file of its own",
			s.path, store.ErrSchema, uint32(id))
	}
	rows, err := db.QueryContext(ctx, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
	if err != nil {
		return s.wrap("check", err)
	}
	defer rows.Close()
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return s.wrap("check", err)
		}
		tables = append(tables, name)
	}
	if err := rows.Err(); err != nil {
		return s.wrap("check", err)
	}
	if len(tables) == 0 || slices.Contains(tables, "goose_db_version") && slices.Contains(tables, "games") {
		return nil
	}
	if len(tables) > 5 {
		tables = append(tables[:5], "...")
	}
	return fmt.Errorf("sqlite: database %s: %w: it holds tables of another application (%s); give razzia a file of its own",
		s.path, store.ErrSchema, strings.Join(tables, ", "))
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

// exists refuses a missing or empty database file (Options.Existing).
func exists(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("sqlite: %w at %s: the file does not exist", store.ErrNoDatabase, path)
	case err != nil:
		return fmt.Errorf("sqlite: database %s: %w", path, err)
	case fi.Size() == 0:
		return fmt.Errorf("sqlite: %w at %s: the file is empty", store.ErrNoDatabase, path)
	}
	return nil
}

// open opens the database with the URI parameters.
func (s *Store) open(params string) (*sql.DB, error) {
	// A file: URI, escaped, so that no character of the path is taken
	// for a parameter.
	dsn := (&url.URL{Scheme: "file", Path: s.path, RawQuery: params}).String()
	if !strings.HasPrefix(dsn, "file://") {
		return nil, fmt.Errorf("sqlite: database %s: cannot make a file URI", s.path)
	}
	return sql.Open("sqlite", dsn)
}

// connect opens a pool of at most n connections with the pragmas and
// makes one, so that errors in opening show here.
func (s *Store) connect(ctx context.Context, pragmas string, n int) (*sql.DB, error) {
	db, err := s.open(pragmas)
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

// provider returns the goose provider of the embedded migrations on s.w.
// Not its Close: that would close s.w.
func (s *Store) provider() (*goose.Provider, error) {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, err
	}
	// Out of order: branches merge their migrations in any order, so a
	// database may lack one below its version; each stands alone.
	p, err := goose.NewProvider(goose.DialectSQLite3, s.w, fsys, goose.WithDisableGlobalRegistry(true), goose.WithAllowOutofOrder(true))
	if err != nil {
		return nil, fmt.Errorf("sqlite: database %s: migrations: %w", s.path, err)
	}
	return p, nil
}

// migrate applies the embedded migrations the database lacks, and refuses
// a database migrated by a newer Razzia.
func (s *Store) migrate(ctx context.Context) error {
	p, err := s.provider()
	if err != nil {
		return err
	}
	if err := s.checkVersion(ctx, p); err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		return s.wrap("migrate", err)
	}
	src := p.ListSources()
	s.schema = src[len(src)-1].Version
	return nil
}

// checkVersion refuses a schema newer than the newest migration here.
func (s *Store) checkVersion(ctx context.Context, p *goose.Provider) error {
	have, err := p.GetDBVersion(ctx)
	if err != nil {
		return s.wrap("read the schema version of", err)
	}
	src := p.ListSources()
	return store.CheckVersion("sqlite: database "+s.path, have, src[len(src)-1].Version)
}

// checkCurrent reports a schema that is not the newest migration here:
// newer (another razzia migrated it since) or older.
func (s *Store) checkCurrent(ctx context.Context) error {
	have, err := s.schemaVersion(ctx)
	if err != nil {
		return err
	}
	want := s.schema
	if err := store.CheckVersion("sqlite: database "+s.path, have, want); err != nil {
		return err
	}
	if have < want {
		return fmt.Errorf("sqlite: database %s: %w: its schema is at version %d, older than this razzia's %d", s.path, store.ErrSchema, have, want)
	}
	return nil
}

// schemaVersion reads goose's version without writing: through a reader.
func (s *Store) schemaVersion(ctx context.Context) (int64, error) {
	var v int64
	err := s.read(ctx, "read the schema version of", func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, "SELECT max(version_id) FROM goose_db_version WHERE is_applied").Scan(&v)
	})
	return v, err
}

// closeStatements closes the writer's statements, on its connection.
func (s *Store) closeStatements() error {
	s.stmts.close()
	return s.wc.Raw(func(any) error { s.hot.close(); return nil })
}

// Close implements store.Store: it waits for the writes under way.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		if s.batch != nil {
			s.batch.Close()
		}
		if s.ckptStop != nil {
			close(s.ckptStop)
			<-s.ckptDone
		}
		s.broker.Close()
		var errs []error
		if s.wc != nil {
			errs = append(errs, s.closeStatements())
			errs = append(errs, s.wc.Close())
		}
		for _, db := range []*sql.DB{s.ckpt, s.r, s.w} { // the writer last: it checkpoints all at close
			if db != nil {
				errs = append(errs, db.Close())
			}
		}
		if s.lock != nil { // after the connections: see lockFile
			errs = append(errs, s.lock.Close())
		}
		if err := errors.Join(errs...); err != nil {
			s.closeErr = fmt.Errorf("sqlite: close %s: %w", s.path, err)
		}
	})
	return s.closeErr
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
