package botexec

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/protocol"
)

// TestMain lets the test binary play an external bot: with RAZZIA_TEST_BOT
// set to a behaviour it speaks the line protocol instead of testing.
// The tests mostly wait out time limits, on programs of their own: up
// to 8 at once (unless -test.parallel says), not as many as there are
// CPUs.
func TestMain(m *testing.M) {
	if mode := os.Getenv("RAZZIA_TEST_BOT"); mode != "" {
		os.Exit(testBot(mode))
	}
	flag.Parse()
	if f := flag.Lookup("test.parallel"); f.Value.String() == f.DefValue {
		flag.Set("test.parallel", "8")
	}
	os.Exit(m.Run())
}

// testBot answers decide lines as mode says, counting decisions from 1 in
// this process:
//
//	first      the first legal move
//	last       the last legal move, as a JSON string, noting it on stderr
//	crash2     like first, but exits with status 3 at the second decision
//	hang2      like first, but never answers the second decision
//	illegal    draws police (naming the card)
//	garbage    answers words
//	badbid     answers a bid that is no move
//	spam       like first, but writes two lines more after each answer
//	exit       exits at once
//	deaf       never reads and never exits until killed
//	chatty     the last legal move, then a debug line, each written alone
//	talkative  a debug line as soon as it reads a question, then the last
//	           legal move
//	echo       answers {"decision": N, "move": the last legal move}, after
//	           a late answer to the decision before, the first legal move
//	loud-exit  writes a complaint on standard error and exits with status 2
//	orphan     starts a deaf child that keeps its standard output and
//	           error, then hangs at its first decision
//	orphan-ok  starts such a child, then plays like first
func testBot(mode string) int {
	if mode == "exit" {
		return 0
	}
	if mode == "loud-exit" {
		fmt.Fprintln(os.Stderr, "starting up")
		fmt.Fprintln(os.Stderr, "cannot open file 'bot.py'")
		return 2
	}
	if mode == "deaf" {
		time.Sleep(time.Minute)
		return 0
	}
	if strings.HasPrefix(mode, "orphan") {
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), "RAZZIA_TEST_BOT=deaf")
		child.Stdout, child.Stderr = os.Stdout, os.Stderr
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 5
		}
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	for n := 1; in.Scan(); n++ {
		var d decideLine
		if err := json.Unmarshal(in.Bytes(), &d); err != nil || d.Type != "decide" || len(d.Legal) == 0 {
			fmt.Fprintf(os.Stderr, "bad line %q: %v\n", in.Text(), err)
			return 4
		}
		switch {
		case mode == "crash2" && n == 2:
			return 3
		case mode == "hang2" && n == 2:
			time.Sleep(time.Minute)
		case mode == "illegal":
			fmt.Println("draw police") // a move, never legal: chance draws
		case mode == "garbage":
			fmt.Println("I would rather not")
		case mode == "badbid":
			fmt.Println("bid lots")
		case mode == "last":
			fmt.Fprintf(os.Stderr, "seat %d game %s plays %s\n", d.Seat, d.Game, d.Legal[len(d.Legal)-1])
			fmt.Printf("%q\n", d.Legal[len(d.Legal)-1])
		case mode == "orphan":
			time.Sleep(time.Minute)
		case mode == "chatty":
			fmt.Println(d.Legal[len(d.Legal)-1])
			fmt.Println("thinking about what comes next")
		case mode == "talkative":
			fmt.Println("got a question")
			fmt.Println(d.Legal[len(d.Legal)-1])
		case mode == "echo":
			fmt.Printf("{\"decision\": %d, \"move\": %q}\n", d.Decision-1, d.Legal[0])
			fmt.Printf("{\"decision\": %d, \"move\": %q}\n", d.Decision, d.Legal[len(d.Legal)-1])
		case mode == "spam":
			fmt.Printf("%s\nbid 99\nhello\n", d.Legal[0])
		default:
			fmt.Println(d.Legal[0])
		}
	}
	return 0
}

// testBotCommand is the command that runs the test binary as a bot in
// mode. Under the race detector a program lingers a second at exit unless
// GORACE says otherwise; a bot that exits when asked must not.
func testBotCommand(mode string) string {
	return "env RAZZIA_TEST_BOT=" + mode + " GORACE=atexit_sleep_ms=0 " + shellQuote(os.Args[0])
}

// testExec returns a Bot running the test binary in mode, and the file
// its standard error goes to.
func testExec(t *testing.T, mode string, timeout time.Duration) (*Bot, *os.File) {
	t.Helper()
	stderr := stderrFile(t)
	e, err := New(testBotCommand(mode), 7, Options{Timeout: timeout, Stderr: stderr, Game: "g1"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, stderr
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// stderrFile returns a file to collect standard error in: a file takes
// whole lines from several goroutines, a Write each.
func stderrFile(t *testing.T) *os.File {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// contents returns what was written to f.
func contents(t *testing.T, f *os.File) string {
	t.Helper()
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// lapseAfterNoise is a time limit that lapses once the program has
// written a line that answers nothing, and not before: a program that
// writes garbage and no answer, however slowly it starts.
func lapseAfterNoise(time.Duration) (<-chan time.Time, func()) {
	lapse := make(chan time.Time, 1)
	return lapse, func() {
		select {
		case lapse <- time.Now():
		default:
		}
	}
}

// lapseAt returns a time limit that lapses at once at the nth decision
// asked (from 1) and is real at the others.
func lapseAt(n int) func(time.Duration) (<-chan time.Time, func()) {
	asked := 0
	return func(d time.Duration) (<-chan time.Time, func()) {
		asked++
		if asked != n {
			return time.After(d), func() {}
		}
		lapse := make(chan time.Time, 1)
		lapse <- time.Now()
		return lapse, func() {}
	}
}

// newTestGame returns a seeded game of three.
func newTestGame(t *testing.T) *razzia.Game {
	t.Helper()
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"A", "B", "C"}, Seed: []byte("exec test")})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// playSeat0 plays n decisions of seat 0 with b, the other seats with a
// random bot, and fails on an illegal move.
func playSeat0(t *testing.T, g *razzia.Game, b bot.Bot, n int) {
	t.Helper()
	other := bot.NewRandom(3)
	for n > 0 && !func() bool { s := g.State(); return s.Over() }() {
		s := g.State()
		to := s.ToMove()
		var m razzia.Move
		if to == 0 {
			m = b.Choose(g.View(0))
			n--
		} else {
			m = other.Choose(g.View(to))
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("move %d: %v", len(g.Moves())+1, err)
		}
	}
}

func TestExecGame(t *testing.T) {
	t.Parallel() // programs of their own, mostly waiting out limits
	e, stderr := testExec(t, "last", time.Minute)
	g := newTestGame(t)
	playSeat0(t, g, e, 1<<30)
	if s := g.State(); !s.Over() {
		t.Fatal("the game did not end")
	}
	if f := e.Faults(); len(f) != 0 {
		t.Errorf("faults: %v", f)
	}
	// Standard error is passed through, a line at a time, prefixed.
	e.Close() // standard error is passed on to its end
	out := contents(t, stderr)
	if !strings.Contains(out, "game g1 seat 1] seat 0 game g1 plays ") {
		t.Errorf("stderr not passed through with its prefix:\n%.300s", out)
	}
}

func TestExecFaults(t *testing.T) {
	t.Parallel() // programs of their own, mostly waiting out limits
	tests := []struct {
		mode  string
		moves int     // decisions of the bot
		want  []error // the faults, in order
	}{
		{"first", 5, nil},
		{"crash2", 3, []error{ErrExited}}, // restarted for the third decision
		{"hang2", 3, []error{ErrTimeout}}, // killed and restarted
		{"crash2", 4, []error{ErrExited, ErrExited}},
		{"illegal", 2, []error{ErrIllegal, ErrIllegal}},
		{"garbage", 2, []error{ErrMalformed, ErrMalformed}}, // and ErrTimeout: it never answers
		{"spam", 3, nil},                                    // the unasked lines are dropped
		{"exit", 2, []error{ErrExited, ErrExited}},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			// Every program gets time to start; the limit lapses at the
			// hang, and for garbage once it is written.
			e, _ := testExec(t, tt.mode, 10*time.Second)
			switch tt.mode {
			case "hang2":
				e.opts.limit = lapseAt(2)
			case "garbage":
				e.opts.limit = lapseAfterNoise
			}
			g := newTestGame(t)
			playSeat0(t, g, e, tt.moves)
			var got []error
			for _, f := range e.Faults() {
				if f.Seat != 0 || f.Game != "g1" || f.Move < 1 || f.Played == "" {
					t.Errorf("fault %+v: wrong details", f)
				}
				got = append(got, f.Err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("faults %v, want %v", got, tt.want)
			}
			for i := range got {
				if !errors.Is(got[i], tt.want[i]) {
					t.Errorf("fault %d is %v, want %v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// A fault plays the safe default, and Decide says so.
func TestExecDecideFault(t *testing.T) {
	t.Parallel() // programs of their own, mostly waiting out limits
	e, _ := testExec(t, "garbage", 10*time.Second)
	e.opts.limit = lapseAfterNoise
	tok, err := e.Decide(protocol.View{Seat: 2, Moves: 16, Legal: []string{"pass", "bid 9", "bid 12"}})
	var f *bot.Fault
	if tok != "pass" || !errors.As(err, &f) || !errors.Is(err, ErrMalformed) {
		t.Fatalf("Decide = %q, %v; want pass and a malformed-answer fault", tok, err)
	}
	if f.Move != 17 || f.Seat != 2 || f.Played != "pass" {
		t.Errorf("fault %+v", f)
	}
	if msg := err.Error(); !strings.Contains(msg, "move 17") || !strings.Contains(msg, `"I would rather not"`) || !strings.Contains(msg, "played pass") {
		t.Errorf("message %q does not say what happened", msg)
	}
}

// An answer that is meant as a move but is none is a fault at once: the
// limit never lapses here, so waiting it out would hang the test. The
// fault is told once, not also as a note.
func TestExecBrokenAnswerAtOnce(t *testing.T) {
	t.Parallel()
	e, stderr := testExec(t, "badbid", 10*time.Second)
	e.opts.limit = func(time.Duration) (<-chan time.Time, func()) { return nil, func() {} }
	tok, err := e.Decide(protocol.View{Seat: 1, Moves: 3, Legal: []string{"pass", "bid 9"}})
	if tok != "pass" || !errors.Is(err, ErrMalformed) || errors.Is(err, ErrTimeout) {
		t.Fatalf("Decide = %q, %v; want pass and a malformed answer, no timeout", tok, err)
	}
	if !strings.Contains(err.Error(), `"bid lots"`) {
		t.Errorf("fault %q does not quote the answer", err)
	}
	e.Close()
	if out := contents(t, stderr); strings.Contains(out, "bid lots") {
		t.Errorf("the answer is also passed on as a note:\n%s", out)
	}
}

// Close ends a program that ignores its standard input closing.
func TestExecClose(t *testing.T) {
	e, _ := testExec(t, "deaf", 200*time.Millisecond)
	g := newTestGame(t)
	playSeat0(t, g, e, 1)
	if f := e.Faults(); len(f) != 1 || !errors.Is(f[0].Err, ErrTimeout) {
		t.Fatalf("faults %v, want one timeout", f)
	}
	start := time.Now()
	e.Close()
	if d := time.Since(start); d > 3*closeGrace {
		t.Errorf("Close took %v", d)
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		command, want string
	}{
		{"no-such-razzia-bot --fast", `cannot run "no-such-razzia-bot"`},
		{"", "no command"},
		{"  ", "no command"},
		{"python3 'bot.py", "unterminated"},
		{"./testdata/no-such-file", `"./testdata/no-such-file"`},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			b, err := New(tt.command, 1, Options{})
			if err == nil || b != nil {
				t.Fatalf("New = %v, %v; want an error", b, err)
			}
			if !errors.Is(err, ErrCommand) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not wrap ErrCommand naming %s", err, tt.want)
			}
		})
	}
}

func TestCommand(t *testing.T) {
	tests := []struct {
		spec, command string
		ok            bool
	}{
		{"exec:python3 bot.py", "python3 bot.py", true},
		{" exec:./bot ", "./bot", true},
		{"exec:", "", true},
		{"random", "", false},
		{"execute:bot", "", false},
	}
	for _, tt := range tests {
		if command, ok := Command(tt.spec); command != tt.command || ok != tt.ok {
			t.Errorf("Command(%q) = %q, %v; want %q, %v", tt.spec, command, ok, tt.command, tt.ok)
		}
	}
}

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"python3 bot.py", []string{"python3", "bot.py"}},
		{"  python3   bot.py  --depth=3 ", []string{"python3", "bot.py", "--depth=3"}},
		{`"my bots/bot.py" -v`, []string{"my bots/bot.py", "-v"}},
		{`'it''s' a\ b`, []string{"its", "a b"}},
		{`say "a \"b\" \$c \d"`, []string{"say", `a "b" $c \d`}},
		{`x ''`, []string{"x", ""}},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := splitCommand(tt.in)
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("splitCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
	for _, bad := range []string{`'open`, `"open`, `a "b\"`} {
		if got, err := splitCommand(bad); err == nil {
			t.Errorf("splitCommand(%q) = %q, want an error", bad, got)
		}
	}
}

func TestAnswer(t *testing.T) {
	legal := []string{"draw", "call", "thief car ring"}
	const decision = 7
	tests := []struct {
		line, want string
		ok         bool // an answer to this question
		err        error
	}{
		{"draw", "draw", true, nil},
		{"  DRAW \r", "draw", true, nil},
		{`"call"`, "call", true, nil},
		{"thief ring car", "thief car ring", true, nil},
		{`{"decision": 7, "move": "draw"}`, "draw", true, nil},
		{`{"move": "thief ring car"}`, "thief car ring", true, nil},
		{"draw police", "", true, ErrIllegal},
		{"bid 9", "", true, ErrIllegal},
		{`{"decision": 7, "move": "bid 9"}`, "", true, ErrIllegal},
		{`{"decision": 7, "move": "maybe"}`, "", true, ErrMalformed},
		// Answers that are no move: a fault at once.
		{`"thinking"`, "", true, ErrMalformed},
		{"bid nine", "", true, ErrMalformed},
		{"Draw it", "", true, ErrMalformed},
		{"pass please", "", true, ErrMalformed},
		// Lines that answer nothing.
		{"", "", false, nil},
		{"thinking...", "", false, nil},
		{"drawing conclusions", "", false, nil},
		{`{"decision": 6, "move": "draw"}`, "", false, nil},
		{`{"debug": "draw"}`, "", false, nil},
		{`{"decision": "7", "move": "draw"}`, "", false, nil},
		{`{"move": "draw"`, "", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, ok, err := answer(tt.line, legal, decision)
			if got != tt.want || ok != tt.ok || !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
				t.Errorf("answer(%q) = %q, %v, %v; want %q, %v, %v", tt.line, got, ok, err, tt.want, tt.ok, tt.err)
			}
		})
	}
}

// FuzzAnswer checks that no line a program writes crashes the reader, and
// that what is taken as an answer is one of the legal moves.
func FuzzAnswer(f *testing.F) {
	for _, s := range []string{"draw", `"bid 9"`, `{"decision": 3, "move": "pass"}`, "thief ring car", "{", `{"move": null}`, "\x00", "bid 99999999999"} {
		f.Add(s, 3)
	}
	legal := []string{"pass", "bid 9", "bid 12"}
	f.Fuzz(func(t *testing.T, line string, decision int) {
		tok, ok, err := answer(line, legal, decision)
		switch {
		case !ok && (tok != "" || err != nil):
			t.Errorf("answer(%q) = %q, %v, %v: no answer with a token or an error", line, tok, ok, err)
		case ok && err == nil && !slices.Contains(legal, tok):
			t.Errorf("answer(%q) = %q, not a legal token", line, tok)
		case ok && err != nil && (tok != "" || !errors.Is(err, ErrIllegal) && !errors.Is(err, ErrMalformed)):
			t.Errorf("answer(%q) = %q, %v", line, tok, err)
		}
	})
}

// FuzzSplitCommand checks that splitting never crashes and that plain
// words come back as they were.
func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"python3 bot.py", `"my bots/bot.py" -v`, `'it''s' a\ b`, `say "a \"b\""`, `'open`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := splitCommand(s)
		if err != nil {
			return
		}
		plain := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' })
		if !strings.ContainsAny(s, `'"\`) && !slices.Equal(words, plain) {
			t.Errorf("splitCommand(%q) = %q, want %q", s, words, plain)
		}
	})
}

// A bot that writes more lines than its answers loses no decision: every
// answer is the one to its question.
func TestExecChatty(t *testing.T) {
	t.Parallel() // programs of their own, mostly waiting out limits
	for _, mode := range []string{"chatty", "talkative", "echo"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			e, _ := testExec(t, mode, 10*time.Second)
			g := newTestGame(t)
			other := bot.NewRandom(3)
			decisions := 0
			for s := g.State(); !s.Over(); s = g.State() {
				to := s.ToMove()
				v := g.View(to)
				m := other.Choose(v)
				if to == 0 {
					decisions++
					snap := protocol.NewView(v)
					tok, err := e.Decide(snap)
					if want := snap.Legal[len(snap.Legal)-1]; tok != want || err != nil {
						t.Fatalf("decision %d: played %q, %v; the bot answered %q", decisions, tok, err, want)
					}
					m, _ = razzia.ParseMove(tok)
				}
				if err := g.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			if f := e.Faults(); len(f) != 0 {
				t.Errorf("%d faults in %d decisions: %v", len(f), decisions, f)
			}
		})
	}
}

// A program whose child keeps its pipes open is still stopped within the
// time limit, and closed at once.
func TestExecOrphan(t *testing.T) {
	const limit = 300 * time.Millisecond
	snap := protocol.NewView(newTestGame(t).View(0))
	e, _ := testExec(t, "orphan", limit)
	start := time.Now()
	_, err := e.Decide(snap)
	// The grandchild holds the pipes for a minute: a bound of seconds
	// shows that nothing waits for it, with room for a busy machine.
	if d := time.Since(start); !errors.Is(err, ErrTimeout) || d > limit+2*closeGrace {
		t.Errorf("Decide took %v with a %v limit: %v", d, limit, err)
	}

	e, _ = testExec(t, "orphan-ok", 10*time.Second)
	if _, err := e.Decide(snap); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	e.Close()
	if d := time.Since(start); d > 2*closeGrace {
		t.Errorf("Close took %v", d)
	}
}

// TestCheckEndedAtOnce: a program that ends before reading its first
// question is said to have ended, with its status, not that writing to it
// failed with a broken pipe.
func TestCheckEndedAtOnce(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for _, tc := range []struct{ command, says string }{
		{"sh -c true", "the program is not running: it exited"},
		{"sh -c 'exit 3'", "the program is not running: it ended with exit status 3"},
	} {
		err := Check(tc.command, 2, Options{Timeout: 10 * time.Second})
		if !errors.Is(err, ErrExited) || !strings.Contains(err.Error(), tc.says) || strings.Contains(err.Error(), "pipe") {
			t.Errorf("Check(%s) = %v; want %q", tc.command, err, tc.says)
		}
	}
}

// Check finds a program that cannot play before any game, quoting what it
// wrote instead of passing it on.
func TestCheck(t *testing.T) {
	t.Parallel() // programs of their own, mostly waiting out limits
	tests := []struct {
		mode string
		want error // nil: the program can play
		says string
	}{
		{"first", nil, ""},
		{"illegal", nil, ""}, // it answers: its faults are counted in play
		{"exit", ErrExited, "exited"},
		{"loud-exit", ErrExited, `exit status 2; it wrote "cannot open file 'bot.py'"`},
		{"crash2", nil, ""},
		{"garbage", ErrTimeout, `the answer is not a move: "I would rather not"`},
		{"deaf", ErrTimeout, "no answer to its first question: no answer within the time limit"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			// A deaf program waits out a real limit; for garbage the limit
			// lapses once it is written.
			stderr := stderrFile(t)
			opts := Options{Timeout: 10 * time.Second, Stderr: stderr}
			switch tt.mode {
			case "deaf":
				opts.Timeout = 300 * time.Millisecond
			case "garbage":
				opts.limit = lapseAfterNoise
			}
			err := Check(testBotCommand(tt.mode), 3, opts)
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("Check = %v, want %v", err, tt.want)
			}
			if err != nil && (!strings.Contains(err.Error(), tt.says) || strings.Contains(err.Error(), "\n")) {
				t.Errorf("error %q is not one line saying %s", err, tt.says)
			}
			if out := contents(t, stderr); out != "" {
				t.Errorf("Check passed on %q", out)
			}
		})
	}
	if err := Check("no-such-razzia-bot", 2, Options{}); !errors.Is(err, ErrCommand) {
		t.Errorf("Check of a missing command = %v", err)
	}
}
