package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/razziagame/razzia/internal/store"
)

var _ store.Copier = (*Store)(nil)

// ErrInUse is a database that a razzia server seems to be using (InUse).
var ErrInUse = errors.New("the database is in use")

// carried are the columns PostgreSQL keeps of a game in its last move's
// row (see lastMove), by table: a copy neither reads nor writes them (a
// move copied leaves its game's row to hold them), and Tables leaves them
// out.
var carried = map[string][]string{"moves": {"updated", "clock"}}

// latest are the columns a copy reads as the latest of a game's row and
// its last move's (see lastMove), by table, with the expression it reads.
var latest = map[string]map[string]string{
	"games": {"updated": updatedOf("games"), "move_count": movesOf("games"), "clock": clockOf("games")},
}

// Tables implements store.Copier: the tables of the connection's current
// schema, without the columns PostgreSQL derives from the others and the
// carried columns.
func (s *Store) Tables(ctx context.Context) (map[string][]store.SchemaColumn, error) {
	rows, err := s.pool.Query(ctx, `SELECT table_name, column_name, data_type, is_nullable = 'YES' FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name <> $1 AND is_generated = 'NEVER'
		ORDER BY table_name, ordinal_position`, versionTable)
	if err != nil {
		return nil, s.errorf("list its tables: %w", err)
	}
	tables := map[string][]store.SchemaColumn{}
	var table string
	var c store.SchemaColumn
	_, err = pgx.ForEachRow(rows, []any{&table, &c.Name, &c.Type, &c.Nullable}, func() error {
		if slices.Contains(carried[table], c.Name) {
			return nil
		}
		tables[table] = append(tables[table], c)
		return nil
	})
	if err != nil {
		return nil, s.errorf("list its tables: %w", err)
	}
	return tables, nil
}

// Dump implements store.Copier, in one read-only transaction. Text keys
// are ordered byte by byte (COLLATE "C"), as SQLite orders them.
func (s *Store) Dump(ctx context.Context, k *store.Kind, yield func(store.Row) error) error {
	order := make([]string, k.Key)
	for i, c := range k.Columns[:k.Key] {
		order[i] = c.Name
		if c.Type == store.Text {
			order[i] += ` COLLATE "C"`
		}
	}
	q := fmt.Sprintf("SELECT %s FROM %s ORDER BY %s", k.Select(latest[k.Table]), k.Table, strings.Join(order, ", "))
	var yieldErr error // the caller's, passed on as it is
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead}, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, q)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				return err
			}
			r, err := decode(k, vals)
			if err != nil {
				return err
			}
			if yieldErr = yield(r); yieldErr != nil {
				return yieldErr
			}
		}
		return rows.Err()
	})
	switch {
	case yieldErr != nil:
		return yieldErr
	case err != nil:
		return s.errorf("read the %s: %w", k.Many, err)
	}
	return nil
}

// decode makes a store.Row of the values pgx read: integers of every
// width as int64, times in UTC.
func decode(k *store.Kind, vals []any) (store.Row, error) {
	r := store.Row(vals)
	for i := range r {
		switch v := r[i].(type) {
		case int16:
			r[i] = int64(v)
		case int32:
			r[i] = int64(v)
		case float32:
			r[i] = float64(v)
		case time.Time:
			r[i] = v.UTC()
		}
	}
	if err := k.Check(r); err != nil {
		return nil, fmt.Errorf("%w: %v", store.ErrCorrupt, err)
	}
	return r, nil
}

// Restore implements store.Copier, in one transaction.
func (s *Store) Restore(ctx context.Context, opts store.RestoreOptions, read store.ReadFunc) ([]store.Tally, error) {
	var tallies []store.Tally
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		tallies, err = store.RestoreRows(ctx, opts, read, rowWriter{tx})
		return err
	})
	if err != nil {
		var ce *store.CopyError
		if errors.Is(err, store.ErrNotEmpty) || errors.As(err, &ce) {
			return nil, fmt.Errorf("postgres: database %s: %w", s.where, err)
		}
		return nil, s.errorf("restore a copy: %w", err)
	}
	return tallies, nil
}

// rowWriter is Restore's store.RowWriter.
type rowWriter struct{ tx pgx.Tx }

// InsertMany implements store.BulkWriter with COPY.
func (rw rowWriter) InsertMany(ctx context.Context, k *store.Kind, rows []store.Row) error {
	src := make([][]any, len(rows))
	for i, r := range rows {
		src[i] = r
	}
	_, err := rw.tx.CopyFrom(ctx, pgx.Identifier{k.Table}, k.Names(), pgx.CopyFromRows(src))
	return err
}

func (rw rowWriter) Holds(ctx context.Context, k *store.Kind) (bool, error) {
	var has bool
	err := rw.tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM "+k.Table+")").Scan(&has)
	return has, err
}

func (rw rowWriter) Insert(ctx context.Context, k *store.Kind, r store.Row, merge bool) (bool, error) {
	params := make([]string, len(r))
	for i := range params {
		params[i] = fmt.Sprintf("$%d", i+1)
	}
	q := fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", k.Table, strings.Join(k.Names(), ", "), strings.Join(params, ", "))
	if merge {
		q += " ON CONFLICT DO NOTHING"
	}
	tag, err := rw.tx.Exec(ctx, q, r...)
	if err != nil {
		return false, err
	}
	return tag.RowsAffected() == 1, nil
}

func (rw rowWriter) Get(ctx context.Context, k *store.Kind, r store.Row) (store.Row, error) {
	names := k.Names()
	where := make([]string, k.Key)
	for i := range where {
		where[i] = fmt.Sprintf("%s = $%d", names[i], i+1)
	}
	q := fmt.Sprintf("SELECT %s FROM %s WHERE %s", k.Select(latest[k.Table]), k.Table, strings.Join(where, " AND "))
	rows, err := rw.tx.Query(ctx, q, r[:k.Key]...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if !rows.Next() {
		return nil, rows.Err()
	}
	vals, err := rows.Values()
	if err != nil {
		return nil, err
	}
	have, err := decode(k, vals)
	if err != nil {
		return nil, err
	}
	rows.Close()
	return have, rows.Err()
}

// InUse reports, as an error wrapping ErrInUse, what shows that a razzia
// server uses the database: another razzia store's session is connected
// to it (by its application_name, Options.ApplicationName), or a node
// holds a live lease on a game. nil means neither.
func (s *Store) InUse(ctx context.Context) error {
	var sessions int
	var from string
	err := s.pool.QueryRow(ctx, `SELECT count(*), coalesce(string_agg(DISTINCT coalesce(host(client_addr), 'a local socket'), ', '), '')
		FROM pg_stat_activity
		WHERE datname = current_database() AND application_name = $1 AND pid <> pg_backend_pid()`, DefaultApplicationName).Scan(&sessions, &from)
	if err != nil {
		return s.errorf("look for the servers connected to it: %w", err)
	}
	if sessions > 0 {
		return s.errorf("%w: %s connected to it, from %s", ErrInUse,
			plural(sessions, "a razzia server's session is", "%d sessions of razzia servers are"), from)
	}
	var node string
	var games int
	var until time.Time
	err = s.pool.QueryRow(ctx, `SELECT lease_node, count(*), max(lease_expires) FROM games WHERE `+liveLease+`
		GROUP BY lease_node ORDER BY max(lease_expires) DESC LIMIT 1`).Scan(&node, &games, &until)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil
	case err != nil:
		return s.errorf("look for the leases of running servers: %w", err)
	}
	return s.errorf("%w: node %s holds the lease of %s until %s (a server runs on it, or stopped less than a lease ago)",
		ErrInUse, node, plural(games, "a live game", "%d live games"), until.UTC().Format(time.RFC3339))
}

// plural returns one when n is 1, else many with n in it.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return fmt.Sprintf(many, n)
}
