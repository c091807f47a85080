package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/tui"
)

func init() {
	// The seats razzia play keeps go to a folder of the tests', never to
	// the user's: os.UserConfigDir reads XDG_CONFIG_HOME.
	dir, err := os.MkdirTemp("", "razzia-test-config-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
}

// unwrap joins the screen's lines as they were before the terminal
// wrapped them at its width.
func unwrap(screen string) string {
	var b strings.Builder
	for l := range strings.SplitSeq(screen, "\n") {
		l = strings.TrimRight(l, " ")
		b.WriteString(l)
		if len([]rune(l)) < 80 {
			b.WriteString(" ")
		}
	}
	return b.String()
}

var tableLink = regexp.MustCompile(`razzia play (http://\S+/g/[a-z2-7]{10})`)

// quitToBot quits a started game on a server with q and y, which leaves
// the seat to a bot, and waits for a clean exit.
func quitToBot(t *testing.T, term *terminal, status <-chan exit) {
	t.Helper()
	term.send("q")
	term.waitFor(5*time.Second, "", "A bot plays for you until you come back")
	term.send("y")
	if got := wait(t, status); got != 0 {
		t.Fatalf("razzia play exited with %d", got)
	}
}

// TestPlaySeatSurvives: q at a started table leaves the seat to a bot
// and says how to come back; razzia play --server lists the game; the
// link takes the seat back, from the bot, instead of answering that the
// table is full.
func TestPlaySeatSurvives(t *testing.T) {
	t.Parallel() // terminals and programs of their own, mostly waiting
	srv, _ := testServer(t, 1000)

	term := newTerminal(t, 80, 24)
	status := playCommand(t, term, "--server", srv.URL, "--name", "Ann", "--bots", "easy,easy", "--lang", "en")
	term.waitFor(10*time.Second, "", "Ann (you)", "Auction row")
	quitToBot(t, term, status)
	s := term.waitFor(5*time.Second, "", "Your seat is kept")
	m := tableLink.FindStringSubmatch(unwrap(s))
	if m == nil {
		t.Fatalf("no link to come back with:\n%s", s)
	}
	link := m[1]

	term = newTerminal(t, 80, 24)
	status = playCommand(t, term, "--server", srv.URL, "--lang", "de")
	s = term.waitFor(10*time.Second, "", "Deine Spiele auf", "Ein neuer Tisch")
	if !strings.Contains(unwrap(s), "razzia play "+link+" ") || !strings.Contains(s, "ein Bot spielt für dich") {
		t.Errorf("the list lacks the game %s:\n%s", link, s)
	}
	if got := wait(t, status); got != 0 {
		t.Fatalf("razzia play --server exited with %d", got)
	}

	term = newTerminal(t, 80, 24)
	status = playCommand(t, term, "--name", "Ann", "--lang", "en", link)
	term.waitUntil(10*time.Second, "", "Ann's seat taken back", func(s string) bool {
		return strings.Contains(s, "Ann (you)") && !strings.Contains(s, "bot plays") && !strings.Contains(s, "✗")
	})
	quitToBot(t, term, status)
}

// TestPlayNoSeat: the link of a game with no seat left says what can be
// done there instead: watch it while it is played, replay it once it is
// over; not only that the table is full.
func TestPlayNoSeat(t *testing.T) {
	t.Parallel()
	srv, c := testServer(t, 1000)
	playing, _, err := c.Create(t.Context(), []string{"", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Join(t.Context(), playing.ID, "Ann", -1); err != nil { // Ann's turn, for ever
		t.Fatal(err)
	}
	over, err := c.Upload(t.Context(), readRecordFile(t, filepath.Join("testdata", "game-3p.json")))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ id, want string }{
		{playing.ID, "game " + playing.ID + " has no open seat: razzia watch " + srv.URL + "/g/" + playing.ID + " watches it"},
		{over.ID, "game " + over.ID + " is over: razzia replay " + srv.URL + "/g/" + over.ID + " replays it"},
	} {
		term := newTerminal(t, 80, 24)
		var stderr bytes.Buffer
		status := run([]string{"play", "--name", "Zoe", srv.URL + "/g/" + tc.id}, term.tty, term.tty, &stderr)
		if status != 1 || stderr.String() != "razzia play: "+tc.want+"\n" {
			t.Errorf("status %d, stderr %q; want 1 and %q", status, stderr.String(), tc.want)
		}
	}
}

// silentServer listens on a free port, accepts every connection and never
// answers; it returns its address.
func silentServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn // held open, never answered
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				for _, c := range conns {
					c.Close()
				}
				return
			}
			conns = append(conns, c)
		}
	}()
	t.Cleanup(func() { ln.Close(); <-done })
	return ln.Addr().String()
}

// TestPlaySilentServer: a server that accepts connections and never
// answers gets a clear error within the time limit, not a blank screen.
// Not parallel: it shortens the limit for every play.
func TestPlaySilentServer(t *testing.T) {
	addr := silentServer(t)
	old := connectTimeout
	connectTimeout = 300 * time.Millisecond
	defer func() { connectTimeout = old }()
	term := newTerminal(t, 80, 24)
	status, stderr := runBounded(t, term, "play", "--server", "http://"+addr, "--name", "Ann", "--lang", "en")
	if status != 1 || !strings.Contains(stderr, "did not answer within 300ms") {
		t.Errorf("status %d, stderr %q", status, stderr)
	}
	term.waitFor(5*time.Second, "", "Connecting to http://"+addr)
}

// runBounded runs the command on the terminal and returns its status
// and standard error; a command still running after 20 s fails the test.
func runBounded(t *testing.T, term *terminal, args ...string) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(args, term.tty, term.tty, &stderr) }()
	select {
	case status := <-done:
		return status, stderr.String()
	case <-time.After(20 * time.Second):
		t.Fatalf("razzia %s still runs after 20 s", strings.Join(args, " "))
		return -1, ""
	}
}

// TestWatchChecksFirst: razzia watch without a terminal says that it is
// razzia watch that needs one; with a server that accepts and never
// answers, the terminal says whom it waits for, then why it gave up.
// Not parallel: it shortens the limit for every command.
func TestWatchChecksFirst(t *testing.T) {
	var stderr bytes.Buffer
	if status := run([]string{"watch", "http://127.0.0.1:1/g/k3x7q2m5ab"}, strings.NewReader(""), io.Discard, &stderr); status != 1 ||
		!strings.HasPrefix(stderr.String(), "razzia watch: standard input is not a terminal: razzia watch draws the table") {
		t.Errorf("status %d, stderr %q", status, stderr.String())
	}
	addr := silentServer(t)
	old := connectTimeout
	connectTimeout = 300 * time.Millisecond
	defer func() { connectTimeout = old }()
	term := newTerminal(t, 80, 24)
	stderr.Reset()
	if status := run([]string{"watch", "--lang", "de", "http://" + addr + "/g/k3x7q2m5ab"}, term.tty, term.tty, &stderr); status != 1 ||
		!strings.Contains(stderr.String(), "did not answer within 300ms") {
		t.Errorf("status %d, stderr %q", status, stderr.String())
	}
	term.waitFor(5*time.Second, "", "Verbindung zu http://"+addr)
}

// TestSummaryAligns: the lines printed after a game end their totals in
// one column whatever the names' letters or lengths.
func TestSummaryAligns(t *testing.T) {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Árpád Szentgyörgyi", "Bob", "1. gép (könnyű)", "Maximiliane von Wolkenstein-Trostburg"}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := tui.NewLocal(g, []tui.Seat{{Name: "Árpád Szentgyörgyi"}, {Name: "Bob"}, {Name: "1. gép (könnyű)"}, {Name: "Maximiliane von Wolkenstein-Trostburg"}}, tui.Options{Lang: "hu"})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	summary(&out, m, 0)
	col := -1
	for l := range strings.SplitSeq(strings.Trim(out.String(), "\n"), "\n") {
		if w := ansi.StringWidth(l); col >= 0 && w != col {
			t.Errorf("the totals end in columns %d and %d:\n%s", col, w, out.String())
		} else {
			col = w
		}
	}
}

// TestPlayServerRestart stops the server while a person is to move at a
// table of two people, Ann in English at 80×24 and Bob in Hungarian at
// 120×40: each screen says that the connection is lost and offers no
// move; the server started again on the same address and database gives
// the turn back, and the move plays.
func TestPlayServerRestart(t *testing.T) {
	t.Parallel() // processes of their own, mostly waiting
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	db := filepath.Join(t.TempDir(), "razzia.db")
	args := []string{"--bot-delay", "3ms", "--lease-ttl", "1m"}
	s1 := startServer(t, ctx, db, args...)
	ann := newTerminal(t, 80, 24)
	annDone := playCommand(t, ann, "--server", s1.url, "--name", "Ann", "--bots", "easy", "--players", "3", "--lang", "en")
	s := ann.waitFor(20*time.Second, "", "Invite them with this link")
	link := regexp.MustCompile(`http://\S+/g/[a-z2-7]{10}`).FindString(s)
	bob := newTerminal(t, 120, 40)
	bobDone := playCommand(t, bob, "--name", "Bob", "--lang", "hu", link)
	s = ann.waitUntil(20*time.Second, "", "a person to move", func(s string) bool {
		return strings.Contains(s, "Your turn, Ann") || strings.Contains(s, "Bob to move")
	})
	mover, moverTurn := ann, "Your turn, Ann"
	if strings.Contains(s, "Bob to move") {
		mover, moverTurn = bob, "Te jössz, Bob"
	}
	mover.waitFor(10*time.Second, "", moverTurn)
	bob.waitFor(20*time.Second, "", "Bob (te)") // his first state came too
	s1.kill(ctx, syscall.SIGKILL)
	for _, p := range []struct {
		term       *terminal
		lost, turn string
	}{{ann, "No connection to the server", "Your turn"}, {bob, "Nincs kapcsolat a szerverrel", "Te jössz"}} {
		if s := p.term.waitFor(20*time.Second, "", p.lost); strings.Contains(s, p.turn) {
			t.Errorf("the turn is offered without a server:\n%s", s)
		}
	}
	s2 := startServer(t, ctx, db, append(args, "--addr", strings.TrimPrefix(s1.url, "http://"))...)
	mover.waitFor(30*time.Second, "", moverTurn)
	// Enter plays the safe move selected, a draw or a pass in an auction:
	// the server has one move more (the screen changes with it).
	moves := func() int {
		info, _, err := s2.client().Game(ctx, link[len(link)-10:], "")
		if err != nil {
			t.Fatal(err)
		}
		return info.Moves
	}
	before := moves()
	mover.waitUntil(10*time.Second, "\r", "the move played", func(string) bool { return moves() > before })
	quitToBot(t, ann, annDone)
	bob.send("q")
	bob.waitFor(5*time.Second, "", "Egy bot játszik helyetted")
	bob.send("y")
	if got := wait(t, bobDone); got != 0 {
		t.Fatalf("Bob's razzia play exited with %d", got)
	}
}

// TestPlayFivePlayersSizes plays five players at 80×24 and 120×40 in
// English, German and Hungarian through a terminal: the long name keeps
// the cheques' column, the line of stakes names all five players, and the
// question whether to quit shows whole.
func TestPlayFivePlayersSizes(t *testing.T) {
	t.Parallel()
	for _, lang := range []struct{ tag, stakes, own, yes string }{
		{"en", "Worth now:", "Worth to you now:", "y: yes, n: no"},
		{"de", "Jetzt wert:", "Jetzt wert für dich:", "y: ja, n: nein"},
		{"hu", "Most ér:", "Most ennyit ér neked:", "y: igen, n: nem"},
	} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(fmt.Sprintf("%s %dx%d", lang.tag, size[0], size[1]), func(t *testing.T) {
				t.Parallel()
				term := newTerminal(t, size[0], size[1])
				// The longest name a person may take: 20 characters.
				status := playCommand(t, term, "--players", "Árpád Szentgyörgyiné", "--bots", "easy,easy,easy,easy",
					"--seed", "3", "--delay", "0", "--lang", lang.tag)
				s := term.waitFor(10*time.Second, "", "Árpád Szent", lang.stakes)
				col := -1
				for l := range strings.SplitSeq(s, "\n") {
					if strings.HasPrefix(l, lang.stakes) {
						// Every player's stake: the bots' by their numbers,
						// Árpád's there too, or on a line of its own on
						// Árpád's turn.
						want := 5
						if strings.Contains(s, lang.own) {
							want = 4
						} else if !strings.Contains(l, "Árpád") {
							t.Errorf("the stakes lack Árpád: %q", l)
						}
						for _, bot := range []string{"1", "2", "3", "4"} {
							if !strings.Contains(l, bot) {
								t.Errorf("the stakes lack bot %s: %q", bot, l)
							}
						}
						if n := strings.Count(l, "+") + strings.Count(l, "-"); n != want {
							t.Errorf("the stakes show %d players, want %d: %q", n, want, l)
						}
					}
					i := strings.Index(l, "[")
					if i < 0 || !strings.Contains(l, "$") {
						continue
					}
					if c := ansi.StringWidth(l[:i]); col >= 0 && c != col {
						t.Errorf("the cheques start in columns %d and %d:\n%s", col, c, s)
					} else {
						col = c
					}
				}
				term.send("q")
				term.waitFor(5*time.Second, "", lang.yes)
				term.send("y")
				if got := wait(t, status); got != 0 {
					t.Fatalf("razzia play exited with %d", got)
				}
			})
		}
	}
}
