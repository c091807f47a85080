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

var _ store.Tournaments = (*Store)(nil)

// nanosOrNil is t in Unix nanoseconds, NULL for the zero time.
func nanosOrNil(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixNano()
}

// nanosOrZero is t in Unix nanoseconds, 0 for the zero time.
func nanosOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func timeOrZero(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return fromNanos(n.Int64)
}

func bytesOrNil(b []byte) any {
	if b == nil {
		return nil
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
	return s.write(ctx, "create tournament "+t.ID, func(w *wtx) (*store.Change, error) {
		var n int
		if err := w.rowSQL("SELECT count(*) FROM tournaments WHERE id = ?", t.ID).Scan(&n); err != nil {
			return nil, err
		}
		if n > 0 {
			return nil, fmt.Errorf("sqlite: tournament %q: %w: the id exists", t.ID, store.ErrConflict)
		}
		if t.Created.IsZero() {
			t.Created = w.now
		}
		if t.Updated.IsZero() {
			t.Updated = t.Created
		}
		_, err := w.execSQL(`INSERT INTO tournaments (id, name, format, organiser, status, starts, private, seed, settings, state, created, updated, version)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`,
			t.ID, t.Name, t.Format, t.Organiser, string(t.Status), nanosOrNil(t.Starts), bytesOrNil(t.Private), t.Seed,
			orEmpty(t.Settings), orEmpty(t.State), t.Created.UnixNano(), t.Updated.UnixNano())
		if err != nil {
			return nil, err
		}
		if err := w.tournamentRows(t.ID, t.Players, t.Tables); err != nil {
			return nil, err
		}
		t.Version = 1
		return nil, nil
	})
}

func orEmpty(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// tournamentRows adds or replaces players and tables of tournament id.
func (w *wtx) tournamentRows(id string, players []store.TournamentPlayer, tables []store.TournamentTable) error {
	for _, p := range players {
		_, err := w.execSQL(`INSERT INTO tournament_players (tournament_id, account_id, name, rating, joined, status, rank, points)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (tournament_id, account_id) DO UPDATE SET name = excluded.name, rating = excluded.rating,
				joined = excluded.joined, status = excluded.status, rank = excluded.rank, points = excluded.points`,
			id, p.Account, p.Name, p.Rating, p.Joined.UnixNano(), p.Status, p.Rank, p.Points)
		if err != nil {
			return err
		}
	}
	for _, tb := range tables {
		var n int
		err := w.rowSQL("SELECT count(*) FROM tournament_tables WHERE game_id = ? AND NOT (tournament_id = ? AND round = ? AND idx = ?)",
			tb.Game, id, tb.Round, tb.Index).Scan(&n)
		if err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("sqlite: tournament %q: %w: game %q is another table's", id, store.ErrConflict, tb.Game)
		}
		seats, err := json.Marshal(tb.Seats)
		if err != nil {
			return err
		}
		_, err = w.execSQL(`INSERT INTO tournament_tables (tournament_id, round, idx, game_id, deal, seats, created, result, finished)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (tournament_id, round, idx) DO UPDATE SET game_id = excluded.game_id, deal = excluded.deal,
				seats = excluded.seats, created = excluded.created, result = excluded.result, finished = excluded.finished`,
			id, tb.Round, tb.Index, tb.Game, tb.Deal, string(seats), nanosOrZero(tb.Created), bytesOrNil(tb.Result), nanosOrNil(tb.Finished))
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
	err := s.write(ctx, "update tournament "+t.ID, func(w *wtx) (*store.Change, error) {
		var version int64
		err := w.rowSQL("SELECT version FROM tournaments WHERE id = ?", t.ID).Scan(&version)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("sqlite: tournament %q: %w", t.ID, store.ErrNotFound)
		}
		if err != nil {
			return nil, err
		}
		if version != t.Version {
			return nil, fmt.Errorf("sqlite: tournament %q is at version %d, not %d: %w", t.ID, version, t.Version, store.ErrConflict)
		}
		updated = w.now
		_, err = w.execSQL(`UPDATE tournaments SET name = ?, status = ?, starts = ?, settings = ?, state = ?, updated = ?, version = version + 1
			WHERE id = ?`, t.Name, string(t.Status), nanosOrNil(t.Starts), orEmpty(t.Settings), orEmpty(t.State), updated.UnixNano(), t.ID)
		if err != nil {
			return nil, err
		}
		return nil, w.tournamentRows(t.ID, players, tables)
	})
	if err != nil {
		return err
	}
	t.Version++
	t.Updated = updated
	return nil
}

const tournamentColumns = `id, name, format, organiser, status, starts, private, seed, settings, state, created, updated, version,
	(SELECT count(*) FROM tournament_players AS p WHERE p.tournament_id = t.id AND p.status IN ('in', 'paused'))`

func scanTournament(row interface{ Scan(...any) error }) (*store.Tournament, error) {
	var (
		t                store.Tournament
		status           string
		starts           sql.NullInt64
		created, updated int64
	)
	err := row.Scan(&t.ID, &t.Name, &t.Format, &t.Organiser, &status, &starts, &t.Private, &t.Seed, &t.Settings, &t.State,
		&created, &updated, &t.Version, &t.People)
	if err != nil {
		return nil, err
	}
	t.Status, t.Starts, t.Created, t.Updated = store.TournamentStatus(status), timeOrZero(starts), fromNanos(created), fromNanos(updated)
	return &t, nil
}

// Tournament implements store.Tournaments.
func (s *Store) Tournament(ctx context.Context, id string) (*store.Tournament, error) {
	var t *store.Tournament
	err := s.read(ctx, "read tournament "+id, func(tx *sql.Tx) error {
		var err error
		t, err = scanTournament(tx.QueryRowContext(ctx, "SELECT "+tournamentColumns+" FROM tournaments AS t WHERE id = ?", id))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlite: tournament %q: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT account_id, name, rating, joined, status, rank, points FROM tournament_players
			WHERE tournament_id = ? ORDER BY joined, account_id`, id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var p store.TournamentPlayer
			var joined int64
			if err := rows.Scan(&p.Account, &p.Name, &p.Rating, &joined, &p.Status, &p.Rank, &p.Points); err != nil {
				return err
			}
			p.Joined = fromNanos(joined)
			t.Players = append(t.Players, p)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		tables, err := tx.QueryContext(ctx, `SELECT round, idx, game_id, deal, seats, created, result, finished FROM tournament_tables
			WHERE tournament_id = ? ORDER BY round, idx`, id)
		if err != nil {
			return err
		}
		defer tables.Close()
		for tables.Next() {
			var (
				tb       store.TournamentTable
				seats    string
				created  int64
				finished sql.NullInt64
			)
			if err := tables.Scan(&tb.Round, &tb.Index, &tb.Game, &tb.Deal, &seats, &created, &tb.Result, &finished); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(seats), &tb.Seats); err != nil {
				return fmt.Errorf("sqlite: tournament %q table %d/%d: %w: %v", id, tb.Round, tb.Index, store.ErrCorrupt, err)
			}
			tb.Created, tb.Finished = timeOrZero(sql.NullInt64{Int64: created, Valid: created != 0}), timeOrZero(finished)
			t.Tables = append(t.Tables, tb)
		}
		return tables.Err()
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// ListTournaments implements store.Tournaments.
func (s *Store) ListTournaments(ctx context.Context, statuses []store.TournamentStatus, limit int) ([]store.Tournament, error) {
	where, args := "", []any{}
	if len(statuses) > 0 {
		where = "WHERE status IN (?" + strings.Repeat(", ?", len(statuses)-1) + ")"
		for _, st := range statuses {
			args = append(args, string(st))
		}
	}
	if limit <= 0 {
		limit = -1
	}
	args = append(args, limit)
	var out []store.Tournament
	err := s.read(ctx, "list tournaments", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, "SELECT "+tournamentColumns+" FROM tournaments AS t "+where+
			" ORDER BY COALESCE(starts, created) DESC, id LIMIT ?", args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			t, err := scanTournament(rows)
			if err != nil {
				return err
			}
			out = append(out, *t)
		}
		return rows.Err()
	})
	return out, err
}

// AccountTournaments implements store.Tournaments.
func (s *Store) AccountTournaments(ctx context.Context, account string, limit int) ([]store.TournamentEntry, error) {
	if limit <= 0 {
		limit = -1
	}
	var out []store.TournamentEntry
	err := s.read(ctx, "list the tournaments of account "+account, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `
			SELECT t.id, t.name, t.format, t.status, COALESCE(t.starts, t.created), t.updated, p.rank, p.points,
				(SELECT count(*) FROM tournament_players AS q WHERE q.tournament_id = t.id AND q.status IN ('in', 'paused'))
			FROM tournament_players AS p JOIN tournaments AS t ON t.id = p.tournament_id
			WHERE p.account_id = ? ORDER BY COALESCE(t.starts, t.created) DESC, t.id LIMIT ?`, account, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				e               store.TournamentEntry
				status          string
				starts, updated int64
			)
			if err := rows.Scan(&e.Tournament, &e.Name, &e.Format, &status, &starts, &updated, &e.Rank, &e.Points, &e.People); err != nil {
				return err
			}
			e.Status, e.Starts, e.Updated = store.TournamentStatus(status), fromNanos(starts), fromNanos(updated)
			out = append(out, e)
		}
		return rows.Err()
	})
	return out, err
}

// TournamentOfGame implements store.Tournaments.
func (s *Store) TournamentOfGame(ctx context.Context, game string) (string, error) {
	var id string
	err := s.read(ctx, "find the tournament of game "+game, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, "SELECT tournament_id FROM tournament_tables WHERE game_id = ?", game).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlite: game %q is no tournament's table: %w", game, store.ErrNotFound)
		}
		return err
	})
	return id, err
}

// tournamentLease runs f on the lease of live tournament id and stores
// what it returns.
func (s *Store) tournamentLease(ctx context.Context, id, what string, f store.LeaseStep) (store.Lease, error) {
	var out store.Lease
	err := s.write(ctx, what+" of tournament "+id, func(w *wtx) (*store.Change, error) {
		var (
			status  string
			node    sql.NullString
			expires sql.NullInt64
			cur     = store.Lease{Game: id}
		)
		err := w.rowSQL("SELECT status, lease_node, lease_fence, lease_expires FROM tournaments WHERE id = ?", id).
			Scan(&status, &node, &cur.Fence, &expires)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("sqlite: tournament %q: %w", id, store.ErrNotFound)
		}
		if err != nil {
			return nil, err
		}
		if !store.TournamentStatus(status).Live() {
			return nil, fmt.Errorf("sqlite: tournament %q is %s: %w", id, status, store.ErrConflict)
		}
		if node.Valid && expires.Valid {
			cur.Node, cur.Expires = node.String, fromNanos(expires.Int64)
		}
		next, err := f(cur, w.now)
		if err != nil {
			return nil, fmt.Errorf("sqlite: %w", err)
		}
		var n, e any
		if next.Node != "" {
			n, e = next.Node, next.Expires.UnixNano()
		}
		if _, err := w.execSQL("UPDATE tournaments SET lease_node = ?, lease_fence = ?, lease_expires = ? WHERE id = ?", n, int64(next.Fence), e, id); err != nil {
			return nil, err
		}
		out = next
		return nil, nil
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
	if limit <= 0 {
		limit = -1
	}
	var ids []string
	err := s.read(ctx, "list unowned tournaments", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id FROM tournaments
			WHERE status IN ('waiting', 'running') AND (lease_expires IS NULL OR lease_expires <= ?) ORDER BY id LIMIT ?`,
			time.Now().UnixNano(), limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return rows.Err()
	})
	return ids, err
}
