package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/razziagame/razzia/internal/store"
)

// nowNanos is the database's clock in Unix nanoseconds (to the
// microsecond), for the updated time of a change.
const nowNanos = "(extract(epoch FROM clock_timestamp()) * 1000000000)::bigint"

// liveLease is true while the row's lease is held by the database's clock.
const liveLease = "(lease_node IS NOT NULL AND lease_expires > clock_timestamp())"

// tx runs f in a transaction and commits it; op names it in errors.
func (s *Store) tx(ctx context.Context, op string, f func(tx pgx.Tx) error) error {
	err := pgx.BeginFunc(ctx, s.pool, f)
	if err != nil {
		return s.fail(op, err)
	}
	return nil
}

// fail passes on the errors this package made and wraps PostgreSQL's: a
// unique violation means someone else was first.
func (s *Store) fail(op string, err error) error {
	for _, e := range []error{store.ErrNotFound, store.ErrConflict, store.ErrLeaseLost, store.ErrLeaseHeld,
		store.ErrNoAccount, store.ErrNameTaken, store.ErrRated} {
		if errors.Is(err, e) {
			return err
		}
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" {
		return fmt.Errorf("postgres: %s: %w: %v", op, store.ErrConflict, err)
	}
	return s.errorf("%s: %w", op, err)
}

// notify sends a change in the transaction: it is delivered at commit.
func notify(ctx context.Context, tx pgx.Tx, c store.Change) error {
	_, err := tx.Exec(ctx, "SELECT pg_notify($1, $2)", store.ChangesChannel, c.Payload())
	return err
}

// CreateGame implements store.Store.
func (s *Store) CreateGame(ctx context.Context, g *store.Game) error {
	if err := g.Validate(); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return s.create(ctx, g, func(pgx.Tx, time.Time, *store.Change) error { return nil })
}

// CreateOwnedGame implements store.Store: the game and its lease are one
// transaction, the lease by the database's clock.
func (s *Store) CreateOwnedGame(ctx context.Context, g *store.Game, node string, ttl time.Duration) (store.Lease, error) {
	if err := g.CheckOwned(node, ttl); err != nil {
		return store.Lease{}, fmt.Errorf("postgres: %w", err)
	}
	var l store.Lease
	err := s.create(ctx, g, func(tx pgx.Tx, now time.Time, c *store.Change) error {
		var err error
		if l, _, err = (store.Lease{Game: g.ID}).Acquire(node, now, ttl); err != nil {
			return err
		}
		c.Node, c.Fence = l.Node, l.Fence
		return setLease(ctx, tx, l)
	})
	if err != nil {
		return store.Lease{}, err
	}
	return l, nil
}

// create stores g, checked, and then does more in the same transaction,
// given the database's clock (more may add to the change it announces).
func (s *Store) create(ctx context.Context, g *store.Game, more func(tx pgx.Tx, now time.Time, c *store.Change) error) error {
	created, updated := g.Times(s.now())
	cheques, err := json.Marshal(g.Cheques)
	if err != nil {
		return fmt.Errorf("postgres: game %q: cheques: %w", g.ID, err)
	}
	err = s.tx(ctx, "create game "+g.ID, func(tx pgx.Tx) error {
		var now time.Time
		err := tx.QueryRow(ctx, `INSERT INTO games (id, status, cheques, seed, created, updated, move_count, creator_hash, rated, clock, rematch_of, rematch)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (id) DO NOTHING RETURNING clock_timestamp()`,
			g.ID, string(g.Status), string(cheques), g.Seed, created.UnixNano(), updated.UnixNano(), len(g.Moves), hashOrNil(g.CreatorHash), g.Rated, hashOrNil(g.Clock),
			orNil(g.RematchOf), hashOrNil(g.Rematch)).
			Scan(&now)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("postgres: game %q: %w: the id exists", g.ID, store.ErrConflict)
		}
		if err != nil {
			return err
		}
		var b pgx.Batch
		for i, seat := range g.Seats {
			b.Queue("INSERT INTO seats (game_id, idx, name, bot, token_hash, account_id) VALUES ($1, $2, $3, $4, $5, $6)",
				g.ID, i, seat.Name, seat.Bot, hashOrNil(seat.TokenHash), orNil(seat.Account))
		}
		for i, tok := range g.Moves {
			b.Queue("INSERT INTO moves (game_id, idx, token) VALUES ($1, $2, $3)", g.ID, i, tok)
		}
		if b.Len() > 0 {
			if err := tx.SendBatch(ctx, &b).Close(); err != nil {
				return err
			}
		}
		c := store.Change{Game: g.ID, Kind: store.ChangeCreated, Moves: len(g.Moves), Status: g.Status}
		if err := more(tx, now, &c); err != nil {
			return err
		}
		return notify(ctx, tx, c)
	})
	if err != nil {
		return err
	}
	g.Created, g.Updated = created.Round(0), updated.Round(0)
	return nil
}

// hashOrNil stores an empty hash as NULL, the open seat's.
func hashOrNil(h []byte) []byte {
	if len(h) == 0 {
		return nil
	}
	return h
}

// orNil stores an empty string as NULL: a seat with no account.
func orNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func fromNanos(n int64) time.Time { return time.Unix(0, n).UTC() }

// Game implements store.Store.
func (s *Store) Game(ctx context.Context, id string) (*store.Game, error) {
	g := &store.Game{ID: id}
	err := s.readTx(ctx, "read game "+id, func(tx pgx.Tx) error {
		var (
			status, cheques  string
			created, updated int64
			rematchOf        *string
		)
		err := tx.QueryRow(ctx, "SELECT status, cheques, seed, created, "+updatedOf("g")+", creator_hash, rated, "+clockOf("g")+", rematch_of, rematch FROM games g WHERE id = $1", id).
			Scan(&status, &cheques, &g.Seed, &created, &updated, &g.CreatorHash, &g.Rated, &g.Clock, &rematchOf, &g.Rematch)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("postgres: game %q: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		g.Status, g.Created, g.Updated = store.Status(status), fromNanos(created), fromNanos(updated)
		if rematchOf != nil {
			g.RematchOf = *rematchOf
		}
		if err := json.Unmarshal([]byte(cheques), &g.Cheques); err != nil {
			return s.errorf("%w: game %q: cheques: %v", store.ErrCorrupt, id, err)
		}
		if g.Seats, err = seats(ctx, tx, id, true); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, "SELECT idx, token FROM moves WHERE game_id = $1 ORDER BY idx", id)
		if err != nil {
			return err
		}
		var idx int
		var tok string
		_, err = pgx.ForEachRow(rows, []any{&idx, &tok}, func() error {
			if idx != len(g.Moves) {
				return s.errorf("%w: game %q: move %d is missing", store.ErrCorrupt, id, len(g.Moves))
			}
			g.Moves = append(g.Moves, tok)
			return nil
		})
		return err
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

// DeltasSince implements store.Store: one statement for all the games,
// so one snapshot without a transaction (one round trip, where a read
// transaction takes four: a replica makes one of these for every batch of
// notices). Each game's clock comes on its first row only.
func (s *Store) DeltasSince(ctx context.Context, from map[string]int) (map[string]store.Delta, error) {
	out := map[string]store.Delta{}
	if len(from) == 0 {
		return out, nil
	}
	ids, starts := make([]string, 0, len(from)), make([]int32, 0, len(from))
	for id, n := range from {
		ids, starts = append(ids, id), append(starts, int32(min(max(n, 0), math.MaxInt32)))
	}
	rows, err := s.pool.Query(ctx, deltasSince, ids, starts)
	if err != nil {
		return nil, s.fail(fmt.Sprintf("read the new moves of %d games", len(from)), err)
	}
	var (
		id    string
		tok   *string
		clock []byte
		idx   *int
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &clock, &idx, &tok}, func() error {
		d, ok := out[id]
		if !ok {
			d.Clock = bytes.Clone(clock)
		}
		if idx != nil {
			if want := max(from[id], 0) + len(d.Moves); *idx != want {
				return s.errorf("%w: game %q: move %d is missing", store.ErrCorrupt, id, want)
			}
			d.Moves = append(d.Moves, *tok)
		}
		out[id] = d
		return nil
	})
	switch {
	case errors.Is(err, store.ErrCorrupt):
		return nil, err
	case err != nil:
		return nil, s.fail(fmt.Sprintf("read the new moves of %d games", len(from)), err)
	}
	return out, nil
}

// deltasSince reads the games of $1 with their moves from the indices of
// $2 on: a row for each move, or one with a null move for a game without
// new ones; the clock on each game's first row. The moves are a lateral
// subquery behind OFFSET 0, which the planner cannot flatten: joined
// plainly, the generic plan of the prepared statement (which guesses ten
// games in the arrays) hashes the whole moves table, every move of every
// game ever played, at every read (TestDeltasSinceIndexed).
var deltasSince = `
SELECT g.id, CASE WHEN m.idx IS NULL OR m.idx = w.n THEN ` + clockOf("g") + ` END, m.idx, m.token
FROM unnest($1::text[], $2::int[]) AS w(id, n)
JOIN games g ON g.id = w.id
LEFT JOIN LATERAL (SELECT idx, token FROM moves WHERE game_id = w.id AND idx >= w.n OFFSET 0) m ON true
ORDER BY g.id, m.idx`

// readTx runs f in a read-only transaction: one snapshot of the database.
func (s *Store) readTx(ctx context.Context, op string, f func(tx pgx.Tx) error) error {
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead}, f)
	if err != nil {
		if errors.Is(err, store.ErrCorrupt) {
			return err
		}
		return s.fail(op, err)
	}
	return nil
}

// seats reads a game's seats, with or without their token hashes.
func seats(ctx context.Context, tx pgx.Tx, id string, hashes bool) ([]store.Seat, error) {
	rows, err := tx.Query(ctx, "SELECT name, bot, token_hash, coalesce(account_id, '') FROM seats WHERE game_id = $1 ORDER BY idx", id)
	if err != nil {
		return nil, err
	}
	var (
		ss   []store.Seat
		seat store.Seat
	)
	_, err = pgx.ForEachRow(rows, []any{&seat.Name, &seat.Bot, &seat.TokenHash, &seat.Account}, func() error {
		if !hashes || len(seat.TokenHash) == 0 {
			seat.TokenHash = nil
		}
		ss = append(ss, seat)
		seat = store.Seat{}
		return nil
	})
	return ss, err
}

// gameRow is what a write checks of a game, read with its row locked.
type gameRow struct {
	status store.Status
	moves  int
	lease  store.Lease
	now    time.Time // the database's clock
}

// lockGame locks the game's row for the transaction and reads it.
func lockGame(ctx context.Context, tx pgx.Tx, id string) (gameRow, error) {
	r := gameRow{lease: store.Lease{Game: id}}
	var (
		status  string
		node    *string
		expires *time.Time
	)
	err := tx.QueryRow(ctx, `SELECT status, `+movesOf("g")+`, lease_node, lease_fence, lease_expires, clock_timestamp()
		FROM games g WHERE id = $1 FOR UPDATE`, id).Scan(&status, &r.moves, &node, &r.lease.Fence, &expires, &r.now)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, fmt.Errorf("postgres: game %q: %w", id, store.ErrNotFound)
	}
	r.status = store.Status(status)
	if node != nil && expires != nil {
		r.lease.Node, r.lease.Expires = *node, *expires
	}
	return r, err
}

// TakeSeat implements store.Store.
func (s *Store) TakeSeat(ctx context.Context, id string, fence store.Fence, seat int, taker store.Seat, status store.Status) error {
	if err := store.CheckSeat(id, seat, taker, status); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return s.tx(ctx, fmt.Sprintf("take seat %d of game %s", seat, id), func(tx pgx.Tx) error {
		row, err := lockLiveGame(ctx, tx, id, fence)
		if err != nil {
			return err
		}
		var (
			taken string
			hash  []byte
		)
		err = tx.QueryRow(ctx, "SELECT name || bot, token_hash FROM seats WHERE game_id = $1 AND idx = $2", id, seat).
			Scan(&taken, &hash)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("postgres: game %q has no seat %d: %w", id, seat, store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		if taken != "" || hash != nil {
			return fmt.Errorf("postgres: game %q seat %d: %w: the seat is taken", id, seat, store.ErrConflict)
		}
		if err := noOtherSeat(ctx, tx, id, taker.Account); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE seats SET name = $1, token_hash = $2, account_id = $3 WHERE game_id = $4 AND idx = $5",
			taker.Name, taker.TokenHash, orNil(taker.Account), id, seat); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE games SET status = $1, updated = "+nextUpdated("games", "$3")+" WHERE id = $2",
			string(status), id, s.now().UnixNano()); err != nil {
			return err
		}
		return notify(ctx, tx, store.Change{Game: id, Kind: store.ChangeSeat, Moves: row.moves, Status: status})
	})
}

// lockGameFor locks and reads a game for a write with fence:
// ErrLeaseLost if the fence does not permit it, ErrConflict if its status
// does not fit the write.
func lockGameFor(ctx context.Context, tx pgx.Tx, id string, fence store.Fence, fits func(store.Status) bool) (gameRow, error) {
	row, err := lockGame(ctx, tx, id)
	switch {
	case err != nil:
		return row, err
	case !row.lease.Permits(fence, row.now):
		return row, fmt.Errorf("postgres: game %q fence %d: %w", id, fence, store.ErrLeaseLost)
	case !fits(row.status):
		return row, fmt.Errorf("postgres: game %q is %s: %w", id, row.status, store.ErrConflict)
	}
	return row, nil
}

// lockLiveGame locks and reads a live game for a write with fence.
func lockLiveGame(ctx context.Context, tx pgx.Tx, id string, fence store.Fence) (gameRow, error) {
	return lockGameFor(ctx, tx, id, fence, store.Status.Live)
}

// lockOpenTable locks and reads an open table for a write with fence.
func lockOpenTable(ctx context.Context, tx pgx.Tx, id string, fence store.Fence) (gameRow, error) {
	return lockGameFor(ctx, tx, id, fence, store.Status.Open)
}

// SetSeatBot implements store.Store.
func (s *Store) SetSeatBot(ctx context.Context, id string, fence store.Fence, seat int, b store.Seat) error {
	if err := store.CheckBotSeat(id, seat, b); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return s.replaceSeat(ctx, fmt.Sprintf("set the bot of seat %d of game %s", seat, id), id, fence, seat, store.Seat.HeldByBot, "bot",
		"UPDATE seats SET name = $1, bot = $2 WHERE game_id = $3 AND idx = $4", b.Name, b.Bot, id, seat)
}

// FreeSeat implements store.Store.
func (s *Store) FreeSeat(ctx context.Context, id string, fence store.Fence, seat int) error {
	return s.replaceSeat(ctx, fmt.Sprintf("free seat %d of game %s", seat, id), id, fence, seat, store.Seat.Person, "person",
		"UPDATE seats SET name = '', token_hash = NULL, account_id = NULL WHERE game_id = $1 AND idx = $2", id, seat)
}

// replaceSeat runs update with args, the write what of seat seat of an
// open table, if held says its holder (a holder) is there.
func (s *Store) replaceSeat(ctx context.Context, what, id string, fence store.Fence, seat int, held func(store.Seat) bool, holder, update string, args ...any) error {
	return s.tx(ctx, what, func(tx pgx.Tx) error {
		row, err := lockOpenTable(ctx, tx, id, fence)
		if err != nil {
			return err
		}
		var now store.Seat
		err = tx.QueryRow(ctx, "SELECT bot, token_hash FROM seats WHERE game_id = $1 AND idx = $2", id, seat).Scan(&now.Bot, &now.TokenHash)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("postgres: game %q has no seat %d: %w", id, seat, store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		if !held(now) {
			return fmt.Errorf("postgres: game %q seat %d: %w: no %s holds it", id, seat, store.ErrConflict, holder)
		}
		if _, err := tx.Exec(ctx, update, args...); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE games SET updated = "+nextUpdated("games", "$2")+" WHERE id = $1", id, s.now().UnixNano()); err != nil {
			return err
		}
		return notify(ctx, tx, store.Change{Game: id, Kind: store.ChangeSeat, Moves: row.moves, Status: store.StatusOpen})
	})
}

// CloseTable implements store.Store.
func (s *Store) CloseTable(ctx context.Context, id string, fence store.Fence, status store.Status) error {
	if err := store.CheckClose(id, status); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return s.tx(ctx, "close game "+id, func(tx pgx.Tx) error {
		row, err := lockOpenTable(ctx, tx, id, fence)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE games SET status = $1, updated = "+nextUpdated("games", "$3")+" WHERE id = $2",
			string(status), id, s.now().UnixNano()); err != nil {
			return err
		}
		return notify(ctx, tx, store.Change{Game: id, Kind: store.ChangeClosed, Moves: row.moves, Status: status})
	})
}

// appendMove is AppendMove in one statement, one round trip. A move of
// a game in play that stays so (cur) locks its game's row where the move
// may go (the fence by the rule of store.Lease.Permits and the database's
// clock, the status, the index) with a lock that writes no new version of
// the row (see lastMove), checked again against the row as it is if a
// change of the lease held it first, and inserts its own row with the
// game's time updated and clock. Any other move (upd, which reads the
// row only if cur did not find it) updates its game's row with its
// status, its count of moves, time updated and clock. Then it notifies. It returns what it checked of the row as the statement began
// and whether it wrote; a refusal is explained by the row as it is after
// (moveChecks), as the lock or the update saw it. A move written reads
// the row no more (the last branch's one-time filter): that read was a
// third of a move's buffers.
var appendMove = `
WITH cur AS (
	SELECT g.id, greatest(g.updated, l.updated) AS updated, CASE WHEN l.updated > g.updated THEN l.clock ELSE g.clock END AS clock
	FROM games g LEFT JOIN LATERAL (SELECT idx, updated, clock FROM moves WHERE game_id = $1 ORDER BY idx DESC LIMIT 1) l ON true
	WHERE g.id = $1 AND $5::text = 'playing' AND g.status = 'playing' AND greatest(g.move_count, l.idx + 1) = $3 AND ` + fenced + `
	FOR SHARE OF g
), upd AS (
	UPDATE games SET status = $5, move_count = $3 + 1, updated = ` + nextUpdated("games", "$9") + `,
		clock = coalesce($8::bytea, ` + clockOf("games") + `)
	WHERE id = $1 AND NOT EXISTS (SELECT FROM cur) AND NOT ($5 = 'playing' AND status = 'playing') AND status IN ('open', 'playing')
		AND ` + movesOf("games") + ` = $3 AND ` + fenced + `
	RETURNING id
), ins AS (
	INSERT INTO moves (game_id, idx, token, updated, clock)
	SELECT id, $3, $4, greatest(updated + 1, $9), coalesce($8::bytea, clock) FROM cur
	UNION ALL
	SELECT id, $3, $4, NULL, NULL FROM upd
	RETURNING game_id
)
SELECT ''::text, 0, true, count(pg_notify($6, $7)) FROM ins HAVING count(*) > 0
UNION ALL
SELECT status, ` + movesOf("games") + `, ` + fenced + `, 0
FROM games WHERE id = $1 AND NOT EXISTS (SELECT FROM ins)`

// fenced is true while fence $2 permits a write to the row.
const fenced = `CASE WHEN $2::bigint = 0 THEN NOT ` + liveLease + `
	ELSE ` + liveLease + ` AND lease_fence = $2 END`

// moveChecks reads what appendMove checks of game $1 for fence $2.
var moveChecks = `SELECT status, ` + movesOf("games") + `, ` + fenced + `, 0 FROM games WHERE id = $1`

// AppendMove implements store.Store. The move joins the next group of
// moves, committed together (see submit).
func (s *Store) AppendMove(ctx context.Context, id string, fence store.Fence, index int, token string, status store.Status) error {
	return s.AppendTimedMove(ctx, id, fence, index, token, status, nil)
}

// AppendTimedMove implements store.Store, as AppendMove does.
func (s *Store) AppendTimedMove(ctx context.Context, id string, fence store.Fence, index int, token string, status store.Status, clock []byte) error {
	if err := store.CheckMove(id, index, token, status); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	m := movePool.Get().(*move)
	m.id, m.fence, m.index, m.token, m.status, m.clock, m.stamp, m.ask = id, fence, index, token, status, hashOrNil(clock), s.now(), store.AskOf(ctx)
	return s.submit(ctx, m)
}

// SetClock implements store.Store.
func (s *Store) SetClock(ctx context.Context, id string, fence store.Fence, moves int, clock []byte) error {
	return s.tx(ctx, "set the clock of game "+id, func(tx pgx.Tx) error {
		row, err := lockLiveGame(ctx, tx, id, fence)
		switch {
		case err != nil:
			return err
		case row.moves != moves:
			return fmt.Errorf("postgres: game %q move %d: %w: the next move is %d", id, moves, store.ErrConflict, row.moves)
		}
		if _, err = tx.Exec(ctx, "UPDATE games SET clock = $1, updated = "+nextUpdated("games", "$3")+" WHERE id = $2",
			hashOrNil(clock), id, s.now().UnixNano()); err != nil {
			return err
		}
		return notify(ctx, tx, store.ClockChange(id, moves, row.status, clock))
	})
}

// SetRematch implements store.Store: a compare-and-set in one statement,
// so that two nodes offering at once store one offer.
func (s *Store) SetRematch(ctx context.Context, id string, old, offer []byte) error {
	if err := store.CheckRematch(id, offer); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return s.tx(ctx, "set the rematch offer of game "+id, func(tx pgx.Tx) error {
		var (
			status string
			moves  int
		)
		err := tx.QueryRow(ctx, `UPDATE games SET rematch = $1 WHERE id = $2 AND status = 'finished' AND rematch IS NOT DISTINCT FROM $3
			RETURNING status, `+movesOf("games"), offer, id, hashOrNil(old)).Scan(&status, &moves)
		if errors.Is(err, pgx.ErrNoRows) {
			if err := tx.QueryRow(ctx, "SELECT status FROM games WHERE id = $1", id).Scan(&status); errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("postgres: game %q: %w", id, store.ErrNotFound)
			}
			return fmt.Errorf("postgres: game %q (%s): %w: not finished, or its rematch offer changed", id, status, store.ErrConflict)
		}
		if err != nil {
			return err
		}
		return notify(ctx, tx, store.Change{Game: id, Kind: store.ChangeRematch, Moves: moves, Status: store.Status(status)})
	})
}

// A move is one AppendMove waiting in a group.
type move struct {
	ctx    context.Context
	id     string
	fence  store.Fence
	index  int
	token  string
	status store.Status
	clock  []byte     // nil keeps the stored clock
	stamp  time.Time  // the game's Updated time (Options.Now)
	ask    *store.Ask // the request the move was made for, named in its notice; nil for none
	done   chan error
	w      write  // the move as its group holds it
	argv   [9]any // args', used again
}

// queue adds m's statement to the batch.
func (m *move) queue(b *pgx.Batch) *pgx.QueuedQuery {
	return b.Queue(appendMove, m.args()...)
}

// args are the arguments of m's statement.
func (m *move) args() []any {
	change := store.MoveChange(m.id, m.index, m.token, m.status, m.clock).Asked(m.ask)
	m.argv = [9]any{m.id, int64(m.fence), m.index, m.token, store.StatusArg(m.status), store.ChangesChannel, change.Payload(), m.clock, m.stamp.UnixNano()}
	return m.argv[:]
}

// outcome reads what appendMove returned for m: nil when it wrote, else
// the refusal, and whether the row should be read again to explain it.
func (m *move) outcome(s *Store, row pgx.Row) (err error, again bool) {
	var r struct { // one allocation where four variables were four
		st      string
		next    int
		fenced  bool
		written int
	}
	err = row.Scan(&r.st, &r.next, &r.fenced, &r.written)
	st, next, fenced, written := r.st, r.next, r.fenced, r.written
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("postgres: game %q: %w", m.id, store.ErrNotFound), false
	case err != nil:
		return s.fail(fmt.Sprintf("append move %d to game %s", m.index, m.id), err), false
	case written == 1:
		return nil, false
	case !fenced:
		return fmt.Errorf("postgres: game %q fence %d: %w", m.id, m.fence, store.ErrLeaseLost), true
	case !store.Status(st).Live():
		return fmt.Errorf("postgres: game %q is %s: %w", m.id, st, store.ErrConflict), true
	default:
		return fmt.Errorf("postgres: game %q move %d: %w: the next move is %d", m.id, m.index, store.ErrConflict, next), true
	}
}

// refused explains the refusal of m by its game's row as it is now,
// which the update saw, or, if it cannot be read, as the statement began
// (err).
func (m *move) refused(s *Store, err error) error {
	now, refusal := m.outcome(s, s.pool.QueryRow(s.groupCtx, moveChecks, m.id, int64(m.fence)))
	if refusal || errors.Is(now, store.ErrNotFound) {
		return now
	}
	return err
}

// List implements store.Store. The index orders each status by listed,
// the time updated but while a game is played (0, so that a move updates
// nothing indexed): the games being played are sorted by updated.
func (s *Store) List(ctx context.Context, status store.Status, limit int) ([]store.Summary, error) {
	var lim *int // NULL: no limit
	if limit > 0 {
		lim = &limit
	}
	rows, err := s.pool.Query(ctx, listGames, string(status), lim)
	if err != nil {
		return nil, s.fail("list games", err)
	}
	sums, err := summaries(rows)
	if err != nil {
		return nil, s.fail("list games", err)
	}
	return sums, nil
}

// listGames lists the games of status $1, at most $2 (NULL: all).
var listGames = `
SELECT ` + summaryColumns + `
FROM (SELECT ` + gameColumns("games") + ` FROM games WHERE status = $1 ORDER BY listed DESC, updated DESC, id LIMIT $2) g
LEFT JOIN seats s ON s.game_id = g.id
GROUP BY g.id, g.status, g.created, g.updated, g.move_count, g.rated
ORDER BY g.updated DESC, g.id`

// summaryColumns are the columns summaries reads, of games g joined
// with their seats s and grouped by game.
const summaryColumns = `g.id, g.status, g.created, g.updated, g.move_count, g.rated,
	coalesce(array_agg(s.name ORDER BY s.idx) FILTER (WHERE s.idx IS NOT NULL), '{}'),
	coalesce(array_agg(s.bot ORDER BY s.idx) FILTER (WHERE s.idx IS NOT NULL), '{}'),
	coalesce(array_agg(coalesce(s.account_id, '') ORDER BY s.idx) FILTER (WHERE s.idx IS NOT NULL), '{}')`

// summaries reads the games of rows (summaryColumns).
func summaries(rows pgx.Rows) ([]store.Summary, error) {
	var (
		sums                  []store.Summary
		sum                   store.Summary
		st                    string
		created, updated      int64
		names, bots, accounts []string
	)
	_, err := pgx.ForEachRow(rows, []any{&sum.ID, &st, &created, &updated, &sum.Moves, &sum.Rated, &names, &bots, &accounts}, func() error {
		sum.Status, sum.Created, sum.Updated = store.Status(st), fromNanos(created), fromNanos(updated)
		sum.Seats = make([]store.Seat, len(names))
		for i := range names {
			sum.Seats[i] = store.Seat{Name: names[i], Bot: bots[i], Account: accounts[i]}
		}
		sums = append(sums, sum)
		return nil
	})
	return sums, err
}
