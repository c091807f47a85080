package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// migrateFixture returns games of every status and shape, to copy.
func migrateFixture() []*store.Game {
	base := time.Date(2025, 3, 14, 15, 9, 26, 535897932, time.UTC)
	var gs []*store.Game
	for i, st := range []store.Status{store.StatusOpen, store.StatusPlaying, store.StatusFinished, store.StatusArchived} {
		for j := range 3 {
			g := &store.Game{
				ID:     fmt.Sprintf("mig%s%02d", st[:2], j),
				Status: st,
				Seats: []store.Seat{
					{},
					{Name: "Bot 2 (hard)", Bot: "hard"},
					{Name: "Zoë 🎲", TokenHash: bytes.Repeat([]byte{byte(i*3 + j)}, 32)},
				},
				Cheques: [][]int{{2, 7, 11}, {3, 6, 10}, {4, 5, 9}},
				Seed:    bytes.Repeat([]byte{0x00, 0xff, byte(j)}, 11),
				Created: base.Add(time.Duration(i*10+j) * time.Minute),
				Updated: base.Add(time.Duration(i*10+j)*time.Minute + 1234567*time.Nanosecond),
			}
			if st != store.StatusOpen {
				for k := range 5 * j {
					g.Moves = append(g.Moves, fmt.Sprintf("bid %d", k%16))
				}
			}
			gs = append(gs, g)
		}
	}
	return gs
}

func runMigrate(t *testing.T, from, to string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	status = run([]string{"migrate", "--from", from, "--to", to}, strings.NewReader(""), &out, &errb)
	return status, out.String(), errb.String()
}

// sameGames compares the games of two databases, game by game.
func sameGames(t *testing.T, want []*store.Game, dsn string) {
	t.Helper()
	s, err := openStore(t.Context(), dsn, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n := 0
	for _, st := range statuses {
		sums, err := s.List(t.Context(), st, 0)
		if err != nil {
			t.Fatal(err)
		}
		n += len(sums)
	}
	if n != len(want) {
		t.Errorf("%s holds %d games, want %d", redact(dsn), n, len(want))
	}
	for _, w := range want {
		g, err := s.Game(t.Context(), w.ID)
		if err != nil {
			t.Errorf("%s: %v", redact(dsn), err)
			continue
		}
		if !g.Equal(w) {
			t.Errorf("%s: game %s = %+v\nwant %+v", redact(dsn), w.ID, g, w)
		}
	}
}

// TestMigrate copies SQLite to PostgreSQL and back, losing nothing, and
// again without change; a game that differs in the target stops it.
func TestMigrate(t *testing.T) {
	t.Parallel() // processes or a server of its own, mostly waiting
	pg := pgtest.DB(t)
	dir := t.TempDir()
	from, back := filepath.Join(dir, "from.db"), filepath.Join(dir, "back.db")
	games := migrateFixture()
	s, err := openStore(t.Context(), from, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		if err := s.CreateGame(t.Context(), g.Clone()); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	for _, step := range []struct{ from, to, says string }{
		{from, pg, fmt.Sprintf("%d games copied, 0 already", len(games))},
		{from, pg, fmt.Sprintf("0 games copied, %d already", len(games))},
		{pg, back, fmt.Sprintf("%d games copied, 0 already", len(games))},
	} {
		status, out, errs := runMigrate(t, step.from, step.to)
		if status != 0 || !strings.Contains(out, step.says) {
			t.Fatalf("migrate %s to %s: status %d, %q %q; want %q", redact(step.from), redact(step.to), status, out, errs, step.says)
		}
		sameGames(t, games, step.to)
	}

	// The target moved on: migrate names the game and stops.
	d, err := openStore(t.Context(), pg, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	g := games[4] // playing, with moves
	if err := d.AppendMove(context.Background(), g.ID, store.NoFence, len(g.Moves), "pass", store.StatusPlaying); err != nil {
		t.Fatal(err)
	}
	d.Close()
	status, _, errs := runMigrate(t, from, pg)
	if status != 1 || !strings.Contains(errs, g.ID) || !strings.Contains(errs, "differs") {
		t.Errorf("migrate onto a changed game: status %d, %q", status, errs)
	}
}

func TestMigrateUsage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "razzia.db")
	checkUsage(t, []usageCase{
		{"help", []string{"migrate", "--help"}, nil, 0, "--from"},
		{"help command", []string{"help", "migrate"}, nil, 0, "idempotent"},
		{"usage lists migrate", []string{"help"}, nil, 0, "migrate"},
		{"no flags", []string{"migrate"}, nil, 2, "want both --from and --to"},
		{"no target", []string{"migrate", "--from", db}, nil, 2, "want both"},
		{"same", []string{"migrate", "--from", db, "--to", db}, nil, 2, "the same database"},
		{"argument", []string{"migrate", "--from", db, "--to", db + "2", "extra"}, nil, 2, `unexpected argument "extra"`},
		{"bad target URL", []string{"migrate", "--from", db, "--to", "postgres://%zz"}, nil, 1, "the target"},
		{"missing source directory", []string{"migrate", "--from", "/nonexistent/dir/x.db", "--to", db}, nil, 1, "does not exist"},
	})
}
