package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// AcquireLease implements store.Store.
func (s *Store) AcquireLease(ctx context.Context, id, node string, ttl time.Duration) (store.Lease, error) {
	if err := store.CheckLease(id, node, ttl); err != nil {
		return store.Lease{}, err
	}
	var l store.Lease
	err := s.write(ctx, fmt.Sprintf("lease game %s to %s", id, node), func(w *wtx) (*store.Change, error) {
		row, err := w.game(id)
		if err != nil {
			return nil, err
		}
		if row.status != store.StatusOpen && row.status != store.StatusPlaying {
			return nil, fmt.Errorf("sqlite: game %q is %s: %w", id, row.status, store.ErrConflict)
		}
		next, changed, err := row.lease.Acquire(node, w.now, ttl)
		if err != nil {
			return nil, fmt.Errorf("sqlite: %w", err)
		}
		if err := w.setLease(next); err != nil {
			return nil, err
		}
		l = next
		if !changed {
			return nil, nil
		}
		return &store.Change{Game: id, Kind: store.ChangeLease, Moves: row.moves, Status: row.status, Node: node, Fence: next.Fence}, nil
	})
	if err != nil {
		return store.Lease{}, err
	}
	return l, nil
}

func (w *wtx) setLease(l store.Lease) error {
	var node, expires any // NULL when released
	if l.Node != "" {
		node, expires = l.Node, l.Expires.UnixNano()
	}
	_, err := w.exec(w.st.setLease, node, int64(l.Fence), expires, l.Game)
	return err
}

// RenewLease implements store.Store.
func (s *Store) RenewLease(ctx context.Context, l store.Lease, ttl time.Duration) (store.Lease, error) {
	if err := store.CheckLease(l.Game, l.Node, ttl); err != nil {
		return store.Lease{}, err
	}
	var renewed store.Lease
	err := s.write(ctx, fmt.Sprintf("renew the lease of game %s", l.Game), func(w *wtx) (*store.Change, error) {
		row, err := w.game(l.Game)
		if err != nil {
			return nil, err
		}
		if err := row.lease.Holds(l, w.now); err != nil {
			return nil, fmt.Errorf("sqlite: %w", err)
		}
		renewed = row.lease
		renewed.Expires = w.now.Add(ttl).Round(0)
		return nil, w.setLease(renewed)
	})
	if err != nil {
		return store.Lease{}, err
	}
	return renewed, nil
}

// RenewLeases implements store.Store: one statement, in a write that
// joins the next group ahead of the writes queued.
func (s *Store) RenewLeases(ctx context.Context, leases []store.Lease, ttl time.Duration) ([]store.Lease, error) {
	type want struct {
		Game  string      `json:"g"`
		Node  string      `json:"n"`
		Fence store.Fence `json:"f"`
	}
	ws := make([]want, len(leases))
	for i, l := range leases {
		if err := store.CheckLease(l.Game, l.Node, ttl); err != nil {
			return nil, err
		}
		ws[i] = want{l.Game, l.Node, l.Fence}
	}
	if len(leases) == 0 {
		return nil, nil
	}
	list, err := json.Marshal(ws)
	if err != nil {
		return nil, fmt.Errorf("sqlite: renew %d leases: %w", len(leases), err)
	}
	type key struct {
		game  string
		fence store.Fence
	}
	expires := map[key]time.Time{} // of the leases renewed
	err = s.writeFirst(ctx, fmt.Sprintf("renew %d leases", len(leases)), func(w *wtx) (*store.Change, error) {
		clear(expires)
		until := w.now.Add(ttl).Round(0)
		rows, err := w.st.renewLeases.QueryContext(w.ctx, until.UnixNano(), string(list), w.now.UnixNano())
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		for rows.Next() {
			var k key
			if err := rows.Scan(&k.game, &k.fence); err != nil {
				return nil, err
			}
			expires[k] = until
		}
		return nil, rows.Err()
	})
	if err != nil {
		return nil, err
	}
	var renewed []store.Lease
	for _, l := range leases {
		if at, ok := expires[key{l.Game, l.Fence}]; ok {
			l.Expires = at
			renewed = append(renewed, l)
		}
	}
	return renewed, nil
}

// ReleaseLease implements store.Store.
func (s *Store) ReleaseLease(ctx context.Context, l store.Lease) error {
	return s.write(ctx, fmt.Sprintf("release the lease of game %s", l.Game), func(w *wtx) (*store.Change, error) {
		row, err := w.game(l.Game)
		if err != nil {
			return nil, err
		}
		if err := row.lease.Holds(l, w.now); err != nil {
			return nil, fmt.Errorf("sqlite: %w", err)
		}
		if err := w.setLease(store.Lease{Game: l.Game, Fence: l.Fence}); err != nil {
			return nil, err
		}
		return &store.Change{Game: l.Game, Kind: store.ChangeLease, Moves: row.moves, Status: row.status, Fence: l.Fence}, nil
	})
}

// Lease implements store.Store.
func (s *Store) Lease(ctx context.Context, id string) (store.Lease, error) {
	l := store.Lease{Game: id}
	err := s.read(ctx, "read the lease of game "+id, func(tx *sql.Tx) error {
		var (
			node    sql.NullString
			expires sql.NullInt64
		)
		err := tx.QueryRowContext(ctx, "SELECT lease_node, lease_fence, lease_expires FROM games WHERE id = ?", id).
			Scan(&node, &l.Fence, &expires)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlite: game %q: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		if expires.Valid && time.Now().UnixNano() < expires.Int64 {
			l.Node, l.Expires = node.String, fromNanos(expires.Int64)
		}
		return nil
	})
	if err != nil {
		return store.Lease{}, err
	}
	return l, nil
}

// Unowned implements store.Store.
func (s *Store) Unowned(ctx context.Context, limit int) ([]string, error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	var ids []string
	err := s.read(ctx, "list unowned games", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `
			SELECT id FROM games
			WHERE status IN ('open', 'playing') AND (lease_expires IS NULL OR lease_expires <= ?)
			ORDER BY status = 'playing' DESC, `+updatedOf("games")+`, id LIMIT ?`, time.Now().UnixNano(), limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// Publish implements store.Store, within the process.
func (s *Store) Publish(ctx context.Context, channel, payload string) error {
	if err := store.CheckPublish(channel, payload); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	s.broker.Publish(channel, payload)
	return nil
}

// Subscribe implements store.Store, within the process.
func (s *Store) Subscribe(ctx context.Context, channels ...string) (<-chan store.Notice, error) {
	return s.broker.Subscribe(ctx, channels...)
}

// Health implements store.Store: a read, the schema version, and a commit
// through the writer. A group of writes that failed to commit since the
// last good one makes the store unhealthy too, because a small commit can
// succeed on a full disk where a larger one fails.
func (s *Store) Health(ctx context.Context) error {
	if err := s.read(ctx, "health check", func(tx *sql.Tx) error {
		var n int
		return tx.QueryRowContext(ctx, "SELECT count(*) FROM games WHERE id = ''").Scan(&n)
	}); err != nil {
		return err
	}
	if err := s.checkCurrent(ctx); err != nil {
		return err
	}
	o := ops.Get().(*op)
	o.ctx, o.name, o.health, o.run = ctx, "health check", true, func(w *wtx) (*store.Change, error) {
		_, err := w.exec(w.st.health, w.now.UnixNano())
		return nil, err
	}
	if err := s.submit(o); err != nil {
		return err
	}
	if last := s.lastErr.Load(); last != nil {
		return fmt.Errorf("sqlite: database %s: the last commit failed at %s: %w", s.path, last.at.Format(time.RFC3339), last.err)
	}
	return nil
}
