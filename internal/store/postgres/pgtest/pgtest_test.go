package pgtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// recorder is a testing.TB that records a Fatal or a Skip instead of
// ending the test.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper()               {}
func (r *recorder) Fatal(args ...any)     { r.fatal = fmt.Sprint(args...) }
func (r *recorder) Skip(args ...any)      { r.skip = fmt.Sprint(args...) }
func (r *recorder) Fatalf(string, ...any) { panic("unexpected Fatalf") }

// TestUnavailable: without a cluster, tests skip with the reason, except
// under CI=true, where they fail.
func TestUnavailable(t *testing.T) {
	for ci, want := range map[string]string{"true": "fatal", "": "skip", "false": "skip"} {
		t.Run("CI="+ci, func(t *testing.T) {
			t.Setenv("CI", ci)
			r := &recorder{TB: t}
			unavailable(r, "no PostgreSQL binaries")
			got, msg := "skip", r.skip
			if r.fatal != "" {
				got, msg = "fatal", r.fatal
			}
			if got != want || !strings.Contains(msg, "no PostgreSQL binaries") || !strings.Contains(msg, EnvURL) {
				t.Errorf("%s %q, want %s with the reason and %s", got, msg, want, EnvURL)
			}
		})
	}
}

func TestMain(m *testing.M) { Main(m) }

// TestTemplate: a copy handed back by a test that passed comes to the next
// test emptied but for Keep; a failed test's copy is dropped.
func TestTemplate(t *testing.T) {
	URL(t) // skips here, not in a subtest, without a cluster
	tp := &Template{
		Prepare: func(ctx context.Context, url string) error {
			conn, err := pgx.Connect(ctx, url)
			if err != nil {
				return err
			}
			defer conn.Close(ctx)
			_, err = conn.Exec(ctx, `CREATE TABLE version (v int); INSERT INTO version VALUES (7);
				CREATE TABLE rows (id serial PRIMARY KEY, x text)`)
			return err
		},
		Keep: []string{"version"},
	}
	query := func(t *testing.T, url, sql string) (n int) {
		t.Helper()
		conn, err := pgx.Connect(t.Context(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(t.Context())
		if err := conn.QueryRow(t.Context(), sql).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	var first string
	t.Run("writes", func(t *testing.T) {
		first = tp.DB(t)
		if got := query(t, first, "INSERT INTO rows (x) VALUES ('a'), ('b') RETURNING 0"); got != 0 {
			t.Fatal(got)
		}
	})
	t.Run("reuses", func(t *testing.T) {
		url := tp.DB(t)
		if url != first {
			t.Fatalf("a new copy %s, not the one handed back %s", url, first)
		}
		if n := query(t, url, "SELECT count(*) FROM rows"); n != 0 {
			t.Errorf("%d rows left from the test before", n)
		}
		if v := query(t, url, "SELECT v FROM version"); v != 7 {
			t.Errorf("the kept table holds %d, want 7", v)
		}
		if id := query(t, url, "INSERT INTO rows (x) VALUES ('c') RETURNING id"); id != 1 {
			t.Errorf("the identity restarts at %d, want 1", id)
		}
	})
	if n := len(tp.free); n != 1 {
		t.Errorf("%d copies free, want 1", n)
	}
	r := &failer{TB: t}
	url := tp.DB(r)
	r.Fail()
	r.cleanup()
	if len(tp.free) != 0 {
		t.Errorf("a failed test's copy %s was handed back", url)
	}
}

// failer is a testing.TB whose cleanups run when the test says.
type failer struct {
	testing.TB
	failed   bool
	cleanups []func()
}

func (f *failer) Helper()           {}
func (f *failer) Fail()             { f.failed = true }
func (f *failer) Failed() bool      { return f.failed }
func (f *failer) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }
func (f *failer) cleanup() {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
}

// TestTempDir: a Fast cluster keeps its files in memory when there is
// room there, a Durable one (benchmarks of syncs) always on disk.
func TestTempDir(t *testing.T) {
	big := t.TempDir() // writable, with well over a gigabyte free here
	for _, tc := range []struct {
		name     string
		mem      string
		settings []string
		want     string
	}{
		{"fast, in memory", big, Fast, big},
		{"durable, on disk", big, Durable, os.TempDir()},
		{"no memory directory", filepath.Join(big, "missing"), Fast, os.TempDir()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func(m string) { memDir = m }(memDir)
			memDir = tc.mem
			if got := tempDir(tc.settings); got != tc.want {
				t.Errorf("tempDir = %s, want %s", got, tc.want)
			}
		})
	}
}
