package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

var _ store.Copier = (*Store)(nil)

// derived are the columns SQLite keeps of the others of their row (a
// plain column where PostgreSQL generates it: see migration 00015), by
// table: a copy neither reads nor writes them, Tables leaves them out
// and Restore makes them from the row.
var derived = map[string]struct{ column, value string }{
	"games": {"listed", listedAs("status", "updated")},
}

// carried are the columns SQLite keeps of a game in its last move's row
// (see lastMove), by table: a copy neither reads nor writes them (a
// move copied leaves its game's row to hold them), and Tables leaves them
// out.
var carried = map[string][]string{"moves": {"updated", "clock"}}

// latest are the columns a copy reads as the latest of a game's row and
// its last move's (see lastMove), by table, with the expression it reads.
var latest = map[string]map[string]string{
	"games": {"updated": updatedOf("games"), "move_count": movesOf("games"), "clock": clockOf("games")},
}

// Tables implements store.Copier, without the derived and the carried
// columns.
func (s *Store) Tables(ctx context.Context) (map[string][]store.SchemaColumn, error) {
	tables := map[string][]store.SchemaColumn{}
	err := s.read(ctx, "list the tables of", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT m.name, c.name, lower(c.type), NOT c."notnull" FROM sqlite_schema AS m, pragma_table_info(m.name) AS c
			WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> 'goose_db_version' ORDER BY m.name, c.cid`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var table string
			var c store.SchemaColumn
			if err := rows.Scan(&table, &c.Name, &c.Type, &c.Nullable); err != nil {
				return err
			}
			if derived[table].column == c.Name || slices.Contains(carried[table], c.Name) {
				continue
			}
			tables[table] = append(tables[table], c)
		}
		return rows.Err()
	})
	return tables, err
}

// Dump implements store.Copier, in one read transaction.
func (s *Store) Dump(ctx context.Context, k *store.Kind, yield func(store.Row) error) error {
	names := k.Names()
	q := fmt.Sprintf("SELECT %s FROM %s ORDER BY %s", k.Select(latest[k.Table]), k.Table, strings.Join(names[:k.Key], ", "))
	var yieldErr error // the caller's, passed on as it is
	err := s.read(ctx, "read the "+k.Many+" of", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, q)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			r, err := scanRow(k, rows)
			if err != nil {
				return err
			}
			if yieldErr = yield(r); yieldErr != nil {
				return yieldErr
			}
		}
		return rows.Err()
	})
	if yieldErr != nil {
		return yieldErr
	}
	return err
}

// scanRow reads a row of k as a store.Row: SQLite keeps booleans as 0 or
// 1 and times as Unix nanoseconds.
func scanRow(k *store.Kind, rows interface{ Scan(...any) error }) (store.Row, error) {
	r := make(store.Row, len(k.Columns))
	ptrs := make([]any, len(r))
	for i := range r {
		ptrs[i] = &r[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return nil, err
	}
	for i, c := range k.Columns {
		n, isInt := r[i].(int64)
		switch {
		case r[i] == nil:
		case c.Type == store.Bool && isInt:
			r[i] = n != 0
		case c.Type == store.Time && isInt:
			r[i] = time.Unix(0, n).UTC()
		case c.Type == store.Blob:
			if str, ok := r[i].(string); ok {
				r[i] = []byte(str)
			}
		}
	}
	if err := k.Check(r); err != nil {
		return nil, fmt.Errorf("%w: %v", store.ErrCorrupt, err)
	}
	return r, nil
}

// encode returns the values of r as SQLite keeps them.
func encode(r store.Row) []any {
	args := make([]any, len(r))
	for i := range r {
		switch v := r[i].(type) {
		case bool:
			args[i] = int64(0)
			if v {
				args[i] = int64(1)
			}
		case time.Time:
			args[i] = v.UnixNano()
		case []byte:
			if v == nil {
				v = []byte{}
			}
			args[i] = v
		default:
			args[i] = v
		}
	}
	return args
}

// Restore implements store.Copier: one write of the writer, so one
// transaction, which a failure rolls back whole.
func (s *Store) Restore(ctx context.Context, opts store.RestoreOptions, read store.ReadFunc) ([]store.Tally, error) {
	var tallies []store.Tally
	err := s.write(ctx, "restore a copy into", func(w *wtx) (*store.Change, error) {
		var err error
		rw := &rowWriter{tx: w.tx, inserts: map[*store.Kind]*sql.Stmt{}}
		defer rw.close()
		tallies, err = store.RestoreRows(ctx, opts, read, rw)
		return nil, err
	})
	if err != nil {
		return nil, err
	}
	return tallies, nil
}

// rowWriter is Restore's store.RowWriter: it prepares the insert of each
// kind once.
type rowWriter struct {
	tx      *sql.Conn
	inserts map[*store.Kind]*sql.Stmt
}

func (rw *rowWriter) close() {
	for _, st := range rw.inserts {
		st.Close()
	}
}

func (rw *rowWriter) Holds(ctx context.Context, k *store.Kind) (bool, error) {
	var has bool
	err := rw.tx.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM "+k.Table+")").Scan(&has)
	return has, err
}

func (rw *rowWriter) Insert(ctx context.Context, k *store.Kind, r store.Row, merge bool) (bool, error) {
	st := rw.inserts[k]
	if st == nil {
		q := insertSQL(k)
		if merge {
			q += " ON CONFLICT DO NOTHING"
		}
		var err error
		if st, err = rw.tx.PrepareContext(ctx, q); err != nil {
			return false, err
		}
		rw.inserts[k] = st
	}
	res, err := st.ExecContext(ctx, encode(r)...)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (rw *rowWriter) Get(ctx context.Context, k *store.Kind, r store.Row) (store.Row, error) {
	names := k.Names()
	where := strings.Join(names[:k.Key], " = ? AND ") + " = ?"
	q := fmt.Sprintf("SELECT %s FROM %s WHERE %s", k.Select(latest[k.Table]), k.Table, where)
	have, err := scanRow(k, rw.tx.QueryRowContext(ctx, q, encode(r)[:k.Key]...))
	if err == sql.ErrNoRows {
		return nil, nil
	}
	return have, err
}

// insertSQL is the statement that inserts a row of k, its derived column
// made from the row's values by name: the WHERE clause tells the upsert
// that may follow from a join.
func insertSQL(k *store.Kind) string {
	names := strings.Join(k.Names(), ", ")
	d, ok := derived[k.Table]
	if !ok {
		return fmt.Sprintf("INSERT INTO %s (%s) VALUES (?%s)", k.Table, names, strings.Repeat(", ?", len(k.Columns)-1))
	}
	values := make([]string, len(k.Columns))
	for i, name := range k.Names() {
		values[i] = "? AS " + name
	}
	return fmt.Sprintf("INSERT INTO %s (%s, %s) SELECT *, %s FROM (SELECT %s) WHERE true",
		k.Table, names, d.column, d.value, strings.Join(values, ", "))
}
