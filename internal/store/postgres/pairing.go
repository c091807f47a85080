package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/razziagame/razzia/internal/store"
)

// The Play-now requests and the challenges. Several nodes write them at
// once: a person's requests are changed under a transaction-scoped
// advisory lock of the person, taken in the order of their names, so that
// two pairings of one person wait for each other instead of both seating
// them (or deadlocking); a challenge is changed under its row's lock.

const seekColumns = `id, person, coalesce(account_id, ''), name, min_players, max_players, pace, rated, rating, rating_min, rating_max,
	finish, min_finish, bots_after, status, game_id, seat, token, created, updated`

// lockPeople takes the advisory lock of each person, in order.
func lockPeople(ctx context.Context, tx pgx.Tx, people []string) error {
	people = slices.Clone(people)
	slices.Sort(people)
	for _, p := range slices.Compact(people) {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended('razzia seek ' || $1, 0))", p); err != nil {
			return err
		}
	}
	return nil
}

func scanSeek(row pgx.Row) (store.Seek, error) {
	var (
		k                store.Seek
		bots             int64
		created, updated int64
	)
	err := row.Scan(&k.ID, &k.Person, &k.Account, &k.Name, &k.Min, &k.Max, &k.Pace, &k.Rated, &k.Rating, &k.RatingMin, &k.RatingMax,
		&k.Finish, &k.MinFinish, &bots, &k.Status, &k.Game, &k.Seat, &k.Token, &created, &updated)
	k.BotsAfter, k.Created, k.Updated = time.Duration(bots), fromNanos(created), fromNanos(updated)
	return k, err
}

func nullText(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// AddSeek implements store.Pairing.
func (s *Store) AddSeek(ctx context.Context, k store.Seek, max int) error {
	if err := k.Check(); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	if k.Created.IsZero() {
		k.Created = time.Now()
	}
	return s.tx(ctx, "store a Play-now request", func(tx pgx.Tx) error {
		if err := lockPeople(ctx, tx, []string{k.Person}); err != nil {
			return err
		}
		if k.Account != "" {
			var one int
			err := tx.QueryRow(ctx, "SELECT 1 FROM accounts WHERE id = $1", k.Account).Scan(&one)
			if errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("postgres: account %q: %w", k.Account, store.ErrNoAccount)
			}
			if err != nil {
				return err
			}
		}
		var n int
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM seeks WHERE person = $1 AND status = 'open'", k.Person).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return fmt.Errorf("postgres: %s has %d open requests: %w", k.Person, n, store.ErrLimit)
		}
		_, err := tx.Exec(ctx, "INSERT INTO seeks ("+seekInsert+") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, "+nowNanos+")",
			k.ID, k.Person, nullText(k.Account), k.Name, k.Min, k.Max, k.Pace, k.Rated, k.Rating, k.RatingMin, k.RatingMax,
			k.Finish, k.MinFinish, int64(k.BotsAfter), k.Status, k.Game, k.Seat, k.Token, k.Created.UnixNano())
		return err
	})
}

const seekInsert = `id, person, account_id, name, min_players, max_players, pace, rated, rating, rating_min, rating_max,
	finish, min_finish, bots_after, status, game_id, seat, token, created, updated`

// Seek implements store.Pairing.
func (s *Store) Seek(ctx context.Context, id string) (store.Seek, error) {
	seeks, err := s.seeksWhere(ctx, "read a Play-now request", "id = $1", id)
	if err == nil && len(seeks) == 0 {
		err = fmt.Errorf("postgres: request %q: %w", id, store.ErrNotFound)
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
		"person = $1 AND (status = 'open' OR updated >= $2) ORDER BY created DESC, id DESC", person, since.UnixNano())
}

func (s *Store) seeksWhere(ctx context.Context, op, where string, args ...any) ([]store.Seek, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+seekColumns+" FROM seeks WHERE "+where, args...)
	if err != nil {
		return nil, s.fail(op, err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Seek, error) { return scanSeek(r) })
	if err != nil {
		return nil, s.fail(op, err)
	}
	return out, nil
}

// EndSeek implements store.Pairing.
func (s *Store) EndSeek(ctx context.Context, id, person string, status store.SeekStatus) error {
	if err := store.CheckEnd(status); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return s.tx(ctx, "end a Play-now request", func(tx pgx.Tx) error {
		var st store.SeekStatus
		err := tx.QueryRow(ctx, "SELECT status FROM seeks WHERE id = $1 AND ($2 = '' OR person = $2) FOR UPDATE", id, person).Scan(&st)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return fmt.Errorf("postgres: request %q of %q: %w", id, person, store.ErrNotFound)
		case err != nil:
			return err
		case st != store.SeekOpen:
			return fmt.Errorf("postgres: request %q is %s: %w", id, st, store.ErrConflict)
		}
		_, err = tx.Exec(ctx, "UPDATE seeks SET status = $1, updated = "+nowNanos+" WHERE id = $2", status, id)
		return err
	})
}

// EndSeeksOf implements store.Pairing.
func (s *Store) EndSeeksOf(ctx context.Context, person string, status store.SeekStatus) ([]string, error) {
	if err := store.CheckEnd(status); err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	var ids []string
	err := s.tx(ctx, "end the Play-now requests of "+person, func(tx pgx.Tx) error {
		if err := lockPeople(ctx, tx, []string{person}); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, "UPDATE seeks SET status = $1, updated = "+nowNanos+" WHERE person = $2 AND status = 'open' RETURNING id", status, person)
		if err != nil {
			return err
		}
		ids, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	slices.Sort(ids)
	return ids, err
}

// PairSeeks implements store.Pairing: the people's locks first, then the
// requests read again under them.
func (s *Store) PairSeeks(ctx context.Context, game string, seats []store.SeekSeat) error {
	if err := store.CheckSeats(game, seats); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	ids := make([]string, len(seats))
	for i, st := range seats {
		ids[i] = st.ID
	}
	return s.tx(ctx, "seat Play-now requests at "+game, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, "SELECT person FROM seeks WHERE id = ANY($1)", ids)
		if err != nil {
			return err
		}
		people, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		if err := lockPeople(ctx, tx, people); err != nil {
			return err
		}
		rows, err = tx.Query(ctx, "SELECT person FROM seeks WHERE id = ANY($1) AND status = 'open' FOR UPDATE", ids)
		if err != nil {
			return err
		}
		open, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		if len(open) != len(seats) || len(slices.Compact(slices.Sorted(slices.Values(open)))) != len(open) {
			return fmt.Errorf("postgres: of the requests %v, %d are open, of %d people: %w", ids, len(open), len(slices.Compact(open)), store.ErrConflict)
		}
		for _, st := range seats {
			if _, err := tx.Exec(ctx, "UPDATE seeks SET status = 'paired', game_id = $1, seat = $2, token = $3, updated = "+nowNanos+" WHERE id = $4",
				game, st.Seat, st.Token, st.ID); err != nil {
				return err
			}
		}
		_, err = tx.Exec(ctx, "UPDATE seeks SET status = 'cancelled', updated = "+nowNanos+" WHERE person = ANY($1) AND status = 'open'", open)
		return err
	})
}

// AddChallenge implements store.Pairing. The challenger's account row
// lock orders their challenges, so that two at once cannot both pass max.
func (s *Store) AddChallenge(ctx context.Context, c store.Invitation, max int) error {
	if err := c.Check(); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	if c.Created.IsZero() {
		c.Created = time.Now()
	}
	return s.tx(ctx, "store a challenge", func(tx pgx.Tx) error {
		if err := lockAccount(ctx, tx, c.From); err != nil {
			return err
		}
		for _, t := range c.To {
			var one int
			err := tx.QueryRow(ctx, "SELECT 1 FROM accounts WHERE id = $1", t.Account).Scan(&one)
			if errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("postgres: account %q: %w", t.Account, store.ErrNoAccount)
			}
			if err != nil {
				return err
			}
		}
		var n int
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM invitations WHERE from_account = $1 AND status = 'open'", c.From).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return fmt.Errorf("postgres: %s has %d open challenges: %w", c.From, n, store.ErrLimit)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO invitations (id, from_account, from_name, pace, rated, status, game_id, created, expires, updated)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, `+nowNanos+`)`, c.ID, c.From, c.FromName, c.Pace, c.Rated, c.Status, c.Game,
			c.Created.UnixNano(), c.Expires.UnixNano()); err != nil {
			return err
		}
		for i, t := range c.To {
			if _, err := tx.Exec(ctx, `INSERT INTO invitees (invitation_id, idx, account_id, name, answered, accept, reason)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`, c.ID, i, t.Account, t.Name, t.Answered, t.Accept, t.Reason); err != nil {
				return err
			}
		}
		return nil
	})
}

// invitations reads the challenges where (with " FOR UPDATE" to lock
// them), with their people challenged.
func invitations(ctx context.Context, tx pgx.Tx, where string, args ...any) ([]store.Invitation, error) {
	rows, err := tx.Query(ctx, `SELECT id, from_account, from_name, pace, rated, status, game_id, created, expires, updated
		FROM invitations WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	var (
		out                       []store.Invitation
		c                         store.Invitation
		created, expires, updated int64
	)
	_, err = pgx.ForEachRow(rows, []any{&c.ID, &c.From, &c.FromName, &c.Pace, &c.Rated, &c.Status, &c.Game, &created, &expires, &updated}, func() error {
		c.Created, c.Expires, c.Updated = fromNanos(created), fromNanos(expires), fromNanos(updated)
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range out {
		rows, err := tx.Query(ctx, "SELECT account_id, name, answered, accept, reason FROM invitees WHERE invitation_id = $1 ORDER BY idx", out[i].ID)
		if err != nil {
			return nil, err
		}
		var t store.Challenged
		if _, err := pgx.ForEachRow(rows, []any{&t.Account, &t.Name, &t.Answered, &t.Accept, &t.Reason}, func() error {
			out[i].To = append(out[i].To, t)
			return nil
		}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Store) readInvitations(ctx context.Context, op, where string, args ...any) ([]store.Invitation, error) {
	var out []store.Invitation
	err := s.readTx(ctx, op, func(tx pgx.Tx) error {
		var err error
		out, err = invitations(ctx, tx, where, args...)
		return err
	})
	return out, err
}

// Challenge implements store.Pairing.
func (s *Store) Challenge(ctx context.Context, id string) (store.Invitation, error) {
	cs, err := s.readInvitations(ctx, "read a challenge", "id = $1", id)
	if err == nil && len(cs) == 0 {
		err = fmt.Errorf("postgres: challenge %q: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Invitation{}, err
	}
	return cs[0], nil
}

// ChallengesOf implements store.Pairing.
func (s *Store) ChallengesOf(ctx context.Context, account string, since time.Time) ([]store.Invitation, error) {
	return s.readInvitations(ctx, "read the challenges of "+account,
		`(from_account = $1 OR id IN (SELECT invitation_id FROM invitees WHERE account_id = $1))
		AND (status IN ('open', 'accepted') OR updated >= $2) ORDER BY created DESC, id DESC`, account, since.UnixNano())
}

// changeInvitation locks challenge id, lets change decide on it and
// stores what it changed of the challenge's row.
func (s *Store) changeInvitation(ctx context.Context, op, id string, change func(tx pgx.Tx, c *store.Invitation) error) (store.Invitation, error) {
	var out store.Invitation
	err := s.tx(ctx, op, func(tx pgx.Tx) error {
		cs, err := invitations(ctx, tx, "id = $1 FOR UPDATE", id)
		if err != nil {
			return err
		}
		if len(cs) == 0 {
			return fmt.Errorf("postgres: challenge %q: %w", id, store.ErrNotFound)
		}
		c := cs[0]
		if err := change(tx, &c); err != nil {
			return err
		}
		var updated int64
		err = tx.QueryRow(ctx, "UPDATE invitations SET status = $1, game_id = $2, updated = "+nowNanos+" WHERE id = $3 RETURNING updated",
			c.Status, c.Game, id).Scan(&updated)
		c.Updated, out = fromNanos(updated), c
		return err
	})
	return out, err
}

// AnswerChallenge implements store.Pairing.
func (s *Store) AnswerChallenge(ctx context.Context, id, account string, a store.Answer, now time.Time) (store.Invitation, error) {
	return s.changeInvitation(ctx, "answer a challenge", id, func(tx pgx.Tx, c *store.Invitation) error {
		if err := c.Apply(account, a, now); err != nil {
			return fmt.Errorf("postgres: %w", err)
		}
		_, err := tx.Exec(ctx, "UPDATE invitees SET answered = true, accept = $1, reason = $2 WHERE invitation_id = $3 AND account_id = $4",
			a.Accept, a.Reason, id, account)
		return err
	})
}

// CancelChallenge implements store.Pairing.
func (s *Store) CancelChallenge(ctx context.Context, id, from string) error {
	_, err := s.changeInvitation(ctx, "cancel a challenge", id, func(_ pgx.Tx, c *store.Invitation) error {
		switch {
		case c.From != from:
			return fmt.Errorf("postgres: challenge %q of %q: %w", id, from, store.ErrNotFound)
		case c.Status != store.ChallengeOpen:
			return fmt.Errorf("postgres: challenge %q is %s: %w", id, c.Status, store.ErrConflict)
		}
		c.Status = store.ChallengeCancelled
		return nil
	})
	return err
}

// SetChallengeGame implements store.Pairing.
func (s *Store) SetChallengeGame(ctx context.Context, id, game string) error {
	_, err := s.changeInvitation(ctx, "record a challenge's table", id, func(_ pgx.Tx, c *store.Invitation) error {
		if c.Status != store.ChallengeAccepted || c.Game != "" || game == "" {
			return fmt.Errorf("postgres: challenge %q is %s at %q: %w", id, c.Status, c.Game, store.ErrConflict)
		}
		c.Game = game
		return nil
	})
	return err
}

// LapseChallenges implements store.Pairing: one UPDATE claims them, so
// that each is returned to one caller.
func (s *Store) LapseChallenges(ctx context.Context, now time.Time) ([]store.Invitation, error) {
	var out []store.Invitation
	err := s.tx(ctx, "lapse the expired challenges", func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, "UPDATE invitations SET status = 'lapsed', updated = "+nowNanos+" WHERE status = 'open' AND expires <= $1 RETURNING id",
			now.UnixNano())
		if err != nil {
			return err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil || len(ids) == 0 {
			out = nil
			return err
		}
		out, err = invitations(ctx, tx, "id = ANY($1) ORDER BY id", ids)
		return err
	})
	return out, err
}

// UnseatedChallenges implements store.Pairing.
func (s *Store) UnseatedChallenges(ctx context.Context, before time.Time) ([]store.Invitation, error) {
	return s.readInvitations(ctx, "read the challenges without a table",
		"status = 'accepted' AND game_id = '' AND updated < $1 ORDER BY updated, id", before.UnixNano())
}

// PurgePairing implements store.Pairing.
func (s *Store) PurgePairing(ctx context.Context, before time.Time) error {
	return s.tx(ctx, "purge the ended Play-now requests and challenges", func(tx pgx.Tx) error {
		b := before.UnixNano()
		if _, err := tx.Exec(ctx, "DELETE FROM seeks WHERE status <> 'open' AND updated < $1", b); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM invitations WHERE updated < $1
			AND (status IN ('declined', 'lapsed', 'cancelled') OR status = 'accepted' AND game_id <> '')`, b)
		return err
	})
}
