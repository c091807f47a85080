package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/razziagame/razzia"
)

// readRecordFile reads the record at path, failing the test if it is not
// a whole record.
func readRecordFile(t *testing.T, path string) *razzia.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := razzia.ReadRecord(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r
}

// playProcess starts razzia play with the arguments in a process of its
// own on the terminal, and returns it and its standard error.
func playProcess(t *testing.T, term *terminal, args ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := razziaCommand(t, t.Context(), append([]string{"play"}, args...)...)
	stderr := &syncBuffer{}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = term.tty, term.tty, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stderr
}

// interrupt ends the process with the signal, or with ctrl+c typed for 0,
// and returns its exit status.
func interrupt(t *testing.T, term *terminal, cmd *exec.Cmd, sig syscall.Signal) int {
	t.Helper()
	if sig == 0 {
		term.send("\x03")
	} else if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if exit, ok := errors.AsType[*exec.ExitError](err); ok {
		return exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0
}

// TestPlaySignals stops a game at the terminal with a signal, or with
// ctrl+c typed, in a process of its own: the exit status is a shell's
// (128 + the signal), the record on disk holds every move played (it is
// written as the game goes, before the signal), and the screen is
// restored.
func TestPlaySignals(t *testing.T) {
	t.Parallel() // processes of their own, mostly waiting
	for _, tc := range []struct {
		name string
		sig  syscall.Signal // 0: ctrl+c typed
		want int
	}{
		{"SIGINT", syscall.SIGINT, 130},
		{"SIGTERM", syscall.SIGTERM, 143},
		{"SIGHUP", syscall.SIGHUP, 129},
		{"ctrl+c", 0, 130},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			term := newTerminal(t, 80, 24)
			rec := filepath.Join(t.TempDir(), "game.json")
			cmd, stderr := playProcess(t, term, "--players", "Ann", "--bots", "random,random",
				"--seed", "7", "--delay", "0", "--lang", "en", "--record", rec)
			term.waitFor(20*time.Second, "", "Ann (you)", "Auction row")
			term.waitFor(20*time.Second, "d", "Ann draws")
			if r := readRecordFile(t, rec); len(r.Moves) == 0 {
				t.Fatal("the record on disk holds no move while the game goes on")
			}
			if status := interrupt(t, term, cmd, tc.sig); status != tc.want {
				t.Errorf("exit status %d, want %d; stderr: %s", status, tc.want, stderr.String())
			}
			r := readRecordFile(t, rec)
			if len(r.Moves) == 0 {
				t.Error("the record on disk lost the moves")
			}
			// The program's last output may still be on its way to the
			// emulator: the screen is looked at as it arrives.
			term.waitUntil(5*time.Second, "", "the screen restored", func(s string) bool {
				return !strings.Contains(s, "Auction row")
			})
			leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(rec), ".game.json.*"))
			if len(leftovers) > 0 {
				t.Errorf("temporary files left: %v", leftovers)
			}
		})
	}
}

// TestPlayChecksFirst: without a terminal, or with a record that cannot
// be written, razzia play says so before a game starts or anything is
// asked of a server, and draws nothing into a redirected output.
func TestPlayChecksFirst(t *testing.T) {
	t.Parallel()
	srv, _ := testServer(t, 1000)
	term := newTerminal(t, 80, 24)
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	// A game played before, whose record must not be written over.
	earlier := filepath.Join(t.TempDir(), "earlier.json")
	if err := os.WriteFile(earlier, []byte(`{"players":["Ann","Bob"],"moves":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		stdin  *os.File
		stdout *os.File
		want   string
	}{
		{"input not a terminal", []string{"--lang", "en"}, nil, term.tty, "standard input is not a terminal"},
		{"output redirected", []string{"--lang", "en"}, term.tty, out, "standard output is not a terminal"},
		{"server, input not a terminal", []string{"--server", srv.URL, "--name", "Ann", "--bots", "easy"}, nil, term.tty, "standard input is not a terminal"},
		{"server, output redirected", []string{"--server", srv.URL, "--name", "Ann", "--bots", "easy"}, term.tty, out, "standard output is not a terminal"},
		{"record in a missing folder", []string{"--record", filepath.Join(t.TempDir(), "no", "such", "game.json")}, term.tty, term.tty, "--record: cannot write"},
		{"record is a folder", []string{"--record", t.TempDir()}, term.tty, term.tty, "is a folder"},
		{"record of another game", []string{"--record", earlier}, term.tty, term.tty, earlier + " exists: give a new file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdin := tc.stdin
			if stdin == nil {
				stdin, err = os.Open(os.DevNull)
				if err != nil {
					t.Fatal(err)
				}
				defer stdin.Close()
			}
			var stderr bytes.Buffer
			status := run(append([]string{"play"}, tc.args...), stdin, tc.stdout, &stderr)
			if status == 0 || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("status %d, stderr %q; want an error saying %q", status, stderr.String(), tc.want)
			}
		})
	}
	if fi, err := out.Stat(); err != nil || fi.Size() != 0 {
		t.Errorf("something was written into the redirected output: %v, %d bytes", err, fi.Size())
	}
	if games := srv.Games(); len(games) != 0 {
		t.Errorf("the server has %d games after the refusals: %+v", len(games), games)
	}
}

// TestPlaySuspend suspends razzia play to a shell with job control, as a
// person does, by ctrl+z typed and by SIGTSTP sent from outside: each time
// the process stops, the shell has the screen back (the table is gone), fg
// draws the table again and the game goes on; the record on disk holds
// the moves played after, and q ends with status 0.
func TestPlaySuspend(t *testing.T) {
	t.Parallel() // processes of their own, mostly waiting
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to suspend to")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	term := newTerminal(t, 80, 24)
	rec := filepath.Join(t.TempDir(), "game.json")
	sh := exec.CommandContext(t.Context(), bash, "--norc", "--noprofile", "-i")
	sh.Env = append(os.Environ(), "PS1=$ ", "RZ="+self, "REC="+rec, asRazzia+"=1")
	sh.Stdin, sh.Stdout, sh.Stderr = term.tty, term.tty, term.tty
	sh.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true} // the shell's own terminal
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sh.Process.Kill(); sh.Wait() })
	term.waitFor(10*time.Second, "", "$ ")
	term.send(`"$RZ" play --players Ann --bots random,random --seed 7 --delay 0 --lang en --record "$REC"` + "\r")
	term.waitFor(20*time.Second, "", "Ann (you)", "Auction row")
	pid := childOf(t, sh.Process.Pid)

	stopped := 0
	for _, how := range []string{"ctrl+z", "SIGTSTP"} {
		if how == "ctrl+z" {
			term.send("\x1a")
		} else if err := syscall.Kill(pid, syscall.SIGTSTP); err != nil {
			t.Fatal(err)
		}
		stopped++ // the shell's screen keeps the lines of the stops before
		term.waitUntil(10*time.Second, "", how+": the shell's screen, the job stopped", func(s string) bool {
			return strings.Count(s, "Stopped") == stopped && !strings.Contains(s, "Auction row")
		})
		before := len(readRecordFile(t, rec).Moves)
		term.send("fg\r")
		term.waitFor(10*time.Second, "", "Ann (you)", "Auction row")
		term.waitUntil(20*time.Second, "dp\r", how+": a move after fg", func(string) bool {
			return len(readRecordFile(t, rec).Moves) > before
		})
	}
	term.send("q")
	term.waitFor(5*time.Second, "", "Quit this game?")
	term.send("y")
	term.waitFor(10*time.Second, "", "seed 7")
	term.send("echo status=$?\r")
	term.waitFor(5*time.Second, "", "status=0")
	term.send("exit\r")
	if err := sh.Wait(); err != nil {
		t.Errorf("the shell: %v", err)
	}
}

// TestPlaySuspendWithoutShell: where no shell can take the terminal back
// (razzia play leads its own session, as "ssh -t host razzia play" starts
// it), ctrl+z does nothing, rather than give the screen up and wait for a
// SIGCONT that never comes.
func TestPlaySuspendWithoutShell(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("whether a shell can take the terminal back is read from /proc")
	}
	term := newTerminal(t, 80, 24)
	cmd := razziaCommand(t, t.Context(), "play", "--players", "Ann", "--bots", "random,random",
		"--seed", "7", "--delay", "0", "--lang", "en")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = term.tty, term.tty, term.tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	term.waitFor(20*time.Second, "", "Ann (you)", "Auction row")
	term.send("\x1a")
	// The game still has its keys. One ?, not one at each look: a second,
	// typed while the first was on its way, closed the help again, and
	// the escape below then came with the q, as alt+q.
	term.send("?")
	term.waitFor(5*time.Second, "", "Keys", "draw a card")
	term.send("\x1b") // alone: escape and a key at once are alt and the key
	term.waitFor(5*time.Second, "", "Auction row")
	term.send("q")
	term.waitFor(5*time.Second, "", "Quit this game?")
	term.send("y")
	if err := cmd.Wait(); err != nil {
		t.Errorf("razzia play: %v", err)
	}
}

// childOf returns the process id of the one child of the process, from
// /proc; the test is skipped where there is none.
func childOf(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		t.Skipf("no /proc to find razzia play's process: %v", err)
	}
	f := strings.Fields(string(b))
	if len(f) != 1 {
		t.Fatalf("the shell has children %q, want one", f)
	}
	child, err := strconv.Atoi(f[0])
	if err != nil {
		t.Fatal(err)
	}
	return child
}

// TestPlayServerSignals: a person gone from a started game on a server
// without q (ctrl+c typed, SIGTERM, the terminal closed) leaves the seat to
// a server bot, as q does, instead of the table waiting for them; the
// status is the signal's and the seat is kept to come back to.
func TestPlayServerSignals(t *testing.T) {
	t.Parallel() // processes of their own, mostly waiting
	srv, c := testServer(t, 1000)
	for _, tc := range []struct {
		name, person string
		sig          syscall.Signal // 0: ctrl+c typed
		want         int
	}{
		{"ctrl+c", "Ann", 0, 130},
		{"SIGTERM", "Bea", syscall.SIGTERM, 143},
		{"SIGHUP", "Cid", syscall.SIGHUP, 129},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			term := newTerminal(t, 80, 24)
			cmd, stderr := playProcess(t, term, "--server", srv.URL, "--name", tc.person, "--bots", "easy,easy", "--lang", "en")
			term.waitFor(20*time.Second, "", tc.person+" (you)", "Auction row")
			if status := interrupt(t, term, cmd, tc.sig); status != tc.want {
				t.Errorf("exit status %d, want %d; stderr: %s", status, tc.want, stderr.String())
			}
			games, err := c.List(t.Context(), "")
			if err != nil {
				t.Fatal(err)
			}
			id := ""
			for _, g := range games {
				if len(g.Seats) == 3 && g.Seats[0].Name == tc.person {
					id = g.ID
				}
			}
			if id == "" {
				t.Fatalf("no game of %s's: %+v", tc.person, games)
			}
			standIn(t, c, id, tc.person)
		})
	}
}
