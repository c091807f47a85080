package sqlite

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// crashEnv, when set to a database path, makes TestCrash the child that
// writes until it is killed.
const crashEnv = "RAZZIA_STORE_CRASH_CHILD"

const crashGame = "crash00001"

// TestCrash kills a writing process with SIGKILL at random moments: every
// change it reported as committed must be there after reopening, and the
// database must be sound. This is what a nil from AppendMove promises.
func TestCrash(t *testing.T) {
	if path := os.Getenv(crashEnv); path != "" {
		crashChild(path)
		return
	}
	if testing.Short() {
		t.Skip("starts processes")
	}
	t.Parallel() // waits on its children
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	path := filepath.Join(t.TempDir(), "crash.db")
	s := open(t, path)
	if err := s.CreateGame(t.Context(), &store.Game{ID: crashGame, Status: store.StatusPlaying,
		Seats: []store.Seat{{Name: "Ann", TokenHash: []byte{1}}, {Name: "Bot", Bot: "hard"}}}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	reported := 0 // moves reported committed so far, over every round
	games := map[string]bool{}
	for round := range 5 {
		moves, created := crashRound(t, path, time.Duration(20+rng.IntN(300))*time.Millisecond)
		if len(moves) == 0 {
			t.Fatalf("round %d: the child reported nothing", round)
		}
		for i, m := range moves {
			if m != reported+i {
				t.Fatalf("round %d: child reported move %d after %d", round, m, reported+i-1)
			}
		}
		reported += len(moves)
		for _, id := range created {
			games[id] = true
		}

		s := open(t, path) // runs quick_check
		g, err := s.Game(t.Context(), crashGame)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		// At most one more: committed, then killed before it was reported.
		if len(g.Moves) < reported || len(g.Moves) > reported+1 {
			t.Errorf("round %d: %d moves stored, %d reported committed", round, len(g.Moves), reported)
		}
		for i, m := range g.Moves {
			if want := crashToken(i); m != want {
				t.Errorf("round %d: move %d is %q, want %q", round, i, m, want)
			}
		}
		for id := range games {
			if _, err := s.Game(t.Context(), id); err != nil {
				t.Errorf("round %d: reported game: %v", round, err)
			}
		}
		sums, err := s.List(t.Context(), store.StatusOpen, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(sums) < len(games) || len(sums) > len(games)+1 {
			t.Errorf("round %d: %d games stored, %d reported", round, len(sums), len(games))
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		// What was stored is known from now on: the next round may add one
		// more unreported move and game, not one more per round.
		reported = len(g.Moves)
		for _, sum := range sums {
			games[sum.ID] = true
		}
		t.Logf("round %d: killed after %d moves and %d games reported; %d moves stored",
			round, len(moves), len(created), len(g.Moves))
	}
}

func crashToken(i int) string { return fmt.Sprintf("bid %d #%d", i%16, i) }

// crashRound starts the child, kills it after it has reported its first
// change and then delay, and returns the complete lines it wrote.
func crashRound(t *testing.T, path string, delay time.Duration) (moves []int, games []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestCrash$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		defer close(lines)
		r := bufio.NewReader(out)
		for {
			line, err := r.ReadString('\n')
			if err != nil { // a line cut short by the kill was never reported
				io.Copy(io.Discard, r)
				return
			}
			lines <- strings.TrimSuffix(line, "\n")
		}
	}()
	var kill <-chan time.Time
	for line := range lines {
		if kill == nil {
			kill = time.After(delay)
		}
		select {
		case <-kill:
			cmd.Process.Kill() // SIGKILL: no deferred function runs
			kill = make(chan time.Time)
		default:
		}
		switch name, arg, _ := strings.Cut(line, " "); name {
		case "move":
			n, err := strconv.Atoi(arg)
			if err != nil {
				t.Fatalf("child wrote %q", line)
			}
			moves = append(moves, n)
		case "game":
			games = append(games, arg)
		default:
			t.Logf("child: %s", line)
		}
	}
	err = cmd.Wait()
	if ctx.Err() != nil {
		t.Fatal("the child ran out of time before it was killed")
	}
	if err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("child ended with %v, want killed", err)
	}
	return moves, games
}

// crashChild appends moves to crashGame and creates games until it is
// killed, writing a line for each change once it is committed.
func crashChild(path string) {
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	g, err := s.Game(ctx, crashGame)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	go func() {
		for i := 0; ; i++ {
			id := fmt.Sprintf("p%d-%d", os.Getpid(), i)
			if err := s.CreateGame(ctx, &store.Game{ID: id, Status: store.StatusOpen, Seats: make([]store.Seat, 3)}); err != nil {
				fmt.Println("error", err)
				os.Exit(1)
			}
			fmt.Println("game", id)
			time.Sleep(time.Millisecond)
		}
	}()
	deadline := time.Now().Add(8 * time.Second) // if the parent is gone
	for i := len(g.Moves); time.Now().Before(deadline); i++ {
		if err := s.AppendMove(ctx, crashGame, store.NoFence, i, crashToken(i), store.StatusPlaying); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("move", i)
	}
	os.Exit(2)
}
