package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/razziagame/razzia/internal/store"
)

// AcquireLease implements store.Store.
func (s *Store) AcquireLease(ctx context.Context, id, node string, ttl time.Duration) (store.Lease, error) {
	if err := store.CheckLease(id, node, ttl); err != nil {
		return store.Lease{}, err
	}
	var l store.Lease
	err := s.tx(ctx, fmt.Sprintf("lease game %s to %s", id, node), func(tx pgx.Tx) error {
		row, err := lockGame(ctx, tx, id)
		if err != nil {
			return err
		}
		if row.status != store.StatusOpen && row.status != store.StatusPlaying {
			return fmt.Errorf("postgres: game %q is %s: %w", id, row.status, store.ErrConflict)
		}
		next, changed, err := row.lease.Acquire(node, row.now, ttl)
		if err != nil {
			return fmt.Errorf("postgres: %w", err)
		}
		if err := setLease(ctx, tx, next); err != nil {
			return err
		}
		l = next
		if !changed {
			return nil
		}
		return notify(ctx, tx, store.Change{Game: id, Kind: store.ChangeLease, Moves: row.moves, Status: row.status, Node: node, Fence: next.Fence})
	})
	if err != nil {
		return store.Lease{}, err
	}
	return l, nil
}

func setLease(ctx context.Context, tx pgx.Tx, l store.Lease) error {
	var (
		node    *string
		expires *time.Time
	)
	if l.Node != "" {
		node, expires = &l.Node, &l.Expires
	}
	_, err := tx.Exec(ctx, "UPDATE games SET lease_node = $1, lease_fence = $2, lease_expires = $3 WHERE id = $4",
		node, int64(l.Fence), expires, l.Game)
	return err
}

// RenewLease implements store.Store.
func (s *Store) RenewLease(ctx context.Context, l store.Lease, ttl time.Duration) (store.Lease, error) {
	if err := store.CheckLease(l.Game, l.Node, ttl); err != nil {
		return store.Lease{}, err
	}
	var renewed store.Lease
	err := s.tx(ctx, "renew the lease of game "+l.Game, func(tx pgx.Tx) error {
		row, err := lockGame(ctx, tx, l.Game)
		if err != nil {
			return err
		}
		if err := row.lease.Holds(l, row.now); err != nil {
			return fmt.Errorf("postgres: %w", err)
		}
		renewed = row.lease
		renewed.Expires = row.now.Add(ttl)
		return setLease(ctx, tx, renewed)
	})
	if err != nil {
		return store.Lease{}, err
	}
	return renewed, nil
}

// RenewLeases implements store.Store, on the store's lease connection:
// one statement renews the leases whose game rows no write holds locked
// (SKIP LOCKED); those it skipped and that are still held are renewed so
// again a moment later, until none is left. A renewal never waits for a
// row lock: a statement that waited for one held the locks of the rows it
// had locked before, and the moves of those games waited behind it, for
// another game's commit.
func (s *Store) RenewLeases(ctx context.Context, leases []store.Lease, ttl time.Duration) ([]store.Lease, error) {
	for _, l := range leases {
		if err := store.CheckLease(l.Game, l.Node, ttl); err != nil {
			return nil, err
		}
	}
	if len(leases) == 0 {
		return nil, nil
	}
	op := fmt.Sprintf("renew %d leases", len(leases))
	expires := map[store.Lease]time.Time{} // by the lease without its expiry
	rest := leases
	for pause := time.Millisecond; ; pause = min(2*pause, renewPause) {
		if err := s.renew(ctx, rest, ttl, expires); err != nil {
			return nil, s.fail(op, err)
		}
		var skipped []store.Lease
		for _, l := range rest {
			l.Expires = time.Time{}
			if _, ok := expires[l]; !ok {
				skipped = append(skipped, l)
			}
		}
		if len(skipped) == 0 {
			break
		}
		var err error
		if rest, err = s.stillHeld(ctx, skipped); err != nil {
			return nil, s.fail(op, err)
		}
		if len(rest) == 0 {
			break
		}
		t := time.NewTimer(pause)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, s.fail(op, ctx.Err())
		}
	}
	var renewed []store.Lease
	for _, l := range leases {
		l.Expires = time.Time{}
		if at, ok := expires[l]; ok {
			l.Expires = at
			renewed = append(renewed, l)
		}
	}
	return renewed, nil
}

// renewPause is the longest pause between two tries to renew leases whose
// rows writes held locked: a move's group commits in a few milliseconds.
const renewPause = 50 * time.Millisecond

// renew renews the leases still held whose rows no write holds locked, in
// one statement, and adds their expiry to expires.
func (s *Store) renew(ctx context.Context, leases []store.Lease, ttl time.Duration, expires map[store.Lease]time.Time) error {
	ids, nodes, fences := leaseArrays(leases)
	rows, err := s.leases.Query(ctx, renewLeases, ids, nodes, fences, ttl.Microseconds())
	if err != nil {
		return err
	}
	var r store.Lease
	_, err = pgx.ForEachRow(rows, []any{&r.Game, &r.Node, &r.Fence, &r.Expires}, func() error {
		at := r.Expires
		r.Expires = time.Time{}
		expires[r] = at
		return nil
	})
	return err
}

// stillHeld returns the leases of those given that are still live, as
// committed: a renewal skipped them because a write held their rows
// locked (a write never changes a lease's holder or fence).
func (s *Store) stillHeld(ctx context.Context, leases []store.Lease) ([]store.Lease, error) {
	ids, nodes, fences := leaseArrays(leases)
	rows, err := s.leases.Query(ctx, stillHeldLeases, ids, nodes, fences)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Lease, error) {
		var l store.Lease
		return l, row.Scan(&l.Game, &l.Node, &l.Fence)
	})
}

// stillHeldLeases returns the leases of $1, $2, $3 (games, nodes,
// fences) still live, as committed, found as renewLeases finds them.
const stillHeldLeases = `
SELECT g.id, w.node, w.fence FROM unnest($1::text[], $2::text[], $3::bigint[]) AS w(id, node, fence)
JOIN games g ON g.id = w.id
WHERE g.lease_node = w.node AND g.lease_fence = w.fence AND g.lease_expires > clock_timestamp()`

// leaseArrays returns the games, nodes and fences of leases.
func leaseArrays(leases []store.Lease) (ids, nodes []string, fences []int64) {
	ids, nodes, fences = make([]string, len(leases)), make([]string, len(leases)), make([]int64, len(leases))
	for i, l := range leases {
		ids[i], nodes[i], fences[i] = l.Game, l.Node, int64(l.Fence)
	}
	return ids, nodes, fences
}

// renewLeases renews the leases of $1, $2, $3 (games, nodes, fences)
// still held whose rows no other transaction holds locked. The rows are
// found by joining the arrays to the games by their index, each carrying
// its node and fence into the update: joined to the locked rows apart,
// the leases were matched to them pair by pair, which cost as much as all
// the moves of a node at 330 games (TestRenewLeasesLinear). The update
// checks the lease again on the row it holds locked.
const renewLeases = `
WITH locked AS (
	SELECT g.id, w.node, w.fence
	FROM unnest($1::text[], $2::text[], $3::bigint[]) AS w(id, node, fence)
	JOIN games g ON g.id = w.id
	WHERE g.lease_node = w.node AND g.lease_fence = w.fence AND g.lease_expires > clock_timestamp()
	FOR UPDATE OF g SKIP LOCKED)
UPDATE games g SET lease_expires = clock_timestamp() + $4 * interval '1 microsecond'
FROM locked
WHERE g.id = locked.id AND g.lease_node = locked.node AND g.lease_fence = locked.fence
	AND g.lease_expires > clock_timestamp()
RETURNING g.id, g.lease_node, g.lease_fence, g.lease_expires`

// ReleaseLease implements store.Store.
func (s *Store) ReleaseLease(ctx context.Context, l store.Lease) error {
	return s.tx(ctx, "release the lease of game "+l.Game, func(tx pgx.Tx) error {
		row, err := lockGame(ctx, tx, l.Game)
		if err != nil {
			return err
		}
		if err := row.lease.Holds(l, row.now); err != nil {
			return fmt.Errorf("postgres: %w", err)
		}
		if err := setLease(ctx, tx, store.Lease{Game: l.Game, Fence: l.Fence}); err != nil {
			return err
		}
		return notify(ctx, tx, store.Change{Game: l.Game, Kind: store.ChangeLease, Moves: row.moves, Status: row.status, Fence: l.Fence})
	})
}

// Lease implements store.Store.
func (s *Store) Lease(ctx context.Context, id string) (store.Lease, error) {
	l := store.Lease{Game: id}
	var (
		node    *string
		expires *time.Time
		now     time.Time
	)
	err := s.pool.QueryRow(ctx, "SELECT lease_node, lease_fence, lease_expires, clock_timestamp() FROM games WHERE id = $1", id).
		Scan(&node, &l.Fence, &expires, &now)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Lease{}, fmt.Errorf("postgres: game %q: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Lease{}, s.fail("read the lease of game "+id, err)
	}
	if node != nil && expires != nil && now.Before(*expires) {
		l.Node, l.Expires = *node, *expires
	}
	return l, nil
}

// Unowned implements store.Store.
func (s *Store) Unowned(ctx context.Context, limit int) ([]string, error) {
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	rows, err := s.pool.Query(ctx, `
		SELECT id FROM games
		WHERE status IN ('open', 'playing') AND NOT `+liveLease+`
		ORDER BY status = 'playing' DESC, `+updatedOf("games")+`, id LIMIT $1`, lim)
	if err != nil {
		return nil, s.fail("list unowned games", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, s.fail("list unowned games", err)
	}
	return ids, nil
}

// Publish implements store.Store: NOTIFY, to every node. The payloads
// published while a group commits go in the next group, with the moves
// (see write).
func (s *Store) Publish(ctx context.Context, channel, payload string) error {
	if err := store.CheckPublish(channel, payload); err != nil {
		return err
	}
	n := notePool.Get().(*note)
	n.ctx, n.channel, n.payload = ctx, channel, payload
	n.w = write{note: n}
	err := s.batch.Send(ctx, &n.w)
	if err != nil {
		err = s.fail("publish on "+channel, err)
	} else {
		err = <-n.done
	}
	*n = note{done: n.done} // the writer no longer reads it once it sent the outcome
	notePool.Put(n)
	return err
}
