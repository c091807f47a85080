// Package botexec plays Razzia through external programs, in any language,
// that speak the line protocol of docs/bots.md: for each decision a program
// reads one JSON line with its seat's view and legal moves on standard
// input and answers a move on standard output.
//
// Running a program is never implicit: bot.New builds in-process bots only,
// and the server builds its seats from the bot levels. Only the commands
// that are given a program on their command line ("razzia arena" with an
// exec: seat, "razzia bot --exec") call New here.
package botexec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/protocol"
)

// Prefix begins the spec of a seat played by a program in "razzia arena":
// "exec:" and the command.
const Prefix = "exec:"

// Command returns the command of an exec: spec, and whether spec is one.
func Command(spec string) (command string, ok bool) {
	command, ok = strings.CutPrefix(strings.TrimSpace(spec), Prefix)
	if !ok {
		return "", false
	}
	return command, true
}

// DefaultTimeout is the time a program has for one decision unless
// Options say otherwise.
const DefaultTimeout = 5 * time.Second

// maxAnswer bounds the length of an answer line; a move needs about 40 bytes.
const maxAnswer = 64 << 10

// closeGrace is how long Close waits for a program to exit after its
// standard input is closed, before killing it.
const closeGrace = time.Second

// ErrCommand is wrapped by every error New returns for a command that
// cannot be run.
var ErrCommand = errors.New("bad bot command")

// The faults of a program. A bot.Fault's Err wraps one of them.
var (
	ErrTimeout   = errors.New("no answer within the time limit")
	ErrExited    = errors.New("the program is not running")
	ErrMalformed = errors.New("the answer is not a move")
	ErrIllegal   = errors.New("the answer is not a legal move")
)

// Options configure a Bot.
type Options struct {
	// Timeout is the time the program has for one decision, from the
	// decide line being written to the answer being read; 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// Stderr receives the program's standard error, and the lines of its
	// standard output that answer nothing, each line prefixed with the
	// command, game and seat; nil means os.Stderr. Bots of several games
	// may write at once: it must be safe for that.
	Stderr io.Writer
	// Game names the game in the decide lines: the game's number in an
	// arena, its id on a server. SetGame changes it.
	Game string

	// limit, when set, stands in for the timer of each decision's time
	// limit (tests, which must not wait out limits): it returns the
	// channel the lapse comes on, and a function that hears each line
	// the program writes that answers nothing.
	limit func(time.Duration) (lapse <-chan time.Time, noted func())
}

// A Bot is a bot.Bot played by a program.
//
// The program is started at the first decision and runs until Close, one
// process per Bot (per game and seat in an arena), in a process group of
// its own: what it starts is stopped with it. A program that crashes, hangs
// past the time limit or answers with a malformed or illegal move loses
// that decision only: bot.Default's move is played instead and a bot.Fault
// is recorded. A program that crashed or hung is killed and started afresh
// for the next decision.
type Bot struct {
	argv  []string
	name  string // the command as given, for messages
	seed  uint64
	opts  Options
	grace time.Duration // closeGrace; shorter in tests

	p        *proc
	seat     int
	decision int // the number of the last question asked, from 1
	faults   []bot.Fault
}

// New returns a bot that runs command, a program and its arguments split
// like a shell would (quotes and backslashes; no variables, globs or pipes,
// and no shell is started). The program is looked up now, so a missing
// command is an error wrapping ErrCommand before any game starts; Check
// goes further and asks it a question.
func New(command string, seed uint64, opts Options) (*Bot, error) {
	argv, err := splitCommand(command)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCommand, command, err)
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("%w: no command, such as python3 examples/bot.py", ErrCommand)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, fmt.Errorf("%w: cannot run %q: %v", ErrCommand, argv[0], unwrapExec(err))
	}
	argv[0] = path
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	return &Bot{argv: argv, name: strings.TrimSpace(command), seed: seed & (1<<53 - 1),
		opts: opts, grace: closeGrace, seat: -1}, nil
}

// unwrapExec drops the "exec: "name": " that exec.Error repeats.
func unwrapExec(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err
	}
	return err
}

// Check tells whether the program of command can play before any game
// does: it asks the program for the first move of a new game of players
// seats (game "check", seat 0) within opts.Timeout and stops it. A program
// that cannot be started, ends or gives no answer is an error naming why,
// with the last line it wrote, never passed on to opts.Stderr. A program
// that answers, even with a move that is not legal, can play.
func Check(command string, players int, opts Options) error {
	var last lastLine
	opts.Stderr, opts.Game = &last, "check"
	b, err := New(command, 0, opts)
	if err != nil {
		return err
	}
	defer b.Close()
	names := make([]string, players)
	for i := range names {
		names[i] = "seat " + strconv.Itoa(i+1)
	}
	g, err := razzia.NewGame(razzia.Setup{Players: names})
	if err != nil {
		return err
	}
	st := g.State()
	snap := protocol.NewView(g.View(st.ToMove()))
	last.prefix = b.prefix(snap.Seat)
	_, err = b.ask(snap)
	if !errors.Is(err, ErrExited) && !errors.Is(err, ErrTimeout) {
		return nil
	}
	if words := last.String(); words != "" && !errors.Is(err, ErrMalformed) { // that quotes its words
		return fmt.Errorf("no answer to its first question: %w; it wrote %q", err, words)
	}
	return fmt.Errorf("no answer to its first question: %w", err)
}

// SetGame names the game in the decide lines from now on.
func (b *Bot) SetGame(game string) { b.opts.Game = game }

// Faults returns the decisions the program lost so far, oldest first.
func (b *Bot) Faults() []bot.Fault { return append([]bot.Fault(nil), b.faults...) }

// Choose implements bot.Bot by asking the program. It never fails: a fault
// plays bot.Default and is recorded (see Faults).
func (b *Bot) Choose(v razzia.View) razzia.Move {
	tok, _ := b.Decide(protocol.NewView(v))
	m, err := razzia.ParseMove(tok)
	if err == nil {
		for _, l := range v.Legal {
			if l == m {
				return l
			}
		}
	}
	// Decide answers one of s.Legal, which are v.Legal's tokens.
	panic(fmt.Sprintf("botexec: %q is not among the legal moves", tok))
}

// Decide asks the program for a move in the position s, which must be the
// view of the seat to move with its legal moves. It returns the token to
// play, always one of s.Legal, and a *bot.Fault when the program lost the
// decision and the token is bot.DefaultMove's.
func (b *Bot) Decide(s protocol.View) (string, error) {
	if len(s.Legal) == 0 {
		panic("botexec: Decide without legal moves")
	}
	tok, err := b.ask(s)
	if err == nil {
		return tok, nil
	}
	f := bot.Fault{Game: b.opts.Game, Seat: s.Seat, Move: s.Moves + 1, Played: bot.DefaultMove(s.Legal), Err: err}
	b.faults = append(b.faults, f)
	return f.Played, &f
}

// decideLine is the line the program reads for each decision.
type decideLine struct {
	Type        string        `json:"type"`
	Game        string        `json:"game"`
	Seat        int           `json:"seat"`
	Decision    int           `json:"decision"`
	Seed        uint64        `json:"seed"`
	TimeLimitMs int64         `json:"timeLimitMs"`
	Legal       []string      `json:"legal"`
	View        protocol.View `json:"view"`
}

// ask runs one decision: it returns a legal token or the fault.
//
// Only an answer to this question is taken: lines the program wrote before
// it (drained now) or that are not answers (not a move, or an answer
// object naming another decision) are passed on as notes, and the
// program's time runs on.
func (b *Bot) ask(s protocol.View) (string, error) {
	b.decision++
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(decideLine{Type: "decide", Game: b.opts.Game, Seat: s.Seat, Decision: b.decision,
		Seed: b.seed, TimeLimitMs: b.opts.Timeout.Milliseconds(), Legal: s.Legal, View: s}); err != nil {
		return "", err
	}
	if b.p == nil || b.p.dead() || b.seat != s.Seat {
		b.stop()
		b.seat = s.Seat
		p, err := b.start()
		if err != nil {
			return "", fmt.Errorf("%w: cannot start %s: %v", ErrExited, b.name, err)
		}
		b.p = p
	}
	p := b.p
	p.drain(b.note)

	var lapse <-chan time.Time
	noted := func() {}
	if b.opts.limit != nil {
		lapse, noted = b.opts.limit(b.opts.Timeout)
	} else {
		timer := time.NewTimer(b.opts.Timeout)
		defer timer.Stop()
		lapse = timer.C
	}
	written := make(chan error, 1)
	go func() {
		_, err := p.stdin.Write(buf.Bytes())
		written <- err
	}()
	noise := "" // the first line that was no answer
	for {
		if l, ok := p.next(); ok {
			if l.err != nil {
				return "", b.lost(p, p.exitError(l.err, lapse))
			}
			tok, ok, err := answer(l.text, s.Legal, b.decision)
			if ok {
				return tok, err // the lines that came with it wait for drain
			}
			b.note(l.text)
			noted()
			if noise == "" {
				noise = l.text
			}
			continue
		}
		select {
		case err := <-written:
			written = nil
			if errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) {
				// It ended before reading: say how, not "write |1:
				// broken pipe".
				return "", b.lost(p, p.exitError(nil, lapse))
			}
			if err != nil {
				return "", b.lost(p, fmt.Errorf("%w: writing to it failed: %v", ErrExited, err))
			}
		case batch, ok := <-p.lines:
			if !ok {
				return "", b.lost(p, p.exitError(nil, lapse))
			}
			p.pending = batch
		case <-lapse:
			if noise != "" {
				return "", b.lost(p, fmt.Errorf("%w (%v); %w: %q",
					ErrTimeout, b.opts.Timeout, ErrMalformed, clip(strings.TrimSpace(noise))))
			}
			return "", b.lost(p, fmt.Errorf("%w (%v)", ErrTimeout, b.opts.Timeout))
		}
	}
}

// lost kills the process after a fault that leaves it out of step, so the
// next decision starts a fresh one, and returns err.
func (b *Bot) lost(p *proc, err error) error {
	p.kill(b.grace)
	if b.p == p {
		b.p = nil
	}
	return err
}

// note passes on a line of standard output that answers nothing.
func (b *Bot) note(text string) {
	io.WriteString(b.opts.Stderr, b.prefix(b.seat)+"stdout, not an answer: "+clip(text)+"\n")
}

// prefix begins the lines passed on from the program playing seat.
func (b *Bot) prefix(seat int) string {
	s := "[" + b.name
	if b.opts.Game != "" {
		s += " game " + b.opts.Game
	}
	return s + " seat " + strconv.Itoa(seat+1) + "] "
}

// An answerLine is an answer that names its question.
type answerLine struct {
	Decision *int    `json:"decision"`
	Move     *string `json:"move"`
}

// answer reads line as the answer to question decision, among legal. It
// reports ok false for a line that answers nothing: one that is not a
// move, or an answer object naming another decision. A move is accepted as
// a plain token ("bid 9"), a JSON string ("\"bid 9\"") or an object
// ({"decision": 3, "move": "bid 9"}, the decision optional), in any case
// and spacing, thieves in any order; one that is not among legal is an
// error wrapping ErrIllegal. A line meant as an answer that is not a move
// (an object for this decision, a JSON string, or a line starting with a
// move's verb, such as "bid nine") is an error wrapping ErrMalformed at
// once; other lines, such as debug output, answer nothing.
func answer(line string, legal []string, decision int) (tok string, ok bool, err error) {
	line = strings.TrimSpace(line)
	switch {
	case strings.HasPrefix(line, "{"):
		var a answerLine
		if json.Unmarshal([]byte(line), &a) != nil || a.Move == nil {
			return "", false, nil
		}
		if a.Decision != nil && *a.Decision != decision {
			return "", false, nil // a late answer to an earlier question
		}
		m, err := razzia.ParseMove(*a.Move)
		if err != nil {
			return "", true, fmt.Errorf("%w: %q: %v", ErrMalformed, clip(*a.Move), err)
		}
		return legalToken(m, *a.Move, legal)
	case strings.HasPrefix(line, `"`):
		var s string
		if json.Unmarshal([]byte(line), &s) == nil {
			m, err := razzia.ParseMove(s)
			if err != nil {
				// A JSON string is written as an answer, never as a note.
				return "", true, fmt.Errorf("%w: %q: %v", ErrMalformed, clip(s), err)
			}
			return legalToken(m, s, legal)
		}
	}
	m, err := razzia.ParseMove(line)
	if err != nil {
		if moveVerb(line) {
			// "bid nine", "draw it": meant as the answer, so waiting out
			// the limit for another would only waste the program's time.
			return "", true, fmt.Errorf("%w: %q: %v", ErrMalformed, clip(line), err)
		}
		return "", false, nil
	}
	return legalToken(m, line, legal)
}

// moveVerb reports whether line starts with a word a move starts with, so
// that a line that fails to parse is a broken answer rather than a note.
func moveVerb(line string) bool {
	verb, _, _ := strings.Cut(strings.ToLower(line), " ")
	switch verb {
	case "draw", "thief", "thieves", "call", "bid", "pass":
		return true
	}
	return false
}

// legalToken returns the token of legal that is m, as written.
func legalToken(m razzia.Move, written string, legal []string) (string, bool, error) {
	for _, tok := range legal {
		if l, err := razzia.ParseMove(tok); err == nil && l == m {
			return tok, true, nil
		}
	}
	return "", true, fmt.Errorf("%w: %q is not one of %s", ErrIllegal, clip(written), strings.Join(legal, ", "))
}

// clip shortens a garbage line for a message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// Close ends the program and everything it started: its standard input
// is closed, and its process group is killed when it has exited or a
// second later. The Bot may be used again: the next decision starts the
// program anew.
func (b *Bot) Close() error {
	b.stop()
	return nil
}

func (b *Bot) stop() {
	if b.p == nil {
		return
	}
	p := b.p
	b.p = nil
	p.stdin.Close()
	t := time.NewTimer(b.grace)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
	}
	p.kill(b.grace)
}

// maxLastLine bounds the line Check quotes: room for a path and a reason.
const maxLastLine = 300

// A lastLine keeps the last line written to it, a line per Write, without
// the prefix. It is safe for concurrent use.
type lastLine struct {
	prefix string // set before the program starts
	mu     sync.Mutex
	line   string
}

func (l *lastLine) Write(b []byte) (int, error) {
	if s := strings.TrimSpace(strings.TrimPrefix(string(b), l.prefix)); s != "" {
		if len(s) > maxLastLine {
			s = s[:maxLastLine-3] + "..."
		}
		l.mu.Lock()
		l.line = s
		l.mu.Unlock()
	}
	return len(b), nil
}

func (l *lastLine) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.line
}
