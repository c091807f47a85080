package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/razziagame/razzia/internal/arena"
)

// TestUsageErrorIsOneLine: a usage error of every command is one line on
// stderr that names the command and where its help is, with status 2;
// the help would scroll the error away.
func TestUsageErrorIsOneLine(t *testing.T) {
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, status := runCmd(t, nil, c.name, "--no-such-flag")
			want := "razzia " + c.name + `: unknown flag --no-such-flag (see "razzia ` + c.name + ` --help")` + "\n"
			if status != 2 || stdout != "" || stderr != want {
				t.Errorf("status %d, stdout %q, stderr %q; want 2, nothing, %q", status, stdout, stderr, want)
			}
		})
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"arena without bots", []string{"arena"}, "razzia arena: give the bots with --seats or --bots"},
		{"replay without file", []string{"replay"}, "razzia replay: want one FILE or LINK, got 0 arguments"},
		{"flag near a real one", []string{"arena", "--gmaes", "3"}, "razzia arena: unknown flag --gmaes; did you mean --games?"},
		{"bad value", []string{"arena", "--games", "many"}, `razzia arena: invalid value "many" for flag --games`},
		{"unknown language", []string{"play", "--lang", "xx"}, `razzia play: --lang "xx": the languages are en, `},
		{"unknown language to watch", []string{"watch", "--lang", "xx", "http://localhost:8080/g/k3x7q2m5ab"}, `razzia watch: --lang "xx": the languages are en, `},
		{"one person alone", []string{"play", "--players", "1", "--bots", ""}, "razzia play: 1 person and 0 bots make 1 player;"},
		{"completion without shell", []string{"completion"}, "razzia completion: want one shell: bash, zsh or fish"},
		{"completion of another shell", []string{"completion", "tcsh"}, `razzia completion: unknown shell "tcsh"`},
		{"version with an argument", []string{"version", "now"}, `razzia version: unexpected argument "now"`},
		{"help of two commands", []string{"help", "arena", "replay"}, "razzia help: want one COMMAND, got 2 arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, status := runCmd(t, nil, tt.args...)
			if status != 2 || !strings.HasPrefix(stderr, tt.want) || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--help") && !strings.Contains(stderr, `"razzia help"`) {
				t.Errorf("status %d, stderr %q; want 2 and one line starting %q, pointing to the help", status, stderr, tt.want)
			}
		})
	}
}

// TestHelpWidth: every command's help, and the list of commands, fits in
// 80 columns.
func TestHelpWidth(t *testing.T) {
	check := func(t *testing.T, help string) {
		t.Helper()
		if help == "" {
			t.Fatal("no help")
		}
		for i, line := range strings.Split(help, "\n") {
			if n := utf8.RuneCountInString(line); n > helpWidth {
				t.Errorf("line %d is %d columns wide: %q", i+1, n, line)
			}
		}
	}
	t.Run("razzia help", func(t *testing.T) {
		stdout, _, _ := runCmd(t, nil, "help")
		check(t, stdout)
	})
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			stdout, _, _ := runCmd(t, nil, c.name, "--help")
			check(t, stdout)
		})
	}
}

// TestWrap: the help's paragraphs and lines are wrapped within 80
// columns as their kind calls for.
func TestWrap(t *testing.T) {
	tests := []struct {
		name, line string
		want       []string
	}{
		{"short", "usage: razzia x", []string{"usage: razzia x"}},
		{"usage under its first argument",
			"usage: razzia calibrate [--games N] [--seed S] [--workers W] [--levels L,L,...] [--weight LEVEL=W]",
			[]string{"usage: razzia calibrate [--games N] [--seed S] [--workers W] [--levels L,L,...]",
				"                        [--weight LEVEL=W]"}},
		{"example continued by a backslash, quotes kept whole",
			`  razzia arena --seats "exec:python3 examples/bot.py,heuristic,heuristic" --games 30 --records out`,
			[]string{`  razzia arena --seats "exec:python3 examples/bot.py,heuristic,heuristic" \`,
				`      --games 30 --records out`}},
		{"prose at its indentation",
			"  a line of prose that is rather longer than the eighty columns a terminal has at least",
			[]string{"  a line of prose that is rather longer than the eighty columns a terminal has", "  at least"}},
		{"narrow enough", "one\ntwo", []string{"one", "two"}},
		{"prose filled again",
			"Behind a proxy, name it with --trusted-proxies: the address is then read from X-Forwarded-For, and\ncookies are Secure.",
			[]string{"Behind a proxy, name it with --trusted-proxies: the address is then read from",
				"X-Forwarded-For, and cookies are Secure."}},
		{"examples line by line",
			"Examples:\n  razzia arena --seats hard,heuristic,heuristic,heuristic --games 200 --records out --json\n  razzia arena",
			[]string{"Examples:", "  razzia arena --seats hard,heuristic,heuristic,heuristic --games 200 \\",
				"      --records out --json", "  razzia arena"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := wrapParagraph(tt.line, helpWidth)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestUnknownCommand: a mistyped command is refused in one line with the
// command meant, when one is near.
func TestUnknownCommand(t *testing.T) {
	tests := []struct {
		name, typed, want string
	}{
		{"swapped letters", "sreve", `razzia: unknown command "sreve"; did you mean "serve"? (see "razzia help")`},
		{"a letter missing", "arna", `razzia: unknown command "arna"; did you mean "arena"?`},
		{"a letter more", "replayy", `razzia: unknown command "replayy"; did you mean "replay"?`},
		{"a prefix", "calib", `razzia: unknown command "calib"; did you mean "calibrate"?`},
		{"nothing near", "frobnicate", `razzia: unknown command "frobnicate" (see "razzia help")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, args := range [][]string{{tt.typed}, {"help", tt.typed}} {
				_, stderr, status := runCmd(t, nil, args...)
				if status != 2 || !strings.HasPrefix(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
					t.Errorf("%q: status %d, stderr %q; want 2 and one line starting %q", args, status, stderr, tt.want)
				}
			}
		})
	}
}

func TestHelpCommand(t *testing.T) {
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			viaHelp, _, status := runCmd(t, nil, "help", c.name)
			direct, _, _ := runCmd(t, nil, c.name, "--help")
			if status != 0 || viaHelp != direct || !strings.HasPrefix(viaHelp, "usage: razzia "+c.name) {
				t.Errorf("razzia help %s: status %d, %q; want 0 and razzia %s --help's %q", c.name, status, viaHelp, c.name, direct)
			}
		})
	}
}

// TestVersion: razzia --version and razzia version print the build, and
// versionLine reads the build information: "devel" from a work tree;
// buildRevision names the source, which a calibration log keeps.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}, {"-version"}} {
		stdout, stderr, status := runCmd(t, nil, args...)
		if status != 0 || !strings.HasPrefix(stdout, "razzia ") || strings.Count(stdout, "\n") != 1 || stderr != "" {
			t.Errorf("%q: status %d, stdout %q, stderr %q", args, status, stdout, stderr)
		}
	}
	vcs := []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-11-23T18:00:00Z"},
	}
	tests := []struct {
		name     string
		info     *debug.BuildInfo
		want     string
		revision string
	}{
		{"no information", nil, "razzia devel go", ""},
		{"a work tree", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: append(vcs, debug.BuildSetting{Key: "vcs.modified", Value: "true"})},
			"razzia devel (revision 0123456789ab, 2026-11-23T18:00:00Z, modified) go1.26.8 ", "0123456789ab+modified"},
		{"a release", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"}, Settings: vcs},
			"razzia v1.2.0 (revision 0123456789ab, 2026-11-23T18:00:00Z) go1.26.8 ", "0123456789ab"},
		{"go install of a module", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.1-0.20261123180000-0123456789ab"}},
			"razzia v1.2.1-0.20261123180000-0123456789ab go1.26.8 ", "v1.2.1-0.20261123180000-0123456789ab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionLine(tt.info); !strings.HasPrefix(got, tt.want) {
				t.Errorf("got %q, want it to start %q", got, tt.want)
			}
			if got := buildRevision(tt.info); got != tt.revision {
				t.Errorf("buildRevision = %q, want %q", got, tt.revision)
			}
		})
	}
}

// TestCompletion: each shell's script names every command, the bash one
// is valid bash and completes commands and a command's flags.
func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			stdout, stderr, status := runCmd(t, nil, "completion", shell)
			if status != 0 || stderr != "" {
				t.Fatalf("status %d, stderr %q", status, stderr)
			}
			for _, c := range commands {
				if !strings.Contains(stdout, c.name) {
					t.Errorf("the script does not name %s", c.name)
				}
			}
			if !strings.Contains(stdout, "games") || !strings.Contains(stdout, "bot-timeout") {
				t.Error("the script lacks arena's flags")
			}
			for line := range strings.SplitSeq(stdout, "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "arena)") && strings.Count(line, "--seats") != 1 {
					t.Errorf("arena's flags name --seats %d times, want once: %q", strings.Count(line, "--seats"), line)
				}
			}
		})
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	script, _, _ := runCmd(t, nil, "completion", "bash")
	file := filepath.Join(t.TempDir(), "razzia.bash")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bash, "-n", file).CombinedOutput(); err != nil {
		t.Fatalf("bash -n: %v: %s", err, out)
	}
	tests := []struct {
		name, line, want string
	}{
		{"a command", "razzia ar", "arena"},
		{"every command", "razzia ", "completion"},
		{"a flag", "razzia arena --gam", "--games"},
		{"help's commands", "razzia help cal", "calibrate"},
		{"a shell", "razzia completion fi", "fish"},
		{"a language", "razzia play --lang h", "hu"},
		{"a language to watch", "razzia watch --lang ", "de"},
		{"a pace", "razzia play --server http://localhost:8080 --pace bl", "blitz"},
		{"a log format", "razzia serve --log-format j", "json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			words := strings.Split(tt.line, " ")
			quoted := make([]string, len(words))
			for i, w := range words {
				quoted[i] = "'" + w + "'"
			}
			prog := `source "$1"; COMP_WORDS=(` + strings.Join(quoted, " ") + `); COMP_CWORD=` +
				strings.TrimSpace(string(rune('0'+len(words)-1))) + `; _razzia; printf '%s\n' "${COMPREPLY[@]}"`
			out, err := exec.Command(bash, "-c", prog, "bash", file).CombinedOutput()
			if err != nil || !strings.Contains("\n"+string(out), "\n"+tt.want+"\n") {
				t.Errorf("completing %q: %v, %q; want %q among them", tt.line, err, out, tt.want)
			}
		})
	}
}

// TestFlagsWithoutCommandServe: razzia --addr ... is razzia serve --addr
// ..., and a first razzia in a directory says what it creates.
func TestFlagsWithoutCommandServe(t *testing.T) {
	_, stderr, status := runCmd(t, nil, "--log-format", "yaml")
	if status != 2 || !strings.HasPrefix(stderr, `razzia serve: --log-format "yaml": want text or json`) {
		t.Errorf("status %d, stderr %q; want serve's usage error", status, stderr)
	}

	// A port taken stops the server before it makes its database, and so
	// without the notice that it makes one.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	t.Chdir(t.TempDir())
	notice := "razzia serve: creating razzia.db, a new SQLite database for the games and accounts (--db names another)\n"
	_, stderr, status = runCmd(t, nil, "--addr", ln.Addr().String(), "--log-format", "json")
	if want := "razzia serve: --addr " + ln.Addr().String() + " is in use: another program (another razzia serve?) listens there"; status != 1 || strings.Contains(stderr, notice) || !strings.HasPrefix(stderr, want) {
		t.Errorf("status %d, stderr %q; want 1, %q and no notice", status, stderr, want)
	}
	if _, err := os.Stat("razzia.db"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("razzia.db: %v; want none", err)
	}

	// A server that can listen says that it creates the database, once.
	for i, want := range []bool{true, false} {
		ctx, cancel := context.WithCancel(t.Context())
		var errs syncBuffer
		out, w := io.Pipe()
		done := make(chan int, 1)
		go func() {
			done <- serveContext(ctx, []string{"--addr", "127.0.0.1:0", "--log-format", "json"}, w, &errs)
			w.Close()
		}()
		// The first line says it runs: the database is made by then.
		if line, err := bufio.NewReader(out).ReadString('\n'); !strings.HasPrefix(line, "Razzia is running") {
			t.Fatalf("run %d: first line %q, %v", i+1, line, err)
		}
		go io.Copy(io.Discard, out)
		cancel()
		<-done
		if got := strings.HasPrefix(errs.String(), notice); got != want {
			t.Errorf("run %d: stderr %q; the notice %v, want %v", i+1, errs.String(), got, want)
		}
	}
}

// TestArenaJSONHasNoNull: an arena of one bot has no head-to-head pairs,
// which JSON gives as [], never null; nothing else is null either.
func TestArenaJSONHasNoNull(t *testing.T) {
	for _, args := range [][]string{
		{"arena", "--seats", "random,random", "--games", "2", "--json"},
		{"arena", "--seats", "random,heuristic", "--games", "2", "--json"},
		{"arena", "--ladder", "--bots", "random,heuristic", "--players", "2", "--deals", "1", "--json"},
	} {
		stdout, stderr, status := runCmd(t, nil, args...)
		if status != 0 {
			t.Fatalf("%q: status %d: %s", args, status, stderr)
		}
		var v any
		if err := json.Unmarshal([]byte(stdout), &v); err != nil {
			t.Fatal(err)
		}
		if path, ok := findNull(v, ""); ok {
			t.Errorf("%q: %s is null:\n%s", args, path, stdout)
		}
	}
}

// findNull returns the path of a null in a decoded JSON value.
func findNull(v any, path string) (string, bool) {
	switch v := v.(type) {
	case nil:
		return path, true
	case map[string]any:
		for k, x := range v {
			if p, ok := findNull(x, path+"."+k); ok {
				return p, true
			}
		}
	case []any:
		for i, x := range v {
			if p, ok := findNull(x, path+"["+strconv.Itoa(i)+"]"); ok {
				return p, true
			}
		}
	}
	return "", false
}

// The signal functions of the package signal, restored after a test.
var defaultNotify, defaultStop = notifySignals, stopSignals

// interruptions are the signals that stop a long command, with the exit
// status each calls for.
var interruptions = []struct {
	name   string
	sig    os.Signal
	status int
}{
	{"Ctrl-C", os.Interrupt, 130},
	{"SIGTERM", syscall.SIGTERM, 143},
}

// interruptArenaAt makes the arena runs of t receive sig once they have
// finished done games.
func interruptArenaAt(t *testing.T, done int, sig os.Signal) {
	var signals chan<- os.Signal
	notifySignals = func(c chan<- os.Signal, _ ...os.Signal) { signals = c }
	stopSignals = func(chan<- os.Signal) {}
	arenaProgress = func(n int) {
		if n == done {
			signals <- sig
		}
	}
	t.Cleanup(func() {
		notifySignals, stopSignals, arenaProgress = defaultNotify, defaultStop, nil
	})
}

// TestArenaInterrupted: SIGINT or SIGTERM in the middle of an arena run
// ends it with 130 or 143, and reports the games already played, whose
// records are written.
func TestArenaInterrupted(t *testing.T) {
	for _, tt := range interruptions {
		t.Run(tt.name, func(t *testing.T) {
			interruptArenaAt(t, 3, tt.sig)
			dir := t.TempDir()
			stdout, stderr, status := runCmd(t, nil, "arena", "--seats", "random,random", "--games", "100000",
				"--workers", "1", "--records", dir, "--json")
			if status != tt.status {
				t.Errorf("status %d, want %d; stderr %q", status, tt.status, stderr)
			}
			var r struct {
				arena.Result
				Interrupted bool `json:"interrupted"`
			}
			if err := json.Unmarshal([]byte(stdout), &r); err != nil {
				t.Fatalf("no report: %v: %q", err, stdout)
			}
			if !r.Interrupted {
				t.Error(`the report does not say "interrupted": true`)
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
			if r.Games < 3 || r.Games >= 100000 || len(files) != r.Games {
				t.Errorf("the report has %d games, the records %d; want the same, at least 3", r.Games, len(files))
			}
			if !strings.Contains(stderr, "razzia arena: interrupted after ") {
				t.Errorf("stderr %q does not say the run was interrupted", stderr)
			}
		})
	}
}

// TestArenaLadderInterrupted: a ladder with --records stopped by SIGINT
// says how to go on, and the same command with --resume plays only the
// games it lacks and rates as a ladder that never stopped.
func TestArenaLadderInterrupted(t *testing.T) {
	interruptArenaAt(t, 5, os.Interrupt)
	dir := t.TempDir()
	args := []string{"arena", "--ladder", "--bots", "random,easy,medium", "--players", "2", "--deals", "2",
		"--seed", "6", "--workers", "1", "--json", "--records", dir}
	_, stderr, status := runCmd(t, nil, args...)
	if status != 130 {
		t.Fatalf("status %d, want 130; stderr %q", status, stderr)
	}
	if want := "recorded in " + dir + "; the same command with --resume plays only the others"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q does not say how to go on", stderr)
	}
	arenaProgress = nil

	resumed, stderr, status := runCmd(t, nil, append(args, "--resume")...)
	if status != 0 {
		t.Fatalf("resumed: status %d, %s", status, stderr)
	}
	whole, _, status := runCmd(t, nil, args[:len(args)-2]...)
	if status != 0 {
		t.Fatalf("without records: status %d", status)
	}
	var a, b arena.LadderResult
	if err := json.Unmarshal([]byte(resumed), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(whole), &b); err != nil {
		t.Fatal(err)
	}
	if a.Resumed < 5 || a.Resumed >= 12 || a.Games != 12 {
		t.Errorf("resumed %d of %d games, want 5 to 11 of 12", a.Resumed, a.Games)
	}
	if !reflect.DeepEqual(a.Rungs, b.Rungs) {
		t.Errorf("resumed ladder rated %v, one that never stopped %v", a.Rungs, b.Rungs)
	}
}

// deciding writes a bot program that answers the question razzia asks
// before the games, then does what body says; body is given two named
// pipes: $2, to say when it begins a decision, and $3, to wait on. It
// returns the program's exec: spec and the pipes.
func deciding(t *testing.T, body string) (seat, begun, resume string) {
	t.Helper()
	needSh(t)
	dir := t.TempDir()
	begun, resume = filepath.Join(dir, "begun"), filepath.Join(dir, "resume")
	for _, fifo := range []string{begun, resume} {
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skipf("no named pipe: %v", err)
		}
		t.Cleanup(func() {
			// A reader or writer still waiting for the other side is let go.
			for _, flag := range []int{os.O_WRONLY, os.O_RDONLY} {
				if f, err := os.OpenFile(fifo, flag|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
			}
		})
	}
	script := filepath.Join(dir, "bot.sh")
	checked := "if [ ! -e \"$1\" ]; then : > \"$1\"; read -r line; echo draw; exit 0; fi\n"
	if err := os.WriteFile(script, []byte(checked+body), 0o644); err != nil {
		t.Fatal(err)
	}
	return "exec:sh " + script + " " + filepath.Join(dir, "run") + " " + begun + " " + resume, begun, resume
}

// A watchWriter keeps what is written and closes seen when it has seen
// want.
type watchWriter struct {
	syncBuffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *watchWriter) Write(p []byte) (int, error) {
	n, err := w.syncBuffer.Write(p)
	if strings.Contains(w.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return n, err
}

// TestArenaStopsGamesInProgress: ctrl+c while a bot program is in the
// middle of a game ends that game at its next decision, uncounted, rather
// than play it to the end; the run says that it is stopping, and ends
// with 130.
func TestArenaStopsGamesInProgress(t *testing.T) {
	// The first decision says it has begun and waits to be let go; it
	// answers a move that is no legal one then, which ends the decision
	// at once.
	seat, begun, resume := deciding(t, "read -r line; echo begun > \"$2\"; read -r go < \"$3\"; echo draw police\n")
	var signals chan<- os.Signal
	notifySignals = func(c chan<- os.Signal, _ ...os.Signal) { signals = c }
	stopSignals = func(chan<- os.Signal) {}
	t.Cleanup(func() { notifySignals, stopSignals = defaultNotify, defaultStop })
	var stdout bytes.Buffer
	stderr := &watchWriter{want: "razzia arena: stopping: the games in progress end at their next decision", seen: make(chan struct{})}
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"arena", "--seats", seat + ",random", "--games", "1", "--workers", "1", "--bot-timeout", "1m", "--json"},
			strings.NewReader(""), &stdout, stderr)
	}()
	if b, err := os.ReadFile(begun); err != nil || strings.TrimSpace(string(b)) != "begun" {
		t.Fatalf("the program did not begin its decision: %q, %v", b, err)
	}
	signals <- os.Interrupt
	<-stderr.seen // the run is told to stop
	if err := os.WriteFile(resume, []byte("go\n"), 0); err != nil {
		t.Fatal(err)
	}
	if status := <-done; status != 130 {
		t.Errorf("status %d, stderr %q; want 130", status, stderr.String())
	}
	var r arena.Result
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil || r.Games != 0 {
		t.Errorf("the report: %v, %d games; want none: the game was stopped in progress", err, r.Games)
	}
}

// TestArenaSecondInterrupt: a second ctrl+c ends a run that is waiting
// for a bot program's decision at once, as ctrl+c ends a program by
// default, instead of waiting out the program's time.
func TestArenaSecondInterrupt(t *testing.T) {
	t.Parallel()
	seat, fifo, _ := deciding(t, "read -r line; echo begun > \"$2\"; while read -r line; do :; done\n") // decides never
	cmd := razziaCommand(t, t.Context(), "arena", "--seats", seat+",random",
		"--games", "1", "--workers", "1", "--bot-timeout", "1m")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(fifo); err != nil || strings.TrimSpace(string(b)) != "begun" {
		t.Fatalf("the program did not begin its decision: %q, %v", b, err)
	}
	stopping, done := make(chan struct{}), make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "razzia arena: stopping") {
				close(stopping)
			}
		}
		done <- cmd.Wait()
	}()
	cmd.Process.Signal(os.Interrupt)
	select {
	case <-stopping:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the run did not say that it stops")
	}
	cmd.Process.Signal(os.Interrupt)
	select {
	case err := <-done:
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGINT {
			t.Errorf("razzia arena ended with %v; want the end ctrl+c gives", err)
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("a second ctrl+c did not end the run")
	}
}

// TestInterruptedExitStatus: the long commands stopped by SIGINT or
// SIGTERM say so and exit with 130 or 143.
func TestInterruptedExitStatus(t *testing.T) {
	out := filepath.Join(t.TempDir(), "levels.json")
	commands := []struct {
		name string
		args []string
	}{
		{"analyze", []string{"analyze", "--iterations", "100", filepath.Join("testdata", "hand-2p.json")}},
		{"calibrate", []string{"calibrate", "--games", "4", "--workers", "1", "--levels", "easy,medium", "--out", out}},
		{"ladder", []string{"arena", "--ladder", "--bots", "random,heuristic", "--players", "2", "--deals", "50"}},
		// A server that never answers: one that refuses at once could end
		// the work before the signal is seen.
		{"load", []string{"load", "--server", "http://" + silentServer(t), "--moves", "1"}},
	}
	for _, c := range commands {
		for _, s := range interruptions {
			t.Run(c.name+" "+s.name, func(t *testing.T) {
				// The signal arrives as the work starts.
				notifySignals = func(ch chan<- os.Signal, _ ...os.Signal) { ch <- s.sig }
				stopSignals = func(chan<- os.Signal) {}
				t.Cleanup(func() { notifySignals, stopSignals = defaultNotify, defaultStop })
				_, stderr, status := runCmd(t, nil, c.args...)
				if status != s.status || !strings.Contains(stderr, "razzia "+strings.Fields(c.args[0])[0]+": interrupted") {
					t.Errorf("status %d, stderr %q; want %d and that it was interrupted", status, stderr, s.status)
				}
			})
		}
	}
}
