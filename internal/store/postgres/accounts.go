package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/razziagame/razzia/internal/store"
)

// noOtherSeat reports ErrConflict if account (unless "") holds a seat of
// game id, whose row the transaction has locked.
func noOtherSeat(ctx context.Context, tx pgx.Tx, id, account string) error {
	if account == "" {
		return nil
	}
	var n int
	if err := tx.QueryRow(ctx, "SELECT count(*) FROM seats WHERE game_id = $1 AND account_id = $2", id, account).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("postgres: game %q: %w: the account holds another seat", id, store.ErrConflict)
	}
	return nil
}

// lockAccount locks the account's row for the transaction, or reports
// ErrNoAccount.
func lockAccount(ctx context.Context, tx pgx.Tx, id string) error {
	var one int
	err := tx.QueryRow(ctx, "SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", id).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("postgres: account %q: %w", id, store.ErrNoAccount)
	}
	return err
}

// CreateAccount implements store.Accounts.
func (s *Store) CreateAccount(ctx context.Context, a *store.Account) error {
	if err := store.CheckAccount(a); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	created := a.Created
	if created.IsZero() {
		created = time.Now().Round(0)
	}
	err := s.tx(ctx, "create account "+a.ID, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO accounts (id, name, name_key, password, handle, seat_key, created, mu, sigma, rated_games)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
			a.ID, a.Name, a.Key, a.Password, a.Handle, a.SeatKey, created.UnixNano(), a.Rating.Mu, a.Rating.Sigma, a.Rating.Games)
		if err != nil {
			return err
		}
		if tag.RowsAffected() > 0 {
			return nil
		}
		var taken bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM accounts WHERE name_key = $1)", a.Key).Scan(&taken); err != nil {
			return err
		}
		if taken {
			return fmt.Errorf("postgres: account %q: %w", a.Name, store.ErrNameTaken)
		}
		return fmt.Errorf("postgres: account %q: %w: the id or handle exists", a.ID, store.ErrConflict)
	})
	if err == nil {
		a.Created = created
	}
	return err
}

const accountColumns = "id, name, name_key, password, handle, seat_key, created, mu, sigma, rated_games"

func scanAccount(row pgx.Row) (*store.Account, error) {
	var (
		a       store.Account
		created int64
	)
	err := row.Scan(&a.ID, &a.Name, &a.Key, &a.Password, &a.Handle, &a.SeatKey, &created, &a.Rating.Mu, &a.Rating.Sigma, &a.Rating.Games)
	a.Created = fromNanos(created)
	return &a, err
}

func (s *Store) accountWhere(ctx context.Context, what, where string, arg any) (*store.Account, error) {
	a, err := scanAccount(s.pool.QueryRow(ctx, "SELECT "+accountColumns+" FROM accounts WHERE "+where, arg))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("postgres: %s: %w", what, store.ErrNoAccount)
	}
	if err != nil {
		return nil, s.fail("read "+what, err)
	}
	return a, nil
}

// Account implements store.Accounts.
func (s *Store) Account(ctx context.Context, id string) (*store.Account, error) {
	return s.accountWhere(ctx, "account "+id, "id = $1", id)
}

// AccountByKey implements store.Accounts.
func (s *Store) AccountByKey(ctx context.Context, key string) (*store.Account, error) {
	return s.accountWhere(ctx, "account named "+key, "name_key = $1", key)
}

// AccountByHandle implements store.Accounts.
func (s *Store) AccountByHandle(ctx context.Context, handle []byte) (*store.Account, error) {
	return s.accountWhere(ctx, "account by handle", "handle = $1", handle)
}

// exec runs one statement in its own transaction and reports ErrNoAccount
// (naming what) when it changed no row and must have.
func (s *Store) exec(ctx context.Context, op, what string, must bool, query string, args ...any) error {
	tag, err := s.pool.Exec(ctx, query, args...)
	if err != nil {
		return s.fail(op, err)
	}
	if must && tag.RowsAffected() == 0 {
		return fmt.Errorf("postgres: %s: %w", what, store.ErrNoAccount)
	}
	return nil
}

// SetPassword implements store.Accounts.
func (s *Store) SetPassword(ctx context.Context, id, hash string) error {
	return s.exec(ctx, "set the password of "+id, "account "+id, true, "UPDATE accounts SET password = $1 WHERE id = $2", hash, id)
}

// DeleteAccount implements store.Accounts.
func (s *Store) DeleteAccount(ctx context.Context, id string, renamed func(seat int) string) ([]string, error) {
	var games []string
	err := s.tx(ctx, "delete account "+id, func(tx pgx.Tx) error {
		games = nil
		if err := lockAccount(ctx, tx, id); err != nil {
			return err
		}
		type ref struct {
			game string
			seat int
		}
		read := func(query string) ([]ref, error) {
			rows, err := tx.Query(ctx, query, id)
			if err != nil {
				return nil, err
			}
			var (
				refs []ref
				r    ref
			)
			_, err = pgx.ForEachRow(rows, []any{&r.game, &r.seat}, func() error { refs = append(refs, r); return nil })
			return refs, err
		}
		seats, err := read("SELECT game_id, idx FROM seats WHERE account_id = $1 ORDER BY game_id")
		if err != nil {
			return err
		}
		for _, r := range seats {
			var (
				c  = store.Change{Game: r.game, Kind: store.ChangeSeat}
				st string
			)
			if err := tx.QueryRow(ctx, "UPDATE games SET updated = "+nextUpdated("games", "$2")+" WHERE id = $1 RETURNING status, "+movesOf("games"),
				r.game, s.now().UnixNano()).Scan(&st, &c.Moves); err != nil {
				return err
			}
			c.Status = store.Status(st)
			if _, err := tx.Exec(ctx, "UPDATE seats SET name = $1, account_id = NULL WHERE game_id = $2 AND idx = $3", renamed(r.seat), r.game, r.seat); err != nil {
				return err
			}
			if err := notify(ctx, tx, c); err != nil {
				return err
			}
			games = append(games, r.game)
		}
		results, err := read("SELECT game_id, idx FROM results WHERE account_id = $1")
		if err != nil {
			return err
		}
		for _, r := range results {
			if _, err := tx.Exec(ctx, "UPDATE results SET name = $1, account_id = NULL WHERE game_id = $2 AND idx = $3", renamed(r.seat), r.game, r.seat); err != nil {
				return err
			}
		}
		for _, q := range []string{"DELETE FROM challenges WHERE account_id = $1", "DELETE FROM accounts WHERE id = $1"} {
			if _, err := tx.Exec(ctx, q, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return games, nil
}

// CreateSession implements store.Accounts.
func (s *Store) CreateSession(ctx context.Context, se store.Session) error {
	return s.tx(ctx, "create a session", func(tx pgx.Tx) error {
		if err := lockAccount(ctx, tx, se.Account); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "INSERT INTO sessions (hash, account_id, created, expires) VALUES ($1, $2, $3, $4)",
			se.Hash, se.Account, se.Created.UnixNano(), se.Expires.UnixNano())
		return err
	})
}

// Session implements store.Accounts.
func (s *Store) Session(ctx context.Context, hash []byte, now time.Time) (store.Session, *store.Account, error) {
	se := store.Session{Hash: hash}
	var created, expires int64
	row := s.pool.QueryRow(ctx, `SELECT s.account_id, s.created, s.expires, `+prefixed("a.", accountColumns)+`
		FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.hash = $1`, hash)
	var (
		a   store.Account
		ac  int64
		err = row.Scan(&se.Account, &created, &expires,
			&a.ID, &a.Name, &a.Key, &a.Password, &a.Handle, &a.SeatKey, &ac, &a.Rating.Mu, &a.Rating.Sigma, &a.Rating.Games)
	)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Session{}, nil, fmt.Errorf("postgres: session: %w", store.ErrNoAccount)
	}
	if err != nil {
		return store.Session{}, nil, s.fail("read a session", err)
	}
	se.Created, se.Expires, a.Created = fromNanos(created), fromNanos(expires), fromNanos(ac)
	if !now.Before(se.Expires) {
		if err := s.DeleteSession(ctx, hash); err != nil {
			return store.Session{}, nil, err
		}
		return store.Session{}, nil, fmt.Errorf("postgres: session expired: %w", store.ErrNoAccount)
	}
	return se, &a, nil
}

// prefixed puts p before each of the comma-separated columns.
func prefixed(p, columns string) string {
	out := p
	for _, c := range columns {
		out += string(c)
		if c == ' ' {
			out += p
		}
	}
	return out
}

// DeleteSession implements store.Accounts.
func (s *Store) DeleteSession(ctx context.Context, hash []byte) error {
	return s.exec(ctx, "delete a session", "session", false, "DELETE FROM sessions WHERE hash = $1", hash)
}

// DeleteSessions implements store.Accounts.
func (s *Store) DeleteSessions(ctx context.Context, account string, keep []byte) error {
	return s.exec(ctx, "delete the sessions of "+account, "", false,
		"DELETE FROM sessions WHERE account_id = $1 AND hash IS DISTINCT FROM $2", account, keep)
}

// AddPasskey implements store.Accounts.
func (s *Store) AddPasskey(ctx context.Context, p store.Passkey) error {
	return s.tx(ctx, "add a passkey", func(tx pgx.Tx) error {
		if err := lockAccount(ctx, tx, p.Account); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "INSERT INTO passkeys (id, account_id, name, credential, created) VALUES ($1, $2, $3, $4, $5)",
			p.ID, p.Account, p.Name, p.Credential, p.Created.UnixNano())
		return err
	})
}

// Passkeys implements store.Accounts.
func (s *Store) Passkeys(ctx context.Context, account string) ([]store.Passkey, error) {
	rows, err := s.pool.Query(ctx, "SELECT id, name, credential, created, used FROM passkeys WHERE account_id = $1 ORDER BY created, id", account)
	if err != nil {
		return nil, s.fail("read the passkeys of "+account, err)
	}
	var (
		out     []store.Passkey
		p       store.Passkey
		created int64
		used    *int64
	)
	_, err = pgx.ForEachRow(rows, []any{&p.ID, &p.Name, &p.Credential, &created, &used}, func() error {
		p.Account, p.Created = account, fromNanos(created)
		if used != nil {
			p.Used = fromNanos(*used)
		}
		out = append(out, p)
		p = store.Passkey{}
		return nil
	})
	if err != nil {
		return nil, s.fail("read the passkeys of "+account, err)
	}
	return out, nil
}

// UsePasskey implements store.Accounts.
func (s *Store) UsePasskey(ctx context.Context, id, credential []byte, used time.Time) error {
	return s.exec(ctx, "use a passkey", "passkey", true, "UPDATE passkeys SET credential = $1, used = $2 WHERE id = $3", credential, used.UnixNano(), id)
}

// DeletePasskey implements store.Accounts.
func (s *Store) DeletePasskey(ctx context.Context, account string, id []byte) error {
	return s.exec(ctx, "delete a passkey", "passkey", true, "DELETE FROM passkeys WHERE account_id = $1 AND id = $2", account, id)
}

// PutChallenge implements store.Accounts.
func (s *Store) PutChallenge(ctx context.Context, c store.Challenge) error {
	return s.exec(ctx, "store a challenge", "", false, "INSERT INTO challenges (hash, account_id, data, expires) VALUES ($1, $2, $3, $4)",
		c.Hash, c.Account, c.Data, c.Expires.UnixNano())
}

// TakeChallenge implements store.Accounts.
func (s *Store) TakeChallenge(ctx context.Context, hash []byte, now time.Time) (store.Challenge, error) {
	c := store.Challenge{Hash: hash}
	var expires int64
	err := s.pool.QueryRow(ctx, "DELETE FROM challenges WHERE hash = $1 RETURNING account_id, data, expires", hash).Scan(&c.Account, &c.Data, &expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Challenge{}, fmt.Errorf("postgres: challenge: %w", store.ErrNoAccount)
	}
	if err != nil {
		return store.Challenge{}, s.fail("take a challenge", err)
	}
	c.Expires = fromNanos(expires)
	if !now.Before(c.Expires) {
		return store.Challenge{}, fmt.Errorf("postgres: challenge expired: %w", store.ErrNoAccount)
	}
	return c, nil
}

// Purge implements store.Accounts.
func (s *Store) Purge(ctx context.Context, now time.Time) error {
	return s.tx(ctx, "purge sessions and challenges", func(tx pgx.Tx) error {
		for _, q := range []string{"DELETE FROM sessions WHERE expires <= $1", "DELETE FROM challenges WHERE expires <= $1"} {
			if _, err := tx.Exec(ctx, q, now.UnixNano()); err != nil {
				return err
			}
		}
		return nil
	})
}

// ClaimSeats implements store.Accounts.
func (s *Store) ClaimSeats(ctx context.Context, account string, claims []store.Claim) ([]string, error) {
	var games []string
	err := s.tx(ctx, "claim seats for "+account, func(tx pgx.Tx) error {
		games = nil
		if err := lockAccount(ctx, tx, account); err != nil {
			return err
		}
		for _, c := range claims {
			row, err := lockGame(ctx, tx, c.Game)
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			var held bool
			if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM seats WHERE game_id = $1 AND account_id = $2)", c.Game, account).Scan(&held); err != nil {
				return err
			}
			if held {
				continue
			}
			tag, err := tx.Exec(ctx, `UPDATE seats SET account_id = $1, token_hash = $2
				WHERE game_id = $3 AND token_hash = $4 AND account_id IS NULL AND bot = ''
				AND idx = (SELECT min(idx) FROM seats WHERE game_id = $3 AND token_hash = $4)`,
				account, c.NewHash, c.Game, c.OldHash)
			if err != nil {
				return err
			}
			if tag.RowsAffected() == 0 {
				continue
			}
			// A game that is over keeps its date (its result's and its
			// record's): it moves on by a nanosecond, enough to be news.
			if _, err := tx.Exec(ctx, "UPDATE games SET updated = CASE WHEN status IN ('finished', 'archived') THEN updated + 1 "+
				"ELSE "+nextUpdated("games", "$2")+" END WHERE id = $1", c.Game, s.now().UnixNano()); err != nil {
				return err
			}
			if err := notify(ctx, tx, store.Change{Game: c.Game, Kind: store.ChangeSeat, Moves: row.moves, Status: row.status}); err != nil {
				return err
			}
			games = append(games, c.Game)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return games, nil
}

// AccountGames implements store.Accounts.
func (s *Store) AccountGames(ctx context.Context, account string, limit int, statuses ...store.Status) ([]store.Summary, error) {
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	var sts []string // NULL: every status
	for _, st := range statuses {
		sts = append(sts, string(st))
	}
	rows, err := s.pool.Query(ctx, `
		SELECT `+summaryColumns+`
		FROM (SELECT `+gameColumns("games")+` FROM games JOIN seats mine ON mine.game_id = games.id AND mine.account_id = $1
			WHERE $2::text[] IS NULL OR games.status = ANY ($2)
			ORDER BY updated DESC, games.id LIMIT $3) g
		LEFT JOIN seats s ON s.game_id = g.id
		GROUP BY g.id, g.status, g.created, g.updated, g.move_count, g.rated
		ORDER BY g.updated DESC, g.id`, account, sts, lim)
	if err != nil {
		return nil, s.fail("list the games of "+account, err)
	}
	sums, err := summaries(rows)
	if err != nil {
		return nil, s.fail("list the games of "+account, err)
	}
	return sums, nil
}

// AddResult implements store.Accounts.
func (s *Store) AddResult(ctx context.Context, r store.Result) error {
	if err := store.CheckResult(r); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return s.tx(ctx, "store the result of "+r.Game, func(tx pgx.Tx) error {
		for _, st := range r.Seats {
			scores, err := json.Marshal(st.Scores)
			if err != nil {
				return err
			}
			var before, after [3]any
			if st.After != nil {
				before = [3]any{st.Before.Mu, st.Before.Sigma, st.Before.Games}
				after = [3]any{st.After.Mu, st.After.Sigma, st.After.Games}
			}
			tag, err := tx.Exec(ctx, `INSERT INTO results (game_id, idx, account_id, bot, name, players, rated, finished, rank, score, scores,
				mu_before, sigma_before, games_before, mu, sigma, games)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) ON CONFLICT DO NOTHING`,
				r.Game, st.Seat, orNil(st.Account), st.Bot, st.Name, r.Players, r.Rated, r.Finished.UnixNano(), st.Rank, st.Score, string(scores),
				before[0], before[1], before[2], after[0], after[1], after[2])
			if err != nil {
				return err
			}
			if tag.RowsAffected() == 0 {
				return fmt.Errorf("postgres: game %q: %w", r.Game, store.ErrRated)
			}
		}
		for _, st := range r.Seats {
			if st.After == nil {
				continue
			}
			b := st.Before
			tag, err := tx.Exec(ctx, `UPDATE accounts SET mu = $1, sigma = $2, rated_games = $3
				WHERE id = $4 AND mu = $5 AND sigma = $6 AND rated_games = $7`,
				st.After.Mu, st.After.Sigma, st.After.Games, st.Account, b.Mu, b.Sigma, b.Games)
			if err != nil {
				return err
			}
			if tag.RowsAffected() == 0 {
				return fmt.Errorf("postgres: account %q: %w: its rating changed", st.Account, store.ErrConflict)
			}
		}
		return nil
	})
}

// Results implements store.Accounts.
func (s *Store) Results(ctx context.Context, account string, limit int) ([]store.Result, error) {
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	rows, err := s.pool.Query(ctx, `SELECT r.game_id, r.idx, coalesce(r.account_id, ''), r.bot, r.name, r.players, r.rated, r.finished,
			r.rank, r.score, r.scores, r.mu_before, r.sigma_before, r.games_before, r.mu, r.sigma, r.games
		FROM results r JOIN (SELECT game_id, finished FROM results WHERE account_id = $1 ORDER BY finished DESC, game_id DESC LIMIT $2) g
			ON g.game_id = r.game_id
		ORDER BY g.finished DESC, g.game_id DESC, r.idx`, account, lim)
	if err != nil {
		return nil, s.fail("read the results of "+account, err)
	}
	var (
		out              []store.Result
		r                store.Result
		st               store.SeatResult
		finished         int64
		scores           string
		mub, sgb, mu, sg *float64
		gamesb, games    *int
	)
	_, err = pgx.ForEachRow(rows, []any{&r.Game, &st.Seat, &st.Account, &st.Bot, &st.Name, &r.Players, &r.Rated, &finished,
		&st.Rank, &st.Score, &scores, &mub, &sgb, &gamesb, &mu, &sg, &games}, func() error {
		if err := json.Unmarshal([]byte(scores), &st.Scores); err != nil {
			return s.errorf("%w: result of game %q: scores: %v", store.ErrCorrupt, r.Game, err)
		}
		if mu != nil && mub != nil && sg != nil && sgb != nil && games != nil && gamesb != nil {
			st.Before = &store.Rating{Mu: *mub, Sigma: *sgb, Games: *gamesb}
			st.After = &store.Rating{Mu: *mu, Sigma: *sg, Games: *games}
		}
		if n := len(out); n == 0 || out[n-1].Game != r.Game {
			r.Finished = fromNanos(finished)
			out = append(out, r)
		}
		last := &out[len(out)-1]
		last.Seats = append(last.Seats, st)
		st = store.SeatResult{}
		return nil
	})
	if err != nil {
		if errors.Is(err, store.ErrCorrupt) {
			return nil, err
		}
		return nil, s.fail("read the results of "+account, err)
	}
	return out, nil
}

// Leaderboard implements store.Accounts.
func (s *Store) Leaderboard(ctx context.Context, minGames, limit int) ([]store.Account, error) {
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	rows, err := s.pool.Query(ctx, "SELECT "+accountColumns+` FROM accounts WHERE rated_games >= $1
		ORDER BY mu - 3 * sigma DESC, name_key LIMIT $2`, minGames, lim)
	if err != nil {
		return nil, s.fail("read the leaderboard", err)
	}
	var out []store.Account
	for rows.Next() {
		a, err := scanAccount(rows)
		if err != nil {
			rows.Close()
			return nil, s.fail("read the leaderboard", err)
		}
		out = append(out, *a)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("read the leaderboard", err)
	}
	return out, nil
}
