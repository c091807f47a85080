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

var _ store.Tournaments = (*Store)(nil)

func nanosOrNil(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	n := t.UnixNano()
	return &n
}

// nanosOrZero is t in Unix nanoseconds, 0 for the zero time.
func nanosOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func timeOrZero(n *int64) time.Time {
	if n == nil || *n == 0 {
		return time.Time{}
	}
	return time.Unix(0, *n).UTC()
}

func orEmpty(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// CreateTournament implements store.Tournaments.
func (s *Store) CreateTournament(ctx context.Context, t *store.Tournament) error {
	if err := t.Check(); err != nil {
		return err
	}
	if err := store.CheckTournamentRows(t.ID, t.Players, t.Tables); err != nil {
		return err
	}
	created, updated := t.Created, t.Updated
	err := s.tx(ctx, "create tournament "+t.ID, func(tx pgx.Tx) error {
		if created.IsZero() {
			if err := tx.QueryRow(ctx, "SELECT clock_timestamp()").Scan(&created); err != nil {
				return err
			}
		}
		if updated.IsZero() {
			updated = created
		}
		tag, err := tx.Exec(ctx, `INSERT INTO tournaments (id, name, format, organiser, status, starts, private, seed, settings, state, created, updated, version)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 1) ON CONFLICT (id) DO NOTHING`,
			t.ID, t.Name, t.Format, t.Organiser, string(t.Status), nanosOrNil(t.Starts), t.Private, t.Seed,
			orEmpty(t.Settings), orEmpty(t.State), created.UnixNano(), updated.UnixNano())
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("postgres: tournament %q: %w: the id exists", t.ID, store.ErrConflict)
		}
		return tournamentRows(ctx, tx, t.ID, t.Players, t.Tables)
	})
	if err != nil {
		return err
	}
	t.Created, t.Updated, t.Version = created, updated, 1
	return nil
}

// tournamentRows adds or replaces players and tables of tournament id.
func tournamentRows(ctx context.Context, tx pgx.Tx, id string, players []store.TournamentPlayer, tables []store.TournamentTable) error {
	for _, p := range players {
		_, err := tx.Exec(ctx, `INSERT INTO tournament_players (tournament_id, account_id, name, rating, joined, status, rank, points)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
			ON CONFLICT (tournament_id, account_id) DO UPDATE SET name = excluded.name, rating = excluded.rating,
				joined = excluded.joined, status = excluded.status, rank = excluded.rank, points = excluded.points`,
			id, p.Account, p.Name, p.Rating, p.Joined.UnixNano(), p.Status, p.Rank, p.Points)
		if err != nil {
			return err
		}
	}
	for _, tb := range tables {
		var n int
		err := tx.QueryRow(ctx, "SELECT count(*) FROM tournament_tables WHERE game_id = $1 AND NOT (tournament_id = $2 AND round = $3 AND idx = $4)",
			tb.Game, id, tb.Round, tb.Index).Scan(&n)
		if err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("postgres: tournament %q: %w: game %q is another table's", id, store.ErrConflict, tb.Game)
		}
		seats, err := json.Marshal(tb.Seats)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO tournament_tables (tournament_id, round, idx, game_id, deal, seats, created, result, finished)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
			ON CONFLICT (tournament_id, round, idx) DO UPDATE SET game_id = excluded.game_id, deal = excluded.deal,
				seats = excluded.seats, created = excluded.created, result = excluded.result, finished = excluded.finished`,
			id, tb.Round, tb.Index, tb.Game, tb.Deal, string(seats), nanosOrZero(tb.Created), tb.Result, nanosOrNil(tb.Finished))
		if err != nil {
			return err
		}
	}
	return nil
}

// UpdateTournament implements store.Tournaments.
func (s *Store) UpdateTournament(ctx context.Context, t *store.Tournament, players []store.TournamentPlayer, tables []store.TournamentTable) error {
	if err := t.Check(); err != nil {
		return err
	}
	if err := store.CheckTournamentRows(t.ID, players, tables); err != nil {
		return err
	}
	var updated time.Time
	err := s.tx(ctx, "update tournament "+t.ID, func(tx pgx.Tx) error {
		var version int64
		err := tx.QueryRow(ctx, "SELECT version, clock_timestamp() FROM tournaments WHERE id = $1 FOR UPDATE", t.ID).Scan(&version, &updated)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("postgres: tournament %q: %w", t.ID, store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		if version != t.Version {
			return fmt.Errorf("postgres: tournament %q is at version %d, not %d: %w", t.ID, version, t.Version, store.ErrConflict)
		}
		_, err = tx.Exec(ctx, `UPDATE tournaments SET name = $1, status = $2, starts = $3, settings = $4, state = $5, updated = $6,
			version = version + 1 WHERE id = $7`, t.Name, string(t.Status), nanosOrNil(t.Starts), orEmpty(t.Settings), orEmpty(t.State),
			updated.UnixNano(), t.ID)
		if err != nil {
			return err
		}
		return tournamentRows(ctx, tx, t.ID, players, tables)
	})
	if err != nil {
		return err
	}
	t.Version++
	t.Updated = updated.UTC()
	return nil
}

const tournamentColumns = `id, name, format, organiser, status, starts, private, seed, settings, state, created, updated, version,
	(SELECT count(*) FROM tournament_players AS p WHERE p.tournament_id = t.id AND p.status IN ('in', 'paused'))`

func scanTournament(row pgx.Row) (*store.Tournament, error) {
	var (
		t                store.Tournament
		status           string
		starts           *int64
		created, updated int64
	)
	err := row.Scan(&t.ID, &t.Name, &t.Format, &t.Organiser, &status, &starts, &t.Private, &t.Seed, &t.Settings, &t.State,
		&created, &updated, &t.Version, &t.People)
	if err != nil {
		return nil, err
	}
	t.Status, t.Starts = store.TournamentStatus(status), timeOrZero(starts)
	t.Created, t.Updated = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
	return &t, nil
}

// Tournament implements store.Tournaments.
func (s *Store) Tournament(ctx context.Context, id string) (*store.Tournament, error) {
	var t *store.Tournament
	err := s.readTx(ctx, "read tournament "+id, func(tx pgx.Tx) error {
		var err error
		t, err = scanTournament(tx.QueryRow(ctx, "SELECT "+tournamentColumns+" FROM tournaments AS t WHERE id = $1", id))
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("postgres: tournament %q: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT account_id, name, rating, joined, status, rank, points FROM tournament_players
			WHERE tournament_id = $1 ORDER BY joined, account_id`, id)
		if err != nil {
			return err
		}
		t.Players, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.TournamentPlayer, error) {
			var p store.TournamentPlayer
			var joined int64
			err := r.Scan(&p.Account, &p.Name, &p.Rating, &joined, &p.Status, &p.Rank, &p.Points)
			p.Joined = time.Unix(0, joined).UTC()
			return p, err
		})
		if err != nil {
			return err
		}
		if len(t.Players) == 0 {
			t.Players = nil
		}
		rows, err = tx.Query(ctx, `SELECT round, idx, game_id, deal, seats, created, result, finished FROM tournament_tables
			WHERE tournament_id = $1 ORDER BY round, idx`, id)
		if err != nil {
			return err
		}
		t.Tables, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.TournamentTable, error) {
			var (
				tb       store.TournamentTable
				seats    string
				created  int64
				finished *int64
			)
			if err := r.Scan(&tb.Round, &tb.Index, &tb.Game, &tb.Deal, &seats, &created, &tb.Result, &finished); err != nil {
				return tb, err
			}
			if err := json.Unmarshal([]byte(seats), &tb.Seats); err != nil {
				return tb, fmt.Errorf("postgres: tournament %q table %d/%d: %w: %v", id, tb.Round, tb.Index, store.ErrCorrupt, err)
			}
			tb.Created, tb.Finished = timeOrZero(&created), timeOrZero(finished)
			return tb, nil
		})
		if len(t.Tables) == 0 {
			t.Tables = nil
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// ListTournaments implements store.Tournaments.
func (s *Store) ListTournaments(ctx context.Context, statuses []store.TournamentStatus, limit int) ([]store.Tournament, error) {
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	sts := make([]string, len(statuses))
	for i, st := range statuses {
		sts[i] = string(st)
	}
	rows, err := s.pool.Query(ctx, "SELECT "+tournamentColumns+` FROM tournaments AS t
		WHERE cardinality($1::text[]) = 0 OR status = ANY($1) ORDER BY COALESCE(starts, created) DESC, id LIMIT $2`, sts, lim)
	if err != nil {
		return nil, s.fail("list tournaments", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Tournament, error) {
		t, err := scanTournament(r)
		if err != nil {
			return store.Tournament{}, err
		}
		return *t, nil
	})
	if err != nil {
		return nil, s.fail("list tournaments", err)
	}
	return out, nil
}

// AccountTournaments implements store.Tournaments.
func (s *Store) AccountTournaments(ctx context.Context, account string, limit int) ([]store.TournamentEntry, error) {
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	rows, err := s.pool.Query(ctx, `
		SELECT t.id, t.name, t.format, t.status, COALESCE(t.starts, t.created), t.updated, p.rank, p.points,
			(SELECT count(*) FROM tournament_players AS q WHERE q.tournament_id = t.id AND q.status IN ('in', 'paused'))
		FROM tournament_players AS p JOIN tournaments AS t ON t.id = p.tournament_id
		WHERE p.account_id = $1 ORDER BY COALESCE(t.starts, t.created) DESC, t.id LIMIT $2`, account, lim)
	if err != nil {
		return nil, s.fail("list the tournaments of account "+account, err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.TournamentEntry, error) {
		var (
			e               store.TournamentEntry
			status          string
			starts, updated int64
		)
		err := r.Scan(&e.Tournament, &e.Name, &e.Format, &status, &starts, &updated, &e.Rank, &e.Points, &e.People)
		e.Status, e.Starts, e.Updated = store.TournamentStatus(status), time.Unix(0, starts).UTC(), time.Unix(0, updated).UTC()
		return e, err
	})
	if err != nil {
		return nil, s.fail("list the tournaments of account "+account, err)
	}
	return out, nil
}

// TournamentOfGame implements store.Tournaments.
func (s *Store) TournamentOfGame(ctx context.Context, game string) (string, error) {
	var id string
	err := s.pool.QueryRow(ctx, "SELECT tournament_id FROM tournament_tables WHERE game_id = $1", game).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("postgres: game %q is no tournament's table: %w", game, store.ErrNotFound)
	}
	if err != nil {
		return "", s.fail("find the tournament of game "+game, err)
	}
	return id, nil
}

// tournamentLease runs f on the lease of live tournament id, its row
// locked, and stores what it returns.
func (s *Store) tournamentLease(ctx context.Context, id, what string, f store.LeaseStep) (store.Lease, error) {
	var out store.Lease
	err := s.tx(ctx, what+" of tournament "+id, func(tx pgx.Tx) error {
		var (
			status  string
			node    *string
			expires *time.Time
			now     time.Time
			cur     = store.Lease{Game: id}
		)
		err := tx.QueryRow(ctx, "SELECT status, lease_node, lease_fence, lease_expires, clock_timestamp() FROM tournaments WHERE id = $1 FOR UPDATE", id).
			Scan(&status, &node, &cur.Fence, &expires, &now)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("postgres: tournament %q: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		if !store.TournamentStatus(status).Live() {
			return fmt.Errorf("postgres: tournament %q is %s: %w", id, status, store.ErrConflict)
		}
		if node != nil && expires != nil {
			cur.Node, cur.Expires = *node, *expires
		}
		next, err := f(cur, now)
		if err != nil {
			return fmt.Errorf("postgres: %w", err)
		}
		var n *string
		var e *time.Time
		if next.Node != "" {
			n, e = &next.Node, &next.Expires
		}
		if _, err := tx.Exec(ctx, "UPDATE tournaments SET lease_node = $1, lease_fence = $2, lease_expires = $3 WHERE id = $4", n, int64(next.Fence), e, id); err != nil {
			return err
		}
		out = next
		return nil
	})
	return out, err
}

// AcquireTournamentLease implements store.Tournaments.
func (s *Store) AcquireTournamentLease(ctx context.Context, id, node string, ttl time.Duration) (store.Lease, error) {
	if err := store.CheckLease(id, node, ttl); err != nil {
		return store.Lease{}, err
	}
	return s.tournamentLease(ctx, id, "lease", store.AcquireStep(node, ttl))
}

// RenewTournamentLease implements store.Tournaments.
func (s *Store) RenewTournamentLease(ctx context.Context, l store.Lease, ttl time.Duration) (store.Lease, error) {
	if err := store.CheckLease(l.Game, l.Node, ttl); err != nil {
		return store.Lease{}, err
	}
	return s.tournamentLease(ctx, l.Game, "renew the lease", store.RenewStep(l, ttl))
}

// ReleaseTournamentLease implements store.Tournaments.
func (s *Store) ReleaseTournamentLease(ctx context.Context, l store.Lease) error {
	_, err := s.tournamentLease(ctx, l.Game, "release the lease", store.ReleaseStep(l))
	return err
}

// UnownedTournaments implements store.Tournaments.
func (s *Store) UnownedTournaments(ctx context.Context, limit int) ([]string, error) {
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	rows, err := s.pool.Query(ctx, `SELECT id FROM tournaments
		WHERE status IN ('waiting', 'running') AND NOT `+liveLease+` ORDER BY id LIMIT $1`, lim)
	if err != nil {
		return nil, s.fail("list unowned tournaments", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, s.fail("list unowned tournaments", err)
	}
	return ids, nil
}
