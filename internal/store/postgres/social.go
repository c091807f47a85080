package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/razziagame/razzia/internal/store"
)

// The social part of the store (store.Social).

const presenceColumns = "node, conn, person, COALESCE(account_id, ''), name, game_id, seat, away, since"

// PutPresence implements store.Social.
func (s *Store) PutPresence(ctx context.Context, r store.PresenceRow) error {
	if err := r.Check(); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return s.tx(ctx, "store a presence row", func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO presence (node, conn, person, account_id, name, game_id, seat, away, since)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
			ON CONFLICT (node, conn) DO UPDATE SET person = excluded.person, account_id = excluded.account_id,
				name = excluded.name, game_id = excluded.game_id, seat = excluded.seat, away = excluded.away, since = excluded.since`,
			r.Node, r.Conn, r.Person, orNil(r.Account), r.Name, r.Game, r.Seat, r.Away, r.Since.UnixNano())
		return err
	})
}

// seen notes that row r's account and seat were last seen at at.
func seen(ctx context.Context, tx pgx.Tx, r store.PresenceRow, at time.Time) error {
	if r.Account != "" {
		if _, err := tx.Exec(ctx, `INSERT INTO last_seen (account_id, at) SELECT id, $1 FROM accounts WHERE id = $2
			ON CONFLICT (account_id) DO UPDATE SET at = greatest(last_seen.at, excluded.at)`, at.UnixNano(), r.Account); err != nil {
			return err
		}
	}
	if r.Seat >= 0 {
		if _, err := tx.Exec(ctx, `INSERT INTO seats_seen (game_id, idx, at) SELECT id, $1, $2 FROM games WHERE id = $3
			ON CONFLICT (game_id, idx) DO UPDATE SET at = greatest(seats_seen.at, excluded.at)`, r.Seat, at.UnixNano(), r.Game); err != nil {
			return err
		}
	}
	return nil
}

// dropRows removes the presence rows of node (of its connection conn
// only, unless conn is negative), noting each as seen at at, and returns
// them.
func dropRows(ctx context.Context, tx pgx.Tx, node string, conn int64, at time.Time) ([]store.PresenceRow, error) {
	rows, err := tx.Query(ctx, `DELETE FROM presence WHERE node = $1 AND ($2 < 0 OR conn = $2)
		RETURNING `+presenceColumns, node, conn)
	if err != nil {
		return nil, err
	}
	out, err := scanPresence(rows)
	if err != nil {
		return nil, err
	}
	for _, r := range out {
		if err := seen(ctx, tx, r, at); err != nil {
			return nil, err
		}
	}
	store.SortPresence(out)
	return out, nil
}

// DropPresence implements store.Social.
func (s *Store) DropPresence(ctx context.Context, node string, conn int64, at time.Time) error {
	if conn < 0 {
		return nil
	}
	return s.tx(ctx, "remove a presence row", func(tx pgx.Tx) error {
		_, err := dropRows(ctx, tx, node, conn, at)
		return err
	})
}

// BeatPresence implements store.Social.
func (s *Store) BeatPresence(ctx context.Context, node string, expires time.Time) error {
	if node == "" {
		return fmt.Errorf("postgres: a presence beat of no node")
	}
	return s.tx(ctx, "renew a node's presence", func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO presence_nodes (node, expires) VALUES ($1, $2)
			ON CONFLICT (node) DO UPDATE SET expires = excluded.expires`, node, expires.UnixNano())
		return err
	})
}

// Presence implements store.Social.
func (s *Store) Presence(ctx context.Context, now time.Time) ([]store.PresenceRow, error) {
	var out []store.PresenceRow
	err := s.readTx(ctx, "read who is connected", func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT `+presenceColumns+` FROM presence
			WHERE node IN (SELECT node FROM presence_nodes WHERE expires > $1) ORDER BY node, conn`, now.UnixNano())
		if err != nil {
			return err
		}
		out, err = scanPresence(rows)
		return err
	})
	return out, err
}

// DropNode implements store.Social.
func (s *Store) DropNode(ctx context.Context, node string, at time.Time) ([]store.PresenceRow, error) {
	var out []store.PresenceRow
	err := s.tx(ctx, "remove a node's presence", func(tx pgx.Tx) error {
		var err error
		if out, err = dropRows(ctx, tx, node, -1, at); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "DELETE FROM presence_nodes WHERE node = $1", node)
		return err
	})
	return out, err
}

// SweepPresence implements store.Social. Nodes sweeping at once each
// take the dead nodes' rows they lock first; a row is removed once.
func (s *Store) SweepPresence(ctx context.Context, now time.Time) ([]store.PresenceRow, error) {
	var out []store.PresenceRow
	err := s.tx(ctx, "remove the presence of dead nodes", func(tx pgx.Tx) error {
		out = nil
		rows, err := tx.Query(ctx, `DELETE FROM presence_nodes WHERE node IN (
			SELECT node FROM presence_nodes WHERE expires <= $1 FOR UPDATE SKIP LOCKED) RETURNING node, expires`, now.UnixNano())
		if err != nil {
			return err
		}
		dead := map[string]time.Time{}
		for rows.Next() {
			var node string
			var expires int64
			if err := rows.Scan(&node, &expires); err != nil {
				rows.Close()
				return err
			}
			dead[node] = fromNanos(expires)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for node, expired := range dead {
			gone, err := dropRows(ctx, tx, node, -1, expired)
			if err != nil {
				return err
			}
			out = append(out, gone...)
		}
		store.SortPresence(out)
		return nil
	})
	return out, err
}

func scanPresence(rows pgx.Rows) ([]store.PresenceRow, error) {
	defer rows.Close()
	var out []store.PresenceRow
	for rows.Next() {
		var (
			r     store.PresenceRow
			since int64
		)
		if err := rows.Scan(&r.Node, &r.Conn, &r.Person, &r.Account, &r.Name, &r.Game, &r.Seat, &r.Away, &since); err != nil {
			return nil, err
		}
		r.Since = fromNanos(since)
		out = append(out, r)
	}
	return out, rows.Err()
}

// LastSeen implements store.Social.
func (s *Store) LastSeen(ctx context.Context, accounts ...string) (map[string]time.Time, error) {
	out := map[string]time.Time{}
	if len(accounts) == 0 {
		return out, nil
	}
	err := s.readTx(ctx, "read when accounts were last seen", func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, "SELECT account_id, at FROM last_seen WHERE account_id = ANY($1)", accounts)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				a  string
				at int64
			)
			if err := rows.Scan(&a, &at); err != nil {
				return err
			}
			out[a] = fromNanos(at)
		}
		return rows.Err()
	})
	return out, err
}

// SeatsSeen implements store.Social.
func (s *Store) SeatsSeen(ctx context.Context, game string) (map[int]time.Time, error) {
	out := map[int]time.Time{}
	err := s.readTx(ctx, "read when the seats of game "+game+" were last seen", func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, "SELECT idx, at FROM seats_seen WHERE game_id = $1", game)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				seat int
				at   int64
			)
			if err := rows.Scan(&seat, &at); err != nil {
				return err
			}
			out[seat] = fromNanos(at)
		}
		return rows.Err()
	})
	return out, err
}

// setRelation adds or removes a row of table (follows or blocks) from one
// account to another; both accounts' rows are key-share locked, so that
// neither is deleted meanwhile.
func (s *Store) setRelation(ctx context.Context, table, fromCol, toCol, from, to string, on bool) error {
	if err := store.CheckRelation(from, to); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return s.tx(ctx, "store a "+table+" row", func(tx pgx.Tx) error {
		for _, a := range []string{from, to} {
			var one int
			err := tx.QueryRow(ctx, "SELECT 1 FROM accounts WHERE id = $1 FOR KEY SHARE", a).Scan(&one)
			if errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("postgres: account %q: %w", a, store.ErrNoAccount)
			}
			if err != nil {
				return err
			}
		}
		var err error
		if on {
			_, err = tx.Exec(ctx, fmt.Sprintf("INSERT INTO %s (%s, %s, created) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", table, fromCol, toCol),
				from, to, time.Now().UnixNano())
		} else {
			_, err = tx.Exec(ctx, fmt.Sprintf("DELETE FROM %s WHERE %s = $1 AND %s = $2", table, fromCol, toCol), from, to)
		}
		return err
	})
}

// related lists the col of table's rows whose where is account, sorted.
func (s *Store) related(ctx context.Context, table, col, where, account string) ([]string, error) {
	var out []string
	err := s.readTx(ctx, "read the "+table+" of "+account, func(tx pgx.Tx) error {
		out = nil
		rows, err := tx.Query(ctx, fmt.Sprintf("SELECT %s FROM %s WHERE %s = $1 ORDER BY %s COLLATE \"C\"", col, table, where, col), account)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var a string
			if err := rows.Scan(&a); err != nil {
				return err
			}
			out = append(out, a)
		}
		return rows.Err()
	})
	return out, err
}

// SetFollow implements store.Social.
func (s *Store) SetFollow(ctx context.Context, follower, followed string, on bool) error {
	return s.setRelation(ctx, "follows", "follower", "followed", follower, followed, on)
}

// Following implements store.Social.
func (s *Store) Following(ctx context.Context, account string) ([]string, error) {
	return s.related(ctx, "follows", "followed", "follower", account)
}

// Followers implements store.Social.
func (s *Store) Followers(ctx context.Context, account string) ([]string, error) {
	return s.related(ctx, "follows", "follower", "followed", account)
}

// SetBlock implements store.Social.
func (s *Store) SetBlock(ctx context.Context, blocker, blocked string, on bool) error {
	return s.setRelation(ctx, "blocks", "blocker", "blocked", blocker, blocked, on)
}

// Blocking implements store.Social.
func (s *Store) Blocking(ctx context.Context, account string) ([]string, error) {
	return s.related(ctx, "blocks", "blocked", "blocker", account)
}

// BlockedBy implements store.Social.
func (s *Store) BlockedBy(ctx context.Context, account string) ([]string, error) {
	return s.related(ctx, "blocks", "blocker", "blocked", account)
}

// AddFinishes implements store.Social.
func (s *Store) AddFinishes(ctx context.Context, marks []store.Finish) error {
	if err := store.CheckFinishes(marks); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return s.tx(ctx, "store finish marks", func(tx pgx.Tx) error {
		for _, f := range marks {
			var one int
			err := tx.QueryRow(ctx, "SELECT 1 FROM accounts WHERE id = $1 FOR KEY SHARE", f.Account).Scan(&one)
			if errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("postgres: account %q: %w", f.Account, store.ErrNoAccount)
			}
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO finishes (account_id, game_id, at, left_game) VALUES ($1, $2, $3, $4)
				ON CONFLICT DO NOTHING`, f.Account, f.Game, f.At.UnixNano(), f.Left); err != nil {
				return err
			}
		}
		return nil
	})
}

// Finishes implements store.Social.
func (s *Store) Finishes(ctx context.Context, account string, limit int) ([]store.Finish, error) {
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	var out []store.Finish
	err := s.readTx(ctx, "read the finish marks of "+account, func(tx pgx.Tx) error {
		out = nil
		rows, err := tx.Query(ctx, `SELECT game_id, at, left_game FROM finishes WHERE account_id = $1
			ORDER BY at DESC, game_id COLLATE "C" LIMIT $2`, account, lim)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			f := store.Finish{Account: account}
			var at int64
			if err := rows.Scan(&f.Game, &at, &f.Left); err != nil {
				return err
			}
			f.At = fromNanos(at)
			out = append(out, f)
		}
		return rows.Err()
	})
	return out, err
}
