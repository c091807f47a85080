package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/razziagame/razzia/internal/store"
)

var _ store.Puzzles = (*Store)(nil)

// ClaimPuzzleScan implements store.Puzzles, as ClaimAnalysis claims:
// workers claiming at once skip each other's rows.
func (s *Store) ClaimPuzzleScan(ctx context.Context, node string, ttl time.Duration) (string, error) {
	if err := store.CheckClaim(node, ttl); err != nil {
		return "", err
	}
	var id string
	err := s.tx(ctx, "claim a puzzle scan", func(tx pgx.Tx) error {
		for {
			err := tx.QueryRow(ctx, `
				SELECT g.id FROM games g JOIN analyses a ON a.game_id = g.id LEFT JOIN puzzle_scans p ON p.game_id = g.id
				WHERE g.status = 'finished' AND a.created IS NOT NULL
					AND (p.game_id IS NULL OR p.created IS NULL AND p.claim_expires <= clock_timestamp())
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
				INSERT INTO puzzle_scans (game_id, claim_node, claim_expires)
				VALUES ($1, $2, clock_timestamp() + $3 * interval '1 microsecond')
				ON CONFLICT (game_id) DO UPDATE SET claim_node = excluded.claim_node, claim_expires = excluded.claim_expires
				WHERE puzzle_scans.created IS NULL AND puzzle_scans.claim_expires <= clock_timestamp()`,
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

// PutPuzzleScan implements store.Puzzles.
func (s *Store) PutPuzzleScan(ctx context.Context, id string, scan store.PuzzleScan) error {
	if err := scan.Check(id); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return s.tx(ctx, "store the puzzles of game "+id, func(tx pgx.Tx) error {
		if err := finished(ctx, tx, id); err != nil {
			return err
		}
		for _, p := range scan.Puzzles {
			if _, err := tx.Exec(ctx, `INSERT INTO puzzles (id, game_id, move, seat, themes, best, margin, eval, mu, sigma, created)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, `+nowNanos+`) ON CONFLICT (id) DO NOTHING`,
				p.ID, id, p.Move, p.Seat, store.JoinThemes(p.Themes), p.Best, p.Margin, p.Eval, p.Rating.Mu, p.Rating.Sigma); err != nil {
				return err
			}
		}
		if err := seatLuck(ctx, tx, id, scan.Luck); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO puzzle_scans (game_id, created) VALUES ($1, `+nowNanos+`)
			ON CONFLICT (game_id) DO UPDATE SET created = excluded.created, claim_node = NULL, claim_expires = NULL`, id)
		return err
	})
}

// finished refuses a game that is not there or not finished (and keeps
// it so until the transaction ends): only a finished game has puzzles and
// luck.
func finished(ctx context.Context, tx pgx.Tx, id string) error {
	var status string
	err := tx.QueryRow(ctx, "SELECT status FROM games WHERE id = $1 FOR SHARE", id).Scan(&status)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("postgres: game %q: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return err
	}
	if store.Status(status) != store.StatusFinished {
		return fmt.Errorf("postgres: game %q is %s: %w: only a finished game has puzzles and luck", id, status, store.ErrConflict)
	}
	return nil
}

// seatLuck stores the luck of game id's seats.
func seatLuck(ctx context.Context, tx pgx.Tx, id string, luck []store.SeatLuck) error {
	for _, l := range luck {
		if _, err := tx.Exec(ctx, `INSERT INTO seat_luck (game_id, seat, start, result, luck, skill, adjusted) VALUES ($1, $2, $3, $4, $5, $6, $7)
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
		return fmt.Errorf("postgres: %w", err)
	}
	return s.tx(ctx, "store the luck of game "+id, func(tx pgx.Tx) error {
		if err := finished(ctx, tx, id); err != nil {
			return err
		}
		return seatLuck(ctx, tx, id, luck)
	})
}

// PuzzleScanned implements store.Puzzles.
func (s *Store) PuzzleScanned(ctx context.Context, id string) (bool, error) {
	var created *int64
	err := s.pool.QueryRow(ctx, `SELECT p.created FROM games g LEFT JOIN puzzle_scans p ON p.game_id = g.id WHERE g.id = $1`, id).Scan(&created)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return false, fmt.Errorf("postgres: game %q: %w", id, store.ErrNotFound)
	case err != nil:
		return false, s.fail("read the puzzle scan of game "+id, err)
	}
	return created != nil, nil
}

const puzzleColumns = `id, game_id, move, seat, themes, best, margin, eval, mu, sigma, attempts, solved, created`

// puzzles reads the puzzles of query.
func (s *Store) puzzles(ctx context.Context, op, query string, args ...any) ([]*store.Puzzle, error) {
	rows, err := s.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, s.fail(op, err)
	}
	defer rows.Close()
	var out []*store.Puzzle
	for rows.Next() {
		var (
			p       store.Puzzle
			themes  string
			created int64
		)
		if err := rows.Scan(&p.ID, &p.Game, &p.Move, &p.Seat, &themes, &p.Best, &p.Margin, &p.Eval, &p.Rating.Mu, &p.Rating.Sigma,
			&p.Rating.Games, &p.Solved, &created); err != nil {
			return nil, s.fail(op, err)
		}
		p.Themes, p.Created = store.SplitThemes(themes), fromNanos(created)
		out = append(out, &p)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail(op, err)
	}
	return out, nil
}

// one returns the only puzzle of ps, or ErrNotFound.
func one(ps []*store.Puzzle, err error, what string) (*store.Puzzle, error) {
	switch {
	case err != nil:
		return nil, err
	case len(ps) == 0:
		return nil, fmt.Errorf("postgres: %s: %w", what, store.ErrNotFound)
	}
	return ps[0], nil
}

// Puzzle implements store.Puzzles.
func (s *Store) Puzzle(ctx context.Context, id string) (*store.Puzzle, error) {
	ps, err := s.puzzles(ctx, "read puzzle "+id, "SELECT "+puzzleColumns+" FROM puzzles WHERE id = $1", id)
	return one(ps, err, fmt.Sprintf("puzzle %q", id))
}

// GamePuzzles implements store.Puzzles.
func (s *Store) GamePuzzles(ctx context.Context, id string) ([]*store.Puzzle, error) {
	return s.puzzles(ctx, "read the puzzles of game "+id, "SELECT "+puzzleColumns+" FROM puzzles WHERE game_id = $1 ORDER BY move", id)
}

// NextPuzzle implements store.Puzzles.
func (s *Store) NextPuzzle(ctx context.Context, q store.PuzzleQuery) (*store.Puzzle, error) {
	if len(q.Skip) > store.MaxSkip {
		q.Skip = q.Skip[:store.MaxSkip]
	}
	skip := q.Skip
	if skip == nil {
		skip = []string{}
	}
	// The nearest above and the nearest below, each found along the
	// index on mu, then the nearer of the two: no scan of every puzzle.
	const filters = `NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.puzzle_id = p.id AND a.account_id = $1)
			AND ($2 = '' OR p.themes LIKE '%,' || $2 || ',%') AND NOT (p.id = ANY($3))`
	ps, err := s.puzzles(ctx, "find a puzzle", `SELECT `+puzzleColumns+` FROM (
			(SELECT `+puzzleColumns+` FROM puzzles p WHERE p.mu >= $4 AND `+filters+` ORDER BY p.mu, p.id LIMIT 1)
			UNION ALL
			(SELECT `+puzzleColumns+` FROM puzzles p WHERE p.mu < $4 AND `+filters+` ORDER BY p.mu DESC, p.id LIMIT 1)
		) nearest ORDER BY abs(mu - $4), id LIMIT 1`, q.Account, q.Theme, skip, q.Mu)
	return one(ps, err, "a puzzle to solve")
}

// DailyPuzzle implements store.Puzzles.
func (s *Store) DailyPuzzle(ctx context.Context, day string) (*store.Puzzle, error) {
	const read = "SELECT " + puzzleColumns + " FROM puzzles WHERE daily = $1"
	ps, err := s.puzzles(ctx, "read the puzzle of "+day, read, day)
	if err != nil || len(ps) > 0 {
		return one(ps, err, "")
	}
	err = s.tx(ctx, "pick the puzzle of "+day, func(tx pgx.Tx) error {
		// One picker a day at a time, on every node.
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtext('razzia daily puzzle'))"); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE puzzles SET daily = $1 WHERE id = (SELECT id FROM puzzles WHERE daily IS NULL ORDER BY margin DESC, id LIMIT 1)
			AND NOT EXISTS (SELECT 1 FROM puzzles WHERE daily = $1)`, day)
		return err
	})
	if err != nil {
		return nil, err
	}
	ps, err = s.puzzles(ctx, "read the puzzle of "+day, read, day)
	return one(ps, err, "the puzzle of "+day)
}

// PuzzleThemes implements store.Puzzles.
func (s *Store) PuzzleThemes(ctx context.Context) (map[string]int, error) {
	rows, err := s.pool.Query(ctx, "SELECT themes, count(*) FROM puzzles GROUP BY themes")
	if err != nil {
		return nil, s.fail("count the puzzles", err)
	}
	defer rows.Close()
	counts := map[string]int{}
	for rows.Next() {
		var themes string
		var n int
		if err := rows.Scan(&themes, &n); err != nil {
			return nil, s.fail("count the puzzles", err)
		}
		counts[""] += n
		for _, t := range store.SplitThemes(themes) {
			counts[t] += n
		}
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("count the puzzles", err)
	}
	return counts, nil
}

// PuzzleSolver implements store.Puzzles.
func (s *Store) PuzzleSolver(ctx context.Context, account string) (store.Solver, error) {
	var v store.Solver
	err := s.pool.QueryRow(ctx, "SELECT mu, sigma, attempts, solved FROM puzzle_solvers WHERE account_id = $1", account).
		Scan(&v.Rating.Mu, &v.Rating.Sigma, &v.Rating.Games, &v.Solved)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return v, fmt.Errorf("postgres: puzzle solver %q: %w", account, store.ErrNotFound)
	case err != nil:
		return v, s.fail("read the puzzle rating of "+account, err)
	}
	return v, nil
}

const attemptColumns = `puzzle_id, answer, correct, at, solver_mu, solver_sigma, solver_mu_after, solver_sigma_after,
	puzzle_mu, puzzle_sigma, puzzle_mu_after, puzzle_sigma_after`

func scanAttempt(r pgx.Row, account string) (*store.PuzzleAttempt, error) {
	a := store.PuzzleAttempt{Account: account}
	var at int64
	err := r.Scan(&a.Puzzle, &a.Answer, &a.Correct, &at, &a.SolverBefore.Mu, &a.SolverBefore.Sigma, &a.SolverAfter.Mu, &a.SolverAfter.Sigma,
		&a.PuzzleBefore.Mu, &a.PuzzleBefore.Sigma, &a.PuzzleAfter.Mu, &a.PuzzleAfter.Sigma)
	a.At = fromNanos(at)
	return &a, err
}

// PuzzleAttempt implements store.Puzzles.
func (s *Store) PuzzleAttempt(ctx context.Context, id, account string) (*store.PuzzleAttempt, error) {
	a, err := scanAttempt(s.pool.QueryRow(ctx, "SELECT "+attemptColumns+" FROM puzzle_attempts WHERE puzzle_id = $1 AND account_id = $2", id, account), account)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, fmt.Errorf("postgres: an answer to puzzle %q: %w", id, store.ErrNotFound)
	case err != nil:
		return nil, s.fail("read an answer to puzzle "+id, err)
	}
	return a, nil
}

// PuzzleAttempts implements store.Puzzles.
func (s *Store) PuzzleAttempts(ctx context.Context, account string, limit int) ([]*store.PuzzleAttempt, error) {
	var lim any
	if limit > 0 {
		lim = limit
	}
	rows, err := s.pool.Query(ctx, "SELECT "+attemptColumns+" FROM puzzle_attempts WHERE account_id = $1 ORDER BY at DESC, puzzle_id DESC LIMIT $2", account, lim)
	if err != nil {
		return nil, s.fail("read the puzzle answers of "+account, err)
	}
	defer rows.Close()
	var out []*store.PuzzleAttempt
	for rows.Next() {
		a, err := scanAttempt(rows, account)
		if err != nil {
			return nil, s.fail("read the puzzle answers of "+account, err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("read the puzzle answers of "+account, err)
	}
	return out, nil
}

// AnswerPuzzle implements store.Puzzles. The puzzle's row and the
// solver's are locked, so that answers at once are rated one after the
// other.
func (s *Store) AnswerPuzzle(ctx context.Context, a store.PuzzleAttempt) error {
	if err := a.Check(); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return s.tx(ctx, "store an answer to puzzle "+a.Puzzle, func(tx pgx.Tx) error {
		var one int
		err := tx.QueryRow(ctx, "SELECT 1 FROM accounts WHERE id = $1 FOR SHARE", a.Account).Scan(&one)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("postgres: account %q: %w", a.Account, store.ErrNoAccount)
		}
		if err != nil {
			return err
		}
		var mu, sigma float64
		err = tx.QueryRow(ctx, "SELECT mu, sigma FROM puzzles WHERE id = $1 FOR UPDATE", a.Puzzle).Scan(&mu, &sigma)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("postgres: puzzle %q: %w", a.Puzzle, store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO puzzle_attempts (puzzle_id, account_id, answer, correct, at, solver_mu, solver_sigma,
				solver_mu_after, solver_sigma_after, puzzle_mu, puzzle_sigma, puzzle_mu_after, puzzle_sigma_after)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT DO NOTHING`,
			a.Puzzle, a.Account, a.Answer, a.Correct, a.At.UnixNano(), a.SolverBefore.Mu, a.SolverBefore.Sigma,
			a.SolverAfter.Mu, a.SolverAfter.Sigma, a.PuzzleBefore.Mu, a.PuzzleBefore.Sigma, a.PuzzleAfter.Mu, a.PuzzleAfter.Sigma)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("postgres: puzzle %q by %q: %w", a.Puzzle, a.Account, store.ErrAnswered)
		}
		if mu != a.PuzzleBefore.Mu || sigma != a.PuzzleBefore.Sigma {
			return fmt.Errorf("postgres: puzzle %q: %w: its rating changed", a.Puzzle, store.ErrConflict)
		}
		solved := 0
		if a.Correct {
			solved = 1
		}
		var smu, ssigma float64
		err = tx.QueryRow(ctx, "SELECT mu, sigma FROM puzzle_solvers WHERE account_id = $1 FOR UPDATE", a.Account).Scan(&smu, &ssigma)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			// A new solver's first answer. Another first answer at once
			// is a unique violation: a conflict.
			_, err = tx.Exec(ctx, "INSERT INTO puzzle_solvers (account_id, mu, sigma, attempts, solved) VALUES ($1, $2, $3, 1, $4)",
				a.Account, a.SolverAfter.Mu, a.SolverAfter.Sigma, solved)
		case err != nil:
		case smu != a.SolverBefore.Mu || ssigma != a.SolverBefore.Sigma:
			return fmt.Errorf("postgres: puzzle solver %q: %w: their rating changed", a.Account, store.ErrConflict)
		default:
			_, err = tx.Exec(ctx, "UPDATE puzzle_solvers SET mu = $1, sigma = $2, attempts = attempts + 1, solved = solved + $3 WHERE account_id = $4",
				a.SolverAfter.Mu, a.SolverAfter.Sigma, solved, a.Account)
		}
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "UPDATE puzzles SET mu = $1, sigma = $2, attempts = attempts + 1, solved = solved + $3 WHERE id = $4",
			a.PuzzleAfter.Mu, a.PuzzleAfter.Sigma, solved, a.Puzzle)
		return err
	})
}

// SeatLuck implements store.Puzzles.
func (s *Store) SeatLuck(ctx context.Context, account string, limit int) ([]store.SeatLuck, error) {
	var lim any
	if limit > 0 {
		lim = limit
	}
	rows, err := s.pool.Query(ctx, `SELECT l.game_id, l.seat, (SELECT count(*) FROM seats x WHERE x.game_id = g.id), `+updatedOf("g")+` AS updated,
			l.start, l.result, l.luck, l.skill, l.adjusted
		FROM seat_luck l JOIN seats s ON s.game_id = l.game_id AND s.idx = l.seat JOIN games g ON g.id = l.game_id
		WHERE s.account_id = $1 ORDER BY updated DESC, g.id DESC LIMIT $2`, account, lim)
	if err != nil {
		return nil, s.fail("read the luck of "+account, err)
	}
	defer rows.Close()
	var out []store.SeatLuck
	for rows.Next() {
		var l store.SeatLuck
		var at int64
		if err := rows.Scan(&l.Game, &l.Seat, &l.Players, &at, &l.Start, &l.Result, &l.Luck, &l.Skill, &l.Adjusted); err != nil {
			return nil, s.fail("read the luck of "+account, err)
		}
		l.Finished = fromNanos(at)
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("read the luck of "+account, err)
	}
	return out, nil
}
