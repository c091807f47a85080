package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// The moderation part of the store (store.Moderation): rare writes, not
// prepared ahead.

// SetOperator implements store.Moderation.
func (s *Store) SetOperator(ctx context.Context, account string, on bool, at time.Time) (bool, error) {
	changed := false
	err := s.write(ctx, "set an operator", func(w *wtx) (*store.Change, error) {
		if err := w.accountExists(account); err != nil {
			return nil, err
		}
		var res sql.Result
		var err error
		if on {
			res, err = w.execSQL(`INSERT INTO operators (account_id, granted) VALUES (?, ?) ON CONFLICT DO NOTHING`, account, at.UnixNano())
			if err == nil {
				_, err = w.execSQL(`INSERT INTO operators_made (one, at) VALUES (1, ?) ON CONFLICT DO NOTHING`, at.UnixNano())
			}
		} else {
			res, err = w.execSQL(`DELETE FROM operators WHERE account_id = ?`, account)
		}
		if err != nil {
			return nil, err
		}
		n, err := res.RowsAffected()
		changed = n > 0
		return nil, err
	})
	return changed, err
}

// Operator implements store.Moderation.
func (s *Store) Operator(ctx context.Context, account string) (bool, error) {
	var n int
	err := s.read(ctx, "read an operator", func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT count(*) FROM operators WHERE account_id = ?`, account).Scan(&n)
	})
	return n > 0, err
}

// Operators implements store.Moderation.
func (s *Store) Operators(ctx context.Context) ([]string, error) {
	var out []string
	err := s.read(ctx, "read the operators", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT account_id FROM operators ORDER BY granted, account_id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return err
			}
			out = append(out, id)
		}
		return rows.Err()
	})
	return out, err
}

// FirstOperator implements store.Moderation.
func (s *Store) FirstOperator(ctx context.Context, account string, at time.Time) (bool, error) {
	made := false
	err := s.write(ctx, "make the first operator", func(w *wtx) (*store.Change, error) {
		var others, marks int
		if err := w.rowSQL(`SELECT (SELECT count(*) FROM accounts WHERE id <> ?), (SELECT count(*) FROM operators_made)`,
			account).Scan(&others, &marks); err != nil {
			return nil, err
		}
		if others > 0 || marks > 0 {
			return nil, nil
		}
		if err := w.accountExists(account); err != nil {
			return nil, err
		}
		if _, err := w.execSQL(`INSERT INTO operators (account_id, granted) VALUES (?, ?)`, account, at.UnixNano()); err != nil {
			return nil, err
		}
		_, err := w.execSQL(`INSERT INTO operators_made (one, at) VALUES (1, ?)`, at.UnixNano())
		made = err == nil
		return nil, err
	})
	return made, err
}

const reportColumns = `id, COALESCE(reporter, ''), reporter_name, COALESCE(target, ''), target_name, target_key,
	game_id, kind, reason, lines, at, closed, COALESCE(action_id, '')`

func scanReport(row interface{ Scan(...any) error }) (store.Report, error) {
	var (
		r      store.Report
		lines  string
		at     int64
		closed sql.NullInt64
	)
	err := row.Scan(&r.ID, &r.Reporter, &r.ReporterName, &r.Target, &r.TargetName, &r.TargetKey,
		&r.Game, &r.Kind, &r.Reason, &lines, &at, &closed, &r.Action)
	r.Lines, r.At = store.SplitLines(lines), fromNanos(at)
	if closed.Valid {
		r.Closed = fromNanos(closed.Int64)
	}
	return r, err
}

// AddReport implements store.Moderation.
func (s *Store) AddReport(ctx context.Context, r store.Report, limit store.ReportLimit) error {
	if err := store.CheckReport(r); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return s.write(ctx, "store a report", func(w *wtx) (*store.Change, error) {
		for _, a := range []string{r.Reporter, r.Target} {
			if err := w.accountExists(a); err != nil {
				return nil, err
			}
		}
		var filed, open int
		if err := w.rowSQL(`SELECT
			(SELECT count(*) FROM mod_reports WHERE reporter = ? AND at > ?),
			(SELECT count(*) FROM mod_reports WHERE reporter = ? AND target = ? AND game_id = ? AND closed IS NULL)`,
			r.Reporter, limit.Since.UnixNano(), r.Reporter, r.Target, r.Game).Scan(&filed, &open); err != nil {
			return nil, err
		}
		switch {
		case filed >= limit.Max:
			return nil, fmt.Errorf("sqlite: %w: %d since %v", store.ErrTooManyReports, filed, limit.Since)
		case open > 0:
			return nil, fmt.Errorf("sqlite: %w", store.ErrReported)
		}
		_, err := w.execSQL(`INSERT INTO mod_reports (id, reporter, reporter_name, target, target_name, target_key,
			game_id, kind, reason, lines, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.ID, r.Reporter, r.ReporterName, r.Target, r.TargetName, r.TargetKey, r.Game, r.Kind, r.Reason,
			store.JoinLines(r.Lines), r.At.UnixNano())
		return nil, err
	})
}

// Report implements store.Moderation.
func (s *Store) Report(ctx context.Context, id string) (store.Report, error) {
	var r store.Report
	err := s.read(ctx, "read a report", func(tx *sql.Tx) error {
		var err error
		r, err = scanReport(tx.QueryRowContext(ctx, `SELECT `+reportColumns+` FROM mod_reports WHERE id = ?`, id))
		if err == sql.ErrNoRows {
			return fmt.Errorf("sqlite: report %q: %w", id, store.ErrNoReport)
		}
		return err
	})
	return r, err
}

// Reports implements store.Moderation.
func (s *Store) Reports(ctx context.Context, open bool, limit int) ([]store.Report, error) {
	var out []store.Report
	err := s.read(ctx, "read the reports", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+reportColumns+` FROM mod_reports
			WHERE closed IS NULL OR NOT ? ORDER BY at, id LIMIT ?`, open, limitOrAll(limit))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			r, err := scanReport(rows)
			if err != nil {
				return err
			}
			out = append(out, r)
		}
		return rows.Err()
	})
	return out, err
}

func limitOrAll(limit int) int {
	if limit <= 0 {
		return -1
	}
	return limit
}

// AddAction implements store.Moderation.
func (s *Store) AddAction(ctx context.Context, a store.Action) error {
	if err := store.CheckAction(a); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return s.write(ctx, "log an operator's action", func(w *wtx) (*store.Change, error) {
		if a.Report != "" {
			var closed sql.NullInt64
			switch err := w.rowSQL(`SELECT closed FROM mod_reports WHERE id = ?`, a.Report).Scan(&closed); {
			case err == sql.ErrNoRows:
				return nil, fmt.Errorf("sqlite: report %q: %w", a.Report, store.ErrNoReport)
			case err != nil:
				return nil, err
			case closed.Valid:
				return nil, fmt.Errorf("sqlite: report %q: %w", a.Report, store.ErrReportClosed)
			}
			if _, err := w.execSQL(`UPDATE mod_reports SET closed = ?, action_id = ? WHERE id = ?`,
				a.At.UnixNano(), a.ID, a.Report); err != nil {
				return nil, err
			}
		}
		var until any
		if !a.Until.IsZero() {
			until = a.Until.UnixNano()
		}
		_, err := w.execSQL(`INSERT INTO mod_actions (id, kind, target, target_name, target_key, operator, operator_name,
			reason, game_id, line, until, at, report_id)
			VALUES (?, ?, (SELECT id FROM accounts WHERE id = ?), ?, ?, (SELECT id FROM accounts WHERE id = ?), ?, ?, ?, ?, ?, ?, ?)`,
			a.ID, a.Kind, a.Target, a.TargetName, a.TargetKey, a.Operator, a.OperatorName, a.Reason, a.Game, a.Line,
			until, a.At.UnixNano(), orNil(a.Report))
		return nil, err
	})
}

const actionColumns = `id, kind, COALESCE(target, ''), target_name, target_key, COALESCE(operator, ''), operator_name,
	reason, game_id, line, until, at, COALESCE(report_id, '')`

// actions reads the actions where selects, with args.
func actions(ctx context.Context, tx *sql.Tx, where string, args ...any) ([]store.Action, error) {
	rows, err := tx.QueryContext(ctx, `SELECT `+actionColumns+` FROM mod_actions `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Action
	for rows.Next() {
		var (
			a     store.Action
			until sql.NullInt64
			at    int64
		)
		if err := rows.Scan(&a.ID, &a.Kind, &a.Target, &a.TargetName, &a.TargetKey, &a.Operator, &a.OperatorName,
			&a.Reason, &a.Game, &a.Line, &until, &at, &a.Report); err != nil {
			return nil, err
		}
		if a.At = fromNanos(at); until.Valid {
			a.Until = fromNanos(until.Int64)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// Actions implements store.Moderation.
func (s *Store) Actions(ctx context.Context, key string, limit int) ([]store.Action, error) {
	var out []store.Action
	err := s.read(ctx, "read the operators' actions", func(tx *sql.Tx) error {
		var err error
		out, err = actions(ctx, tx, `WHERE target_key = ? OR ? = '' ORDER BY at DESC, id DESC LIMIT ?`,
			key, key, limitOrAll(limit))
		return err
	})
	return out, err
}

// Sanctions implements store.Moderation.
func (s *Store) Sanctions(ctx context.Context, now time.Time) ([]store.Action, error) {
	var out []store.Action
	err := s.read(ctx, "read the sanctions in force", func(tx *sql.Tx) error {
		// The sanctions and lifts after each person's last lift; InForce
		// drops those that ended.
		all, err := actions(ctx, tx, `a WHERE kind IN ('mute', 'suspend', 'ban', 'lift')
			AND (until IS NULL OR until > ?)
			AND at >= COALESCE((SELECT max(l.at) FROM mod_actions l WHERE l.target_key = a.target_key AND l.kind = 'lift'), 0)`,
			now.UnixNano())
		out = store.InForce(all, now)
		return err
	})
	return out, err
}

// StrikeChat implements store.Moderation.
func (s *Store) StrikeChat(ctx context.Context, id string, fence store.Fence, seq int) error {
	return s.chatWrite(ctx, id, fence, "remove a chat message", func(w *wtx) error {
		res, err := w.execSQL(`UPDATE chat_lines SET removed = 1 WHERE game_id = ? AND seq = ?`, id, seq)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return fmt.Errorf("sqlite: game %q has no chat line %d: %w", id, seq, store.ErrNotFound)
		}
		return nil
	})
}
