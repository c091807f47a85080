package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

var _ store.Puzzles = (*Store)(nil)

// ClaimPuzzleScan implements store.Puzzles.
func (s *Store) ClaimPuzzleScan(ctx context.Context, node string, ttl time.Duration) (string, error) {
	if err := store.CheckClaim(node, ttl); err != nil {
		return "", err
	}
	var id string
	err := s.write(ctx, "claim a puzzle scan", func(w *wtx) (*store.Change, error) {
		err := w.rowSQL(`
			SELECT g.id FROM games g JOIN analyses a ON a.game_id = g.id LEFT JOIN puzzle_scans p ON p.game_id = g.id
			WHERE g.status = 'finished' AND a.created IS NOT NULL
				AND (p.game_id IS NULL OR p.created IS NULL AND p.claim_expires <= ?)
			ORDER BY g.listed, g.id LIMIT 1`, w.now.UnixNano()).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			id = ""
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		_, err = w.execSQL(`
			INSERT INTO puzzle_scans (game_id, claim_node, claim_expires) VALUES (?, ?, ?)
			ON CONFLICT (game_id) DO UPDATE SET claim_node = excluded.claim_node, claim_expires = excluded.claim_expires`,
			id, node, w.now.Add(ttl).UnixNano())
		return nil, err
	})
	if err != nil {
		return "", err
	}
	return id, nil
}

// PutPuzzleScan implements store.Puzzles.
func (s *Store) PutPuzzleScan(ctx context.Context, id string, scan store.PuzzleScan) error {
	if err := scan.Check(id); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return s.write(ctx, "store the puzzles of game "+id, func(w *wtx) (*store.Change, error) {
		if err := w.finished(id); err != nil {
			return nil, err
		}
		now := w.now.UnixNano()
		// A puzzle answered already keeps its answers and rating: the
		// scan only adds what it did not find before.
		for _, p := range scan.Puzzles {
			if _, err := w.execSQL(`INSERT INTO puzzles (id, game_id, move, seat, themes, best, margin, eval, mu, sigma, created)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
				p.ID, id, p.Move, p.Seat, store.JoinThemes(p.Themes), p.Best, p.Margin, p.Eval, p.Rating.Mu, p.Rating.Sigma, now); err != nil {
				return nil, err
			}
		}
		if err := w.seatLuck(id, scan.Luck); err != nil {
			return nil, err
		}
		_, err := w.execSQL(`INSERT INTO puzzle_scans (game_id, created) VALUES (?, ?)
			ON CONFLICT (game_id) DO UPDATE SET created = excluded.created, claim_node = NULL, claim_expires = NULL`, id, now)
		return nil, err
	})
}

// finished refuses a game that is not there or not finished: only a
// finished game has puzzles and luck.
func (w *wtx) finished(id string) error {
	var status string
	err := w.rowSQL("SELECT status FROM games WHERE id = ?", id).Scan(&status)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("sqlite: game %q: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return err
	}
	if store.Status(status) != store.StatusFinished {
		return fmt.Errorf("sqlite: game %q is %s: %w: only a finished game has puzzles and luck", id, status, store.ErrConflict)
	}
	return nil
}

// seatLuck stores the luck of game id's seats.
func (w *wtx) seatLuck(id string, luck []store.SeatLuck) error {
	for _, l := range luck {
		if _, err := w.execSQL(`INSERT INTO seat_luck (game_id, seat, start, result, luck, skill, adjusted) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (game_id, seat) DO UPDATE SET start = excluded.start, result = excluded.result, luck = excluded.luck,
				skill = excluded.skill, adjusted = excluded.adjusted`,
			id, l.Seat, l.Start, l.Result, l.Luck, l.Skill, l.Adjusted); err != nil {
			return err
		}
	}
	return nil
}

// PutSeatLuck implements store.Puzzles.
func (s *Store) PutSeatLuck(ctx context.Context, id string, luck []store.SeatLuck) error {
	if err := (store.PuzzleScan{Luck: luck}).Check(id); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return s.write(ctx, "store the luck of game "+id, func(w *wtx) (*store.Change, error) {
		if err := w.finished(id); err != nil {
			return nil, err
		}
		return nil, w.seatLuck(id, luck)
	})
}

// PuzzleScanned implements store.Puzzles.
func (s *Store) PuzzleScanned(ctx context.Context, id string) (bool, error) {
	var done bool
	err := s.read(ctx, "read the puzzle scan of game "+id, func(tx *sql.Tx) error {
		var created sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT p.created FROM games g LEFT JOIN puzzle_scans p ON p.game_id = g.id WHERE g.id = ?`, id).Scan(&created)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlite: game %q: %w", id, store.ErrNotFound)
		}
		done = created.Valid
		return err
	})
	return done, err
}

const puzzleColumns = `id, game_id, move, seat, themes, best, margin, eval, mu, sigma, attempts, solved, created`

func scanPuzzle(r interface{ Scan(...any) error }) (*store.Puzzle, error) {
	var (
		p       store.Puzzle
		themes  string
		created int64
	)
	if err := r.Scan(&p.ID, &p.Game, &p.Move, &p.Seat, &themes, &p.Best, &p.Margin, &p.Eval, &p.Rating.Mu, &p.Rating.Sigma,
		&p.Rating.Games, &p.Solved, &created); err != nil {
		return nil, err
	}
	p.Themes, p.Created = store.SplitThemes(themes), fromNanos(created)
	return &p, nil
}

// puzzles reads the puzzles of query.
func (s *Store) puzzles(ctx context.Context, op, query string, args ...any) ([]*store.Puzzle, error) {
	var out []*store.Puzzle
	err := s.read(ctx, op, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			p, err := scanPuzzle(rows)
			if err != nil {
				return err
			}
			out = append(out, p)
		}
		return rows.Err()
	})
	return out, err
}

// one returns the only puzzle of ps, or ErrNotFound.
func one(ps []*store.Puzzle, err error, what string) (*store.Puzzle, error) {
	switch {
	case err != nil:
		return nil, err
	case len(ps) == 0:
		return nil, fmt.Errorf("sqlite: %s: %w", what, store.ErrNotFound)
	}
	return ps[0], nil
}

// Puzzle implements store.Puzzles.
func (s *Store) Puzzle(ctx context.Context, id string) (*store.Puzzle, error) {
	ps, err := s.puzzles(ctx, "read puzzle "+id, "SELECT "+puzzleColumns+" FROM puzzles WHERE id = ?", id)
	return one(ps, err, fmt.Sprintf("puzzle %q", id))
}

// GamePuzzles implements store.Puzzles.
func (s *Store) GamePuzzles(ctx context.Context, id string) ([]*store.Puzzle, error) {
	return s.puzzles(ctx, "read the puzzles of game "+id, "SELECT "+puzzleColumns+" FROM puzzles WHERE game_id = ? ORDER BY move", id)
}

// NextPuzzle implements store.Puzzles.
func (s *Store) NextPuzzle(ctx context.Context, q store.PuzzleQuery) (*store.Puzzle, error) {
	if len(q.Skip) > store.MaxSkip {
		q.Skip = q.Skip[:store.MaxSkip]
	}
	where := []string{"NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.puzzle_id = p.id AND a.account_id = ?)"}
	args := []any{q.Account}
	if q.Theme != "" {
		where = append(where, "p.themes LIKE ?")
		args = append(args, "%,"+q.Theme+",%")
	}
	if len(q.Skip) > 0 {
		where = append(where, "p.id NOT IN (?"+strings.Repeat(", ?", len(q.Skip)-1)+")")
		for _, id := range q.Skip {
			args = append(args, id)
		}
	}
	// The nearest above and the nearest below, each found along the
	// index on mu, then the nearer of the two: no scan of every puzzle.
	side := func(cmp, order string) string {
		return "SELECT * FROM (SELECT " + prefixed("p.", puzzleColumns) + " FROM puzzles p WHERE p.mu " + cmp + " ? AND " +
			strings.Join(where, " AND ") + " ORDER BY p.mu " + order + ", p.id LIMIT 1)"
	}
	all := append([]any{q.Mu}, args...)
	all = append(append(all, q.Mu), args...)
	ps, err := s.puzzles(ctx, "find a puzzle", "SELECT "+puzzleColumns+" FROM ("+side(">=", "ASC")+" UNION ALL "+side("<", "DESC")+
		") ORDER BY abs(mu - ?), id LIMIT 1", append(all, q.Mu)...)
	return one(ps, err, "a puzzle to solve")
}

// prefixed returns the comma-separated columns each with prefix.
func prefixed(prefix, columns string) string {
	return prefix + strings.ReplaceAll(columns, ", ", ", "+prefix)
}

// DailyPuzzle implements store.Puzzles.
func (s *Store) DailyPuzzle(ctx context.Context, day string) (*store.Puzzle, error) {
	ps, err := s.puzzles(ctx, "read the puzzle of "+day, "SELECT "+puzzleColumns+" FROM puzzles WHERE daily = ?", day)
	if err != nil || len(ps) > 0 {
		return one(ps, err, "")
	}
	err = s.write(ctx, "pick the puzzle of "+day, func(w *wtx) (*store.Change, error) {
		_, err := w.execSQL(`UPDATE puzzles SET daily = ? WHERE id = (SELECT id FROM puzzles WHERE daily IS NULL ORDER BY margin DESC, id LIMIT 1)
			AND NOT EXISTS (SELECT 1 FROM puzzles WHERE daily = ?)`, day, day)
		return nil, err
	})
	if err != nil {
		return nil, err
	}
	ps, err = s.puzzles(ctx, "read the puzzle of "+day, "SELECT "+puzzleColumns+" FROM puzzles WHERE daily = ?", day)
	return one(ps, err, "the puzzle of "+day)
}

// PuzzleThemes implements store.Puzzles.
func (s *Store) PuzzleThemes(ctx context.Context) (map[string]int, error) {
	counts := map[string]int{}
	err := s.read(ctx, "count the puzzles", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, "SELECT themes, count(*) FROM puzzles GROUP BY themes")
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var themes string
			var n int
			if err := rows.Scan(&themes, &n); err != nil {
				return err
			}
			counts[""] += n
			for _, t := range store.SplitThemes(themes) {
				counts[t] += n
			}
		}
		return rows.Err()
	})
	return counts, err
}

// PuzzleSolver implements store.Puzzles.
func (s *Store) PuzzleSolver(ctx context.Context, account string) (store.Solver, error) {
	var v store.Solver
	err := s.read(ctx, "read the puzzle rating of "+account, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, "SELECT mu, sigma, attempts, solved FROM puzzle_solvers WHERE account_id = ?", account).
			Scan(&v.Rating.Mu, &v.Rating.Sigma, &v.Rating.Games, &v.Solved)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlite: puzzle solver %q: %w", account, store.ErrNotFound)
		}
		return err
	})
	return v, err
}

const attemptColumns = `puzzle_id, answer, correct, at, solver_mu, solver_sigma, solver_mu_after, solver_sigma_after,
	puzzle_mu, puzzle_sigma, puzzle_mu_after, puzzle_sigma_after`

func scanAttempt(r interface{ Scan(...any) error }, account string) (*store.PuzzleAttempt, error) {
	a := store.PuzzleAttempt{Account: account}
	var at int64
	err := r.Scan(&a.Puzzle, &a.Answer, &a.Correct, &at, &a.SolverBefore.Mu, &a.SolverBefore.Sigma, &a.SolverAfter.Mu, &a.SolverAfter.Sigma,
		&a.PuzzleBefore.Mu, &a.PuzzleBefore.Sigma, &a.PuzzleAfter.Mu, &a.PuzzleAfter.Sigma)
	a.At = fromNanos(at)
	return &a, err
}

// PuzzleAttempt implements store.Puzzles.
func (s *Store) PuzzleAttempt(ctx context.Context, id, account string) (*store.PuzzleAttempt, error) {
	var a *store.PuzzleAttempt
	err := s.read(ctx, "read an answer to puzzle "+id, func(tx *sql.Tx) error {
		var err error
		a, err = scanAttempt(tx.QueryRowContext(ctx, "SELECT "+attemptColumns+" FROM puzzle_attempts WHERE puzzle_id = ? AND account_id = ?", id, account), account)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlite: an answer to puzzle %q: %w", id, store.ErrNotFound)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// PuzzleAttempts implements store.Puzzles.
func (s *Store) PuzzleAttempts(ctx context.Context, account string, limit int) ([]*store.PuzzleAttempt, error) {
	if limit <= 0 {
		limit = -1
	}
	var out []*store.PuzzleAttempt
	err := s.read(ctx, "read the puzzle answers of "+account, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, "SELECT "+attemptColumns+" FROM puzzle_attempts WHERE account_id = ? ORDER BY at DESC, puzzle_id DESC LIMIT ?", account, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			a, err := scanAttempt(rows, account)
			if err != nil {
				return err
			}
			out = append(out, a)
		}
		return rows.Err()
	})
	return out, err
}

// AnswerPuzzle implements store.Puzzles.
func (s *Store) AnswerPuzzle(ctx context.Context, a store.PuzzleAttempt) error {
	if err := a.Check(); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return s.write(ctx, "store an answer to puzzle "+a.Puzzle, func(w *wtx) (*store.Change, error) {
		if err := w.accountExists(a.Account); err != nil {
			return nil, err
		}
		var mu, sigma float64
		err := w.rowSQL("SELECT mu, sigma FROM puzzles WHERE id = ?", a.Puzzle).Scan(&mu, &sigma)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("sqlite: puzzle %q: %w", a.Puzzle, store.ErrNotFound)
		}
		if err != nil {
			return nil, err
		}
		var n int
		if err := w.rowSQL("SELECT count(*) FROM puzzle_attempts WHERE puzzle_id = ? AND account_id = ?", a.Puzzle, a.Account).Scan(&n); err != nil {
			return nil, err
		}
		if n > 0 {
			return nil, fmt.Errorf("sqlite: puzzle %q by %q: %w", a.Puzzle, a.Account, store.ErrAnswered)
		}
		if mu != a.PuzzleBefore.Mu || sigma != a.PuzzleBefore.Sigma {
			return nil, fmt.Errorf("sqlite: puzzle %q: %w: its rating changed", a.Puzzle, store.ErrConflict)
		}
		solved := 0
		if a.Correct {
			solved = 1
		}
		res, err := w.execSQL(`UPDATE puzzle_solvers SET mu = ?, sigma = ?, attempts = attempts + 1, solved = solved + ?
			WHERE account_id = ? AND mu = ? AND sigma = ?`,
			a.SolverAfter.Mu, a.SolverAfter.Sigma, solved, a.Account, a.SolverBefore.Mu, a.SolverBefore.Sigma)
		if err != nil {
			return nil, err
		}
		if changed, _ := res.RowsAffected(); changed == 0 {
			// A new solver's first answer: before is a new rating.
			if err := w.rowSQL("SELECT count(*) FROM puzzle_solvers WHERE account_id = ?", a.Account).Scan(&n); err != nil {
				return nil, err
			}
			if n > 0 {
				return nil, fmt.Errorf("sqlite: puzzle solver %q: %w: their rating changed", a.Account, store.ErrConflict)
			}
			if _, err := w.execSQL("INSERT INTO puzzle_solvers (account_id, mu, sigma, attempts, solved) VALUES (?, ?, ?, 1, ?)",
				a.Account, a.SolverAfter.Mu, a.SolverAfter.Sigma, solved); err != nil {
				return nil, err
			}
		}
		if _, err := w.execSQL("UPDATE puzzles SET mu = ?, sigma = ?, attempts = attempts + 1, solved = solved + ? WHERE id = ?",
			a.PuzzleAfter.Mu, a.PuzzleAfter.Sigma, solved, a.Puzzle); err != nil {
			return nil, err
		}
		_, err = w.execSQL(`INSERT INTO puzzle_attempts (puzzle_id, account_id, answer, correct, at, solver_mu, solver_sigma,
				solver_mu_after, solver_sigma_after, puzzle_mu, puzzle_sigma, puzzle_mu_after, puzzle_sigma_after)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			a.Puzzle, a.Account, a.Answer, a.Correct, a.At.UnixNano(), a.SolverBefore.Mu, a.SolverBefore.Sigma,
			a.SolverAfter.Mu, a.SolverAfter.Sigma, a.PuzzleBefore.Mu, a.PuzzleBefore.Sigma, a.PuzzleAfter.Mu, a.PuzzleAfter.Sigma)
		return nil, err
	})
}

// SeatLuck implements store.Puzzles.
func (s *Store) SeatLuck(ctx context.Context, account string, limit int) ([]store.SeatLuck, error) {
	if limit <= 0 {
		limit = -1
	}
	var out []store.SeatLuck
	err := s.read(ctx, "read the luck of "+account, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT l.game_id, l.seat, (SELECT count(*) FROM seats x WHERE x.game_id = g.id), `+updatedOf("g")+` AS updated,
				l.start, l.result, l.luck, l.skill, l.adjusted
			FROM seat_luck l JOIN seats s ON s.game_id = l.game_id AND s.idx = l.seat JOIN games g ON g.id = l.game_id
			WHERE s.account_id = ? ORDER BY updated DESC, g.id DESC LIMIT ?`, account, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var l store.SeatLuck
			var at int64
			if err := rows.Scan(&l.Game, &l.Seat, &l.Players, &at, &l.Start, &l.Result, &l.Luck, &l.Skill, &l.Adjusted); err != nil {
				return err
			}
			l.Finished = fromNanos(at)
			out = append(out, l)
		}
		return rows.Err()
	})
	return out, err
}
