package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// The social part of the store (store.Social): presence rows come and go
// with the WebSockets, so they are small single-row writes.

const presenceColumns = "node, conn, person, COALESCE(account_id, ''), name, game_id, seat, away, since"

// PutPresence implements store.Social.
func (s *Store) PutPresence(ctx context.Context, r store.PresenceRow) error {
	if err := r.Check(); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return s.write(ctx, "store a presence row", func(w *wtx) (*store.Change, error) {
		_, err := w.execSQL(`INSERT INTO presence (node, conn, person, account_id, name, game_id, seat, away, since)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (node, conn) DO UPDATE SET person = excluded.person, account_id = excluded.account_id,
				name = excluded.name, game_id = excluded.game_id, seat = excluded.seat, away = excluded.away, since = excluded.since`,
			r.Node, r.Conn, r.Person, orNil(r.Account), r.Name, r.Game, r.Seat, r.Away, r.Since.UnixNano())
		return nil, err
	})
}

// seen notes that row r's account and seat were last seen at at.
func (w *wtx) seen(r store.PresenceRow, at time.Time) error {
	if r.Account != "" {
		if _, err := w.execSQL(`INSERT INTO last_seen (account_id, at) SELECT id, ? FROM accounts WHERE id = ?
			ON CONFLICT (account_id) DO UPDATE SET at = max(at, excluded.at)`, at.UnixNano(), r.Account); err != nil {
			return err
		}
	}
	if r.Seat >= 0 {
		if _, err := w.execSQL(`INSERT INTO seats_seen (game_id, idx, at) SELECT id, ?, ? FROM games WHERE id = ?
			ON CONFLICT (game_id, idx) DO UPDATE SET at = max(at, excluded.at)`, r.Seat, at.UnixNano(), r.Game); err != nil {
			return err
		}
	}
	return nil
}

// dropRows removes the presence rows where selects (a WHERE clause on
// presence) with its args, noting each as seen at at(its node), and
// returns them.
func (w *wtx) dropRows(where string, at func(node string) time.Time, args ...any) ([]store.PresenceRow, error) {
	rows, err := w.tx.QueryContext(w.ctx, "SELECT "+presenceColumns+" FROM presence WHERE "+where+" ORDER BY node, conn", args...)
	if err != nil {
		return nil, err
	}
	out, err := scanPresence(rows)
	if err != nil {
		return nil, err
	}
	for _, r := range out {
		if err := w.seen(r, at(r.Node)); err != nil {
			return nil, err
		}
	}
	_, err = w.execSQL("DELETE FROM presence WHERE "+where, args...)
	return out, err
}

// DropPresence implements store.Social.
func (s *Store) DropPresence(ctx context.Context, node string, conn int64, at time.Time) error {
	return s.write(ctx, "remove a presence row", func(w *wtx) (*store.Change, error) {
		_, err := w.dropRows("node = ? AND conn = ?", func(string) time.Time { return at }, node, conn)
		return nil, err
	})
}

// BeatPresence implements store.Social.
func (s *Store) BeatPresence(ctx context.Context, node string, expires time.Time) error {
	if node == "" {
		return fmt.Errorf("sqlite: a presence beat of no node")
	}
	return s.write(ctx, "renew a node's presence", func(w *wtx) (*store.Change, error) {
		_, err := w.execSQL(`INSERT INTO presence_nodes (node, expires) VALUES (?, ?)
			ON CONFLICT (node) DO UPDATE SET expires = excluded.expires`, node, expires.UnixNano())
		return nil, err
	})
}

// Presence implements store.Social.
func (s *Store) Presence(ctx context.Context, now time.Time) ([]store.PresenceRow, error) {
	var out []store.PresenceRow
	err := s.read(ctx, "read who is connected", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+presenceColumns+` FROM presence
			WHERE node IN (SELECT node FROM presence_nodes WHERE expires > ?) ORDER BY node, conn`, now.UnixNano())
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
	err := s.write(ctx, "remove a node's presence", func(w *wtx) (*store.Change, error) {
		var err error
		if out, err = w.dropRows("node = ?", func(string) time.Time { return at }, node); err != nil {
			return nil, err
		}
		_, err = w.execSQL("DELETE FROM presence_nodes WHERE node = ?", node)
		return nil, err
	})
	return out, err
}

// SweepPresence implements store.Social.
func (s *Store) SweepPresence(ctx context.Context, now time.Time) ([]store.PresenceRow, error) {
	var out []store.PresenceRow
	err := s.write(ctx, "remove the presence of dead nodes", func(w *wtx) (*store.Change, error) {
		out = nil
		rows, err := w.tx.QueryContext(w.ctx, "SELECT node, expires FROM presence_nodes WHERE expires <= ?", now.UnixNano())
		if err != nil {
			return nil, err
		}
		dead := map[string]time.Time{}
		for rows.Next() {
			var node string
			var expires int64
			if err := rows.Scan(&node, &expires); err != nil {
				rows.Close()
				return nil, err
			}
			dead[node] = fromNanos(expires)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		for node, expired := range dead {
			gone, err := w.dropRows("node = ?", func(string) time.Time { return expired }, node)
			if err != nil {
				return nil, err
			}
			out = append(out, gone...)
			if _, err := w.execSQL("DELETE FROM presence_nodes WHERE node = ?", node); err != nil {
				return nil, err
			}
		}
		store.SortPresence(out)
		return nil, nil
	})
	return out, err
}

func scanPresence(rows *sql.Rows) ([]store.PresenceRow, error) {
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
	err := s.read(ctx, "read when accounts were last seen", func(tx *sql.Tx) error {
		for _, a := range accounts {
			var at int64
			err := tx.QueryRowContext(ctx, "SELECT at FROM last_seen WHERE account_id = ?", a).Scan(&at)
			if err == sql.ErrNoRows {
				continue
			}
			if err != nil {
				return err
			}
			out[a] = fromNanos(at)
		}
		return nil
	})
	return out, err
}

// SeatsSeen implements store.Social.
func (s *Store) SeatsSeen(ctx context.Context, game string) (map[int]time.Time, error) {
	out := map[int]time.Time{}
	err := s.read(ctx, "read when the seats of game "+game+" were last seen", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, "SELECT idx, at FROM seats_seen WHERE game_id = ?", game)
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
// account to another.
func (s *Store) setRelation(ctx context.Context, table, fromCol, toCol, from, to string, on bool) error {
	if err := store.CheckRelation(from, to); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return s.write(ctx, "store a "+table+" row", func(w *wtx) (*store.Change, error) {
		for _, a := range []string{from, to} {
			if err := w.accountExists(a); err != nil {
				return nil, err
			}
		}
		var err error
		if on {
			_, err = w.execSQL(fmt.Sprintf("INSERT INTO %s (%s, %s, created) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", table, fromCol, toCol),
				from, to, time.Now().UnixNano())
		} else {
			_, err = w.execSQL(fmt.Sprintf("DELETE FROM %s WHERE %s = ? AND %s = ?", table, fromCol, toCol), from, to)
		}
		return nil, err
	})
}

// related lists the col of table's rows whose where is account, sorted.
func (s *Store) related(ctx context.Context, table, col, where, account string) ([]string, error) {
	var out []string
	err := s.read(ctx, "read the "+table+" of "+account, func(tx *sql.Tx) error {
		out = nil
		rows, err := tx.QueryContext(ctx, fmt.Sprintf("SELECT %s FROM %s WHERE %s = ? ORDER BY %s", col, table, where, col), account)
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
		return fmt.Errorf("sqlite: %w", err)
	}
	return s.write(ctx, "store finish marks", func(w *wtx) (*store.Change, error) {
		for _, f := range marks {
			if err := w.accountExists(f.Account); err != nil {
				return nil, err
			}
			if _, err := w.execSQL(`INSERT INTO finishes (account_id, game_id, at, left_game) VALUES (?, ?, ?, ?)
				ON CONFLICT DO NOTHING`, f.Account, f.Game, f.At.UnixNano(), f.Left); err != nil {
				return nil, err
			}
		}
		return nil, nil
	})
}

// Finishes implements store.Social.
func (s *Store) Finishes(ctx context.Context, account string, limit int) ([]store.Finish, error) {
	if limit <= 0 {
		limit = -1
	}
	var out []store.Finish
	err := s.read(ctx, "read the finish marks of "+account, func(tx *sql.Tx) error {
		out = nil
		rows, err := tx.QueryContext(ctx, `SELECT game_id, at, left_game FROM finishes WHERE account_id = ?
			ORDER BY at DESC, game_id LIMIT ?`, account, limit)
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
