package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/hinshun/vt10x"

	"github.com/razziagame/razzia/bot"
)

// terminal is a pseudo-terminal of 80×24 with a terminal emulator reading
// the program's output, so that a test sees the screen a person would.
type terminal struct {
	t       *testing.T
	cols    int
	ptmx    *os.File // the terminal's side: keys in, screen out
	tty     *os.File // the program's side
	mu      sync.Mutex
	vt      vt10x.Terminal
	changed chan struct{} // closed, and made anew, when the program writes
	done    chan struct{}
	bells   int // BEL bytes written outside an OSC sequence
	inOSC   bool
}

func newTerminal(t *testing.T, cols, rows int) *terminal {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		t.Fatal(err)
	}
	term := &terminal{t: t, cols: cols, ptmx: ptmx, tty: tty, vt: vt10x.New(vt10x.WithSize(cols, rows)),
		changed: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(term.done)
		buf := make([]byte, 32<<10)
		for {
			n, err := ptmx.Read(buf)
			if n > 0 {
				term.mu.Lock()
				term.vt.Write(buf[:n])
				term.countBells(buf[:n])
				close(term.changed)
				term.changed = make(chan struct{})
				term.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		tty.Close()
		ptmx.Close()
		<-term.done
	})
	return term
}

// countBells counts the bells in b, a chunk of the program's output: a
// BEL that ends an OSC sequence (ESC ]) is not one.
func (term *terminal) countBells(b []byte) {
	for i, c := range b {
		switch {
		case c == 0x1b && i+1 < len(b) && b[i+1] == ']':
			term.inOSC = true
		case c == 0x07 && term.inOSC:
			term.inOSC = false
		case c == 0x07:
			term.bells++
		case c == 0x1b && term.inOSC && i+1 < len(b) && b[i+1] == '\\':
			term.inOSC = false
		}
	}
}

// rang returns how many times the program rang the bell.
func (term *terminal) rang() int {
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.bells
}

// cellAt returns the first cell whose character is r, and whether there
// is one.
func (term *terminal) cellAt(r rune) (vt10x.Glyph, bool) {
	term.mu.Lock()
	defer term.mu.Unlock()
	cols, rows := term.vt.Size()
	for y := range rows {
		for x := range cols {
			if g := term.vt.Cell(x, y); g.Char == r {
				return g, true
			}
		}
	}
	return vt10x.Glyph{}, false
}

// screen returns the screen's text.
func (term *terminal) screen() string {
	s, _ := term.snapshot()
	return s
}

// snapshot returns the screen's text and a channel closed when the
// program next writes.
func (term *terminal) snapshot() (string, <-chan struct{}) {
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.vt.String(), term.changed
}

// send types keys.
func (term *terminal) send(keys string) {
	if _, err := io.WriteString(term.ptmx, keys); err != nil {
		term.t.Fatalf("typing %q: %v", keys, err)
	}
}

// waitFor waits until the screen shows every text, typing keys each time
// it looks and does not find them yet.
func (term *terminal) waitFor(limit time.Duration, keys string, texts ...string) string {
	term.t.Helper()
	return term.waitUntil(limit, keys, fmt.Sprintf("%q", texts), func(s string) bool {
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	})
}

// keyRepeat is how long waitUntil waits for the screen to change before
// it types its keys again: keys typed while the program could not take
// them change nothing.
const keyRepeat = 200 * time.Millisecond

// waitUntil waits until the screen satisfies ok, looking again each time
// the program writes (never on a clock), and typing keys each time it
// looks and ok does not hold yet. what names the wait in a failure.
func (term *terminal) waitUntil(limit time.Duration, keys, what string, ok func(screen string) bool) string {
	term.t.Helper()
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	for {
		s, changed := term.snapshot()
		if ok(s) {
			return s
		}
		var again <-chan time.Time
		if keys != "" {
			term.send(keys)
			again = time.After(keyRepeat)
		}
		select {
		case <-changed:
		case <-again:
		case <-term.done:
			if s := term.screen(); ok(s) {
				return s
			}
			term.t.Fatalf("the program's output ended; the screen never showed %s; it shows:\n%s", what, term.screen())
		case <-deadline.C:
			term.t.Fatalf("the screen never showed %s; it shows:\n%s", what, term.screen())
		}
	}
}

// answerUntil plays the person's decisions until the screen satisfies
// done: enter (the safe choice: draw, or pass; or close the page) once
// for each screen whose words (see words) hold one of answer, such as
// their "Your turn, NAME:", and nothing on any other screen. Keys typed on
// every look, as waitUntil types them, may reach a decision the program
// has not drawn yet (bots move at once), or the screen at the game's end:
// the screens on the way would be whichever the program happened to draw,
// and the last one say what the stray key did. So the program waits on
// each decision until the test has seen it.
func (term *terminal) answerUntil(limit time.Duration, what string, done func(screen string) bool, answer ...string) string {
	term.t.Helper()
	answered := "" // the screen last answered: a write that leaves it so is not the next decision
	return term.waitUntil(limit, "", what, func(s string) bool {
		if done(s) {
			return true
		}
		w := words(s, term.cols)
		if s != answered && slices.ContainsFunc(answer, func(a string) bool { return strings.Contains(w, a) }) {
			term.send("\r")
			answered = s
		}
		return false
	})
}

// An exit is how "razzia play" ended.
type exit struct {
	status int
	stderr string
}

// playCommand runs "razzia play" in-process on the pseudo-terminal (a
// 256-colour one: see TestMain) and returns a channel with its exit. The goroutine never touches t, which
// may be over by the time the program ends.
func playCommand(t *testing.T, term *terminal, args ...string) <-chan exit {
	t.Helper()
	done := make(chan exit, 1)
	go func() {
		var stderr bytes.Buffer
		status := run(append([]string{"play"}, args...), term.tty, term.tty, &stderr)
		done <- exit{status, stderr.String()}
	}()
	return done
}

// wait returns the exit status, logging what the program wrote to stderr.
func wait(t *testing.T, done <-chan exit) int {
	t.Helper()
	select {
	case e := <-done:
		if e.stderr != "" {
			t.Logf("stderr: %s", e.stderr)
		}
		return e.status
	case <-time.After(20 * time.Second):
		t.Fatal("razzia play did not end")
		return -1
	}
}

// TestPlayTerminalGame plays a whole game against three bots through a
// pseudo-terminal by typing keys, as a person would: enter plays the
// selected move (draw in a turn, pass or the lowest bid in an auction) and
// closes the score table after each round; d and p are the shortcuts.
// The final screen shows the result, and the record replays.
func TestPlayTerminalGame(t *testing.T) {
	t.Parallel() // a terminal and a program of its own, mostly waiting
	term := newTerminal(t, 80, 24)
	rec := filepath.Join(t.TempDir(), "game.json")
	status := playCommand(t, term, "--players", "Ann", "--bots", "random,easy,random",
		"--seed", "7", "--delay", "0", "--lang", "en", "--record", rec)

	s := term.waitFor(10*time.Second, "", "Razzia!", "Ann (you)", "Auction row", "?: help")
	for _, want := range []string{"Round 1 of 3", "Police", "Centre cheque", "Bot 1 (random)", "Bot 2 (easy)"} {
		if !strings.Contains(s, want) {
			t.Errorf("the first screen lacks %q:\n%s", want, s)
		}
	}
	// The help key shows the keys and returns.
	term.send("?")
	term.waitFor(5*time.Second, "", "Keys", "draw a card")
	term.send("\x1b")
	term.waitFor(5*time.Second, "", "Auction row")

	final := term.waitFor(60*time.Second, "dp\r", "Game over", "R1", "R3")
	if !strings.Contains(final, "wins the game") && !strings.Contains(final, "share the win") {
		t.Errorf("the final screen names no winner:\n%s", final)
	}
	for _, name := range []string{"Ann", "Bot 1 (random)", "Bot 2 (easy)", "Bot 3 (random)"} {
		if !strings.Contains(final, name) {
			t.Errorf("the final screen lacks %q:\n%s", name, final)
		}
	}
	t.Logf("final screen:\n%s", final)
	term.send("q")
	if got := wait(t, status); got != 0 {
		t.Fatalf("razzia play exited with %d", got)
	}
	r := readRecordFile(t, rec)
	g, err := r.Game()
	if err != nil {
		t.Fatal(err)
	}
	if !g.Over() {
		t.Errorf("the record's game is not over after %d moves", len(r.Moves))
	}
}

// TestPlayTerminalServer plays a whole game on a server through a
// pseudo-terminal: razzia play creates a table with two server bots, joins
// it through internal/client, and the keys typed play Ann's seat.
func TestPlayTerminalServer(t *testing.T) {
	t.Parallel() // a terminal and a program of its own, mostly waiting
	srv, _ := testServer(t, 1000)
	term := newTerminal(t, 80, 24)
	status := playCommand(t, term, "--server", srv.URL, "--name", "Ann", "--bots", "easy,easy", "--lang", "de")
	s := term.waitFor(10*time.Second, "", "Ann (du)", "Beutereihe")
	if !strings.Contains(s, "Runde 1 von 3") {
		t.Errorf("the first screen is not in German:\n%s", s)
	}
	final := term.waitFor(60*time.Second, "dp\r", "Spielende", "R1", "R3")
	t.Logf("final screen:\n%s", final)
	term.send("q")
	if got := wait(t, status); got != 0 {
		t.Fatalf("razzia play exited with %d", got)
	}
}

// TestPlayBadBotSaysSpecsOnce: a bot spec that is none lists the valid
// specs once, not twice in one message.
func TestPlayBadBotSaysSpecsOnce(t *testing.T) {
	for _, spec := range []string{"genius", "easy,,easy", "mcts:iters=x"} {
		var out, errOut bytes.Buffer
		status := run([]string{"play", "--bots", spec}, strings.NewReader(""), &out, &errOut)
		if n := strings.Count(errOut.String(), "valid specs"); status != 2 || n != 1 {
			t.Errorf("--bots %s: status %d, the valid specs %d times: %q", spec, status, n, errOut.String())
		}
	}
}

// TestPlayUsage checks the errors found before the game starts.
func TestPlayUsage(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"too many players", []string{"--players", "Ann,Bob,Cy", "--bots", "easy,easy,easy"}, "make 6 players"},
		{"too few", []string{"--bots", ""}, "1 person and 0 bots make 1 player;"},
		{"bad bot", []string{"--bots", "genius"}, "--bots"},
		{"no people", []string{"--players", "-1"}, "--players: -1: want the people's names, or their number from 0 to 5"},
		{"bad name", []string{"--players", "Ann,"}, "--players"},
		{"same name twice", []string{"--players", "Ann,ANN"}, `"Ann" and "ANN" are the same name`},
		{"a server bot's name", []string{"--players", "Ann,Bot 1 (hard)"}, "looks like a server bot's"},
		{"a local bot's name", []string{"--players", "Ann,Bot 1 (easy)", "--bots", "easy", "--lang", "en"}, "looks like a server bot's"},
		{"a local bot's name in Hungarian", []string{"--players", "Ann,1. gép (könnyű)", "--bots", "easy", "--lang", "hu"}, `"1. gép (könnyű)" and "1. gép (könnyű)" are the same name`},
		{"invisible name", []string{"--players", "Ann,B\u200bob"}, "invisible"},
		{"bot name on a server", []string{"--server", "http://127.0.0.1:1", "--name", "Bot 1 (hard)"}, "--name"},
		{"id without server", []string{"--server", "", "k3x7q2m5ab"}, "needs --server"},
		{"server bot level", []string{"--server", "http://127.0.0.1:1", "--bots", "random"}, "the levels " + strings.Join(bot.LevelNames(), ", ") + `, not "random"`},
		{"two invites", []string{"a", "b"}, "at most one"},
		{"unknown pace", []string{"--server", "http://127.0.0.1:1", "--pace", "bullet"}, `no pace "bullet"`},
		{"pace without a server", []string{"--pace", "rapid"}, "--pace is for a new table on a server"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			status := run(append([]string{"play"}, tc.args...), strings.NewReader(""), &out, &errOut)
			if status != 2 || !strings.Contains(errOut.String(), tc.want) {
				t.Errorf("status %d, stderr %q; want 2 and %q", status, errOut.String(), tc.want)
			}
		})
	}
}
