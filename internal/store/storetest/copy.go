package storetest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// A Copyable is a store a copy reads and writes: every store with a
// database schema.
type Copyable interface {
	store.Store
	store.Copier
}

// RunCopy runs the checks of store.Copier against fresh, empty stores
// made by open: that store.Kinds names every table and column of the
// schema, that Fill writes a row of every kind, and that a copy loses
// nothing and refuses what it must. Run calls it for every store that is
// a store.Copier.
func RunCopy(t *testing.T, open func(t *testing.T) Copyable) {
	fresh := func(t *testing.T) Copyable {
		s := open(t)
		t.Cleanup(func() {
			if err := s.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		})
		return s
	}
	for _, c := range []struct {
		name string
		run  func(t *testing.T, fresh func(t *testing.T) Copyable)
	}{
		{"Catalogue", testCatalogue},
		{"FillCoversEveryKind", testFillCovers},
		{"RoundTrip", testCopyRoundTrip},
		{"NotEmpty", testCopyNotEmpty},
		{"Merge", testCopyMerge},
		{"BadRows", testCopyBadRows},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, fresh)
		})
	}
}

// declared are the types a store may declare for a column of each
// store.ColumnType: SQLite's, then PostgreSQL's.
var declared = map[store.ColumnType][]string{
	store.Text: {"text"},
	store.Int:  {"integer", "bigint"},
	store.Real: {"real", "double precision"},
	store.Blob: {"blob", "bytea"},
	store.Bool: {"integer", "boolean"},
	store.Time: {"integer", "timestamp with time zone"},
}

// testCatalogue: the tables and columns of the schema, as the database's
// catalogue lists them, are those of store.Kinds and store.NotCopied,
// with the types and the NULLs the kinds say: a migration that adds a
// table or a column, or changes one, fails here until the copy follows.
func testCatalogue(t *testing.T, fresh func(t *testing.T) Copyable) {
	s := fresh(t)
	tables, err := s.Tables(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	for name, cols := range tables {
		k := store.KindOf(name)
		if k == nil {
			if _, ok := store.NotCopied[name]; !ok {
				t.Errorf("table %s (%v) of the schema is not copied: add it to store.Kinds and to Fill, or say why not in store.NotCopied", name, cols)
			}
			continue
		}
		have := make([]string, len(cols))
		for i, c := range cols {
			have[i] = c.Name
			j := slices.Index(k.Names(), c.Name)
			if j < 0 {
				continue
			}
			want := k.Columns[j]
			if !slices.Contains(declared[want.Type], c.Type) {
				t.Errorf("%s.%s is declared %s; store.Kinds copies it as %s (%v)", name, c.Name, c.Type, want.Type, declared[want.Type])
			}
			if c.Nullable != k.Nullable[c.Name] {
				t.Errorf("%s.%s may be NULL: %v in the schema, %v in store.Kinds", name, c.Name, c.Nullable, k.Nullable[c.Name])
			}
		}
		slices.Sort(have)
		if want := slices.Sorted(slices.Values(k.Names())); !slices.Equal(have, want) {
			t.Errorf("table %s has the columns %v; store.Kinds copies %v", name, have, want)
		}
	}
	for _, k := range store.Kinds {
		if _, ok := tables[k.Table]; !ok {
			t.Errorf("store.Kinds copies %s, which the schema lacks", k.Table)
		}
	}
	for name := range store.NotCopied {
		if _, ok := tables[name]; !ok {
			t.Errorf("store.NotCopied names %s, which the schema lacks", name)
		}
	}
}

// testFillCovers: Fill writes a row of every kind, with a value in every
// column.
func testFillCovers(t *testing.T, fresh func(t *testing.T) Copyable) {
	s := fresh(t)
	Fill(t, s)
	d := DumpAll(t, s)
	for _, k := range store.Kinds {
		if len(d[k.Table]) == 0 {
			t.Errorf("Fill wrote no row of %s: extend it, so that the copy of every kind is tested", k.Table)
		}
		for i, c := range k.Columns {
			if !slices.ContainsFunc(d[k.Table], func(r store.Row) bool { return r[i] != nil }) {
				t.Errorf("Fill left %s.%s NULL in every row: extend it, so that the copy of the column is tested", k.Table, c.Name)
			}
		}
	}
}

// testCopyRoundTrip: a copy into an empty store holds every row of the
// original, and the games, accounts and the rest read the same.
func testCopyRoundTrip(t *testing.T, fresh func(t *testing.T) Copyable) {
	a, b := fresh(t), fresh(t)
	ids := Fill(t, a)
	want := DumpAll(t, a)
	tallies, err := b.Restore(ctx(t), store.RestoreOptions{}, a.Dump)
	if err != nil {
		t.Fatalf("Restore: %v", err)
	}
	if len(tallies) != len(store.Kinds) {
		t.Fatalf("Restore tallied %d kinds, want %d", len(tallies), len(store.Kinds))
	}
	for i, tl := range tallies {
		k := store.Kinds[i]
		if tl.Kind != k || tl.Added != len(want[k.Table]) || tl.Kept != 0 {
			t.Errorf("tally %d = %s added %d kept %d, want %s added %d", i, tl.Kind.Table, tl.Added, tl.Kept, k.Table, len(want[k.Table]))
		}
	}
	for _, d := range DiffDumps(want, DumpAll(t, b)) {
		t.Error(d)
	}
	for _, id := range ids.Games {
		if g, h := get(t, a, id), get(t, b, id); !g.Equal(h) {
			t.Errorf("game %s copied as %+v, want %+v", id, h, g)
		}
	}
	// The copy's lists of games by status are the original's, in order
	// (a store may keep their order in columns the copy does not carry).
	for _, st := range []store.Status{store.StatusOpen, store.StatusPlaying, store.StatusFinished, store.StatusArchived,
		store.StatusExpired, store.StatusCancelled} {
		x, err1 := a.List(ctx(t), st, 0)
		y, err2 := b.List(ctx(t), st, 0)
		if err1 != nil || err2 != nil || !slices.EqualFunc(x, y, func(g, h store.Summary) bool { return g.ID == h.ID && g.Updated.Equal(h.Updated) }) {
			t.Errorf("List(%s) of the copy = %+v (%v), want %+v (%v)", st, y, err2, x, err1)
		}
	}
	for _, id := range ids.Accounts {
		x, err1 := a.Account(ctx(t), id)
		y, err2 := b.Account(ctx(t), id)
		if err1 != nil || err2 != nil || len(diffAccount(y, x)) > 0 {
			t.Errorf("account %s copied as %+v (%v), want %+v (%v)", id, y, err2, x, err1)
		}
	}
	if _, acct, err := b.Session(ctx(t), ids.Session, base); err != nil || acct.ID != ids.Accounts[0] {
		t.Errorf("the copied session: %v, %v", acct, err)
	}
}

// testCopyNotEmpty: a copy into a store that holds data is refused, and
// changes nothing there.
func testCopyNotEmpty(t *testing.T, fresh func(t *testing.T) Copyable) {
	a, b := fresh(t), fresh(t)
	Fill(t, a)
	if _, err := b.InitPushKeys(ctx(t), store.VAPIDKeys{Public: "pub-b", Private: "priv-b"}); err != nil {
		t.Fatal(err)
	}
	before := DumpAll(t, b)
	_, err := b.Restore(ctx(t), store.RestoreOptions{}, a.Dump)
	if !errors.Is(err, store.ErrNotEmpty) {
		t.Fatalf("Restore into a store with a VAPID key pair: %v, want ErrNotEmpty", err)
	}
	for _, d := range DiffDumps(before, DumpAll(t, b)) {
		t.Error("after the refused copy:", d)
	}
}

// testCopyMerge: with Merge, the rows there already are kept when they
// are the same; one that differs fails the copy, which changes nothing.
func testCopyMerge(t *testing.T, fresh func(t *testing.T) Copyable) {
	a, b := fresh(t), fresh(t)
	ids := Fill(t, a)
	if _, err := b.Restore(ctx(t), store.RestoreOptions{}, a.Dump); err != nil {
		t.Fatal(err)
	}
	tallies, err := b.Restore(ctx(t), store.RestoreOptions{Merge: true}, a.Dump)
	if err != nil {
		t.Fatalf("Restore with Merge of the same rows: %v", err)
	}
	want := DumpAll(t, a)
	for _, tl := range tallies {
		if tl.Added != 0 || tl.Kept != len(want[tl.Kind.Table]) {
			t.Errorf("merging the same %s: added %d kept %d, want 0 and %d", tl.Kind.Many, tl.Added, tl.Kept, len(want[tl.Kind.Table]))
		}
	}
	if err := a.SetPassword(ctx(t), ids.Accounts[0], ""); err != nil {
		t.Fatal(err)
	}
	_, err = b.Restore(ctx(t), store.RestoreOptions{Merge: true}, a.Dump)
	var ce *store.CopyError
	if !errors.Is(err, store.ErrConflict) || !errors.As(err, &ce) || ce.Kind.Table != "accounts" {
		t.Errorf("Restore with Merge of a changed account: %v, want a CopyError of accounts wrapping ErrConflict", err)
	}
	for _, d := range DiffDumps(want, DumpAll(t, b)) {
		t.Error("after the refused merge:", d)
	}

	// Another account of the same name, under another id: the target's
	// unique name refuses it.
	c := fresh(t)
	other := newAccount("Ann", 0x0a)
	if err := c.CreateAccount(ctx(t), other); err != nil {
		t.Fatal(err)
	}
	_, err = c.Restore(ctx(t), store.RestoreOptions{Merge: true}, a.Dump)
	if !errors.Is(err, store.ErrConflict) || !strings.Contains(err.Error(), "unique values") {
		t.Errorf("Restore with Merge of an account whose name the target has: %v, want ErrConflict naming unique values", err)
	}
	for table, rows := range DumpAll(t, c) {
		if n := len(rows); n > 0 && (table != "accounts" || n != 1) {
			t.Errorf("after the refused merge, %s holds %d rows", table, n)
		}
	}
}

// testCopyBadRows: a row that does not fit its kind, or a source that
// fails midway, fails the copy with an error that says what, and the
// destination stays empty.
func testCopyBadRows(t *testing.T, fresh func(t *testing.T) Copyable) {
	src := fresh(t)
	Fill(t, src)
	broken := errors.New("the source broke")
	for _, c := range []struct {
		name string
		bad  func(k *store.Kind, r store.Row) (store.Row, error) // changes the first game's row
		want string
	}{
		{"short row", func(k *store.Kind, r store.Row) (store.Row, error) { return r[:3], nil }, "a row of 3 values"},
		{"wrong type", func(k *store.Kind, r store.Row) (store.Row, error) {
			r = slices.Clone(r)
			r[4] = "yesterday" // created
			return r, nil
		}, "created is a string, want integer"},
		{"NULL", func(k *store.Kind, r store.Row) (store.Row, error) {
			r = slices.Clone(r)
			r[1] = nil // status
			return r, nil
		}, "status is NULL"},
		{"source error", func(k *store.Kind, r store.Row) (store.Row, error) { return nil, broken }, broken.Error()},
	} {
		t.Run(c.name, func(t *testing.T) {
			dst := fresh(t)
			read := func(ctx2 context.Context, k *store.Kind, yield func(store.Row) error) error {
				return src.Dump(ctx2, k, func(r store.Row) error {
					if k.Table == "games" {
						var err error
						if r, err = c.bad(k, r); err != nil {
							return err
						}
					}
					return yield(r)
				})
			}
			_, err := dst.Restore(ctx(t), store.RestoreOptions{}, read)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Restore: %v, want an error saying %q", err, c.want)
			}
			for table, rows := range DumpAll(t, dst) {
				if len(rows) > 0 {
					t.Errorf("after the failed copy, %s holds %d rows", table, len(rows))
				}
			}
		})
	}
}

// IDs names some of what Fill wrote.
type IDs struct {
	Games    []string
	Accounts []string
	Session  []byte // the hash of a session of Accounts[0], live at base
}

// Fill writes, through s's methods only, data of every kind the schema
// keeps: accounts with sessions, passkeys, a challenge, results, ratings,
// push subscriptions and settings; games of every status with seats,
// moves, clocks, a rematch, a lease, analyses (done, failed, claimed) and
// chat; the server's VAPID keys. A table added to the schema must be
// filled here too (testFillCovers says so).
func Fill(t *testing.T, s store.Store) IDs {
	t.Helper()
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("Fill: %s: %v", what, err)
		}
	}
	c := ctx(t)
	ann, bea := newAccount("Ann", 0xa1), newAccount("Bea", 0xb2)
	bea.Password = "" // passkeys only
	for _, a := range []*store.Account{ann, bea} {
		must("CreateAccount", s.CreateAccount(c, a.Clone()))
	}
	session := hash(0x51)
	must("CreateSession", s.CreateSession(c, store.Session{Hash: session, Account: ann.ID, Created: base, Expires: base.Add(30 * 24 * time.Hour)}))
	must("AddPasskey", s.AddPasskey(c, store.Passkey{ID: []byte("cred-ann"), Account: ann.ID, Name: "phone", Credential: []byte{0, 1, 0xfe}, Created: base}))
	must("AddPasskey", s.AddPasskey(c, store.Passkey{ID: []byte("cred-bea"), Account: bea.ID, Name: "Bea's key 🔑", Credential: []byte("{}"), Created: base.Add(time.Second)}))
	must("UsePasskey", s.UsePasskey(c, []byte("cred-ann"), []byte{0, 2, 0xfe}, base.Add(time.Hour)))
	must("PutChallenge", s.PutChallenge(c, store.Challenge{Hash: hash(0xc1), Data: []byte(`{"challenge":"x"}`), Expires: base.Add(time.Hour)}))

	var games []string
	add := func(g *store.Game) *store.Game {
		t.Helper()
		must("CreateGame "+g.ID, s.CreateGame(c, g.Clone()))
		games = append(games, g.ID)
		return g
	}
	done := newGame("fillfinished", store.StatusFinished, time.Minute)
	done.Seats[0] = store.Seat{Name: "Ann", TokenHash: hash(0xa2), Account: ann.ID}
	done.Moves = []string{"draw", "bid 11", "pass"}
	done.CreatorHash = hash(0xc7)
	done.Clock = []byte(`{"base":60}`)
	done.Rated = true
	add(done)
	add(newGame("fillfailed", store.StatusFinished, 2*time.Minute))
	add(newGame("fillclaimed", store.StatusFinished, 3*time.Minute))
	playing := newGame("fillplaying", store.StatusPlaying, 4*time.Minute)
	playing.Seats[0] = store.Seat{Name: "Bea", TokenHash: hash(0xb3), Account: bea.ID}
	playing.Moves = []string{"draw"}
	add(playing)
	rematch := newGame("fillrematch", store.StatusOpen, 5*time.Minute)
	rematch.RematchOf = done.ID
	add(rematch)
	for i, st := range []store.Status{store.StatusArchived, store.StatusExpired, store.StatusCancelled} {
		add(newGame(fmt.Sprintf("fill%s", st), st, time.Duration(6+i)*time.Minute))
	}
	must("SetRematch", s.SetRematch(c, done.ID, nil, []byte(`{"by":[0]}`)))
	lease, err := s.AcquireLease(c, playing.ID, "node-fill", time.Hour)
	must("AcquireLease", err)
	must("AppendTimedMove", s.AppendTimedMove(c, playing.ID, lease.Fence, 1, "bid 3", store.StatusPlaying, []byte(`{"left":[1,2]}`)))

	r0, r1 := ann.Rating, store.Rating{Mu: 27.5, Sigma: 7.9, Games: 1}
	res := result(done.ID, ann.ID, base.Add(2*time.Minute), &r0, &r1)
	res.Seats[2].Name = "Guest"
	must("AddResult", s.AddResult(c, res))

	must("PutAnalysis", s.PutAnalysis(c, done.ID, store.Analysis{Report: []byte(`{"turns":[]}`)}))
	must("PutAnalysis", s.PutAnalysis(c, "fillfailed", store.Analysis{Failed: "the record breaks rule R-3"}))
	claimed, err := s.ClaimAnalysis(c, "node-fill", time.Hour)
	must("ClaimAnalysis", err)
	if claimed != "fillclaimed" {
		t.Fatalf("Fill: ClaimAnalysis claimed %q, want fillclaimed", claimed)
	}

	lines := chatLines()
	for _, m := range lines[:3] {
		must("AddChat", s.AddChat(c, done.ID, store.NoFence, m))
	}
	must("AddChat", s.AddChat(c, playing.ID, lease.Fence, lines[3]))
	must("SetMute", s.SetMute(c, done.ID, store.NoFence, store.Mute{Muter: "seat:2", Muted: "seat:0"}, true))

	fillTournaments(t, s, ann.ID)

	_, err = s.InitPushKeys(c, store.VAPIDKeys{Public: "BPub-fill", Private: "priv-fill"})
	must("InitPushKeys", err)
	must("AddPushSubscription", s.AddPushSubscription(c, store.PushSubscription{
		Endpoint: "https://push.example/fill", Account: ann.ID, P256dh: "p256", Auth: "auth", Lang: "hu", Created: base,
	}, 5))
	must("SetPushSettings", s.SetPushSettings(c, bea.ID, store.PushSettings{Turn: true}))
	fillPairing(t, s, ann, bea)
	fillSocial(t, s, must, ann, bea, done.ID)
	fillPuzzles(t, s, done.ID, "fillfailed", ann.ID)
	fillModeration(t, s, ann, bea, done.ID)
	return IDs{Games: games, Accounts: []string{ann.ID, bea.ID}, Session: session}
}

// DumpAll returns every row of every kind of c, by table.
func DumpAll(t *testing.T, c store.Copier) map[string][]store.Row {
	t.Helper()
	out := map[string][]store.Row{}
	for _, k := range store.Kinds {
		err := c.Dump(ctx(t), k, func(r store.Row) error {
			out[k.Table] = append(out[k.Table], r)
			return nil
		})
		if err != nil {
			t.Fatalf("Dump %s: %v", k.Table, err)
		}
	}
	return out
}

// DiffDumps describes how got differs from want, row by row (store.Kind's
// Equal: times to the microsecond).
func DiffDumps(want, got map[string][]store.Row) []string {
	var d []string
	for _, table := range slices.Sorted(maps.Keys(want)) {
		k := store.KindOf(table)
		w, g := want[table], got[table]
		for i := range max(len(w), len(g)) {
			switch {
			case i >= len(g):
				d = append(d, fmt.Sprintf("%s: row %v is missing", table, w[i]))
			case i >= len(w):
				d = append(d, fmt.Sprintf("%s: row %v is extra", table, g[i]))
			case !k.Equal(w[i], g[i]):
				d = append(d, fmt.Sprintf("%s: row %v, want %v", table, g[i], w[i]))
			}
		}
	}
	return d
}
