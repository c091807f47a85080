package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/razziagame/razzia/internal/store"
)

// The moderation part of the store (store.Moderation).

// SetOperator implements store.Moderation.
func (s *Store) SetOperator(ctx context.Context, account string, on bool, at time.Time) (bool, error) {
	changed := false
	err := s.tx(ctx, "set an operator", func(tx pgx.Tx) error {
		if err := lockAccount(ctx, tx, account); err != nil {
			return err
		}
		q := `DELETE FROM operators WHERE account_id = $1`
		args := []any{account}
		if on {
			q = `INSERT INTO operators (account_id, granted) VALUES ($1, $2) ON CONFLICT DO NOTHING`
			args = append(args, at.UnixNano())
			if _, err := tx.Exec(ctx, `INSERT INTO operators_made (one, at) VALUES (1, $1) ON CONFLICT DO NOTHING`, at.UnixNano()); err != nil {
				return err
			}
		}
		tag, err := tx.Exec(ctx, q, args...)
		changed = tag.RowsAffected() > 0
		return err
	})
	return changed, err
}

// Operator implements store.Moderation.
func (s *Store) Operator(ctx context.Context, account string) (bool, error) {
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM operators WHERE account_id = $1`, account).Scan(&n); err != nil {
		return false, s.fail("read an operator", err)
	}
	return n > 0, nil
}

// Operators implements store.Moderation.
func (s *Store) Operators(ctx context.Context) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT account_id FROM operators ORDER BY granted, account_id`)
	if err != nil {
		return nil, s.fail("read the operators", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, s.fail("read the operators", err)
	}
	return out, nil
}

// FirstOperator implements store.Moderation. The mark's row is taken
// first: of two first accounts at once, one makes it.
func (s *Store) FirstOperator(ctx context.Context, account string, at time.Time) (bool, error) {
	made := false
	err := s.tx(ctx, "make the first operator", func(tx pgx.Tx) error {
		if err := lockAccount(ctx, tx, account); err != nil {
			return err
		}
		var others int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM accounts WHERE id <> $1`, account).Scan(&others); err != nil || others > 0 {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO operators_made (one, at) VALUES (1, $1) ON CONFLICT DO NOTHING`, at.UnixNano())
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO operators (account_id, granted) VALUES ($1, $2)`, account, at.UnixNano())
		made = err == nil
		return err
	})
	return made, err
}

const reportColumns = `id, COALESCE(reporter, ''), reporter_name, COALESCE(target, ''), target_name, target_key,
	game_id, kind, reason, lines, at, closed, COALESCE(action_id, '')`

func scanReport(row pgx.Row) (store.Report, error) {
	var (
		r      store.Report
		lines  string
		at     int64
		closed *int64
	)
	err := row.Scan(&r.ID, &r.Reporter, &r.ReporterName, &r.Target, &r.TargetName, &r.TargetKey,
		&r.Game, &r.Kind, &r.Reason, &lines, &at, &closed, &r.Action)
	r.Lines, r.At = store.SplitLines(lines), fromNanos(at)
	if closed != nil {
		r.Closed = fromNanos(*closed)
	}
	return r, err
}

// AddReport implements store.Moderation. The reporter's row lock orders
// their reports, so that two at once cannot both pass the limit.
func (s *Store) AddReport(ctx context.Context, r store.Report, limit store.ReportLimit) error {
	if err := store.CheckReport(r); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return s.tx(ctx, "store a report", func(tx pgx.Tx) error {
		if err := lockAccount(ctx, tx, r.Reporter); err != nil {
			return err
		}
		var target, filed, open int
		if err := tx.QueryRow(ctx, `SELECT
			(SELECT count(*) FROM accounts WHERE id = $2),
			(SELECT count(*) FROM mod_reports WHERE reporter = $1 AND at > $3),
			(SELECT count(*) FROM mod_reports WHERE reporter = $1 AND target = $2 AND game_id = $4 AND closed IS NULL)`,
			r.Reporter, r.Target, limit.Since.UnixNano(), r.Game).Scan(&target, &filed, &open); err != nil {
			return err
		}
		switch {
		case target == 0:
			return fmt.Errorf("postgres: account %q: %w", r.Target, store.ErrNoAccount)
		case filed >= limit.Max:
			return fmt.Errorf("postgres: %w: %d since %v", store.ErrTooManyReports, filed, limit.Since)
		case open > 0:
			return fmt.Errorf("postgres: %w", store.ErrReported)
		}
		_, err := tx.Exec(ctx, `INSERT INTO mod_reports (id, reporter, reporter_name, target, target_name, target_key,
			game_id, kind, reason, lines, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
			r.ID, r.Reporter, r.ReporterName, r.Target, r.TargetName, r.TargetKey, r.Game, r.Kind, r.Reason,
			store.JoinLines(r.Lines), r.At.UnixNano())
		return err
	})
}

// Report implements store.Moderation.
func (s *Store) Report(ctx context.Context, id string) (store.Report, error) {
	r, err := scanReport(s.pool.QueryRow(ctx, `SELECT `+reportColumns+` FROM mod_reports WHERE id = $1`, id))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return r, fmt.Errorf("postgres: report %q: %w", id, store.ErrNoReport)
	case err != nil:
		return r, s.fail("read a report", err)
	}
	return r, nil
}

// Reports implements store.Moderation.
func (s *Store) Reports(ctx context.Context, open bool, limit int) ([]store.Report, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+reportColumns+` FROM mod_reports
		WHERE closed IS NULL OR NOT $1 ORDER BY at, id LIMIT $2`, open, limitOrAll(limit))
	if err != nil {
		return nil, s.fail("read the reports", err)
	}
	defer rows.Close()
	var out []store.Report
	for rows.Next() {
		r, err := scanReport(rows)
		if err != nil {
			return nil, s.fail("read the reports", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("read the reports", err)
	}
	return out, nil
}

// limitOrAll is a LIMIT's argument: NULL is none.
func limitOrAll(limit int) *int {
	if limit <= 0 {
		return nil
	}
	return &limit
}

// AddAction implements store.Moderation.
func (s *Store) AddAction(ctx context.Context, a store.Action) error {
	if err := store.CheckAction(a); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return s.tx(ctx, "log an operator's action", func(tx pgx.Tx) error {
		if a.Report != "" {
			var closed *int64
			switch err := tx.QueryRow(ctx, `SELECT closed FROM mod_reports WHERE id = $1 FOR UPDATE`, a.Report).Scan(&closed); {
			case errors.Is(err, pgx.ErrNoRows):
				return fmt.Errorf("postgres: report %q: %w", a.Report, store.ErrNoReport)
			case err != nil:
				return err
			case closed != nil:
				return fmt.Errorf("postgres: report %q: %w", a.Report, store.ErrReportClosed)
			}
			if _, err := tx.Exec(ctx, `UPDATE mod_reports SET closed = $1, action_id = $2 WHERE id = $3`,
				a.At.UnixNano(), a.ID, a.Report); err != nil {
				return err
			}
		}
		var until *int64
		if !a.Until.IsZero() {
			n := a.Until.UnixNano()
			until = &n
		}
		_, err := tx.Exec(ctx, `INSERT INTO mod_actions (id, kind, target, target_name, target_key, operator, operator_name,
			reason, game_id, line, until, at, report_id)
			VALUES ($1, $2, (SELECT id FROM accounts WHERE id = $3), $4, $5, (SELECT id FROM accounts WHERE id = $6), $7,
				$8, $9, $10, $11, $12, $13)`,
			a.ID, a.Kind, a.Target, a.TargetName, a.TargetKey, a.Operator, a.OperatorName, a.Reason, a.Game, a.Line,
			until, a.At.UnixNano(), orNil(a.Report))
		return err
	})
}

const actionColumns = `id, kind, COALESCE(target, ''), target_name, target_key, COALESCE(operator, ''), operator_name,
	reason, game_id, line, until, at, COALESCE(report_id, '')`

// actions reads the actions where selects, with args.
func (s *Store) actions(ctx context.Context, where string, args ...any) ([]store.Action, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+actionColumns+` FROM mod_actions `+where, args...)
	if err != nil {
		return nil, s.fail("read the operators' actions", err)
	}
	var (
		out   []store.Action
		a     store.Action
		until *int64
		at    int64
	)
	_, err = pgx.ForEachRow(rows, []any{&a.ID, &a.Kind, &a.Target, &a.TargetName, &a.TargetKey, &a.Operator,
		&a.OperatorName, &a.Reason, &a.Game, &a.Line, &until, &at, &a.Report}, func() error {
		a.At, a.Until = fromNanos(at), time.Time{}
		if until != nil {
			a.Until = fromNanos(*until)
		}
		out = append(out, a)
		return nil
	})
	if err != nil {
		return nil, s.fail("read the operators' actions", err)
	}
	return out, nil
}

// Actions implements store.Moderation.
func (s *Store) Actions(ctx context.Context, key string, limit int) ([]store.Action, error) {
	return s.actions(ctx, `WHERE target_key = $1 OR $1 = '' ORDER BY at DESC, id DESC LIMIT $2`, key, limitOrAll(limit))
}

// Sanctions implements store.Moderation: the sanctions and lifts after
// each person's last lift; InForce drops those that ended.
func (s *Store) Sanctions(ctx context.Context, now time.Time) ([]store.Action, error) {
	all, err := s.actions(ctx, `a WHERE kind IN ('mute', 'suspend', 'ban', 'lift')
		AND (until IS NULL OR until > $1)
		AND at >= COALESCE((SELECT max(l.at) FROM mod_actions l WHERE l.target_key = a.target_key AND l.kind = 'lift'), 0)`,
		now.UnixNano())
	return store.InForce(all, now), err
}

// StrikeChat implements store.Moderation.
func (s *Store) StrikeChat(ctx context.Context, id string, fence store.Fence, seq int) error {
	return s.chatWrite(ctx, id, fence, "remove a chat message", func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE chat_lines SET removed = true WHERE game_id = $1 AND seq = $2`, id, seq)
		if err == nil && tag.RowsAffected() == 0 {
			err = fmt.Errorf("postgres: game %q has no chat line %d: %w", id, seq, store.ErrNotFound)
		}
		return err
	})
}
