package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
	"github.com/razziagame/razzia/internal/store/sqlite"
)

func runPuzzles(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	status = run(append([]string{"puzzles"}, args...), strings.NewReader(""), &out, &errb)
	return status, out.String(), errb.String()
}

// quickSearch are the flags of a search far below expert's, for tests.
var quickSearch = []string{"--search", "mcts:iters=400,rollout=auto", "--seeds", "2", "--analysis-iterations", "300"}

// finishedGame stores in s a finished game between bots, unanalysed.
func finishedGame(t *testing.T, s store.Store, id string) {
	t.Helper()
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob"}, Seed: []byte(id)})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := bot.New("easy", 1)
	b, _ := bot.New("medium", 2)
	bots := []bot.Bot{a, b}
	for !g.Over() {
		if err := g.Play(bots[g.ToMove()].Choose(g.View(g.ToMove()))); err != nil {
			t.Fatal(err)
		}
	}
	rec := g.Record()
	cheques := rec.Cheques
	if cheques == nil {
		cheques = razzia.ChequeSets(2)
	}
	sg := &store.Game{ID: id, Status: store.StatusFinished, Cheques: cheques, Moves: rec.Moves,
		Seats: []store.Seat{{Name: "Ann", Bot: "easy"}, {Name: "Bob", Bot: "medium"}}}
	if err := s.CreateGame(t.Context(), sg); err != nil {
		t.Fatal(err)
	}
}

// TestPuzzlesCommand: razzia puzzles analyses and searches the finished
// games of a database, once; says so when there are none or when all
// were searched; refuses a database in use and bad flags.
func TestPuzzlesCommand(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "razzia.db")
	s, err := sqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	status, out, errs := runPuzzles(t, append([]string{"--db", path}, quickSearch...)...)
	if status != 0 || !strings.Contains(out, "no finished games") {
		t.Errorf("an empty database: %d %q %q", status, out, errs)
	}

	// In use: a server holds the file.
	held, err := sqlite.OpenOptions(t.Context(), path, sqlite.Options{Sole: true})
	if err != nil {
		t.Fatal(err)
	}
	status, _, errs = runPuzzles(t, "--db", path)
	if status != 1 || !strings.Contains(errs, "in use") || !strings.Contains(errs, "--puzzle-workers") {
		t.Errorf("a database in use: %d %q", status, errs)
	}
	finishedGame(t, held, "puzzlecmd1")
	if err := held.Close(); err != nil {
		t.Fatal(err)
	}

	if testing.Short() {
		return
	}
	status, out, errs = runPuzzles(t, append([]string{"--db", path}, quickSearch...)...)
	if status != 0 || !strings.Contains(out, "Searched 1 game:") || !strings.Contains(out, "bid-or-pass") {
		t.Fatalf("a database with a finished game: %d %q %q", status, out, errs)
	}
	s, err = sqlite.OpenOptions(t.Context(), path, sqlite.Options{Existing: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Analysis(t.Context(), "puzzlecmd1"); err != nil {
		t.Errorf("the game was not analysed: %v", err)
	}
	if done, err := s.PuzzleScanned(t.Context(), "puzzlecmd1"); !done || err != nil {
		t.Errorf("the game was not searched: %v %v", done, err)
	}
	s.Close()
	status, out, _ = runPuzzles(t, append([]string{"--db", path}, quickSearch...)...)
	if status != 0 || !strings.Contains(out, "searched already") {
		t.Errorf("a second run: %d %q", status, out)
	}
}

func TestPuzzlesUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--db", "x.db", "extra"},
		{"--db", "x.db", "--search", "heuristic"},
		{"--db", "x.db", "--search", "mcts:time=1s"},
		{"--db", "x.db", "--seeds", "0"},
		{"--db", "x.db", "--analysis-iterations", "0"},
	} {
		if status, _, errs := runPuzzles(t, args...); status != 2 || !strings.Contains(errs, "razzia puzzles") {
			t.Errorf("%q: %d %q, want a usage error", args, status, errs)
		}
	}
	if status, _, errs := runPuzzles(t, "--db", filepath.Join(t.TempDir(), "none.db")); status != 1 || !strings.Contains(errs, "does not exist") {
		t.Errorf("a database that does not exist: %d %q", status, errs)
	}
}

// TestPuzzlesPostgres: on PostgreSQL, razzia puzzles says when there is
// nothing to search, and refuses a database a server is connected to.
func TestPuzzlesPostgres(t *testing.T) {
	pg := pgtest.DirectDB(t)
	server, err := postgres.Open(t.Context(), pg, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	status, _, errs := runPuzzles(t, "--db", pg)
	if status != 1 || !strings.Contains(errs, "in use") || !strings.Contains(errs, "--puzzle-workers") || strings.Contains(errs, "migrate") {
		t.Errorf("a database a server is connected to: %d %q", status, errs)
	}
	server.Close()
	sessionsGone(t, pg)
	status, out, errs := runPuzzles(t, "--db", pg)
	if status != 0 || !strings.Contains(out, "no finished games") {
		t.Errorf("a database without finished games: %d %q %q", status, out, errs)
	}
}

// sessionsGone waits until no razzia store's session is connected to the
// database pg: a closed pool's sessions end on the server a moment after
// the client has let them go, and until then they show as in use.
func sessionsGone(t *testing.T, pg string) {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), pg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		var n int
		if err := conn.QueryRow(t.Context(), `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND application_name = $1`, postgres.DefaultApplicationName).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions of a closed store still connected after 20 s", n)
		}
	}
}
