package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/razziagame/razzia/internal/store"
)

// CreateGame implements store.Store.
func (s *Store) CreateGame(ctx context.Context, g *store.Game) error {
	if err := g.Validate(); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return s.create(ctx, g, func(*wtx, *store.Change) error { return nil })
}

// CreateOwnedGame implements store.Store: the game and its lease are one
// write of the writer's group.
func (s *Store) CreateOwnedGame(ctx context.Context, g *store.Game, node string, ttl time.Duration) (store.Lease, error) {
	if err := g.CheckOwned(node, ttl); err != nil {
		return store.Lease{}, fmt.Errorf("sqlite: %w", err)
	}
	var l store.Lease
	err := s.create(ctx, g, func(w *wtx, c *store.Change) error {
		var err error
		if l, _, err = (store.Lease{Game: g.ID}).Acquire(node, w.now, ttl); err != nil {
			return err
		}
		c.Node, c.Fence = l.Node, l.Fence
		return w.setLease(l)
	})
	if err != nil {
		return store.Lease{}, err
	}
	return l, nil
}

// create stores g, checked, and then does more in the same write (more
// may add to the change it announces).
func (s *Store) create(ctx context.Context, g *store.Game, more func(*wtx, *store.Change) error) error {
	created, updated := g.Times(s.opts.Now())
	for _, tm := range []time.Time{created, updated} {
		if tm.Before(minTime) || tm.After(maxTime) {
			return fmt.Errorf("sqlite: game %q: time %v out of range", g.ID, tm)
		}
	}
	cheques, err := json.Marshal(g.Cheques)
	if err != nil {
		return fmt.Errorf("sqlite: game %q: cheques: %w", g.ID, err)
	}
	st := &s.stmts
	err = s.write(ctx, "create game "+g.ID, func(w *wtx) (*store.Change, error) {
		var n int
		if err := w.row(st.gameExists, g.ID).Scan(&n); err != nil {
			return nil, err
		}
		if n > 0 {
			return nil, fmt.Errorf("sqlite: game %q: %w: the id exists", g.ID, store.ErrConflict)
		}
		if _, err := w.exec(st.insertGame, g.ID, string(g.Status), string(cheques), g.Seed,
			created.UnixNano(), updated.UnixNano(), len(g.Moves), hashOrNil(g.CreatorHash), g.Rated, hashOrNil(g.Clock),
			orNil(g.RematchOf), hashOrNil(g.Rematch)); err != nil {
			return nil, err
		}
		for i, seat := range g.Seats {
			if _, err := w.exec(st.insertSeat, g.ID, i, seat.Name, seat.Bot, hashOrNil(seat.TokenHash), orNil(seat.Account)); err != nil {
				return nil, err
			}
		}
		for i, tok := range g.Moves {
			if _, err := w.exec(st.insertMove, g.ID, i, tok); err != nil {
				return nil, err
			}
		}
		c := &store.Change{Game: g.ID, Kind: store.ChangeCreated, Moves: len(g.Moves), Status: g.Status}
		return c, more(w, c)
	})
	if err != nil {
		return err
	}
	g.Created, g.Updated = created.Round(0), updated.Round(0)
	return nil
}

// The times a nanosecond count since 1970 can hold, with a margin.
var (
	minTime = time.Date(1700, 1, 1, 0, 0, 0, 0, time.UTC)
	maxTime = time.Date(2250, 1, 1, 0, 0, 0, 0, time.UTC)
)

// hashOrNil stores an empty hash (or clock) as NULL, the open seat's.
func hashOrNil(h []byte) any {
	if len(h) == 0 {
		return nil
	}
	return h
}

// orNil stores an empty string as NULL: a seat with no account.
func orNil(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// Game implements store.Store.
func (s *Store) Game(ctx context.Context, id string) (*store.Game, error) {
	g := &store.Game{ID: id}
	err := s.read(ctx, "read game "+id, func(tx *sql.Tx) error {
		var (
			status           string
			cheques          string
			created, updated int64
			rematchOf        sql.NullString
		)
		err := tx.QueryRowContext(ctx, "SELECT status, cheques, seed, created, "+updatedOf("g")+", creator_hash, rated, "+clockOf("g")+", rematch_of, rematch FROM games AS g WHERE id = ?", id).
			Scan(&status, &cheques, &g.Seed, &created, &updated, &g.CreatorHash, &g.Rated, &g.Clock, &rematchOf, &g.Rematch)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlite: game %q: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		g.Status, g.Created, g.Updated = store.Status(status), fromNanos(created), fromNanos(updated)
		g.RematchOf = rematchOf.String
		if err := json.Unmarshal([]byte(cheques), &g.Cheques); err != nil {
			return corrupt(s.path, fmt.Sprintf("game %q: cheques: %v", id, err))
		}
		if g.Seats, err = seats(ctx, tx, id, true); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, "SELECT idx, token FROM moves WHERE game_id = ? ORDER BY idx", id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				idx int
				tok string
			)
			if err := rows.Scan(&idx, &tok); err != nil {
				return err
			}
			if idx != len(g.Moves) {
				return corrupt(s.path, fmt.Sprintf("game %q: move %d is missing", id, len(g.Moves)))
			}
			g.Moves = append(g.Moves, tok)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return g, nil
}

// MovesSince implements store.Store.
func (s *Store) MovesSince(ctx context.Context, from map[string]int) (map[string][]string, error) {
	return store.MovesOf(s.DeltasSince(ctx, from))
}

// DeltasSince implements store.Store, in one read transaction.
func (s *Store) DeltasSince(ctx context.Context, from map[string]int) (map[string]store.Delta, error) {
	out := map[string]store.Delta{}
	err := s.read(ctx, fmt.Sprintf("read the new moves of %d games", len(from)), func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, "SELECT idx, token FROM moves WHERE game_id = ? AND idx >= ? ORDER BY idx")
		if err != nil {
			return err
		}
		defer st.Close()
		clocks, err := tx.PrepareContext(ctx, "SELECT "+clockOf("g")+" FROM games AS g WHERE id = ?")
		if err != nil {
			return err
		}
		defer clocks.Close()
		for id, n := range from {
			var clock []byte
			switch err := clocks.QueryRowContext(ctx, id).Scan(&clock); {
			case errors.Is(err, sql.ErrNoRows):
				continue // not stored
			case err != nil:
				return err
			}
			n = max(n, 0)
			rows, err := st.QueryContext(ctx, id, n)
			if err != nil {
				return err
			}
			var moves []string
			for rows.Next() {
				var (
					idx int
					tok string
				)
				if err := rows.Scan(&idx, &tok); err != nil {
					rows.Close()
					return err
				}
				if idx != n+len(moves) {
					rows.Close()
					return corrupt(s.path, fmt.Sprintf("game %q: move %d is missing", id, n+len(moves)))
				}
				moves = append(moves, tok)
			}
			if err := rows.Close(); err != nil {
				return err
			}
			if err := rows.Err(); err != nil {
				return err
			}
			out[id] = store.Delta{Moves: moves, Clock: clock}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// seats reads a game's seats, with or without their token hashes.
func seats(ctx context.Context, tx *sql.Tx, id string, hashes bool) ([]store.Seat, error) {
	rows, err := tx.QueryContext(ctx, "SELECT name, bot, token_hash, coalesce(account_id, '') FROM seats WHERE game_id = ? ORDER BY idx", id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ss []store.Seat
	for rows.Next() {
		var seat store.Seat
		if err := rows.Scan(&seat.Name, &seat.Bot, &seat.TokenHash, &seat.Account); err != nil {
			return nil, err
		}
		if !hashes || len(seat.TokenHash) == 0 {
			seat.TokenHash = nil
		}
		ss = append(ss, seat)
	}
	return ss, rows.Err()
}

func fromNanos(n int64) time.Time { return time.Unix(0, n).UTC() }

// TakeSeat implements store.Store.
func (s *Store) TakeSeat(ctx context.Context, id string, fence store.Fence, seat int, taker store.Seat, status store.Status) error {
	if err := store.CheckSeat(id, seat, taker, status); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	st := &s.stmts
	return s.write(ctx, fmt.Sprintf("take seat %d of game %s", seat, id), func(w *wtx) (*store.Change, error) {
		row, err := w.writable(id, fence, store.Status.Live)
		if err != nil {
			return nil, err
		}
		taken, err := w.seat(id, seat)
		if err != nil {
			return nil, err
		}
		if taken.Name != "" || taken.Bot != "" || taken.TokenHash != nil {
			return nil, fmt.Errorf("sqlite: game %q seat %d: %w: the seat is taken", id, seat, store.ErrConflict)
		}
		if err := w.noOtherSeat(id, taker.Account); err != nil {
			return nil, err
		}
		if _, err := w.exec(st.takeSeat, taker.Name, taker.TokenHash, orNil(taker.Account), id, seat); err != nil {
			return nil, err
		}
		if _, err := w.exec(st.touch, string(status), w.stamp.UnixNano(), id); err != nil {
			return nil, err
		}
		return &store.Change{Game: id, Kind: store.ChangeSeat, Moves: row.moves, Status: status}, nil
	})
}

// gameRow is what a write checks of a game.
type gameRow struct {
	status store.Status
	moves  int
	lease  store.Lease
}

// game reads the game's row in the writer's transaction, or ErrNotFound.
func (w *wtx) game(id string) (gameRow, error) {
	var (
		r       = gameRow{lease: store.Lease{Game: id}}
		status  string
		node    sql.NullString
		expires sql.NullInt64
	)
	err := w.row(w.st.gameForWrite, id).Scan(&status, &r.moves, &node, &r.lease.Fence, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("sqlite: game %q: %w", id, store.ErrNotFound)
	}
	r.status, r.lease.Node = store.Status(status), node.String
	if expires.Valid {
		r.lease.Expires = fromNanos(expires.Int64)
	}
	return r, err
}

// fenced reports ErrLeaseLost unless a write with fence may go ahead.
func (r gameRow) fenced(fence store.Fence, now time.Time) error {
	if !r.lease.Permits(fence, now) {
		return fmt.Errorf("sqlite: game %q fence %d: %w", r.lease.Game, fence, store.ErrLeaseLost)
	}
	return nil
}

// writable reads game id for a write with fence: ErrLeaseLost unless
// the fence permits it, ErrConflict unless its status is ok.
func (w *wtx) writable(id string, fence store.Fence, ok func(store.Status) bool) (gameRow, error) {
	row, err := w.game(id)
	if err != nil {
		return row, err
	}
	if err := row.fenced(fence, w.now); err != nil {
		return row, err
	}
	if !ok(row.status) {
		return row, fmt.Errorf("sqlite: game %q is %s: %w", id, row.status, store.ErrConflict)
	}
	return row, nil
}

// seat reads a seat of game id in the writer's transaction, or ErrNotFound.
func (w *wtx) seat(id string, seat int) (store.Seat, error) {
	var s store.Seat
	err := w.row(w.st.seatForWrite, id, seat).Scan(&s.Name, &s.Bot, &s.TokenHash)
	if errors.Is(err, sql.ErrNoRows) {
		return s, fmt.Errorf("sqlite: game %q has no seat %d: %w", id, seat, store.ErrNotFound)
	}
	return s, err
}

// FreeSeat implements store.Store.
func (s *Store) FreeSeat(ctx context.Context, id string, fence store.Fence, seat int) error {
	return s.replaceSeat(ctx, fmt.Sprintf("free seat %d of game %s", seat, id), id, fence, seat, store.Seat.Person, "person",
		func(w *wtx) error {
			_, err := w.exec(s.stmts.takeSeat, "", nil, nil, id, seat)
			return err
		})
}

// SetSeatBot implements store.Store.
func (s *Store) SetSeatBot(ctx context.Context, id string, fence store.Fence, seat int, b store.Seat) error {
	if err := store.CheckBotSeat(id, seat, b); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return s.replaceSeat(ctx, fmt.Sprintf("set the bot of seat %d of game %s", seat, id), id, fence, seat, store.Seat.HeldByBot, "bot",
		func(w *wtx) error {
			_, err := w.exec(s.stmts.setSeatBot, b.Name, b.Bot, id, seat)
			return err
		})
}

// replaceSeat makes update, the write what of seat seat of an open table,
// if held says its holder (a holder) is there.
func (s *Store) replaceSeat(ctx context.Context, what, id string, fence store.Fence, seat int, held func(store.Seat) bool, holder string, update func(*wtx) error) error {
	return s.write(ctx, what, func(w *wtx) (*store.Change, error) {
		row, err := w.writable(id, fence, store.Status.Open)
		if err != nil {
			return nil, err
		}
		now, err := w.seat(id, seat)
		if err != nil {
			return nil, err
		}
		if !held(now) {
			return nil, fmt.Errorf("sqlite: game %q seat %d: %w: no %s holds it", id, seat, store.ErrConflict, holder)
		}
		if err := update(w); err != nil {
			return nil, err
		}
		if _, err := w.exec(s.stmts.touch, string(store.StatusOpen), w.stamp.UnixNano(), id); err != nil {
			return nil, err
		}
		return &store.Change{Game: id, Kind: store.ChangeSeat, Moves: row.moves, Status: store.StatusOpen}, nil
	})
}

// CloseTable implements store.Store.
func (s *Store) CloseTable(ctx context.Context, id string, fence store.Fence, status store.Status) error {
	if err := store.CheckClose(id, status); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	st := &s.stmts
	return s.write(ctx, fmt.Sprintf("close game %s", id), func(w *wtx) (*store.Change, error) {
		row, err := w.writable(id, fence, store.Status.Open)
		if err != nil {
			return nil, err
		}
		if _, err := w.exec(st.setStatus, string(status), w.stamp.UnixNano(), id); err != nil {
			return nil, err
		}
		return &store.Change{Game: id, Kind: store.ChangeClosed, Moves: row.moves, Status: status}, nil
	})
}

// AppendMove implements store.Store.
func (s *Store) AppendMove(ctx context.Context, id string, fence store.Fence, index int, token string, status store.Status) error {
	return s.AppendTimedMove(ctx, id, fence, index, token, status, nil)
}

// AppendTimedMove implements store.Store.
func (s *Store) AppendTimedMove(ctx context.Context, id string, fence store.Fence, index int, token string, status store.Status, clock []byte) error {
	if err := store.CheckMove(id, index, token, status); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return s.submit(s.appendOp(ctx, id, fence, index, token, status, clock))
}

// appendOp is AppendTimedMove's write, checked. It is clean (op.clean):
// it inserts its move's row, or changes its game's row, in one statement
// or fails alone having changed nothing, and an error after, of its
// move's row, fails its group.
func (s *Store) appendOp(ctx context.Context, id string, fence store.Fence, index int, token string, status store.Status, clock []byte) *op {
	return moveOp(ctx, "append move %d to game %s", id, index, func(w *wtx) (*store.Change, error) {
		// A move of a game in play that stays so is its row alone,
		// inserted where the move may go (moveRow: one statement, one
		// page). When it may not, live reads the game's row to say why;
		// a game live for the move but not in play is open, which
		// moveStatus then starts, its move's row inserted after.
		game, f, tok, idx := any(id), any(int64(fence)), any(token), any(int64(index)) // boxed once for the statements
		stamp, now := w.stamp.UnixNano(), w.now.UnixNano()
		c := store.MoveChange(id, index, token, status, clock)
		if status == store.StatusPlaying {
			res, err := w.execHot(w.hot.moveRow, idx, tok, stamp, clock, game, game, idx, now, f, f, f)
			inserted, err := updatedRow(res, err)
			switch {
			case err != nil:
				return nil, err
			case inserted:
				return &c, nil
			}
			if _, err := w.live(id, fence, index); err != nil {
				return nil, err
			}
		}
		res, err := w.execHot(w.hot.moveStatus, store.StatusArg(status), stamp, clock, game, idx, f, now)
		moved, err := updatedRow(res, err)
		if err != nil {
			return nil, err
		}
		if !moved {
			if _, err := w.live(id, fence, index); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("sqlite: game %q move %d: %w", id, index, store.ErrConflict)
		}
		if _, err := w.execHot(w.hot.insertMove, game, idx, tok); err != nil {
			// Not wrapped: with its game's row changed and no savepoint
			// of its own, this move fails its group, which changes
			// nothing. The row was where the move goes, so the moves
			// disagree with it: it cannot be a refusal of this move.
			return nil, fmt.Errorf("sqlite: game %q move %d: its game's row was changed, its move's row not: %v", id, index, err)
		}
		return &c, nil
	})
}

// updatedRow reports whether the update of res changed a row.
func updatedRow(res driver.Result, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// SetClock implements store.Store.
func (s *Store) SetClock(ctx context.Context, id string, fence store.Fence, moves int, clock []byte) error {
	return s.write(ctx, "set the clock of game "+id, func(w *wtx) (*store.Change, error) {
		row, err := w.live(id, fence, moves)
		if err != nil {
			return nil, err
		}
		set := s.stmts.setClock // a game in play keeps its listed
		if row.status != store.StatusPlaying {
			set = s.stmts.setClockListed
		}
		if _, err := w.exec(set, hashOrNil(clock), w.stamp.UnixNano(), id); err != nil {
			return nil, err
		}
		c := store.ClockChange(id, moves, store.StatusPlaying, clock)
		return &c, nil
	})
}

// SetRematch implements store.Store.
func (s *Store) SetRematch(ctx context.Context, id string, old, offer []byte) error {
	if err := store.CheckRematch(id, offer); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return s.write(ctx, "set the rematch offer of game "+id, func(w *wtx) (*store.Change, error) {
		row, err := w.game(id)
		if err != nil {
			return nil, err
		}
		if row.status != store.StatusFinished {
			return nil, fmt.Errorf("sqlite: game %q is %s: %w", id, row.status, store.ErrConflict)
		}
		// IS compares NULL (no offer yet) as a value.
		res, err := w.exec(s.stmts.setRematch, offer, id, hashOrNil(old))
		if err != nil {
			return nil, err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return nil, fmt.Errorf("sqlite: game %q: %w: its rematch offer changed", id, store.ErrConflict)
		}
		return &store.Change{Game: id, Kind: store.ChangeRematch, Moves: row.moves, Status: row.status}, nil
	})
}

// live checks that game id is live with moves moves, for a write with fence.
// It returns the row read.
func (w *wtx) live(id string, fence store.Fence, moves int) (gameRow, error) {
	row, err := w.game(id)
	if err != nil {
		return row, err
	}
	if err := row.fenced(fence, w.now); err != nil {
		return row, err
	}
	if !row.status.Live() {
		return row, fmt.Errorf("sqlite: game %q is %s: %w", id, row.status, store.ErrConflict)
	}
	if moves != row.moves {
		return row, fmt.Errorf("sqlite: game %q move %d: %w: the next move is %d", id, moves, store.ErrConflict, row.moves)
	}
	return row, nil
}

// List implements store.Store. The index orders each status by listed,
// the time updated but while a game is played (0, so that a move updates
// nothing indexed): the games being played are sorted by updated.
func (s *Store) List(ctx context.Context, status store.Status, limit int) ([]store.Summary, error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	var sums []store.Summary
	err := s.read(ctx, "list games", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, listGames, string(status), limit)
		if err != nil {
			return err
		}
		sums, err = summaries(ctx, tx, rows)
		return err
	})
	if err != nil {
		return nil, err
	}
	return sums, nil
}

// listGames is List's query: ?1 the status, ?2 the limit.
var listGames = `SELECT id, status, created, ` + updatedOf("g") + ` AS updated, ` + movesOf("g") + `, rated
	FROM games AS g WHERE status = ?1 ORDER BY listed DESC, updated DESC, id LIMIT ?2`

// summaries reads the games of rows (id, status, created, updated,
// move_count, rated) and their seats, and closes rows.
func summaries(ctx context.Context, tx *sql.Tx, rows *sql.Rows) ([]store.Summary, error) {
	defer rows.Close()
	var sums []store.Summary
	for rows.Next() {
		var (
			sum              store.Summary
			st               string
			created, updated int64
		)
		if err := rows.Scan(&sum.ID, &st, &created, &updated, &sum.Moves, &sum.Rated); err != nil {
			return nil, err
		}
		sum.Status, sum.Created, sum.Updated = store.Status(st), fromNanos(created), fromNanos(updated)
		sums = append(sums, sum)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	for i := range sums {
		var err error
		if sums[i].Seats, err = seats(ctx, tx, sums[i].ID, false); err != nil {
			return nil, err
		}
	}
	return sums, nil
}

// read runs f in a read transaction: one snapshot of the database.
func (s *Store) read(ctx context.Context, op string, f func(*sql.Tx) error) error {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return s.wrap(op, err)
	}
	defer tx.Rollback()
	if err := f(tx); err != nil {
		return s.fail(op, err)
	}
	return nil
}

// fail passes on the errors this package made, and wraps SQLite's: a
// primary key violation means someone else was first.
func (s *Store) fail(op string, err error) error {
	if alone(err) && !isSQLite(err) || errors.Is(err, store.ErrCorrupt) {
		return err
	}
	var e *sqlite.Error
	if errors.As(err, &e) && e.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY {
		return fmt.Errorf("sqlite: %s: %w: %v", op, store.ErrConflict, err)
	}
	return s.wrap(op, err)
}
