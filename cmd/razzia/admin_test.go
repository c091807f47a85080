package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
	"github.com/razziagame/razzia/internal/store/sqlite"
)

func runAdminCmd(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	status = run(append([]string{"admin"}, args...), strings.NewReader(""), &out, &errb)
	return status, out.String(), errb.String()
}

// withAccounts stores the accounts Ann and Bob in st, and closes it.
func withAccounts(t *testing.T, st store.Store) {
	t.Helper()
	for i, name := range []string{"Ann", "Bob"} {
		a := &store.Account{ID: "acct-" + name, Name: name, Key: strings.ToLower(name), Handle: []byte{byte(i + 1)},
			SeatKey: []byte{byte(i + 10)}, Created: time.Now(), Rating: store.Rating{Mu: 25, Sigma: 8}}
		if err := st.CreateAccount(t.Context(), a); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
}

// operator reports whether the account is an operator in the database
// dsn names.
func operator(t *testing.T, dsn, account string) bool {
	t.Helper()
	st, err := openAdmin(t.Context(), dsn, 10*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ok, err := st.Operator(context.Background(), account)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// adminDB returns a new database of the kind named, open.
func adminDB(t *testing.T, kind string) (string, store.Store) {
	t.Helper()
	if kind == "postgres" {
		dsn := pgtest.DB(t)
		st, err := postgres.Open(t.Context(), dsn, postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return dsn, st
	}
	dsn := filepath.Join(t.TempDir(), "razzia.db")
	st, err := sqlite.OpenOptions(t.Context(), dsn, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return dsn, st
}

// TestAdmin: razzia admin grants and revokes the operator role on SQLite
// and PostgreSQL, says when there was nothing to do, refuses an unknown
// name (1), and usage errors (2), changing nothing.
func TestAdmin(t *testing.T) {
	for _, name := range []string{"sqlite", "postgres"} {
		t.Run(name, func(t *testing.T) {
			dsn, st := adminDB(t, name)
			withAccounts(t, st)
			steps := []struct {
				args   []string
				status int
				out    string
				op     bool // Ann is an operator after
			}{
				{[]string{"list"}, 0, "", false},
				{[]string{"grant", "ANN"}, 0, "Ann is an operator now.\n", true},
				{[]string{"list"}, 0, "Ann\n", true},
				{[]string{"grant", "ann"}, 0, "Ann was an operator already.\n", true},
				{[]string{"grant", "Zed"}, 1, "", true},
				{[]string{"revoke", "Ann"}, 0, "Ann is no longer an operator.\n", false},
				{[]string{"revoke", "Ann"}, 0, "Ann was not an operator.\n", false},
				{[]string{"promote", "Ann"}, 2, "", false},
				{[]string{"grant"}, 2, "", false},
				{[]string{"grant", "Ann", "Bob"}, 2, "", false},
				{[]string{"list", "Ann"}, 2, "", false},
				{[]string{}, 2, "", false},
			}
			for _, s := range steps {
				status, out, errs := runAdminCmd(t, append([]string{"--db", dsn}, s.args...)...)
				if status != s.status || out != s.out {
					t.Errorf("admin %q: status %d, %q %q; want %d, %q", s.args, status, out, errs, s.status, s.out)
				}
				if s.status != 0 && (errs == "" || strings.Count(errs, "\n") != 1) {
					t.Errorf("admin %q: stderr %q, want one line saying why", s.args, errs)
				}
				if got := operator(t, dsn, "acct-Ann"); got != s.op {
					t.Errorf("after admin %q: Ann an operator %v, want %v", s.args, got, s.op)
				}
			}
			if operator(t, dsn, "acct-Bob") {
				t.Error("Bob is an operator")
			}
		})
	}
	status, _, errs := runAdminCmd(t, "--db", filepath.Join(t.TempDir(), "missing.db"), "grant", "Ann")
	if status != 1 || !strings.Contains(errs, "missing.db") {
		t.Errorf("a missing database: status %d, %q", status, errs)
	}
}
