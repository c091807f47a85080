package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// The Play-now requests and the challenges: rare writes, so their
// statements are not prepared ahead. Every write is one op of the single
// writer, which makes each check-then-change atomic.

const seekColumns = `id, person, account_id, name, min_players, max_players, pace, rated, rating, rating_min, rating_max,
	finish, min_finish, bots_after, status, game_id, seat, token, created, updated`

func scanSeek(row interface{ Scan(...any) error }) (store.Seek, error) {
	var (
		k                store.Seek
		account          sql.NullString
		bots             int64
		created, updated int64
	)
	err := row.Scan(&k.ID, &k.Person, &account, &k.Name, &k.Min, &k.Max, &k.Pace, &k.Rated, &k.Rating, &k.RatingMin, &k.RatingMax,
		&k.Finish, &k.MinFinish, &bots, &k.Status, &k.Game, &k.Seat, &k.Token, &created, &updated)
	k.Account, k.BotsAfter, k.Created, k.Updated = account.String, time.Duration(bots), fromNanos(created), fromNanos(updated)
	return k, err
}

func nullText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// AddSeek implements store.Pairing.
func (s *Store) AddSeek(ctx context.Context, k store.Seek, max int) error {
	if err := k.Check(); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	if k.Created.IsZero() {
		k.Created = time.Now()
	}
	return s.write(ctx, "store a Play-now request", func(w *wtx) (*store.Change, error) {
		if k.Account != "" {
			if err := w.accountExists(k.Account); err != nil {
				return nil, err
			}
		}
		var n, taken int
		if err := w.rowSQL("SELECT count(*), coalesce(sum(id = ?), 0) FROM seeks WHERE person = ? AND status = 'open' OR id = ?",
			k.ID, k.Person, k.ID).Scan(&n, &taken); err != nil {
			return nil, err
		}
		switch {
		case taken > 0:
			return nil, fmt.Errorf("sqlite: request %q: %w", k.ID, store.ErrConflict)
		case n >= max:
			return nil, fmt.Errorf("sqlite: %s has %d open requests: %w", k.Person, n, store.ErrLimit)
		}
		_, err := w.execSQL("INSERT INTO seeks ("+seekColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			k.ID, k.Person, nullText(k.Account), k.Name, k.Min, k.Max, k.Pace, k.Rated, k.Rating, k.RatingMin, k.RatingMax,
			k.Finish, k.MinFinish, int64(k.BotsAfter), k.Status, k.Game, k.Seat, k.Token, k.Created.UnixNano(), time.Now().UnixNano())
		return nil, err
	})
}

// Seek implements store.Pairing.
func (s *Store) Seek(ctx context.Context, id string) (store.Seek, error) {
	seeks, err := s.seeksWhere(ctx, "read a Play-now request", "id = ?", id)
	if err == nil && len(seeks) == 0 {
		err = fmt.Errorf("sqlite: request %q: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Seek{}, err
	}
	return seeks[0], nil
}

// OpenSeeks implements store.Pairing.
func (s *Store) OpenSeeks(ctx context.Context) ([]store.Seek, error) {
	return s.seeksWhere(ctx, "read the open Play-now requests", "status = 'open' ORDER BY created, id")
}

// SeeksOf implements store.Pairing.
func (s *Store) SeeksOf(ctx context.Context, person string, since time.Time) ([]store.Seek, error) {
	return s.seeksWhere(ctx, "read the Play-now requests of "+person,
		"person = ? AND (status = 'open' OR updated >= ?) ORDER BY created DESC, id DESC", person, since.UnixNano())
}

func (s *Store) seeksWhere(ctx context.Context, op, where string, args ...any) ([]store.Seek, error) {
	var out []store.Seek
	err := s.read(ctx, op, func(tx *sql.Tx) error {
		out = nil
		rows, err := tx.QueryContext(ctx, "SELECT "+seekColumns+" FROM seeks WHERE "+where, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			k, err := scanSeek(rows)
			if err != nil {
				return err
			}
			out = append(out, k)
		}
		return rows.Err()
	})
	return out, err
}

// EndSeek implements store.Pairing.
func (s *Store) EndSeek(ctx context.Context, id, person string, status store.SeekStatus) error {
	if err := store.CheckEnd(status); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return s.write(ctx, "end a Play-now request", func(w *wtx) (*store.Change, error) {
		var st store.SeekStatus
		err := w.rowSQL("SELECT status FROM seeks WHERE id = ? AND (? = '' OR person = ?)", id, person, person).Scan(&st)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return nil, fmt.Errorf("sqlite: request %q of %q: %w", id, person, store.ErrNotFound)
		case err != nil:
			return nil, err
		case st != store.SeekOpen:
			return nil, fmt.Errorf("sqlite: request %q is %s: %w", id, st, store.ErrConflict)
		}
		_, err = w.execSQL("UPDATE seeks SET status = ?, updated = ? WHERE id = ?", status, time.Now().UnixNano(), id)
		return nil, err
	})
}

// EndSeeksOf implements store.Pairing.
func (s *Store) EndSeeksOf(ctx context.Context, person string, status store.SeekStatus) ([]string, error) {
	if err := store.CheckEnd(status); err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	var ids []string
	err := s.write(ctx, "end the Play-now requests of "+person, func(w *wtx) (*store.Change, error) {
		ids = nil
		rows, err := w.tx.QueryContext(w.ctx, "UPDATE seeks SET status = ?, updated = ? WHERE person = ? AND status = 'open' RETURNING id",
			status, time.Now().UnixNano(), person)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return nil, err
			}
			ids = append(ids, id)
		}
		return nil, rows.Err()
	})
	slices.Sort(ids)
	return ids, err
}

// PairSeeks implements store.Pairing.
func (s *Store) PairSeeks(ctx context.Context, game string, seats []store.SeekSeat) error {
	if err := store.CheckSeats(game, seats); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return s.write(ctx, "seat Play-now requests at "+game, func(w *wtx) (*store.Change, error) {
		people := map[string]bool{}
		for _, st := range seats {
			var person string
			err := w.rowSQL("SELECT person FROM seeks WHERE id = ? AND status = 'open'", st.ID).Scan(&person)
			if errors.Is(err, sql.ErrNoRows) || people[person] {
				return nil, fmt.Errorf("sqlite: request %q is not open: %w", st.ID, store.ErrConflict)
			}
			if err != nil {
				return nil, err
			}
			people[person] = true
		}
		now := time.Now().UnixNano()
		for _, st := range seats {
			if _, err := w.execSQL("UPDATE seeks SET status = 'paired', game_id = ?, seat = ?, token = ?, updated = ? WHERE id = ?",
				game, st.Seat, st.Token, now, st.ID); err != nil {
				return nil, err
			}
		}
		for p := range people {
			if _, err := w.execSQL("UPDATE seeks SET status = 'cancelled', updated = ? WHERE person = ? AND status = 'open'", now, p); err != nil {
				return nil, err
			}
		}
		return nil, nil
	})
}

// AddChallenge implements store.Pairing.
func (s *Store) AddChallenge(ctx context.Context, c store.Invitation, max int) error {
	if err := c.Check(); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	if c.Created.IsZero() {
		c.Created = time.Now()
	}
	return s.write(ctx, "store a challenge", func(w *wtx) (*store.Change, error) {
		for _, a := range append([]string{c.From}, challengedAccounts(c)...) {
			if err := w.accountExists(a); err != nil {
				return nil, err
			}
		}
		var n, taken int
		if err := w.rowSQL("SELECT count(*), coalesce(sum(id = ?), 0) FROM invitations WHERE from_account = ? AND status = 'open' OR id = ?",
			c.ID, c.From, c.ID).Scan(&n, &taken); err != nil {
			return nil, err
		}
		switch {
		case taken > 0:
			return nil, fmt.Errorf("sqlite: challenge %q: %w", c.ID, store.ErrConflict)
		case n >= max:
			return nil, fmt.Errorf("sqlite: %s has %d open challenges: %w", c.From, n, store.ErrLimit)
		}
		if _, err := w.execSQL(`INSERT INTO invitations (id, from_account, from_name, pace, rated, status, game_id, created, expires, updated)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, c.ID, c.From, c.FromName, c.Pace, c.Rated, c.Status, c.Game,
			c.Created.UnixNano(), c.Expires.UnixNano(), time.Now().UnixNano()); err != nil {
			return nil, err
		}
		for i, t := range c.To {
			if _, err := w.execSQL(`INSERT INTO invitees (invitation_id, idx, account_id, name, answered, accept, reason)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, c.ID, i, t.Account, t.Name, t.Answered, t.Accept, t.Reason); err != nil {
				return nil, err
			}
		}
		return nil, nil
	})
}

func challengedAccounts(c store.Invitation) []string {
	out := make([]string, len(c.To))
	for i, t := range c.To {
		out[i] = t.Account
	}
	return out
}

// querier is a transaction or a connection pool.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// invitations reads the challenges where, with their people challenged.
func invitations(ctx context.Context, q querier, where string, args ...any) ([]store.Invitation, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, from_account, from_name, pace, rated, status, game_id, created, expires, updated
		FROM invitations WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	var out []store.Invitation
	for rows.Next() {
		var c store.Invitation
		var created, expires, updated int64
		if err := rows.Scan(&c.ID, &c.From, &c.FromName, &c.Pace, &c.Rated, &c.Status, &c.Game, &created, &expires, &updated); err != nil {
			rows.Close()
			return nil, err
		}
		c.Created, c.Expires, c.Updated = fromNanos(created), fromNanos(expires), fromNanos(updated)
		out = append(out, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		rows, err := q.QueryContext(ctx, "SELECT account_id, name, answered, accept, reason FROM invitees WHERE invitation_id = ? ORDER BY idx", out[i].ID)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var t store.Challenged
			if err := rows.Scan(&t.Account, &t.Name, &t.Answered, &t.Accept, &t.Reason); err != nil {
				rows.Close()
				return nil, err
			}
			out[i].To = append(out[i].To, t)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Store) readInvitations(ctx context.Context, op, where string, args ...any) ([]store.Invitation, error) {
	var out []store.Invitation
	err := s.read(ctx, op, func(tx *sql.Tx) error {
		var err error
		out, err = invitations(ctx, tx, where, args...)
		return err
	})
	return out, err
}

// Challenge implements store.Pairing.
func (s *Store) Challenge(ctx context.Context, id string) (store.Invitation, error) {
	cs, err := s.readInvitations(ctx, "read a challenge", "id = ?", id)
	if err == nil && len(cs) == 0 {
		err = fmt.Errorf("sqlite: challenge %q: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Invitation{}, err
	}
	return cs[0], nil
}

// ChallengesOf implements store.Pairing.
func (s *Store) ChallengesOf(ctx context.Context, account string, since time.Time) ([]store.Invitation, error) {
	return s.readInvitations(ctx, "read the challenges of "+account,
		`(from_account = ? OR id IN (SELECT invitation_id FROM invitees WHERE account_id = ?))
		AND (status IN ('open', 'accepted') OR updated >= ?) ORDER BY created DESC, id DESC`, account, account, since.UnixNano())
}

// AnswerChallenge implements store.Pairing.
func (s *Store) AnswerChallenge(ctx context.Context, id, account string, a store.Answer, now time.Time) (store.Invitation, error) {
	var out store.Invitation
	err := s.write(ctx, "answer a challenge", func(w *wtx) (*store.Change, error) {
		cs, err := invitations(w.ctx, w.tx, "id = ?", id)
		if err != nil {
			return nil, err
		}
		if len(cs) == 0 {
			return nil, fmt.Errorf("sqlite: challenge %q: %w", id, store.ErrNotFound)
		}
		c := cs[0]
		if err := c.Apply(account, a, now); err != nil {
			return nil, fmt.Errorf("sqlite: %w", err)
		}
		t := time.Now()
		if _, err := w.execSQL("UPDATE invitees SET answered = 1, accept = ?, reason = ? WHERE invitation_id = ? AND account_id = ?",
			a.Accept, a.Reason, id, account); err != nil {
			return nil, err
		}
		if _, err := w.execSQL("UPDATE invitations SET status = ?, updated = ? WHERE id = ?", c.Status, t.UnixNano(), id); err != nil {
			return nil, err
		}
		c.Updated = fromNanos(t.UnixNano())
		out = c
		return nil, nil
	})
	return out, err
}

// CancelChallenge implements store.Pairing.
func (s *Store) CancelChallenge(ctx context.Context, id, from string) error {
	return s.changeChallenge(ctx, "cancel a challenge", id, func(c store.Invitation) (string, []any, error) {
		switch {
		case c.From != from:
			return "", nil, fmt.Errorf("sqlite: challenge %q of %q: %w", id, from, store.ErrNotFound)
		case c.Status != store.ChallengeOpen:
			return "", nil, fmt.Errorf("sqlite: challenge %q is %s: %w", id, c.Status, store.ErrConflict)
		}
		return "status = 'cancelled'", nil, nil
	})
}

// SetChallengeGame implements store.Pairing.
func (s *Store) SetChallengeGame(ctx context.Context, id, game string) error {
	return s.changeChallenge(ctx, "record a challenge's table", id, func(c store.Invitation) (string, []any, error) {
		if c.Status != store.ChallengeAccepted || c.Game != "" || game == "" {
			return "", nil, fmt.Errorf("sqlite: challenge %q is %s at %q: %w", id, c.Status, c.Game, store.ErrConflict)
		}
		return "game_id = ?", []any{game}, nil
	})
}

// changeChallenge reads challenge id and sets what change returns.
func (s *Store) changeChallenge(ctx context.Context, op, id string, change func(c store.Invitation) (string, []any, error)) error {
	return s.write(ctx, op, func(w *wtx) (*store.Change, error) {
		cs, err := invitations(w.ctx, w.tx, "id = ?", id)
		if err != nil {
			return nil, err
		}
		if len(cs) == 0 {
			return nil, fmt.Errorf("sqlite: challenge %q: %w", id, store.ErrNotFound)
		}
		set, args, err := change(cs[0])
		if err != nil {
			return nil, err
		}
		_, err = w.execSQL("UPDATE invitations SET "+set+", updated = ? WHERE id = ?", append(args, time.Now().UnixNano(), id)...)
		return nil, err
	})
}

// LapseChallenges implements store.Pairing.
func (s *Store) LapseChallenges(ctx context.Context, now time.Time) ([]store.Invitation, error) {
	var out []store.Invitation
	err := s.write(ctx, "lapse the expired challenges", func(w *wtx) (*store.Change, error) {
		cs, err := invitations(w.ctx, w.tx, "status = 'open' AND expires <= ? ORDER BY id", now.UnixNano())
		if err != nil || len(cs) == 0 {
			out = nil
			return nil, err
		}
		t := time.Now().UnixNano()
		ids := make([]any, len(cs))
		for i := range cs {
			cs[i].Status, cs[i].Updated = store.ChallengeLapsed, fromNanos(t)
			ids[i] = cs[i].ID
		}
		_, err = w.execSQL("UPDATE invitations SET status = 'lapsed', updated = ? WHERE id IN (?"+strings.Repeat(", ?", len(ids)-1)+")",
			append([]any{t}, ids...)...)
		out = cs
		return nil, err
	})
	return out, err
}

// UnseatedChallenges implements store.Pairing.
func (s *Store) UnseatedChallenges(ctx context.Context, before time.Time) ([]store.Invitation, error) {
	return s.readInvitations(ctx, "read the challenges without a table",
		"status = 'accepted' AND game_id = '' AND updated < ? ORDER BY updated, id", before.UnixNano())
}

// PurgePairing implements store.Pairing.
func (s *Store) PurgePairing(ctx context.Context, before time.Time) error {
	return s.write(ctx, "purge the ended Play-now requests and challenges", func(w *wtx) (*store.Change, error) {
		b := before.UnixNano()
		if _, err := w.execSQL("DELETE FROM seeks WHERE status <> 'open' AND updated < ?", b); err != nil {
			return nil, err
		}
		_, err := w.execSQL(`DELETE FROM invitations WHERE updated < ?
			AND (status IN ('declined', 'lapsed', 'cancelled') OR status = 'accepted' AND game_id <> '')`, b)
		return nil, err
	})
}
