package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Copier is the port through which razzia migrate moves a database from
// one store to another, row by row, losing nothing: every table the
// schema keeps is a Kind, Dump reads its rows and Restore writes them.
// The SQLite and PostgreSQL stores implement it; storetest.RunCopy is its
// specification, and checks that Kinds names every table and column of
// the store's schema, so that a table added later cannot be left behind.
type Copier interface {
	// Tables returns the tables of the database's schema with their
	// columns, from the database's catalogue, leaving out only the
	// store's own record of its migrations.
	Tables(ctx context.Context) (map[string][]SchemaColumn, error)
	// Dump calls yield with every row of the kind's table, in the order
	// of its key, until yield returns an error, which Dump returns.
	Dump(ctx context.Context, k *Kind, yield func(Row) error) error
	// Restore writes, in one transaction, the rows read gives for each
	// kind of Kinds in turn, and returns what it did with each kind, in
	// the order of Kinds. A destination that holds any row of any kind is
	// refused with ErrNotEmpty unless opts.Merge. Any error (read's
	// included) leaves the destination as it was.
	Restore(ctx context.Context, opts RestoreOptions, read ReadFunc) ([]Tally, error)
}

// A SchemaColumn is a column as the database's catalogue describes it.
type SchemaColumn struct {
	Name     string
	Type     string // as declared, in lower case: "integer", "bytea"
	Nullable bool
}

// A ReadFunc gives the rows of a kind to Restore, as a Copier's Dump does.
type ReadFunc func(ctx context.Context, k *Kind, yield func(Row) error) error

// RestoreOptions tune a Restore.
type RestoreOptions struct {
	// Merge lets Restore write into a destination that holds data: a row
	// whose key is there already is kept, if it is the same as the one
	// read, and a row that differs fails the restore with ErrConflict.
	Merge bool
}

// A Tally is what Restore did with the rows of one kind.
type Tally struct {
	Kind  *Kind
	Added int // rows written
	Kept  int // rows in the destination already, the same (Merge)
}

// ErrNoDatabase is a database to read that is not there: a missing or
// empty SQLite file, a PostgreSQL schema without razzia's tables (see
// the Existing options of the stores), which was not created.
var ErrNoDatabase = errors.New("no razzia database")

// ErrNotEmpty is a Restore into a destination that holds data, without
// RestoreOptions.Merge.
var ErrNotEmpty = errors.New("the database holds data already")

// A ColumnType is how a column's values travel between stores: each
// store converts its own representation (PostgreSQL's booleans and
// timestamps, SQLite's integers for both) to and from the Go value.
type ColumnType int

// The column types and the Go type of their values in a Row (nil is NULL).
const (
	Text ColumnType = iota // string
	Int                    // int64
	Real                   // float64
	Blob                   // []byte
	Bool                   // bool
	Time                   // time.Time in UTC; PostgreSQL keeps microseconds
)

var columnTypes = [...]string{Text: "text", Int: "integer", Real: "real", Blob: "blob", Bool: "boolean", Time: "time"}

func (c ColumnType) String() string {
	if c < 0 || int(c) >= len(columnTypes) {
		return fmt.Sprintf("ColumnType(%d)", int(c))
	}
	return columnTypes[c]
}

// A Column is a column of a kind's table.
type Column struct {
	Name string
	Type ColumnType
}

// A Row is one row of a kind's table: a value for each of its Columns,
// in their order.
type Row []any

// A Kind is one table of the schema as a copy sees it.
type Kind struct {
	Table    string
	One      string // what one row is, for people: "game"
	Many     string // and several: "games"
	Key      int    // the first Key columns are the primary key
	Columns  []Column
	Nullable map[string]bool // the columns that may be NULL
}

// Count says n rows of the kind in words, the plural right: "1 game",
// "2 games".
func (k *Kind) Count(n int) string {
	if n == 1 {
		return "1 " + k.One
	}
	return fmt.Sprintf("%d %s", n, k.Many)
}

// Select returns the list of k's columns a store reads, those exprs names
// read as their expressions (a column whose value the store keeps
// elsewhere too), under their names.
func (k *Kind) Select(exprs map[string]string) string {
	names := k.Names()
	for i, n := range names {
		if x, ok := exprs[n]; ok {
			names[i] = x + " AS " + n
		}
	}
	return strings.Join(names, ", ")
}

// Names returns the names of the kind's columns, in order.
func (k *Kind) Names() []string {
	names := make([]string, len(k.Columns))
	for i, c := range k.Columns {
		names[i] = c.Name
	}
	return names
}

// KeyOf describes the key of row r, for messages: "game_id=g1, idx=3".
func (k *Kind) KeyOf(r Row) string {
	var b strings.Builder
	for i := range min(k.Key, len(r)) {
		if i > 0 {
			b.WriteString(", ")
		}
		v := r[i]
		if bs, ok := v.([]byte); ok {
			v = fmt.Sprintf("%x", bs)
		}
		fmt.Fprintf(&b, "%s=%v", k.Columns[i].Name, v)
	}
	return b.String()
}

// Check reports what makes r unfit to restore as a row of the kind: a
// wrong number of values, a value of the wrong Go type, a NULL where the
// schema wants a value. Every Restore checks each row with it.
func (k *Kind) Check(r Row) error {
	if len(r) != len(k.Columns) {
		return fmt.Errorf("%s: a row of %d values, want %d (%s)", k.Table, len(r), len(k.Columns), strings.Join(k.Names(), ", "))
	}
	for i, c := range k.Columns {
		v := r[i]
		if v == nil {
			if !k.Nullable[c.Name] {
				return fmt.Errorf("%s (%s): %s is NULL", k.Table, k.KeyOf(r), c.Name)
			}
			continue
		}
		ok := false
		switch c.Type {
		case Text:
			_, ok = v.(string)
		case Int:
			_, ok = v.(int64)
		case Real:
			_, ok = v.(float64)
		case Blob:
			_, ok = v.([]byte)
		case Bool:
			_, ok = v.(bool)
		case Time:
			_, ok = v.(time.Time)
		}
		if !ok {
			return fmt.Errorf("%s (%s): %s is a %T, want %s", k.Table, k.KeyOf(r), c.Name, v, c.Type)
		}
	}
	return nil
}

// Equal reports whether a and b are the same row of the kind: times as
// instants to the microsecond, which is what PostgreSQL keeps.
func (k *Kind) Equal(a, b Row) bool {
	if len(a) != len(b) || len(a) != len(k.Columns) {
		return false
	}
	for i, c := range k.Columns {
		x, y := a[i], b[i]
		if x == nil || y == nil {
			if x != nil || y != nil {
				return false
			}
			continue
		}
		switch c.Type {
		case Blob:
			xb, ok1 := x.([]byte)
			yb, ok2 := y.([]byte)
			if !ok1 || !ok2 || !bytes.Equal(xb, yb) {
				return false
			}
		case Time:
			xt, ok1 := x.(time.Time)
			yt, ok2 := y.(time.Time)
			if !ok1 || !ok2 || !xt.Truncate(time.Microsecond).Equal(yt.Truncate(time.Microsecond)) {
				return false
			}
		default:
			if x != y {
				return false
			}
		}
	}
	return true
}

// KindOf returns the kind whose table is name, or nil.
func KindOf(name string) *Kind {
	for _, k := range Kinds {
		if k.Table == name {
			return k
		}
	}
	return nil
}

// NotCopied are the tables of the schema that a copy leaves out, and why.
// Every other table must be a Kind (storetest checks it).
var NotCopied = map[string]string{
	"health": "a health check's scratch row, rewritten at every check",
	// Presence: who is connected to the nodes now, which a copy cannot
	// carry (the connections end with the nodes).
	"presence":       "a WebSocket connected to a node, gone with the node",
	"presence_nodes": "a node's liveness, renewed while it runs",
}

func nullable(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Kinds are the tables a copy carries, in an order in which every row
// comes after the rows it refers to.
var Kinds = []*Kind{
	{Table: "accounts", One: "account", Many: "accounts", Key: 1, Columns: []Column{
		{"id", Text}, {"name", Text}, {"name_key", Text}, {"password", Text}, {"handle", Blob}, {"seat_key", Blob},
		{"created", Int}, {"mu", Real}, {"sigma", Real}, {"rated_games", Int},
	}},
	{Table: "sessions", One: "session", Many: "sessions", Key: 1, Columns: []Column{
		{"hash", Blob}, {"account_id", Text}, {"created", Int}, {"expires", Int},
	}},
	{Table: "passkeys", One: "passkey", Many: "passkeys", Key: 1, Columns: []Column{
		{"id", Blob}, {"account_id", Text}, {"name", Text}, {"credential", Blob}, {"created", Int}, {"used", Int},
	}, Nullable: nullable("used")},
	{Table: "challenges", One: "passkey challenge under way", Many: "passkey challenges under way", Key: 1, Columns: []Column{
		{"hash", Blob}, {"account_id", Text}, {"data", Blob}, {"expires", Int},
	}},
	{Table: "games", One: "game", Many: "games", Key: 1, Columns: []Column{
		{"id", Text}, {"status", Text}, {"cheques", Text}, {"seed", Blob}, {"created", Int}, {"updated", Int},
		{"move_count", Int}, {"lease_node", Text}, {"lease_fence", Int}, {"lease_expires", Time},
		{"creator_hash", Blob}, {"rated", Bool}, {"clock", Blob}, {"rematch_of", Text}, {"rematch", Blob},
	}, Nullable: nullable("seed", "lease_node", "lease_expires", "creator_hash", "clock", "rematch_of", "rematch")},
	{Table: "seats", One: "seat", Many: "seats", Key: 2, Columns: []Column{
		{"game_id", Text}, {"idx", Int}, {"name", Text}, {"bot", Text}, {"token_hash", Blob}, {"account_id", Text},
	}, Nullable: nullable("token_hash", "account_id")},
	{Table: "moves", One: "move", Many: "moves", Key: 2, Columns: []Column{
		{"game_id", Text}, {"idx", Int}, {"token", Text},
	}},
	{Table: "analyses", One: "analysis", Many: "analyses", Key: 1, Columns: []Column{
		{"game_id", Text}, {"report", Blob}, {"failed", Text}, {"created", Int}, {"claim_node", Text}, {"claim_expires", Time},
	}, Nullable: nullable("report", "failed", "created", "claim_node", "claim_expires")},
	{Table: "results", One: "seat result (with its ratings)", Many: "seat results (with their ratings)", Key: 2, Columns: []Column{
		{"game_id", Text}, {"idx", Int}, {"account_id", Text}, {"bot", Text}, {"name", Text}, {"players", Int},
		{"rated", Bool}, {"finished", Int}, {"rank", Int}, {"score", Int}, {"scores", Text},
		{"mu_before", Real}, {"sigma_before", Real}, {"games_before", Int}, {"mu", Real}, {"sigma", Real}, {"games", Int},
	}, Nullable: nullable("account_id", "mu_before", "sigma_before", "games_before", "mu", "sigma", "games")},
	{Table: "chat_lines", One: "chat message", Many: "chat messages", Key: 2, Columns: []Column{
		{"game_id", Text}, {"seq", Int}, {"channel", Text}, {"sender", Text}, {"seat", Int}, {"name", Text},
		{"phrase", Text}, {"text", Text}, {"move", Int}, {"at", Int}, {"removed", Bool},
	}, Nullable: nullable("phrase", "text")},
	{Table: "chat_mutes", One: "chat mute", Many: "chat mutes", Key: 3, Columns: []Column{
		{"game_id", Text}, {"muter", Text}, {"muted", Text},
	}},
	{Table: "vapid_keys", One: "VAPID key pair (Web Push)", Many: "VAPID key pairs (Web Push)", Key: 1, Columns: []Column{
		{"one", Int}, {"public_key", Text}, {"private_key", Text},
	}},
	{Table: "push_subscriptions", One: "push subscription", Many: "push subscriptions", Key: 1, Columns: []Column{
		{"endpoint", Text}, {"account_id", Text}, {"p256dh", Text}, {"auth", Text}, {"lang", Text}, {"created", Int},
	}},
	{Table: "push_settings", One: "account's push settings", Many: "accounts' push settings", Key: 1, Columns: []Column{
		{"account_id", Text}, {"turn", Bool}, {"game_over", Bool}, {"reminder", Bool},
	}},
	// People: when they were last seen, follows, blocks, finish marks.
	{Table: "last_seen", One: "account's last sighting", Many: "accounts' last sightings", Key: 1, Columns: []Column{
		{"account_id", Text}, {"at", Int},
	}},
	{Table: "seats_seen", One: "seat's last sighting", Many: "seats' last sightings", Key: 2, Columns: []Column{
		{"game_id", Text}, {"idx", Int}, {"at", Int},
	}},
	{Table: "follows", One: "follow", Many: "follows", Key: 2, Columns: []Column{
		{"follower", Text}, {"followed", Text}, {"created", Int},
	}},
	{Table: "blocks", One: "block", Many: "blocks", Key: 2, Columns: []Column{
		{"blocker", Text}, {"blocked", Text}, {"created", Int},
	}},
	{Table: "finishes", One: "finish mark", Many: "finish marks", Key: 2, Columns: []Column{
		{"account_id", Text}, {"game_id", Text}, {"at", Int}, {"left_game", Bool},
	}},
}

// CopyError is a failed Restore of one row: which kind, which key.
type CopyError struct {
	Kind *Kind
	Key  string // as Kind.KeyOf says it
	Err  error
}

func (e *CopyError) Error() string {
	return fmt.Sprintf("%s %s: %v", e.Kind.One, e.Key, e.Err)
}

func (e *CopyError) Unwrap() error { return e.Err }

// RowError returns the CopyError of row r of kind k.
func RowError(k *Kind, r Row, err error) error {
	return &CopyError{Kind: k, Key: k.KeyOf(r), Err: err}
}

// A RowWriter is a store's side of a Restore, inside its transaction.
type RowWriter interface {
	// Holds reports whether the kind's table has a row.
	Holds(ctx context.Context, k *Kind) (bool, error)
	// Insert writes r, which Check accepted. With merge, a row that meets
	// one already there (by its key or another unique column) is not
	// written, and Insert reports false.
	Insert(ctx context.Context, k *Kind, r Row, merge bool) (bool, error)
	// Get returns the row with r's key, nil when there is none.
	Get(ctx context.Context, k *Kind, r Row) (Row, error)
}

// A BulkWriter is a RowWriter that writes many rows of a kind at once,
// faster than one by one: Restore without Merge uses it when it can.
type BulkWriter interface {
	RowWriter
	// InsertMany writes rows, which Check accepted.
	InsertMany(ctx context.Context, k *Kind, rows []Row) error
}

// bulkSize is how many rows a BulkWriter gets at once.
const bulkSize = 2000

// RestoreRows is the body of every Copier's Restore, run by each store
// inside the transaction w writes in: the destination must be empty
// (unless opts.Merge), every row is checked, and a row merged onto one
// already there must be the same. Its error leaves the transaction to be
// rolled back.
func RestoreRows(ctx context.Context, opts RestoreOptions, read ReadFunc, w RowWriter) ([]Tally, error) {
	if !opts.Merge {
		var held []string
		for _, k := range Kinds {
			has, err := w.Holds(ctx, k)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k.Table, err)
			}
			if has {
				held = append(held, k.Many)
			}
		}
		if len(held) > 0 {
			return nil, fmt.Errorf("%w: %s", ErrNotEmpty, strings.Join(held, ", "))
		}
	}
	tallies := make([]Tally, len(Kinds))
	bulk, _ := w.(BulkWriter)
	for i, k := range Kinds {
		t := &tallies[i]
		t.Kind = k
		if bulk != nil && !opts.Merge {
			if err := restoreBulk(ctx, k, read, bulk, t); err != nil {
				return nil, err
			}
			continue
		}
		err := read(ctx, k, func(r Row) error {
			if err := k.Check(r); err != nil {
				return err
			}
			added, err := w.Insert(ctx, k, r, opts.Merge)
			if err != nil {
				return RowError(k, r, err)
			}
			if added {
				t.Added++
				return nil
			}
			have, err := w.Get(ctx, k, r)
			switch {
			case err != nil:
				return RowError(k, r, err)
			case have == nil:
				return RowError(k, r, fmt.Errorf("%w: another row of the destination has one of its unique values (a name, a handle)", ErrConflict))
			case !k.Equal(have, r):
				return RowError(k, r, fmt.Errorf("%w: the destination holds it already, and differently", ErrConflict))
			}
			t.Kept++
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return tallies, nil
}

// restoreBulk restores the rows of k through w, bulkSize at a time.
func restoreBulk(ctx context.Context, k *Kind, read ReadFunc, w BulkWriter, t *Tally) error {
	rows := make([]Row, 0, bulkSize)
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		if err := w.InsertMany(ctx, k, rows); err != nil {
			return &CopyError{Kind: k, Key: fmt.Sprintf("(one of %s from %s on)", k.Count(len(rows)), k.KeyOf(rows[0])), Err: err}
		}
		t.Added += len(rows)
		rows = rows[:0]
		return nil
	}
	err := read(ctx, k, func(r Row) error {
		if err := k.Check(r); err != nil {
			return err
		}
		if rows = append(rows, r); len(rows) == bulkSize {
			return flush()
		}
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}
