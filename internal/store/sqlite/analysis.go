package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// ClaimAnalysis implements store.Store.
func (s *Store) ClaimAnalysis(ctx context.Context, node string, ttl time.Duration) (string, error) {
	if err := store.CheckClaim(node, ttl); err != nil {
		return "", err
	}
	var id string
	err := s.write(ctx, "claim an analysis", func(w *wtx) (*store.Change, error) {
		now := w.now.UnixNano()
		err := w.tx.QueryRowContext(w.ctx, `
			SELECT g.id FROM games g LEFT JOIN analyses a ON a.game_id = g.id
			WHERE g.status = 'finished' AND (a.game_id IS NULL OR a.created IS NULL AND a.claim_expires <= ?)
			ORDER BY g.listed, g.id LIMIT 1`, now).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			id = ""
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		_, err = w.tx.ExecContext(w.ctx, `
			INSERT INTO analyses (game_id, claim_node, claim_expires) VALUES (?, ?, ?)
			ON CONFLICT (game_id) DO UPDATE SET claim_node = excluded.claim_node, claim_expires = excluded.claim_expires`,
			id, node, w.now.Add(ttl).UnixNano())
		return nil, err
	})
	if err != nil {
		return "", err
	}
	return id, nil
}

// PutAnalysis implements store.Store.
func (s *Store) PutAnalysis(ctx context.Context, id string, a store.Analysis) error {
	if err := a.Check(id); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	var failed any
	if a.Failed != "" {
		failed = a.Failed
	}
	return s.write(ctx, "store the analysis of game "+id, func(w *wtx) (*store.Change, error) {
		var status string
		err := w.tx.QueryRowContext(w.ctx, "SELECT status FROM games WHERE id = ?", id).Scan(&status)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("sqlite: game %q: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return nil, err
		}
		if store.Status(status) != store.StatusFinished {
			return nil, fmt.Errorf("sqlite: game %q is %s: %w: only a finished game is analysed", id, status, store.ErrConflict)
		}
		_, err = w.tx.ExecContext(w.ctx, `
			INSERT INTO analyses (game_id, report, failed, created) VALUES (?, ?, ?, ?)
			ON CONFLICT (game_id) DO UPDATE SET report = excluded.report, failed = excluded.failed,
				created = excluded.created, claim_node = NULL, claim_expires = NULL`,
			id, a.Report, failed, w.now.UnixNano())
		return nil, err
	})
}

// Analysis implements store.Store.
func (s *Store) Analysis(ctx context.Context, id string) (store.Analysis, error) {
	var a store.Analysis
	err := s.read(ctx, "read the analysis of game "+id, func(tx *sql.Tx) error {
		var (
			report  []byte
			failed  sql.NullString
			created sql.NullInt64
		)
		err := tx.QueryRowContext(ctx, `
			SELECT a.report, a.failed, a.created FROM games g LEFT JOIN analyses a ON a.game_id = g.id
			WHERE g.id = ?`, id).Scan(&report, &failed, &created)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("sqlite: game %q: %w", id, store.ErrNotFound)
		case err != nil:
			return err
		case !created.Valid:
			return fmt.Errorf("sqlite: game %q: %w", id, store.ErrNoAnalysis)
		}
		a = store.Analysis{Report: report, Failed: failed.String, Created: fromNanos(created.Int64)}
		return nil
	})
	return a, err
}
