package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/servertest"
)

// TestPlayListsYourTurnFirst: razzia play --server lists the games held
// there with the one where it is your turn first, ahead of a table that
// changed since and a game where another is to move.
func TestPlayListsYourTurnFirst(t *testing.T) {
	t.Parallel()
	srv, c := testServer(t, 1000)
	store, err := client.DefaultSeatStore()
	if err != nil {
		t.Fatal(err)
	}
	// Tables of Ann and Bob until one has Ann to move, and one after it
	// Bob: the first player is drawn.
	var mine, bobs string
	for i := 0; mine == "" || bobs == ""; i++ {
		if i == 20 {
			t.Fatal("20 tables and never both first players")
		}
		ann, err := c.TakeSeat(t.Context(), store, client.SeatRequest{Name: "Ann", Seats: []string{"", ""}})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.Join(t.Context(), ann.Game, "Bob", -1); err != nil {
			t.Fatal(err)
		}
		info, _, err := c.Game(t.Context(), ann.Game, "")
		if err != nil || info.ToMove == nil {
			t.Fatalf("the game of Ann and Bob: %+v, %v", info, err)
		}
		switch {
		case *info.ToMove == ann.Seat && mine == "":
			mine = ann.Game
		case *info.ToMove != ann.Seat && mine != "":
			bobs = ann.Game
		}
	}
	// The newest: a table that waits for a third player.
	waiting, err := c.TakeSeat(t.Context(), store, client.SeatRequest{Name: "Ann", Seats: []string{"", ""}})
	if err != nil {
		t.Fatal(err)
	}

	term := newTerminal(t, 80, 24)
	status := playCommand(t, term, "--server", srv.URL, "--lang", "en")
	if got := wait(t, status); got != 0 {
		t.Fatalf("razzia play --server exited with %d", got)
	}
	s := term.waitFor(5*time.Second, "", "Your games on", "A new table:")
	// The games of Ann's turn (more than one, if the first player was
	// Ann's more than once), then the others, the newest first.
	listed := strings.Split(unwrap(s), "Ann: ")[1:]
	turns := 0
	for turns < len(listed) && strings.HasPrefix(listed[turns], "your turn ") {
		turns++
	}
	for _, l := range listed[turns:] {
		if strings.HasPrefix(l, "your turn ") {
			t.Errorf("a game of Ann's turn after another:\n%s", s)
		}
	}
	at := func(id string) int { return strings.Index(s, "/g/"+id) }
	if turns == 0 || at(mine) < 0 || at(bobs) < at(mine) || at(waiting.Game) < at(mine) {
		t.Errorf("the list lacks %s, %s or %s, or has them first:\n%s", mine, bobs, waiting.Game, s)
	}
}

// TestPlayFailedJoinsLeaveNothing: five attempts at razzia play --server
// that fail (a bot's name, an invisible letter, a level the server does
// not play, input or output not a terminal) create nothing on a server
// with its real limits, so the address is not locked out: a table can be
// created afterwards.
func TestPlayFailedJoinsLeaveNothing(t *testing.T) {
	t.Parallel()
	srv := servertest.New(t, servertest.Options{LevelBots: true, Limits: true, API: httpapi.Options{MessageRate: 1000, MessageBurst: 20}})
	c := srv.Client()
	term := newTerminal(t, 80, 24)
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	for _, tc := range []struct {
		name   string
		args   []string
		stdin  *os.File
		stdout *os.File
		status int
		want   string
	}{
		{"a bot's name", []string{"--name", "Bot 1 (hard)"}, term.tty, term.tty, 2, "--name"},
		{"an invisible letter", []string{"--name", "A\u200bnn"}, term.tty, term.tty, 2, "invisible"},
		{"a local bot", []string{"--name", "Ann", "--bots", "random"}, term.tty, term.tty, 2, `not "random"`},
		{"input not a terminal", []string{"--name", "Ann"}, devnull, term.tty, 1, "standard input is not a terminal"},
		{"output redirected", []string{"--name", "Ann"}, term.tty, out, 1, "standard output is not a terminal"},
	} {
		var stderr bytes.Buffer
		status := run(append([]string{"play", "--server", srv.URL, "--lang", "en"}, tc.args...), tc.stdin, tc.stdout, &stderr)
		if status != tc.status || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%s: status %d, stderr %q; want %d and %q", tc.name, status, stderr.String(), tc.status, tc.want)
		}
	}
	if games := srv.Games(); len(games) != 0 {
		t.Errorf("the server has %d games after the failed joins: %+v", len(games), games)
	}
	// Five open tables, or five created and closed, would have spent
	// what the address may create: too_many_games or rate_limited.
	info, creator, err := c.CreateTable(t.Context(), client.Table{Seats: []string{"", "easy"}})
	if err != nil {
		t.Fatalf("a table after the failed joins: %v", err)
	}
	if _, err := c.Cancel(t.Context(), info.ID, creator); err != nil {
		t.Fatal(err)
	}
}

// TestPlayRefusedPort: razzia play against an address where nothing
// listens ends at once with status 1 and one short line naming the
// address, draws no table and keeps nothing (no seat, no folder made).
// Not parallel: it has a configuration folder of its own.
func TestPlayRefusedPort(t *testing.T) {
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: connections are refused
	term := newTerminal(t, 80, 24)
	status, stderr := runBounded(t, term, "play", "--server", "http://"+addr, "--name", "Ann", "--lang", "en")
	if want := "razzia play: nothing answers at " + addr + ": is the server running, and is the address right?\n"; status != 1 || stderr != want {
		t.Errorf("status %d, stderr %q; want 1 and %q", status, stderr, want)
	}
	s := term.waitFor(5*time.Second, "", "Connecting to http://"+addr+"…")
	if lines := strings.Fields(s); len(lines) != 3 { // "Connecting", "to", the address
		t.Errorf("the terminal shows more than the connecting line:\n%s", s)
	}
	if left, _ := os.ReadDir(config); len(left) != 0 {
		t.Errorf("razzia play left %v in the configuration folder", left)
	}
}
