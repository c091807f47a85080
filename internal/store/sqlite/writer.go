package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/razziagame/razzia/internal/store"
)

// An op is one write: run makes its changes in the group's transaction
// and returns the change to announce once committed, if any.
type op struct {
	ctx  context.Context
	name string // what it does, for errors; with game, a format of its index and game
	// game and index are the move an op appends, which name describes:
	// its words are made only for an error.
	game   string
	index  int
	run    func(w *wtx) (*store.Change, error)
	health bool // a health check: its failure is not a failed commit of data
	// clean says that run changes nothing before it fails alone, and
	// fails its group with an error not alone after its first change:
	// it needs no savepoint of its own, two statements fewer a write in
	// a group.
	clean  bool
	done   chan error
	change *store.Change
	err    error
}

// batchError is a commit that failed, with when.
type batchError struct {
	at  time.Time
	err error
}

// write runs f as one write of the next group and returns when the group
// has committed (nil) or f or the commit failed. A write that has started
// is waited for even if ctx ends meanwhile, so that nil always means on
// disk and an error always means not written.
func (s *Store) write(ctx context.Context, name string, f func(w *wtx) (*store.Change, error)) error {
	o := ops.Get().(*op)
	o.ctx, o.name, o.run = ctx, name, f
	return s.submit(o)
}

// moveOp is the write of a move's append, named by format with the
// move's index and game, which changes nothing before it fails alone (see
// op.clean).
func moveOp(ctx context.Context, format, game string, index int, f func(w *wtx) (*store.Change, error)) *op {
	o := ops.Get().(*op)
	o.ctx, o.name, o.game, o.index, o.run, o.clean = ctx, format, game, index, f, true
	return o
}

// ops are ops done with, their channels ready: a move makes one.
var ops = sync.Pool{New: func() any { return &op{done: make(chan error, 1)} }}

// submit queues o, waits for its outcome and then puts o in ops: the
// writer no longer reads it once it sent the outcome.
func (s *Store) submit(o *op) error {
	err := s.batch.Send(o.ctx, o)
	if err != nil {
		err = fmt.Errorf("sqlite: %s %s: %w", o.what(), s.path, err)
	} else {
		err = <-o.done
		s.broker.Deliver() // the group's notices (see committed)
	}
	*o = op{done: o.done}
	ops.Put(o)
	return err
}

// what says what o does, for errors.
func (o *op) what() string {
	if o.game != "" {
		return fmt.Sprintf(o.name, o.index, o.game)
	}
	return o.name
}

// writeFirst is write ahead of the writes queued: f joins the next group
// (store.Batcher.SendFirst), so that a lease renewal never waits behind
// the games' moves.
func (s *Store) writeFirst(ctx context.Context, name string, f func(w *wtx) (*store.Change, error)) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sqlite: %s: %w", name, err)
	}
	o := &op{ctx: ctx, name: name, run: f, done: make(chan error, 1)}
	if err := s.batch.SendFirst(o); err != nil {
		return fmt.Errorf("sqlite: %s %s: %w", o.what(), s.path, err)
	}
	err := <-o.done
	s.broker.Deliver()
	return err
}

// commit runs the batch in one transaction, each op in a savepoint (a
// batch of one in the transaction alone, a clean op in none), with the
// ops that came while it ran (store.Batcher.More: they would wait for
// this commit's sync and then their own), and tells every op its outcome.
// An op that fails alone (its checks, a constraint) is rolled back to its
// savepoint; an error of SQLite itself
// (I/O, a full disk) fails the whole group, which then changes nothing.
func (s *Store) commit(batch []*op) { s.commitMore(batch, s.batch.More) }

// commitMore is commit, with more the ops that came since the batch was
// formed appended to it.
func (s *Store) commitMore(batch []*op, more func([]*op) []*op) {
	ctx := context.Background() // no one caller's context may cut the group short
	fail := func(err error) {
		for _, o := range batch {
			if o.err == nil {
				o.err = s.wrap(o.what(), err)
			}
		}
		if !onlyHealth(batch) {
			s.lastErr.Store(&batchError{at: time.Now(), err: err})
		}
	}
	defer func() {
		for _, o := range batch {
			o.done <- o.err
		}
	}()
	w := &s.wtx // the handler's: one group is handled at a time
	*w = wtx{ctx: ctx, tx: s.wc, st: &s.stmts, hot: &s.hot}
	if _, err := w.execHot(s.hot.begin); err != nil {
		s.rollback(ctx)
		fail(err)
		return
	}
	var err error
	for i := 0; ; i++ {
		if i == len(batch) {
			if batch = more(batch); i == len(batch) {
				break
			}
		}
		o := batch[i]
		// A write alone so far needs no savepoint: the transaction is
		// its own, and rolling it back undoes the write that failed
		// alone; the writes that join it later have savepoints.
		single := len(batch) == 1
		if err := o.ctx.Err(); err != nil {
			o.err = fmt.Errorf("sqlite: %s: %w", o.what(), err)
			continue
		}
		save := !single && !o.clean
		if save {
			if _, err := w.execHot(s.hot.savepoint); err != nil {
				s.rollback(ctx)
				fail(err)
				return
			}
		}
		w.now, w.stamp = time.Now(), s.opts.Now()
		o.change, o.err = o.run(w)
		if o.err == nil {
			if save {
				_, err = w.execHot(s.hot.release)
			}
		} else if alone(o.err) {
			o.err = s.fail(o.what(), o.err)
			if single {
				if err := s.rollback(ctx); err != nil {
					fail(err)
					return
				}
				s.committed(batch)
				return
			}
			if save {
				if _, err = w.exec(s.stmts.rollbackTo); err == nil {
					_, err = w.execHot(s.hot.release)
				}
			}
		} else {
			err = o.err
			o.err = nil
		}
		if err != nil {
			s.rollback(ctx)
			fail(err)
			return
		}
	}
	if _, err := w.execHot(s.hot.commitTx); err != nil {
		s.rollback(ctx) // a commit that failed may leave the transaction open
		fail(err)
		return
	}
	if s.ckpt != nil {
		s.countPages()
	}
	s.committed(batch)
}

// countPages adds the pages the writer wrote to the log since it last
// counted to Store.pages, which the checkpointer reads.
func (s *Store) countPages() {
	var n int
	s.wc.Raw(func(c any) error {
		if st, ok := c.(sqlite.DBStatus); ok {
			n, _, _ = st.Status(sqlite.DBStatusCacheWrite, true)
		}
		return nil
	})
	s.pages.Add(int64(n))
}

// rollback ends the writer's transaction. SQLite rolls some failed
// transactions back itself (a full disk), and then refuses ROLLBACK:
// the error matters only where the transaction must be open.
func (s *Store) rollback(ctx context.Context) error {
	_, err := s.stmts.rollback.ExecContext(ctx)
	return err
}

// committed notes a group that ended as it should and announces its
// changes. Their hearers (Hear) are not called here: the writes told
// deliver them once the group is handled (submit), so that a hearer never
// holds up the next group, and one that writes does not wait for itself.
func (s *Store) committed(batch []*op) {
	s.groups.Add(1)
	if !onlyHealth(batch) {
		s.lastErr.Store(nil)
	}
	for _, o := range batch {
		if o.err == nil && o.change != nil {
			s.broker.Queue(store.ChangesChannel, o.change.Payload())
		}
	}
}

func onlyHealth(batch []*op) bool {
	for _, o := range batch {
		if !o.health {
			return false
		}
	}
	return true
}

// alone reports whether err fails its own write only: a refusal of this
// package or a constraint SQLite checked, which it undoes by itself.
func alone(err error) bool {
	for _, e := range []error{store.ErrNotFound, store.ErrConflict, store.ErrLeaseLost, store.ErrLeaseHeld,
		store.ErrNoAccount, store.ErrNameTaken, store.ErrRated,
		store.ErrNoReport, store.ErrReportClosed, store.ErrReported, store.ErrTooManyReports} {
		if errors.Is(err, e) {
			return true
		}
	}
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}

func isSQLite(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e)
}

// wtx is a group's transaction as its ops see it: the writer's
// connection, between the group's BEGIN and COMMIT.
type wtx struct {
	ctx   context.Context
	tx    *sql.Conn
	st    *statements
	hot   *hotStatements
	args  [11]driver.NamedValue // execHot's, used again
	execs int                   // the statements execHot ran in the group, for tests
	now   time.Time             // when the current op started: the clock of its checks
	stamp time.Time             // the same by Options.Now: what a game's Updated becomes
}

// exec runs st, one of the writer's statements, prepared once on its
// connection: nothing is prepared or bound again.
func (w *wtx) exec(st *sql.Stmt, args ...any) (sql.Result, error) {
	return st.ExecContext(w.ctx, args...)
}

// execHot runs st, one of the writer's hot statements, with args (at
// most len(w.args)) on the driver's connection itself: database/sql would
// copy and check every argument and wrap the result, at every statement
// of every move.
func (w *wtx) execHot(st driver.StmtExecContext, args ...any) (driver.Result, error) {
	nv := w.args[:len(args)]
	for i, a := range args {
		nv[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	w.execs++
	var res driver.Result
	err := w.tx.Raw(func(any) error {
		var err error
		res, err = st.ExecContext(w.ctx, nv)
		return err
	})
	clear(nv) // keeps no argument from the collector
	return res, err
}

func (w *wtx) row(st *sql.Stmt, args ...any) *sql.Row {
	return st.QueryRowContext(w.ctx, args...)
}

// setClockPlaying sets the clock of a game in play, which keeps its
// listed (0); an open game's is its time updated (setClockListed).
var setClockPlaying = "UPDATE games SET clock = ?1, updated = " + nextUpdated + " WHERE id = ?3 AND status = 'playing'"

// renewLeases renews leases: ?2 is a JSON list of {g: game, n: node, f:
// fence}; a lease is renewed while that node holds it live with that
// fence.
const renewLeases = `UPDATE games SET lease_expires = ?1
	FROM (SELECT json_extract(value, '$.g') AS id, json_extract(value, '$.n') AS node,
		json_extract(value, '$.f') AS fence FROM json_each(?2)) AS w
	WHERE games.id = w.id AND games.lease_node = w.node AND games.lease_fence = w.fence
		AND games.lease_expires > ?3
	RETURNING games.id, games.lease_fence`

// listedAs is the listed of a game of status with the time updated
// (SQL expressions): the order of the lists by status, which is the time
// updated but while the game is played (0), so that a move of a game in
// play changes nothing the lists' index holds. The games table's CHECK
// holds every row to it (migration 00015).
func listedAs(status, updated string) string {
	return "CASE WHEN " + status + " = 'playing' THEN 0 ELSE " + updated + " END"
}

// statements are the writer's, prepared once on its connection.
type statements struct {
	rollback, rollbackTo *sql.Stmt // the group's frame: begin and the others are hot

	gameExists, insertGame, insertSeat, insertMove  *sql.Stmt
	gameForWrite, seatForWrite, takeSeat, setStatus *sql.Stmt
	touch, setLease                                 *sql.Stmt
	setClock, setClockListed, renewLeases           *sql.Stmt
	setRematch, setSeatBot                          *sql.Stmt
	health                                          *sql.Stmt
}

// hotStatements are the writer's statements of a group's frame and of a
// move, prepared once on its driver connection and run by wtx.execHot.
type hotStatements struct {
	begin, commitTx, savepoint, release driver.StmtExecContext
	moveRow, moveStatus, insertMove     driver.StmtExecContext
	all                                 []driver.Stmt // to close
}

// prepare prepares the statements on c, the writer's driver connection.
func (h *hotStatements) prepare(ctx context.Context, c driver.ConnPrepareContext) error {
	for _, p := range []struct {
		s   *driver.StmtExecContext
		sql string
	}{
		{&h.begin, "BEGIN IMMEDIATE"},
		{&h.commitTx, "COMMIT"},
		{&h.savepoint, "SAVEPOINT op"},
		{&h.release, "RELEASE op"},
		{&h.moveRow, moveRow},
		{&h.moveStatus, moveStatus},
		{&h.insertMove, insertMove},
	} {
		st, err := c.PrepareContext(ctx, p.sql)
		if err != nil {
			h.close()
			return fmt.Errorf("%s: %w", p.sql, err)
		}
		h.all = append(h.all, st)
		x, ok := st.(driver.StmtExecContext)
		if !ok {
			h.close()
			return fmt.Errorf("%s: the driver's statement %T runs with no context", p.sql, st)
		}
		*p.s = x
	}
	return nil
}

func (h *hotStatements) close() {
	for _, st := range h.all {
		st.Close()
	}
	*h = hotStatements{}
}

// insertMove stores a move.
const insertMove = "INSERT INTO moves (game_id, idx, token) VALUES (?, ?, ?)"

func (st *statements) prepare(ctx context.Context, db *sql.Conn) error {
	for _, p := range []struct {
		s   **sql.Stmt
		sql string
	}{
		{&st.rollback, "ROLLBACK"},
		{&st.rollbackTo, "ROLLBACK TO op"},
		{&st.gameExists, "SELECT count(*) FROM games WHERE id = ?"},
		{&st.insertGame, `INSERT INTO games (id, status, cheques, seed, created, updated, move_count, creator_hash, rated, clock, rematch_of, rematch, listed)
			VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ` + listedAs("?2", "?6") + `)`},
		{&st.insertSeat, "INSERT INTO seats (game_id, idx, name, bot, token_hash, account_id) VALUES (?, ?, ?, ?, ?, ?)"},
		{&st.insertMove, insertMove},
		{&st.gameForWrite, "SELECT status, " + movesOf("g") + ", lease_node, lease_fence, lease_expires FROM games AS g WHERE id = ?"},
		{&st.seatForWrite, "SELECT name, bot, token_hash FROM seats WHERE game_id = ? AND idx = ?"},
		{&st.takeSeat, "UPDATE seats SET name = ?, token_hash = ?, account_id = ? WHERE game_id = ? AND idx = ?"},
		{&st.setSeatBot, "UPDATE seats SET name = ?, bot = ? WHERE game_id = ? AND idx = ?"},
		{&st.setStatus, "UPDATE games SET status = ?1, updated = " + nextUpdated + ", listed = " + listedAs("?1", nextUpdated) +
			" WHERE id = ?3 AND status = 'open'"},
		{&st.touch, "UPDATE games SET status = ?1, updated = " + nextUpdated + ", listed = " + listedAs("?1", nextUpdated) + " WHERE id = ?3"},
		{&st.setLease, "UPDATE games SET lease_node = ?, lease_fence = ?, lease_expires = ? WHERE id = ?"},
		{&st.setClock, setClockPlaying},
		{&st.setClockListed, "UPDATE games SET clock = ?1, updated = " + nextUpdated + ", listed = " + listedAs("status", nextUpdated) + " WHERE id = ?3"},
		{&st.renewLeases, renewLeases},
		{&st.setRematch, "UPDATE games SET rematch = ? WHERE id = ? AND rematch IS ?"},
		{&st.health, "INSERT INTO health (id, checked) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET checked = excluded.checked"},
	} {
		var err error
		if *p.s, err = db.PrepareContext(ctx, p.sql); err != nil {
			st.close()
			return fmt.Errorf("%s: %w", p.sql, err)
		}
	}
	return nil
}

func (st *statements) close() {
	for _, s := range []*sql.Stmt{st.rollback, st.rollbackTo, st.gameExists, st.insertGame,
		st.insertSeat, st.insertMove, st.gameForWrite, st.seatForWrite, st.takeSeat, st.setStatus, st.touch,
		st.setLease, st.health, st.setClock, st.setClockListed, st.renewLeases, st.setRematch, st.setSeatBot} {
		if s != nil {
			s.Close()
		}
	}
}
