package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// The accounts part of the store: rare writes next to the moves, so its
// statements are not prepared ahead.

func (w *wtx) execSQL(query string, args ...any) (sql.Result, error) {
	return w.tx.ExecContext(w.ctx, query, args...)
}

func (w *wtx) rowSQL(query string, args ...any) *sql.Row {
	return w.tx.QueryRowContext(w.ctx, query, args...)
}

// noOtherSeat reports ErrConflict if account (unless "") holds a seat of
// game id.
func (w *wtx) noOtherSeat(id, account string) error {
	if account == "" {
		return nil
	}
	var n int
	if err := w.rowSQL("SELECT count(*) FROM seats WHERE game_id = ? AND account_id = ?", id, account).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("sqlite: game %q: %w: the account holds another seat", id, store.ErrConflict)
	}
	return nil
}

// accountExists reports ErrNoAccount unless the account exists.
func (w *wtx) accountExists(id string) error {
	var n int
	if err := w.rowSQL("SELECT count(*) FROM accounts WHERE id = ?", id).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("sqlite: account %q: %w", id, store.ErrNoAccount)
	}
	return nil
}

// CreateAccount implements store.Accounts.
func (s *Store) CreateAccount(ctx context.Context, a *store.Account) error {
	if err := store.CheckAccount(a); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	created := a.Created
	if created.IsZero() {
		created = time.Now().Round(0)
	}
	err := s.write(ctx, "create account "+a.ID, func(w *wtx) (*store.Change, error) {
		var taken, dup int
		if err := w.rowSQL("SELECT count(*) FROM accounts WHERE name_key = ?", a.Key).Scan(&taken); err != nil {
			return nil, err
		}
		if taken > 0 {
			return nil, fmt.Errorf("sqlite: account %q: %w", a.Name, store.ErrNameTaken)
		}
		if err := w.rowSQL("SELECT count(*) FROM accounts WHERE id = ? OR handle = ?", a.ID, a.Handle).Scan(&dup); err != nil {
			return nil, err
		}
		if dup > 0 {
			return nil, fmt.Errorf("sqlite: account %q: %w: the id or handle exists", a.ID, store.ErrConflict)
		}
		_, err := w.execSQL(`INSERT INTO accounts (id, name, name_key, password, handle, seat_key, created, mu, sigma, rated_games)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			a.ID, a.Name, a.Key, a.Password, a.Handle, a.SeatKey, created.UnixNano(), a.Rating.Mu, a.Rating.Sigma, a.Rating.Games)
		return nil, err
	})
	if err == nil {
		a.Created = created
	}
	return err
}

const accountColumns = "id, name, name_key, password, handle, seat_key, created, mu, sigma, rated_games"

func scanAccount(row interface{ Scan(...any) error }) (*store.Account, error) {
	var (
		a       store.Account
		created int64
	)
	err := row.Scan(&a.ID, &a.Name, &a.Key, &a.Password, &a.Handle, &a.SeatKey, &created, &a.Rating.Mu, &a.Rating.Sigma, &a.Rating.Games)
	a.Created = fromNanos(created)
	return &a, err
}

func (s *Store) accountWhere(ctx context.Context, what, where string, arg any) (*store.Account, error) {
	var a *store.Account
	err := s.read(ctx, "read "+what, func(tx *sql.Tx) error {
		var err error
		a, err = scanAccount(tx.QueryRowContext(ctx, "SELECT "+accountColumns+" FROM accounts WHERE "+where, arg))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlite: %s: %w", what, store.ErrNoAccount)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// Account implements store.Accounts.
func (s *Store) Account(ctx context.Context, id string) (*store.Account, error) {
	return s.accountWhere(ctx, "account "+id, "id = ?", id)
}

// AccountByKey implements store.Accounts.
func (s *Store) AccountByKey(ctx context.Context, key string) (*store.Account, error) {
	return s.accountWhere(ctx, "account named "+key, "name_key = ?", key)
}

// AccountByHandle implements store.Accounts.
func (s *Store) AccountByHandle(ctx context.Context, handle []byte) (*store.Account, error) {
	return s.accountWhere(ctx, "account by handle", "handle = ?", handle)
}

// changed reports ErrNoAccount unless res changed a row.
func changed(res sql.Result, what string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("sqlite: %s: %w", what, store.ErrNoAccount)
	}
	return nil
}

// SetPassword implements store.Accounts.
func (s *Store) SetPassword(ctx context.Context, id, hash string) error {
	return s.write(ctx, "set the password of "+id, func(w *wtx) (*store.Change, error) {
		res, err := w.execSQL("UPDATE accounts SET password = ? WHERE id = ?", hash, id)
		if err != nil {
			return nil, err
		}
		return nil, changed(res, "account "+id)
	})
}

// DeleteAccount implements store.Accounts.
func (s *Store) DeleteAccount(ctx context.Context, id string, renamed func(seat int) string) ([]string, error) {
	var changes []store.Change
	err := s.write(ctx, "delete account "+id, func(w *wtx) (*store.Change, error) {
		changes = nil
		if err := w.accountExists(id); err != nil {
			return nil, err
		}
		rows, err := w.tx.QueryContext(w.ctx, `SELECT s.game_id, s.idx, `+movesOf("g")+`, g.status FROM seats s JOIN games g ON g.id = s.game_id
			WHERE s.account_id = ? ORDER BY s.game_id`, id)
		if err != nil {
			return nil, err
		}
		var seats []int
		for rows.Next() {
			var (
				c    store.Change
				seat int
				st   string
			)
			if err := rows.Scan(&c.Game, &seat, &c.Moves, &st); err != nil {
				rows.Close()
				return nil, err
			}
			c.Kind, c.Status = store.ChangeSeat, store.Status(st)
			changes, seats = append(changes, c), append(seats, seat)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		for i, c := range changes {
			if _, err := w.execSQL("UPDATE seats SET name = ?, account_id = NULL WHERE game_id = ? AND idx = ?", renamed(seats[i]), c.Game, seats[i]); err != nil {
				return nil, err
			}
			if _, err := w.execSQL("UPDATE games SET updated = "+nextUpdated+", listed = "+listedAs("status", nextUpdated)+" WHERE id = ?1",
				c.Game, w.stamp.UnixNano()); err != nil {
				return nil, err
			}
		}
		res, err := w.tx.QueryContext(w.ctx, "SELECT game_id, idx FROM results WHERE account_id = ?", id)
		if err != nil {
			return nil, err
		}
		type ref struct {
			game string
			seat int
		}
		var refs []ref
		for res.Next() {
			var r ref
			if err := res.Scan(&r.game, &r.seat); err != nil {
				res.Close()
				return nil, err
			}
			refs = append(refs, r)
		}
		res.Close()
		if err := res.Err(); err != nil {
			return nil, err
		}
		for _, r := range refs {
			if _, err := w.execSQL("UPDATE results SET name = ?, account_id = NULL WHERE game_id = ? AND idx = ?", renamed(r.seat), r.game, r.seat); err != nil {
				return nil, err
			}
		}
		for _, q := range []string{"DELETE FROM challenges WHERE account_id = ?", "DELETE FROM accounts WHERE id = ?"} {
			if _, err := w.execSQL(q, id); err != nil {
				return nil, err
			}
		}
		return nil, nil
	})
	if err != nil {
		return nil, err
	}
	games := make([]string, len(changes))
	for i, c := range changes {
		games[i] = c.Game
		s.broker.Publish(store.ChangesChannel, c.Payload())
	}
	return games, nil
}

// CreateSession implements store.Accounts.
func (s *Store) CreateSession(ctx context.Context, se store.Session) error {
	return s.write(ctx, "create a session", func(w *wtx) (*store.Change, error) {
		if err := w.accountExists(se.Account); err != nil {
			return nil, err
		}
		_, err := w.execSQL("INSERT INTO sessions (hash, account_id, created, expires) VALUES (?, ?, ?, ?)",
			se.Hash, se.Account, se.Created.UnixNano(), se.Expires.UnixNano())
		return nil, err
	})
}

// Session implements store.Accounts.
func (s *Store) Session(ctx context.Context, hash []byte, now time.Time) (store.Session, *store.Account, error) {
	var (
		se      = store.Session{Hash: hash}
		a       *store.Account
		expired bool
	)
	err := s.read(ctx, "read a session", func(tx *sql.Tx) error {
		var created, expires int64
		err := tx.QueryRowContext(ctx, "SELECT account_id, created, expires FROM sessions WHERE hash = ?", hash).
			Scan(&se.Account, &created, &expires)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlite: session: %w", store.ErrNoAccount)
		}
		if err != nil {
			return err
		}
		se.Created, se.Expires = fromNanos(created), fromNanos(expires)
		if !now.Before(se.Expires) {
			expired = true
			return fmt.Errorf("sqlite: session expired: %w", store.ErrNoAccount)
		}
		a, err = scanAccount(tx.QueryRowContext(ctx, "SELECT "+accountColumns+" FROM accounts WHERE id = ?", se.Account))
		return err
	})
	if expired {
		if derr := s.DeleteSession(ctx, hash); derr != nil {
			return store.Session{}, nil, derr
		}
	}
	if err != nil {
		return store.Session{}, nil, err
	}
	return se, a, nil
}

// DeleteSession implements store.Accounts.
func (s *Store) DeleteSession(ctx context.Context, hash []byte) error {
	return s.write(ctx, "delete a session", func(w *wtx) (*store.Change, error) {
		_, err := w.execSQL("DELETE FROM sessions WHERE hash = ?", hash)
		return nil, err
	})
}

// DeleteSessions implements store.Accounts.
func (s *Store) DeleteSessions(ctx context.Context, account string, keep []byte) error {
	return s.write(ctx, "delete the sessions of "+account, func(w *wtx) (*store.Change, error) {
		_, err := w.execSQL("DELETE FROM sessions WHERE account_id = ? AND hash IS NOT ?", account, keep)
		return nil, err
	})
}

// AddPasskey implements store.Accounts.
func (s *Store) AddPasskey(ctx context.Context, p store.Passkey) error {
	return s.write(ctx, "add a passkey", func(w *wtx) (*store.Change, error) {
		if err := w.accountExists(p.Account); err != nil {
			return nil, err
		}
		_, err := w.execSQL("INSERT INTO passkeys (id, account_id, name, credential, created) VALUES (?, ?, ?, ?, ?)",
			p.ID, p.Account, p.Name, p.Credential, p.Created.UnixNano())
		return nil, err
	})
}

// Passkeys implements store.Accounts.
func (s *Store) Passkeys(ctx context.Context, account string) ([]store.Passkey, error) {
	var out []store.Passkey
	err := s.read(ctx, "read the passkeys of "+account, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, "SELECT id, name, credential, created, used FROM passkeys WHERE account_id = ? ORDER BY created, id", account)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				p       = store.Passkey{Account: account}
				created int64
				used    sql.NullInt64
			)
			if err := rows.Scan(&p.ID, &p.Name, &p.Credential, &created, &used); err != nil {
				return err
			}
			p.Created = fromNanos(created)
			if used.Valid {
				p.Used = fromNanos(used.Int64)
			}
			out = append(out, p)
		}
		return rows.Err()
	})
	return out, err
}

// UsePasskey implements store.Accounts.
func (s *Store) UsePasskey(ctx context.Context, id, credential []byte, used time.Time) error {
	return s.write(ctx, "use a passkey", func(w *wtx) (*store.Change, error) {
		res, err := w.execSQL("UPDATE passkeys SET credential = ?, used = ? WHERE id = ?", credential, used.UnixNano(), id)
		if err != nil {
			return nil, err
		}
		return nil, changed(res, "passkey")
	})
}

// DeletePasskey implements store.Accounts.
func (s *Store) DeletePasskey(ctx context.Context, account string, id []byte) error {
	return s.write(ctx, "delete a passkey", func(w *wtx) (*store.Change, error) {
		res, err := w.execSQL("DELETE FROM passkeys WHERE account_id = ? AND id = ?", account, id)
		if err != nil {
			return nil, err
		}
		return nil, changed(res, "passkey")
	})
}

// PutChallenge implements store.Accounts.
func (s *Store) PutChallenge(ctx context.Context, c store.Challenge) error {
	return s.write(ctx, "store a challenge", func(w *wtx) (*store.Change, error) {
		_, err := w.execSQL("INSERT INTO challenges (hash, account_id, data, expires) VALUES (?, ?, ?, ?)",
			c.Hash, c.Account, c.Data, c.Expires.UnixNano())
		return nil, err
	})
}

// TakeChallenge implements store.Accounts.
func (s *Store) TakeChallenge(ctx context.Context, hash []byte, now time.Time) (store.Challenge, error) {
	c := store.Challenge{Hash: hash}
	err := s.write(ctx, "take a challenge", func(w *wtx) (*store.Change, error) {
		var expires int64
		err := w.rowSQL("DELETE FROM challenges WHERE hash = ? RETURNING account_id, data, expires", hash).Scan(&c.Account, &c.Data, &expires)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("sqlite: challenge: %w", store.ErrNoAccount)
		}
		c.Expires = fromNanos(expires)
		return nil, err
	})
	if err != nil {
		return store.Challenge{}, err
	}
	if !now.Before(c.Expires) {
		return store.Challenge{}, fmt.Errorf("sqlite: challenge expired: %w", store.ErrNoAccount)
	}
	return c, nil
}

// Purge implements store.Accounts.
func (s *Store) Purge(ctx context.Context, now time.Time) error {
	return s.write(ctx, "purge sessions and challenges", func(w *wtx) (*store.Change, error) {
		for _, q := range []string{"DELETE FROM sessions WHERE expires <= ?", "DELETE FROM challenges WHERE expires <= ?"} {
			if _, err := w.execSQL(q, now.UnixNano()); err != nil {
				return nil, err
			}
		}
		return nil, nil
	})
}

// ClaimSeats implements store.Accounts.
func (s *Store) ClaimSeats(ctx context.Context, account string, claims []store.Claim) ([]string, error) {
	var changes []store.Change
	err := s.write(ctx, "claim seats for "+account, func(w *wtx) (*store.Change, error) {
		changes = nil
		if err := w.accountExists(account); err != nil {
			return nil, err
		}
		for _, c := range claims {
			var held int
			if err := w.rowSQL("SELECT count(*) FROM seats WHERE game_id = ? AND account_id = ?", c.Game, account).Scan(&held); err != nil {
				return nil, err
			}
			if held > 0 {
				continue
			}
			res, err := w.execSQL(`UPDATE seats SET account_id = ?, token_hash = ?
				WHERE game_id = ? AND token_hash = ? AND account_id IS NULL AND bot = ''
				AND idx = (SELECT min(idx) FROM seats WHERE game_id = ? AND token_hash = ?)`,
				account, c.NewHash, c.Game, c.OldHash, c.Game, c.OldHash)
			if err != nil {
				return nil, err
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				if err != nil {
					return nil, err
				}
				continue
			}
			ch := store.Change{Game: c.Game, Kind: store.ChangeSeat}
			var st string
			// A game that is over keeps its date (its result's and its
			// record's): it moves on by a nanosecond, enough to be news.
			bumped := "CASE WHEN status IN ('finished', 'archived') THEN updated + 1 ELSE " + nextUpdated + " END"
			if err := w.rowSQL("UPDATE games SET updated = "+bumped+", listed = "+listedAs("status", bumped)+" WHERE id = ?1 RETURNING status, "+movesOf("games"),
				c.Game, w.stamp.UnixNano()).Scan(&st, &ch.Moves); err != nil {
				return nil, err
			}
			ch.Status = store.Status(st)
			changes = append(changes, ch)
		}
		return nil, nil
	})
	if err != nil {
		return nil, err
	}
	var games []string
	for _, c := range changes {
		games = append(games, c.Game)
		s.broker.Publish(store.ChangesChannel, c.Payload())
	}
	return games, nil
}

// AccountGames implements store.Accounts.
func (s *Store) AccountGames(ctx context.Context, account string, limit int, statuses ...store.Status) ([]store.Summary, error) {
	if limit <= 0 {
		limit = -1
	}
	query := `SELECT g.id, g.status, g.created, ` + updatedOf("g") + `, ` + movesOf("g") + `, g.rated
		FROM seats s JOIN games g ON g.id = s.game_id WHERE s.account_id = ?`
	args := []any{account}
	if len(statuses) > 0 {
		query += " AND g.status IN (?" + strings.Repeat(", ?", len(statuses)-1) + ")"
		for _, st := range statuses {
			args = append(args, string(st))
		}
	}
	query += " ORDER BY " + updatedOf("g") + " DESC, g.id LIMIT ?"
	args = append(args, limit)
	var sums []store.Summary
	err := s.read(ctx, "list the games of "+account, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		sums, err = summaries(ctx, tx, rows)
		return err
	})
	return sums, err
}

// AddResult implements store.Accounts.
func (s *Store) AddResult(ctx context.Context, r store.Result) error {
	if err := store.CheckResult(r); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return s.write(ctx, "store the result of "+r.Game, func(w *wtx) (*store.Change, error) {
		var n int
		if err := w.rowSQL("SELECT count(*) FROM results WHERE game_id = ?", r.Game).Scan(&n); err != nil {
			return nil, err
		}
		if n > 0 {
			return nil, fmt.Errorf("sqlite: game %q: %w", r.Game, store.ErrRated)
		}
		for _, st := range r.Seats {
			if st.After == nil {
				continue
			}
			b := st.Before
			res, err := w.execSQL(`UPDATE accounts SET mu = ?, sigma = ?, rated_games = ?
				WHERE id = ? AND mu = ? AND sigma = ? AND rated_games = ?`,
				st.After.Mu, st.After.Sigma, st.After.Games, st.Account, b.Mu, b.Sigma, b.Games)
			if err != nil {
				return nil, err
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				if err != nil {
					return nil, err
				}
				return nil, fmt.Errorf("sqlite: account %q: %w: its rating changed", st.Account, store.ErrConflict)
			}
		}
		for _, st := range r.Seats {
			scores, err := json.Marshal(st.Scores)
			if err != nil {
				return nil, err
			}
			var before, after [3]any
			if st.After != nil {
				before = [3]any{st.Before.Mu, st.Before.Sigma, st.Before.Games}
				after = [3]any{st.After.Mu, st.After.Sigma, st.After.Games}
			}
			if _, err := w.execSQL(`INSERT INTO results (game_id, idx, account_id, bot, name, players, rated, finished, rank, score, scores,
				mu_before, sigma_before, games_before, mu, sigma, games) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				r.Game, st.Seat, orNil(st.Account), st.Bot, st.Name, r.Players, r.Rated, r.Finished.UnixNano(), st.Rank, st.Score, string(scores),
				before[0], before[1], before[2], after[0], after[1], after[2]); err != nil {
				return nil, err
			}
		}
		return nil, nil
	})
}

// Results implements store.Accounts.
func (s *Store) Results(ctx context.Context, account string, limit int) ([]store.Result, error) {
	if limit <= 0 {
		limit = -1
	}
	var out []store.Result
	err := s.read(ctx, "read the results of "+account, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT r.game_id, r.idx, coalesce(r.account_id, ''), r.bot, r.name, r.players, r.rated, r.finished,
				r.rank, r.score, r.scores, r.mu_before, r.sigma_before, r.games_before, r.mu, r.sigma, r.games
			FROM results r JOIN (SELECT game_id, finished FROM results WHERE account_id = ? ORDER BY finished DESC, game_id DESC LIMIT ?) g
				ON g.game_id = r.game_id
			ORDER BY g.finished DESC, g.game_id DESC, r.idx`, account, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				r                store.Result
				st               store.SeatResult
				finished         int64
				scores           string
				mub, sgb, mu, sg sql.NullFloat64
				gamesb, games    sql.NullInt64
			)
			if err := rows.Scan(&r.Game, &st.Seat, &st.Account, &st.Bot, &st.Name, &r.Players, &r.Rated, &finished,
				&st.Rank, &st.Score, &scores, &mub, &sgb, &gamesb, &mu, &sg, &games); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(scores), &st.Scores); err != nil {
				return corrupt(s.path, fmt.Sprintf("result of game %q: scores: %v", r.Game, err))
			}
			if mu.Valid {
				st.Before = &store.Rating{Mu: mub.Float64, Sigma: sgb.Float64, Games: int(gamesb.Int64)}
				st.After = &store.Rating{Mu: mu.Float64, Sigma: sg.Float64, Games: int(games.Int64)}
			}
			if n := len(out); n == 0 || out[n-1].Game != r.Game {
				r.Finished = fromNanos(finished)
				out = append(out, r)
			}
			last := &out[len(out)-1]
			last.Seats = append(last.Seats, st)
		}
		return rows.Err()
	})
	return out, err
}

// Leaderboard implements store.Accounts.
func (s *Store) Leaderboard(ctx context.Context, minGames, limit int) ([]store.Account, error) {
	if limit <= 0 {
		limit = -1
	}
	var out []store.Account
	err := s.read(ctx, "read the leaderboard", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, "SELECT "+accountColumns+` FROM accounts WHERE rated_games >= ?
			ORDER BY mu - 3 * sigma DESC, name_key LIMIT ?`, minGames, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			a, err := scanAccount(rows)
			if err != nil {
				return err
			}
			out = append(out, *a)
		}
		return rows.Err()
	})
	return out, err
}
