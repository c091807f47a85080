// Package postgres keeps games in PostgreSQL, where several server nodes
// share them. It uses github.com/jackc/pgx/v5 (pgxpool) and migrates the
// schema with goose when it opens, under a session advisory lock, so that
// nodes starting together are safe.
//
// # Schema
//
// In the connection's current schema (normally public): games (id,
// status, cheques as JSON text, seed, created and updated in Unix
// nanoseconds, move_count, lease_node, lease_fence, lease_expires as a
// timestamptz, creator_hash), seats (game_id, idx, name, bot, token_hash), moves
// (game_id, idx, token, and the game's time updated and clock as a move
// in play left them, so that such a move writes no new version of its
// game's row: see lastMove), keyed by (game_id, idx) so that no move index is
// stored twice, health (one row a health check rewrites), and goose's
// razzia_schema_version, which marks the schema as Razzia's: a schema
// holding other tables without it is refused, and so is a schema version
// newer than this program's.
//
// # Leases, fencing, notifications
//
// Lease expiry is judged by the database's clock (clock_timestamp()), in
// the transaction of each write, which locks the game's row first: a
// write by a fence that does not hold a live lease fails with
// store.ErrLeaseLost, and an acquisition waits for a write under way.
// RenewLeases renews a node's leases on a connection of its own, so that
// it never waits for one behind the games' writes, and never waits for a
// row lock (SKIP LOCKED), so that no write waits behind it: in one
// statement those whose rows no write has locked, then, a moment later,
// the few left that are still held, again. A session left in
// a transaction (its node paused) is ended after Options.IdleInTransaction,
// so that it holds no row lock a node taking the game over would wait on.
// Every committed change is sent with pg_notify in its own transaction on
// store.ChangesChannel, so it reaches every node at commit. Each Store
// listens on one dedicated connection for the channels its subscribers
// want; after that connection is lost and made again, it LISTENs again
// and gives every subscriber a Missed notice.
//
// A database that is unreachable at Open (refused, starting up) is waited
// for, with a log line at each try; a wrong URL, user, password or
// database name is a clear error at once. Once open, the pool reconnects
// by itself: writes fail while the database is away and succeed when it
// is back, and no committed move is lost. A write whose connection breaks
// while it commits may have committed all the same: retried, a move then
// meets ErrConflict, and the caller re-reads the game.
//
// AppendMove and Publish commit in groups: PostgreSQL serialises the
// commits of transactions that NOTIFY, so the moves and payloads that
// arrive while a group commits are sent together as one pipelined batch
// (see write).
package postgres

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/database"
	"github.com/pressly/goose/v3/lock"

	"github.com/razziagame/razzia/internal/store"
)

//go:embed migrations/*.sql
var migrations embed.FS

// versionTable is goose's table, named to mark the schema as Razzia's.
const versionTable = "razzia_schema_version"

// lockID is the advisory lock held while migrating ('RZZA' 'MIGR').
const lockID = 0x525a5a41_4d494752

// Store is a store.Store kept in PostgreSQL. Its methods are safe for
// concurrent use.
type Store struct {
	pool   *pgxpool.Pool
	leases *pgxpool.Pool // one connection of its own for RenewLeases
	where  string        // the database, for messages: host, port and name
	log    *slog.Logger
	schema int64            // the newest migration here
	now    func() time.Time // Options.Now

	broker store.Broker
	listen listener
	batch  *store.Batcher[*write] // AppendMove's and Publish's groups
	moves  []*move                // the moves of the group being committed: the writer's
	notes  []*note                // the notes of the group being committed: the writer's

	ctx    context.Context // ends at Close
	cancel context.CancelFunc
	// groupCtx is ctx that never ends, the groups' statements': Close
	// ends ctx only once every group was committed, and pgx watches a
	// context that may end with a callback of its own at every statement.
	groupCtx context.Context
	wg       sync.WaitGroup
}

var _ store.Store = (*Store)(nil)

// Options tune a Store; the zero value is the default.
type Options struct {
	// Logger receives the lines about waiting for the database; nil
	// discards them.
	Logger *slog.Logger
	// MaxConns caps the connections of the pool (default: pgxpool's,
	// the larger of 4 and the number of CPUs). Subscriptions use one more,
	// and lease renewals one more.
	MaxConns int32
	// IdleInTransaction is how long PostgreSQL lets one of this store's
	// sessions sit in a transaction without a statement before it ends
	// the session (idle_in_transaction_session_timeout), so that a node
	// paused mid-transaction (SIGSTOP, a VM frozen) holds no game's row
	// lock, which would stall the node taking its games over. Default
	// DefaultIdleInTransaction; a URL that sets the parameter wins.
	IdleInTransaction time.Duration
	// ApplicationName names the store's sessions to PostgreSQL
	// (pg_stat_activity): DefaultApplicationName unless set, which is
	// how InUse tells a server's sessions from those of the program
	// asking. A URL that sets the parameter wins.
	ApplicationName string
	// Existing refuses a database whose schema holds no razzia tables,
	// and creates none: for a database to read, such as razzia
	// migrate's source, where a mistyped name must not pass for an
	// empty database.
	Existing bool
	// Now is the clock a game's Created and Updated times are stamped
	// from (default time.Now): the game hub's, so that a clock resumed
	// from when the game last changed runs on the hub's time, not the
	// database's. Leases keep the database's clock, which every node
	// shares.
	Now func() time.Time
}

// DefaultApplicationName is the default of Options.ApplicationName.
const DefaultApplicationName = "razzia"

// DefaultIdleInTransaction is the default of Options.IdleInTransaction:
// no transaction of this package waits for anything but the database.
const DefaultIdleInTransaction = 5 * time.Second

// Open connects to the database the URL names (postgres://...), waiting
// while it is unreachable until ctx ends, checks that its schema is
// Razzia's or empty, and migrates it.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: the database URL: %w", err)
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	const idle = "idle_in_transaction_session_timeout"
	if _, set := cfg.ConnConfig.RuntimeParams[idle]; !set {
		if opts.IdleInTransaction <= 0 {
			opts.IdleInTransaction = DefaultIdleInTransaction
		}
		cfg.ConnConfig.RuntimeParams[idle] = strconv.FormatInt(opts.IdleInTransaction.Milliseconds(), 10)
	}
	if _, set := cfg.ConnConfig.RuntimeParams["application_name"]; !set {
		if opts.ApplicationName == "" {
			opts.ApplicationName = DefaultApplicationName
		}
		cfg.ConnConfig.RuntimeParams["application_name"] = opts.ApplicationName
	}
	s := &Store{
		where: fmt.Sprintf("%s:%d/%s", cfg.ConnConfig.Host, cfg.ConnConfig.Port, cfg.ConnConfig.Database),
		log:   opts.Logger,
		now:   opts.Now,
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.pool, err = pgxpool.NewWithConfig(context.Background(), cfg); err != nil {
		return nil, s.errorf("connect: %w", err)
	}
	lcfg := cfg.Copy()
	lcfg.MaxConns, lcfg.MinConns = 1, 0
	if s.leases, err = pgxpool.NewWithConfig(context.Background(), lcfg); err != nil {
		s.pool.Close()
		return nil, s.errorf("connect: %w", err)
	}
	if err := s.waitReachable(ctx); err != nil {
		s.pool.Close()
		s.leases.Close()
		return nil, err
	}
	if err := s.migrate(ctx, opts.Existing); err != nil {
		s.pool.Close()
		s.leases.Close()
		return nil, err
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.groupCtx = context.WithoutCancel(s.ctx)
	s.listen.init(s)
	s.batch = store.NewBatcher(maxGroup, 0, s.commit)
	return s, nil
}

func (s *Store) errorf(format string, args ...any) error {
	return fmt.Errorf("postgres: database %s: "+format, append([]any{s.where}, args...)...)
}

// waitReachable pings until the database answers, retrying while it is
// unreachable or starting, and fails at once on what waiting cannot fix.
func (s *Store) waitReachable(ctx context.Context) error {
	delay := 100 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := s.pool.Ping(ctx)
		if err == nil {
			if attempt > 1 {
				s.log.Info("database reachable", "db", s.where, "attempts", attempt)
			}
			return nil
		}
		if ctx.Err() != nil {
			return s.errorf("gave up waiting for it: %w", err)
		}
		if !transient(err) {
			return s.errorf("%w", err)
		}
		s.log.Warn("database unreachable, retrying", "db", s.where, "attempt", attempt, "retry_in", delay, "err", err)
		select {
		case <-ctx.Done():
			return s.errorf("gave up waiting for it: %w", err)
		case <-time.After(delay):
		}
		delay = min(2*delay, 5*time.Second)
	}
}

// transient reports whether err may pass by itself: the server refused
// the connection, did not answer, or is starting or shutting down.
func transient(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "57P03", "57P01", "57P02", "53300": // cannot connect now, shutdowns, too many connections
			return true
		}
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH)
}

// migrate refuses another application's schema or a newer Razzia's, and
// applies the migrations the database lacks, under goose's advisory lock.
func (s *Store) migrate(ctx context.Context, existing bool) error {
	if err := s.checkOurs(ctx); err != nil {
		return err
	}
	if existing {
		var found bool
		if err := s.pool.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL", versionTable).Scan(&found); err != nil {
			return s.errorf("look for its schema: %w", err)
		}
		if !found {
			return s.errorf("%w: its schema has no %s table", store.ErrNoDatabase, versionTable)
		}
	}
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(lockID), lock.WithLockTimeout(1, 600))
	if err != nil {
		return err
	}
	gs, err := database.NewStore(goose.DialectPostgres, versionTable)
	if err != nil {
		return err
	}
	db := stdlib.OpenDBFromPool(s.pool)
	defer db.Close()
	// Out of order: branches merge their migrations in any order, so a
	// database may lack one below its version; each stands alone.
	p, err := goose.NewProvider("", db, fsys, goose.WithStore(gs), goose.WithSessionLocker(locker),
		goose.WithDisableGlobalRegistry(true), goose.WithAllowOutofOrder(true))
	if err != nil {
		return s.errorf("migrations: %w", err)
	}
	src := p.ListSources()
	s.schema = src[len(src)-1].Version
	have, err := s.schemaVersion(ctx, db)
	if err != nil {
		return err
	}
	if err := store.CheckVersion("postgres: database "+s.where, have, s.schema); err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		if errors.Is(err, goose.ErrAlreadyApplied) {
			return nil
		}
		return s.errorf("migrate: %w", err)
	}
	return nil
}

// schemaVersion reads goose's version, 0 when there is none yet.
func (s *Store) schemaVersion(ctx context.Context, db *sql.DB) (int64, error) {
	var v sql.NullInt64
	err := db.QueryRowContext(ctx, "SELECT max(version_id) FROM "+versionTable+" WHERE is_applied").Scan(&v)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "42P01" { // undefined table: a new database
		return 0, nil
	}
	if err != nil {
		return 0, s.errorf("read the schema version: %w", err)
	}
	return v.Int64, nil
}

// checkOurs refuses a schema that holds tables but not Razzia's version
// table: another application's, never written into.
func (s *Store) checkOurs(ctx context.Context) error {
	rows, err := s.pool.Query(ctx, `
		SELECT table_name FROM information_schema.tables
		WHERE table_schema = current_schema() ORDER BY table_name`)
	if err != nil {
		return s.errorf("list its tables: %w", err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return s.errorf("list its tables: %w", err)
	}
	if len(tables) == 0 {
		return nil
	}
	for _, t := range tables {
		if t == versionTable {
			return nil
		}
	}
	if len(tables) > 5 {
		tables = append(tables[:5], "...")
	}
	return s.errorf("%w: its schema holds tables of another application (%s); give razzia a database (or schema) of its own",
		store.ErrSchema, strings.Join(tables, ", "))
}

// Health implements store.Store: the database answers, its schema is the
// newest this program knows, and a commit succeeds.
func (s *Store) Health(ctx context.Context) error {
	var have sql.NullInt64
	if err := s.pool.QueryRow(ctx, "SELECT max(version_id) FROM "+versionTable+" WHERE is_applied").Scan(&have); err != nil {
		return s.errorf("health check: %w", err)
	}
	if err := store.CheckVersion("postgres: database "+s.where, have.Int64, s.schema); err != nil {
		return err
	}
	if have.Int64 < s.schema {
		return s.errorf("%w: its schema is at version %d, older than this razzia's %d", store.ErrSchema, have.Int64, s.schema)
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO health (id, checked) VALUES (1, clock_timestamp())
		ON CONFLICT (id) DO UPDATE SET checked = excluded.checked`); err != nil {
		return s.errorf("health check: a commit failed: %w", err)
	}
	return nil
}

// Close implements store.Store.
func (s *Store) Close() error {
	s.batch.Close()
	s.cancel()
	s.wg.Wait()
	s.broker.Close()
	s.pool.Close()
	s.leases.Close()
	return nil
}
