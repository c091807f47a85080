package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/razziagame/razzia/internal/store"
)

// ClaimAnalysis implements store.Store. Workers claiming at once skip
// each other's rows (SKIP LOCKED) instead of waiting for them.
func (s *Store) ClaimAnalysis(ctx context.Context, node string, ttl time.Duration) (string, error) {
	if err := store.CheckClaim(node, ttl); err != nil {
		return "", err
	}
	var id string
	err := s.tx(ctx, "claim an analysis", func(tx pgx.Tx) error {
		// The SELECT sees the analyses as they were when it began: a
		// claim committed while it waited for a game's row lock is
		// invisible to it. The INSERT sees the latest row and claims
		// only a game still unclaimed; when it claims nothing, another
		// worker was first, and the next SELECT (a new snapshot) looks on.
		for {
			err := tx.QueryRow(ctx, `
				SELECT g.id FROM games g LEFT JOIN analyses a ON a.game_id = g.id
				WHERE g.status = 'finished' AND (a.game_id IS NULL OR a.created IS NULL AND a.claim_expires <= clock_timestamp())
				ORDER BY g.listed, g.id LIMIT 1
				FOR UPDATE OF g SKIP LOCKED`).Scan(&id)
			if errors.Is(err, pgx.ErrNoRows) {
				id = ""
				return nil
			}
			if err != nil {
				return err
			}
			tag, err := tx.Exec(ctx, `
				INSERT INTO analyses (game_id, claim_node, claim_expires)
				VALUES ($1, $2, clock_timestamp() + $3 * interval '1 microsecond')
				ON CONFLICT (game_id) DO UPDATE SET claim_node = excluded.claim_node, claim_expires = excluded.claim_expires
				WHERE analyses.created IS NULL AND analyses.claim_expires <= clock_timestamp()`,
				id, node, ttl.Microseconds())
			if err != nil || tag.RowsAffected() == 1 {
				return err
			}
		}
	})
	if err != nil {
		return "", err
	}
	return id, nil
}

// PutAnalysis implements store.Store.
func (s *Store) PutAnalysis(ctx context.Context, id string, a store.Analysis) error {
	if err := a.Check(id); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	var failed *string
	if a.Failed != "" {
		failed = &a.Failed
	}
	return s.tx(ctx, "store the analysis of game "+id, func(tx pgx.Tx) error {
		var status string
		err := tx.QueryRow(ctx, "SELECT status FROM games WHERE id = $1 FOR SHARE", id).Scan(&status)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("postgres: game %q: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		if store.Status(status) != store.StatusFinished {
			return fmt.Errorf("postgres: game %q is %s: %w: only a finished game is analysed", id, status, store.ErrConflict)
		}
		_, err = tx.Exec(ctx, `
			INSERT INTO analyses (game_id, report, failed, created) VALUES ($1, $2, $3, `+nowNanos+`)
			ON CONFLICT (game_id) DO UPDATE SET report = excluded.report, failed = excluded.failed,
				created = excluded.created, claim_node = NULL, claim_expires = NULL`,
			id, a.Report, failed)
		return err
	})
}

// Analysis implements store.Store.
func (s *Store) Analysis(ctx context.Context, id string) (store.Analysis, error) {
	var (
		report  []byte
		failed  *string
		created *int64
	)
	err := s.pool.QueryRow(ctx, `
		SELECT a.report, a.failed, a.created FROM games g LEFT JOIN analyses a ON a.game_id = g.id
		WHERE g.id = $1`, id).Scan(&report, &failed, &created)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return store.Analysis{}, fmt.Errorf("postgres: game %q: %w", id, store.ErrNotFound)
	case err != nil:
		return store.Analysis{}, s.fail("read the analysis of game "+id, err)
	case created == nil:
		return store.Analysis{}, fmt.Errorf("postgres: game %q: %w", id, store.ErrNoAnalysis)
	}
	a := store.Analysis{Report: report, Created: fromNanos(*created)}
	if failed != nil {
		a.Failed = *failed
	}
	return a, nil
}
