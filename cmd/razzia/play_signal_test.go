package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
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
			cmd := razziaCommand(t, t.Context(), "play", "--players", "Ann", "--bots", "random,random",
				"--seed", "7", "--delay", "0", "--lang", "en", "--record", rec)
			var stderr bytes.Buffer
			cmd.Stdin, cmd.Stdout, cmd.Stderr = term.tty, term.tty, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			term.waitFor(20*time.Second, "", "Ann (you)", "Auction row")
			term.waitFor(20*time.Second, "d", "Ann draws")
			if r := readRecordFile(t, rec); len(r.Moves) == 0 {
				t.Fatal("the record on disk holds no move while the game goes on")
			}
			if tc.sig == 0 {
				term.send("\x03")
			} else if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var exit *exec.ExitError
			status := 0
			if errors.As(err, &exit) {
				status = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if status != tc.want {
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
	games, err := srv.Client().List(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 0 {
		t.Errorf("the server has %d games after the refusals", len(games))
	}
}
