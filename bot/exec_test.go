package bot

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/protocol"
)

// TestMain lets the test binary play an external bot: with RAZZIA_TEST_BOT
// set to a behaviour it speaks the line protocol instead of testing.
func TestMain(m *testing.M) {
	if mode := os.Getenv("RAZZIA_TEST_BOT"); mode != "" {
		os.Exit(testBot(mode))
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
//	spam       like first, but writes two lines more after each answer
//	exit       exits at once
//	deaf       never reads and never exits until killed
func testBot(mode string) int {
	if mode == "exit" {
		return 0
	}
	if mode == "deaf" {
		time.Sleep(time.Minute)
		return 0
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
		case mode == "last":
			fmt.Fprintf(os.Stderr, "seat %d game %s plays %s\n", d.Seat, d.Game, d.Legal[len(d.Legal)-1])
			fmt.Printf("%q\n", d.Legal[len(d.Legal)-1])
		case mode == "spam":
			fmt.Printf("%s\nbid 99\nhello\n", d.Legal[0])
		default:
			fmt.Println(d.Legal[0])
		}
	}
	return 0
}

// testExec returns an Exec running the test binary in mode, with its
// standard error collected.
func testExec(t *testing.T, mode string, timeout time.Duration) (*Exec, *syncBuffer) {
	t.Helper()
	t.Setenv("RAZZIA_TEST_BOT", mode)
	var stderr syncBuffer
	e, err := NewExec(shellQuote(os.Args[0]), 7, ExecOptions{Timeout: timeout, Stderr: &stderr, Game: "g1"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, &stderr
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
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
func playSeat0(t *testing.T, g *razzia.Game, b Bot, n int) {
	t.Helper()
	other := NewRandom(3)
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
			t.Fatalf("move %d: %v", g.Len()+1, err)
		}
	}
}

func TestExecGame(t *testing.T) {
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
	out := stderr.String()
	if !strings.Contains(out, "game g1 seat 1] seat 0 game g1 plays ") {
		t.Errorf("stderr not passed through with its prefix:\n%.300s", out)
	}
}

func TestExecFaults(t *testing.T) {
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
		{"garbage", 2, []error{ErrMalformed, ErrMalformed}},
		{"spam", 3, nil}, // the unasked lines are dropped
		{"exit", 2, []error{ErrExited, ErrExited}},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			// Only a hang waits out the limit; the others get time to
			// start even under the race detector.
			timeout := 10 * time.Second
			if strings.HasPrefix(tt.mode, "hang") {
				timeout = time.Second
			}
			e, _ := testExec(t, tt.mode, timeout)
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
	e, _ := testExec(t, "garbage", time.Second)
	tok, err := e.Decide(protocol.View{Seat: 2, Moves: 16, Legal: []string{"pass", "bid 9", "bid 12"}})
	var f *Fault
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

func TestNewExecErrors(t *testing.T) {
	tests := []struct {
		spec, want string
	}{
		{"exec:no-such-razzia-bot --fast", `"no-such-razzia-bot"`},
		{"exec:", "no command"},
		{"exec:  ", "no command"},
		{"exec:python3 'bot.py", "unterminated"},
		{"exec:./testdata/no-such-file", `"./testdata/no-such-file"`},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			b, err := New(tt.spec, 1)
			if err == nil || b != nil {
				t.Fatalf("New = %v, %v; want an error", b, err)
			}
			if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not wrap ErrSpec naming %s", err, tt.want)
			}
		})
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

func TestDefaultMove(t *testing.T) {
	tests := []struct {
		name  string
		legal []string
		want  string
	}{
		{"auction: pass", []string{"pass", "bid 3", "bid 9"}, "pass"},
		{"R9 caller must bid: lowest bid", []string{"bid 4", "bid 10", "bid 11"}, "bid 4"},
		{"turn: draw", []string{"draw", "call", "thief car"}, "draw"},
		{"turn without draw", []string{"call", "thief car"}, "call"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DefaultMove(tt.legal); got != tt.want {
				t.Errorf("DefaultMove(%q) = %q, want %q", tt.legal, got, tt.want)
			}
		})
	}
}

func TestAnswer(t *testing.T) {
	legal := []string{"draw", "call", "thief car ring"}
	tests := []struct {
		line, want string
		err        error
	}{
		{"draw", "draw", nil},
		{"  DRAW \r", "draw", nil},
		{`"call"`, "call", nil},
		{"thief ring car", "thief car ring", nil},
		{"draw police", "", ErrIllegal},
		{"bid 9", "", ErrIllegal},
		{"", "", ErrMalformed},
		{`{"move":"draw"}`, "", ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := answer(tt.line, legal)
			if got != tt.want || !errors.Is(err, tt.err) {
				t.Errorf("answer(%q) = %q, %v; want %q, %v", tt.line, got, err, tt.want, tt.err)
			}
		})
	}
}
