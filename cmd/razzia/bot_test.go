package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/arena"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/servertest"
)

// python is the command that runs Python 3: the interpreter that python3
// resolves to, found once. A version manager's shim in the PATH (pyenv's
// costs half a CPU-second a start) would otherwise run for every bot.
var python = sync.OnceValue(func() string {
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if p := strings.TrimSpace(string(out)); err == nil && filepath.IsAbs(p) && !strings.ContainsAny(p, " \t'\"\\") {
		return p
	}
	return "python3"
})

// exampleBot is the command of the Python example bot, from this
// package's directory.
func exampleBot() string { return python() + " ../../examples/bot.py" }

// needPython skips a test without python3, except under CI where the
// example bot must be tested.
func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("python3 is needed to test the example bot: %v", err)
		}
		t.Skipf("SKIPPED: python3 not found, so the example bot examples/bot.py is not tested: %v", err)
	}
}

// needSh skips a test without a POSIX shell for the misbehaving bots.
func needSh(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skipf("SKIPPED: no sh for the test bots: %v", err)
	}
}

// badBots writes shell scripts of misbehaving bots and returns their
// exec: commands. Each answers the question razzia asks before the games
// (its first run draws), then:
//
//	liar   answers "draw police" (a move, never legal: chance draws)
//	crash  exits with status 3 at its first decision, and lies after
//	       its restart
//	hang   hangs at its first decision, and lies after its restart
//
// crash and hang misbehave once: each start of a program costs more CPU
// than the rest of a game, and once shows that the fault is counted and
// the program started again.
func badBots(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	const checked = "if [ ! -e \"$1\" ]; then : > \"$1\"; read -r line; echo draw; exit 0; fi\n"
	// The lies come from awk, reading each line as it comes (mawk waits
	// for a full buffer unless interactive; gawk ignores the option): the
	// shell's read takes a byte at a time, a system call for each byte of
	// the decide lines.
	const lie = "exec awk -W interactive '{ print \"draw police\"; fflush() }' 2>/dev/null\n"
	scripts := map[string]string{
		"liar":  lie,
		"crash": checked + "if [ ! -e \"$1.crashed\" ]; then : > \"$1.crashed\"; read -r line; echo 'crashing' >&2; exit 3; fi\n" + lie,
		"hang":  checked + "if [ ! -e \"$1.hung\" ]; then : > \"$1.hung\"; exec sleep 30; fi\n" + lie,
	}
	cmds := map[string]string{}
	for name, body := range scripts {
		path := filepath.Join(dir, name+".sh")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		cmds[name] = "sh " + path + " " + filepath.Join(dir, name+".run")
	}
	return cmds
}

func arenaJSONOf(t *testing.T, stdout string) arena.Report {
	t.Helper()
	var r arena.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("arena --json: %v\n%s", err, stdout)
	}
	return r
}

// The example bot plays an arena without a fault.
func TestArenaExampleBot(t *testing.T) {
	t.Parallel() // a process of its own, mostly waiting
	needPython(t)
	stdout, stderr, status := runCmd(t, nil, "arena", "--seats", "exec:"+exampleBot()+",heuristic,heuristic",
		"--games", "3", "--json", "--bot-timeout", "30s")
	if status != 0 {
		t.Fatalf("status %d\n%s", status, stderr)
	}
	r := arenaJSONOf(t, stdout)
	py := r.Bots[0]
	if py.Spec != "exec:"+exampleBot() || py.Games != 3 || py.Decisions.Decisions == 0 || py.Faults != 0 {
		t.Errorf("the example bot: %+v", py)
	}
}

// Crashing, hanging and lying bots lose their decisions, which are
// counted and reported, and every game is played to the end.
func TestArenaBadBots(t *testing.T) {
	t.Parallel() // a process of its own, mostly waiting
	needSh(t)
	bots := badBots(t)
	seats := []string{"exec:" + bots["liar"], "exec:" + bots["crash"], "exec:" + bots["hang"], "random"}
	stdout, stderr, status := runCmd(t, nil, "arena", "--seats", strings.Join(seats, ","),
		"--games", "1", "--json", "--bot-timeout", "2s")
	if status != 0 {
		t.Fatalf("status %d\n%s", status, stderr)
	}
	r := arenaJSONOf(t, stdout)
	if r.Games != 1 {
		t.Fatalf("%d games", r.Games)
	}
	for _, b := range r.Bots {
		want := int(b.Decisions.Decisions)
		if b.Spec == "random" {
			want = 0
		}
		if b.Faults != want || (b.Spec != "random" && want == 0) {
			t.Errorf("%s: %d faults in %d decisions", b.Spec, b.Faults, b.Decisions.Decisions)
		}
	}
	for _, want := range []string{
		"razzia arena: game 1, seat 1 (exec:" + bots["liar"] + "): move ",
		`"draw police" is not one of`,
		"the program is not running: it ended with exit status 3",
		"no answer within the time limit (2s)",
		"; played pass instead",
		"; played draw instead",
		"crash.run game 1 seat 2] crashing", // standard error passed through
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%.2000s", want, stderr)
		}
	}
	// The faults column of the tables.
	stdout, _, _ = runCmd(t, nil, "arena", "--seats", "exec:"+bots["liar"]+",random", "--games", "1")
	if !strings.Contains(stdout, "faults") {
		t.Errorf("no faults column:\n%s", stdout)
	}
}

// A program that cannot be run, or that ends without answering its first
// question, is one line on standard error before any game: exit status 2,
// no record written.
func TestArenaMissingProgram(t *testing.T) {
	t.Parallel() // processes or a server of its own, mostly waiting
	needPython(t)
	tests := []struct {
		name, spec, want string
	}{
		{"no such command", "exec:no-such-razzia-bot --fast", `cannot run "no-such-razzia-bot"`},
		{"no such script", "exec:" + python() + " /no/such/razzia/bot.py", "can't open file '/no/such/razzia/bot.py'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "records")
			stdout, stderr, status := runCmd(t, nil, "arena", "--seats", "random,"+tt.spec,
				"--records", dir, "--bot-timeout", "30s")
			if status != 2 || stdout != "" {
				t.Errorf("status %d, stdout %q; want 2 and nothing", status, stdout)
			}
			if lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n"); len(lines) != 1 ||
				!strings.HasPrefix(stderr, "razzia arena: "+tt.spec+": ") || !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr is not one line naming the bot and %s:\n%s", tt.want, stderr)
			}
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("records directory exists: %v", err)
			}
		})
	}
	_, stderr, status := runCmd(t, nil, "arena", "--seats", "random,random", "--bot-timeout", "0s")
	if status != 2 || !strings.Contains(stderr, "--bot-timeout 0s") {
		t.Errorf("--bot-timeout 0s: status %d, %s", status, stderr)
	}
}

// testServer is a Razzia server in-process, wired as serve does, with the
// real bot levels moving at once. rate is the WebSocket's message rate; 0
// is the server's default, which a bot playing against bots without delay
// meets.
func testServer(t *testing.T, rate float64) (*servertest.Server, *client.Client) {
	t.Helper()
	if rate == 0 {
		rate = 10
	}
	srv := servertest.New(t, servertest.Options{LevelBots: true, Page: true, API: httpapi.Options{MessageRate: rate, MessageBurst: 20}})
	return srv, srv.Client()
}

// runBotCmd runs razzia bot with a deadline.
func runBotCmd(t *testing.T, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	var out, errOut bytes.Buffer
	status = botContext(ctx, args, &out, &errOut)
	return out.String(), errOut.String(), status
}

func TestBotPlaysServerGame(t *testing.T) {
	t.Parallel() // a process of its own, mostly waiting
	needPython(t)
	srv, c := testServer(t, 1000)
	info, _, err := c.Create(t.Context(), []string{"easy", "", "medium"})
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, status := runBotCmd(t, "--invite", srv.URL+info.Invite, "--exec", exampleBot(), "--bot-timeout", "30s")
	if status != 0 {
		t.Fatalf("status %d\n%s", status, stderr)
	}
	if !strings.Contains(stderr, "joined game "+info.ID+" as bot in seat 2") || strings.Contains(stderr, "instead") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if !strings.Contains(stdout, "is over after") || !strings.Contains(stdout, "seat 2  bot") || !strings.Contains(stdout, "(this bot)") || !strings.Contains(stdout, "winner: ") {
		t.Errorf("stdout:\n%s", stdout)
	}
	g, _, err := c.Game(t.Context(), info.ID, "")
	if err != nil || g.Status != "finished" || g.Seats[1].Name != "bot" {
		t.Errorf("the game afterwards: %+v, %v", g, err)
	}
}

// A lying bot on a server loses its decisions, each logged, and the game
// goes on to the end, under a rate limit it meets (moves refused as
// rate_limited are sent again).
func TestBotFaultsOnServer(t *testing.T) {
	t.Parallel() // a process of its own, mostly waiting
	needSh(t)
	srv, c := testServer(t, 40)
	info, _, err := c.Create(t.Context(), []string{"", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, status := runBotCmd(t, "--server", srv.URL, "--game", info.ID, "--exec", badBots(t)["liar"],
		"--name", "Liar", "--seat", "1")
	if status != 0 {
		t.Fatalf("status %d\n%s", status, stderr)
	}
	if !regexp.MustCompile(`razzia bot: move \d+: the answer is not a legal move: "draw police" is not one of draw, call; played draw instead`).MatchString(stderr) {
		t.Errorf("no fault logged:\n%.1000s", stderr)
	}
	if !strings.Contains(stdout, "seat 1  Liar") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

func TestBotUsage(t *testing.T) {
	needSh(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no program", []string{"--invite", "http://h/g/abcdefghij"}, "give the bot program with --exec"},
		{"no game", []string{"--exec", "sh"}, "give the game with --invite LINK or --game ID"},
		{"both", []string{"--exec", "sh", "--invite", "http://h/g/abcdefghij", "--game", "abcdefghij"}, "not both"},
		{"no server", []string{"--exec", "sh", "--game", "abcdefghij"}, "give the server with --server URL"},
		{"seat from 0", []string{"--exec", "sh", "--game", "abcdefghij", "--seat", "-1"}, "--seat -1: seats count from 1 (0: the first open one)"},
		{"bad server", []string{"--exec", "sh", "--game", "abcdefghij", "--server", "localhost:8080"}, "want an http:// or https:// URL"},
		{"bad invite", []string{"--exec", "sh", "--invite", "http://h/lobby"}, "want a link to a table"},
		{"bad timeout", []string{"--exec", "sh", "--game", "abcdefghij", "--bot-timeout", "-1s"}, "--bot-timeout -1s"},
		{"token and name", []string{"--exec", "sh", "--game", "abcdefghij", "--token", "x", "--name", "y"}, "--token rejoins"},
		{"argument", []string{"--exec", "sh", "--game", "abcdefghij", "extra"}, `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, status := runCmd(t, nil, append([]string{"bot"}, tt.args...)...)
			if status != 2 || stdout != "" || !strings.Contains(stderr, tt.want) || !strings.HasSuffix(stderr, `(see "razzia bot --help")`+"\n") {
				t.Errorf("status %d, stdout %q, stderr %q; want 2 and %q", status, stdout, stderr, tt.want)
			}
		})
	}
	// An unknown game is a failure, not a usage error.
	srv, _ := testServer(t, 0)
	_, stderr, status := runBotCmd(t, "--server", srv.URL, "--game", "zzzzzzzzzz", "--exec", badBots(t)["liar"])
	if status != 1 || !strings.Contains(stderr, "not_found") {
		t.Errorf("unknown game: status %d, %s", status, stderr)
	}
}

// A program that cannot play is one line on standard error, exit status
// 2, before the server is asked anything (it cannot be reached here).
func TestBotMissingProgram(t *testing.T) {
	t.Parallel() // processes or a server of its own, mostly waiting
	needPython(t)
	for command, want := range map[string]string{
		"no-such-razzia-bot":                 `cannot run "no-such-razzia-bot"`,
		python() + " /no/such/razzia/bot.py": "can't open file '/no/such/razzia/bot.py'",
	} {
		t.Run(command, func(t *testing.T) {
			stdout, stderr, status := runBotCmd(t, "--exec", command, "--invite", "http://127.0.0.1:1/g/abcdefghij", "--bot-timeout", "30s")
			if status != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 ||
				!strings.HasPrefix(stderr, "razzia bot: --exec "+command+": ") || !strings.Contains(stderr, want) {
				t.Errorf("status %d, stdout %q, stderr %q; want 2 and one line with %s", status, stdout, stderr, want)
			}
		})
	}
}

func TestProgramName(t *testing.T) {
	tests := map[string]string{
		"python3 examples/bot.py":     "bot",
		"./mybot --depth 3":           "mybot",
		"mybot":                       "mybot",
		`python3 "my bots/ada.py" -v`: "ada",
		"java -jar target/razzia.jar": "razzia",
		"--":                          "Bot",
	}
	for cmd, want := range tests {
		if got := programName(cmd); got != want {
			t.Errorf("programName(%q) = %q, want %q", cmd, got, want)
		}
	}
}

// TestBotSilentServer: against a server that accepts and never answers,
// razzia bot gives up within the time limit and says why, instead of
// waiting for ever. Not parallel: it shortens the limit for every command.
func TestBotSilentServer(t *testing.T) {
	needPython(t)
	addr := silentServer(t)
	old := connectTimeout
	connectTimeout = 300 * time.Millisecond
	defer func() { connectTimeout = old }()
	_, stderr, status := runBotCmd(t, "--invite", "http://"+addr+"/g/k3x7q2m5ab", "--exec", exampleBot())
	if status != 1 || !strings.Contains(stderr, "cannot join game k3x7q2m5ab: http://"+addr+" did not answer within 300ms") {
		t.Errorf("status %d, stderr %q", status, stderr)
	}
}

// TestBotInterrupted: ctrl+c (SIGINT) or SIGTERM stops razzia bot while
// it waits for players, with the shell's status for the signal.
func TestBotInterrupted(t *testing.T) {
	t.Parallel()
	needPython(t)
	srv, c := testServer(t, 0)
	info, _, err := c.Create(t.Context(), []string{"", "", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		cmd := razziaCommand(t, t.Context(), "bot", "--invite", srv.URL+info.Invite, "--exec", exampleBot(), "--name", fmt.Sprintf("Ada %d", int(tc.sig)))
		pipe, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		stderr := &syncBuffer{}
		joined, read := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(read)
			sc := bufio.NewScanner(pipe)
			for sc.Scan() {
				fmt.Fprintln(stderr, sc.Text())
				if strings.Contains(sc.Text(), "joined game") {
					close(joined)
				}
			}
		}()
		select {
		case <-joined:
		case <-time.After(20 * time.Second):
			t.Fatalf("razzia bot did not join: %s", stderr.String())
		}
		if err := cmd.Process.Signal(tc.sig); err != nil {
			t.Fatal(err)
		}
		<-read // all of its standard error, before Wait closes the pipe
		var exit *exec.ExitError
		if err := cmd.Wait(); !errors.As(err, &exit) || exit.ExitCode() != tc.want {
			t.Errorf("%v: %v; want exit status %d; stderr: %s", tc.sig, err, tc.want, stderr.String())
		}
	}
}
