package sqlite

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// filled returns the bytes of a closed database holding many games.
func filled(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "full.db")
	s := open(t, path)
	for i := range 60 {
		g := &store.Game{
			ID:      fmt.Sprintf("game%06d", i),
			Status:  store.StatusArchived,
			Seats:   []store.Seat{{Name: "Ann", TokenHash: bytes.Repeat([]byte{1}, 32)}, {Name: "Bot", Bot: "hard"}},
			Cheques: [][]int{{2, 7, 11}, {3, 6, 10}},
			Seed:    bytes.Repeat([]byte{byte(i)}, 32),
		}
		for j := range 80 {
			g.Moves = append(g.Moves, fmt.Sprintf("bid %d of move %d", j%16, j))
		}
		if err := s.CreateGame(t.Context(), g); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		t.Fatal("the WAL is still there after Close: the file alone is not the database")
	}
	return b
}

func TestOpenDamaged(t *testing.T) {
	good := filled(t)
	rng := rand.New(rand.NewPCG(1, 2))
	garbage := make([]byte, 8192)
	for i := range garbage {
		garbage[i] = byte(rng.UintN(256))
	}
	// Two whole pages in the middle, headers included: bytes within a
	// page's free space would be damage that no reader ever meets.
	overwritten := bytes.Clone(good)
	// A page's start (its b-tree header) in the middle of the file: the
	// damage meets what is stored wherever the tables' pages fall.
	copy(overwritten[len(good)/2/4096*4096:], garbage[:2000])
	cases := []struct {
		name string
		data []byte
	}{
		{"garbage", garbage},
		{"a few bytes", []byte("razzia\n")},
		{"a text file", []byte(strings.Repeat("Ann bid 9\n", 500))},
		{"header then garbage", append([]byte(header), garbage...)},
		{"truncated in the header", good[:60]},
		{"truncated after the first page", good[:4096]},
		{"truncated at a quarter", good[:len(good)/4]},
		{"truncated at half", good[:len(good)/2]},
		{"truncated mid-page", good[:len(good)/2+1000]},
		{"truncated at the last page", good[:len(good)-4096]},
		{"pages overwritten", overwritten},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "razzia.db")
			if err := os.WriteFile(path, c.data, 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := Open(t.Context(), path)
			if err == nil {
				s.Close()
				t.Fatalf("Open succeeded on a damaged file (%d bytes)", len(c.data))
			}
			t.Log(err)
			if !errors.Is(err, store.ErrCorrupt) {
				t.Errorf("error %q does not wrap ErrCorrupt", err)
			}
			for _, want := range []string{path, "backup", "move it aside"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, c.data) {
				t.Error("Open changed the damaged file")
			}
		})
	}
	// The undamaged bytes open: the damage above is what was refused.
	path := filepath.Join(t.TempDir(), "razzia.db")
	if err := os.WriteFile(path, good, 0o600); err != nil {
		t.Fatal(err)
	}
	s := open(t, path)
	defer s.Close()
	if g, err := s.Game(t.Context(), "game000059"); err != nil || len(g.Moves) != 80 {
		t.Fatalf("intact copy: Game = %v, %v", g, err)
	}
}

func TestOpenNotAFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	unreadable := filepath.Join(dir, "unreadable.db")
	if err := os.WriteFile(unreadable, filled(t), 0o000); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, path, says string
	}{
		{"directory", dir, "directory"},
		{"inside a file", filepath.Join(file, "razzia.db"), "not a directory"},
		{"missing directory", filepath.Join(dir, "missing", "razzia.db"), "does not exist"},
		{"unreadable", unreadable, "permission denied"},
		{"empty name", "", "no database"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "unreadable" && os.Geteuid() == 0 {
				t.Skip("root reads every file")
			}
			s, err := Open(t.Context(), c.path)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			t.Log(err)
			if errors.Is(err, store.ErrCorrupt) {
				t.Errorf("error %q wraps ErrCorrupt: nothing is damaged", err)
			}
			if !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), c.says) {
				t.Errorf("error %q does not name %q and say %q", err, c.path, c.says)
			}
		})
	}
}

// TestCheckpointer: no commit copies the log into the database (the
// writer's own checkpoints are off, so none stalls a move); the
// checkpointer does, beside it.
func TestCheckpointer(t *testing.T) {
	t.Parallel() // waits on the checkpointer
	for _, c := range []struct {
		name   string
		every  time.Duration
		copied bool
	}{{"checkpointer", 10 * time.Millisecond, true}, {"none yet", time.Hour, false}} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ckpt.db")
			s, err := OpenOptions(t.Context(), path, Options{CheckpointEvery: c.every, CheckpointPages: 1000})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			size := func() int64 {
				fi, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				return fi.Size()
			}
			before := size()
			// Over 1000 pages of the log, where SQLite's own checkpoint
			// would start: 12 commits of 400 KB.
			for i := range 12 {
				g := &store.Game{ID: fmt.Sprintf("ckpt%06d", i), Status: store.StatusArchived, Seats: make([]store.Seat, 2)}
				for j := range 100 {
					g.Moves = append(g.Moves, fmt.Sprintf("%d %s", j, strings.Repeat("x", 4000)))
				}
				if err := s.CreateGame(t.Context(), g); err != nil {
					t.Fatal(err)
				}
			}
			if !c.copied {
				if after := size(); after != before {
					t.Errorf("the database grew from %d to %d bytes: a commit checkpointed", before, after)
				}
				return
			}
			// Only the checkpointer's ticks can copy the pages: wait for them.
			deadline := time.Now().Add(10 * time.Second)
			for size() <= before*4 {
				if time.Now().After(deadline) {
					t.Fatalf("the database is %d bytes, was %d: the log was not copied into it", size(), before)
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}
