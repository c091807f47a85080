package bot

import (
	"bufio"
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
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/protocol"
)

// DefaultTimeout is the time an external program has for one decision
// unless ExecOptions say otherwise.
const DefaultTimeout = 5 * time.Second

// maxAnswer bounds the length of an answer line; a move needs about 40 bytes.
const maxAnswer = 64 << 10

// closeGrace is how long Close waits for a program to exit after its
// standard input is closed, before killing it.
const closeGrace = time.Second

// The faults of an external program. A Fault wraps one of them.
var (
	ErrTimeout   = errors.New("no answer within the time limit")
	ErrExited    = errors.New("the program is not running")
	ErrMalformed = errors.New("the answer is not a move")
	ErrIllegal   = errors.New("the answer is not a legal move")
)

// ExecOptions configure an Exec bot.
type ExecOptions struct {
	// Timeout is the time the program has for one decision, from the
	// decide line being written to the answer being read; 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// Stderr receives the program's standard error, each line prefixed
	// with the command, game and seat; nil means os.Stderr. Bots of
	// several games may write at once: it must be safe for that.
	Stderr io.Writer
	// Game names the game in the decide lines: the game's number in an
	// arena, its id on a server. SetGame changes it.
	Game string
}

// An Exec is a bot played by an external program that speaks the line
// protocol of docs/bots.md: for each decision it reads one JSON line with
// the seat's view and legal moves on standard input and answers one line,
// a move token, on standard output.
//
// The program is started at the first decision and runs until Close, one
// process per Exec (per game and seat in an arena). A program that crashes,
// hangs past the time limit or answers with a malformed or illegal move
// loses that decision only: a safe legal move is played instead (see
// DefaultMove) and a Fault is recorded. A program that crashed or hung is
// killed and started afresh for the next decision.
type Exec struct {
	argv []string
	name string // the command as given, for messages
	seed uint64
	opts ExecOptions

	p      *proc
	seat   int
	faults []Fault
}

// NewExec returns a bot that runs command, a program and its arguments
// split like a shell would (quotes and backslashes; no variables, globs or
// pipes, and no shell is started). The program is looked up now, so a
// missing command is an error wrapping ErrSpec before any game starts.
func NewExec(command string, seed uint64, opts ExecOptions) (*Exec, error) {
	argv, err := splitCommand(command)
	if err != nil {
		return nil, specError("exec:%s: %v", command, err)
	}
	if len(argv) == 0 {
		return nil, specError("exec: no command after the colon, such as exec:python3 examples/bot.py")
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, fmt.Errorf("%w: exec:%s: cannot run %q: %v", ErrSpec, command, argv[0], unwrapExec(err))
	}
	argv[0] = path
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	return &Exec{argv: argv, name: strings.TrimSpace(command), seed: seed & (1<<53 - 1), opts: opts, seat: -1}, nil
}

// unwrapExec drops the "exec: "name": " that exec.Error repeats.
func unwrapExec(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err
	}
	return err
}

// SetGame names the game in the decide lines from now on.
func (e *Exec) SetGame(game string) { e.opts.Game = game }

// A Fault is a decision an external program lost.
type Fault struct {
	Game   string // as in the decide line
	Seat   int
	Move   int    // the number of the move decided, from 1
	Played string // the move played instead
	Err    error  // wraps ErrTimeout, ErrExited, ErrMalformed or ErrIllegal
}

func (f *Fault) Error() string {
	return fmt.Sprintf("move %d: %v; played %s instead", f.Move, f.Err, f.Played)
}

func (f *Fault) Unwrap() error { return f.Err }

// Faults returns the decisions the program lost so far, oldest first.
func (e *Exec) Faults() []Fault { return append([]Fault(nil), e.faults...) }

// Choose asks the program for a move. It never fails: a fault plays
// DefaultMove and is recorded (see Faults).
func (e *Exec) Choose(v razzia.View) razzia.Move {
	tok, _ := e.Decide(protocol.NewView(v))
	m, err := razzia.ParseMove(tok)
	if err == nil {
		for _, l := range v.Legal {
			if l == m {
				return l
			}
		}
	}
	// Decide answers one of s.Legal, which are v.Legal's tokens.
	panic(fmt.Sprintf("bot: exec: %q is not among the legal moves", tok))
}

// Decide asks the program for a move in the position s, which must be the
// view of the seat to move with its legal moves. It returns the token to
// play, always one of s.Legal, and a *Fault when the program lost the
// decision and the token is DefaultMove's.
func (e *Exec) Decide(s protocol.View) (string, error) {
	if len(s.Legal) == 0 {
		panic("bot: exec: Decide without legal moves")
	}
	tok, err := e.ask(s)
	if err == nil {
		return tok, nil
	}
	f := Fault{Game: e.opts.Game, Seat: s.Seat, Move: s.Moves + 1, Played: DefaultMove(s.Legal), Err: err}
	e.faults = append(e.faults, f)
	return f.Played, &f
}

// DefaultMove returns the move played for a program that lost a decision:
// in an auction pass, or the lowest bid where passing is not allowed;
// otherwise draw. legal is in the order of Snapshot.Legal.
func DefaultMove(legal []string) string {
	for _, want := range []string{"pass", "bid ", "draw"} {
		for _, tok := range legal {
			if tok == want || (want == "bid " && strings.HasPrefix(tok, want)) {
				return tok
			}
		}
	}
	if len(legal) > 0 {
		return legal[0]
	}
	return ""
}

// decideLine is the line the program reads for each decision.
type decideLine struct {
	Type        string        `json:"type"`
	Game        string        `json:"game"`
	Seat        int           `json:"seat"`
	Seed        uint64        `json:"seed"`
	TimeLimitMs int64         `json:"timeLimitMs"`
	Legal       []string      `json:"legal"`
	View        protocol.View `json:"view"`
}

// ask runs one decision: it returns a legal token or the fault.
func (e *Exec) ask(s protocol.View) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(decideLine{Type: "decide", Game: e.opts.Game, Seat: s.Seat, Seed: e.seed,
		TimeLimitMs: e.opts.Timeout.Milliseconds(), Legal: s.Legal, View: s}); err != nil {
		return "", err
	}
	if e.p == nil || e.p.dead() || e.seat != s.Seat {
		e.stop()
		e.seat = s.Seat
		p, err := e.start()
		if err != nil {
			return "", fmt.Errorf("%w: cannot start %s: %v", ErrExited, e.name, err)
		}
		e.p = p
	}
	p := e.p
	p.drain()

	timer := time.NewTimer(e.opts.Timeout)
	defer timer.Stop()
	written := make(chan error, 1)
	go func() {
		_, err := p.stdin.Write(b.Bytes())
		written <- err
	}()
	for {
		select {
		case err := <-written:
			written = nil
			if err != nil {
				return "", e.lost(p, fmt.Errorf("%w: writing to it failed: %v", ErrExited, err))
			}
		case l, ok := <-p.lines:
			if !ok || l.err != nil {
				return "", e.lost(p, p.exitError(l.err))
			}
			return answer(l.text, s.Legal)
		case <-timer.C:
			return "", e.lost(p, fmt.Errorf("%w (%v)", ErrTimeout, e.opts.Timeout))
		}
	}
}

// lost kills the process after a fault that leaves it out of step, so the
// next decision starts a fresh one, and returns err.
func (e *Exec) lost(p *proc, err error) error {
	p.kill()
	if e.p == p {
		e.p = nil
	}
	return err
}

// answer checks a line against the legal moves. A move is accepted as a
// plain token ("bid 9") or as a JSON string ("\"bid 9\""), in any case and
// spacing, thieves in any order.
func answer(line string, legal []string) (string, error) {
	line = strings.TrimSpace(line)
	if strings.HasPrefix(line, `"`) {
		var s string
		if err := json.Unmarshal([]byte(line), &s); err == nil {
			line = s
		}
	}
	m, err := razzia.ParseMove(line)
	if err != nil {
		return "", fmt.Errorf("%w: %q: %v", ErrMalformed, clip(line), err)
	}
	for _, tok := range legal {
		if l, err := razzia.ParseMove(tok); err == nil && l == m {
			return tok, nil
		}
	}
	return "", fmt.Errorf("%w: %q is not one of %s", ErrIllegal, clip(line), strings.Join(legal, ", "))
}

// clip shortens a garbage answer for a message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// Close ends the program: its standard input is closed, and it is killed
// if it has not exited within a second. The Exec may be used again: the
// next decision starts the program anew.
func (e *Exec) Close() error {
	e.stop()
	return nil
}

func (e *Exec) stop() {
	if e.p == nil {
		return
	}
	p := e.p
	e.p = nil
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(closeGrace):
	}
	p.kill()
}

// A proc is one run of the program.
type proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *os.File // the read end, closed by kill to free the reader
	lines  chan line
	exited chan struct{} // closed once the process is reaped
	err    error         // cmd.Wait's, once exited is closed
	once   sync.Once
}

type line struct {
	text string
	err  error
}

func (e *Exec) start() (*proc, error) {
	cmd := exec.Command(e.argv[0], e.argv[1:]...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = w
	prefix := "[" + e.name
	if e.opts.Game != "" {
		prefix += " game " + e.opts.Game
	}
	prefix += " seat " + strconv.Itoa(e.seat+1) + "] "
	lw := &lineWriter{w: e.opts.Stderr, prefix: prefix}
	cmd.Stderr = lw
	// A grandchild holding standard error must not keep Wait forever.
	cmd.WaitDelay = closeGrace
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil, unwrapExec(err)
	}
	w.Close()
	p := &proc{cmd: cmd, stdin: stdin, stdout: r, lines: make(chan line, 16), exited: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 4096), maxAnswer)
		for sc.Scan() {
			p.lines <- line{text: sc.Text()}
		}
		if err := sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				err = fmt.Errorf("%w: an answer line longer than %d bytes", ErrMalformed, maxAnswer)
			}
			p.lines <- line{err: err}
		}
		close(p.lines)
	}()
	go func() {
		p.err = cmd.Wait()
		lw.flush()
		close(p.exited)
	}()
	return p, nil
}

// drain drops lines the program wrote unasked, which would otherwise be
// taken as the answer to this decision.
func (p *proc) drain() {
	for {
		select {
		case l, ok := <-p.lines:
			if !ok || l.err != nil {
				return
			}
		default:
			return
		}
	}
}

// dead reports whether the program has exited.
func (p *proc) dead() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// exitError describes why the program's output ended.
func (p *proc) exitError(readErr error) error {
	if errors.Is(readErr, ErrMalformed) {
		return readErr
	}
	select {
	case <-p.exited:
	case <-time.After(closeGrace):
		return fmt.Errorf("%w: it closed its standard output", ErrExited)
	}
	if p.err != nil {
		return fmt.Errorf("%w: it ended with %v", ErrExited, p.err)
	}
	return fmt.Errorf("%w: it exited", ErrExited)
}

// kill stops the process and frees the goroutines reading it.
func (p *proc) kill() {
	p.once.Do(func() {
		p.cmd.Process.Kill()
		p.stdin.Close()
		p.stdout.Close()
		go func() {
			for range p.lines {
			}
		}()
		<-p.exited
	})
}

// A lineWriter passes a program's standard error on, a whole line per
// Write, each prefixed.
type lineWriter struct {
	w      io.Writer
	prefix string
	buf    []byte
}

func (l *lineWriter) Write(b []byte) (int, error) {
	l.buf = append(l.buf, b...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			if len(l.buf) >= 4096 {
				l.flush()
			}
			return len(b), nil
		}
		l.w.Write(append([]byte(l.prefix), l.buf[:i+1]...))
		l.buf = l.buf[i+1:]
	}
}

// flush writes a last line without its newline.
func (l *lineWriter) flush() {
	if len(l.buf) > 0 {
		l.w.Write(append(append([]byte(l.prefix), l.buf...), '\n'))
		l.buf = nil
	}
}

// splitCommand splits a command line into words as a POSIX shell would for
// plain words, 'single' and "double" quotes and backslashes; nothing else
// is special.
func splitCommand(s string) ([]string, error) {
	var (
		words []string
		word  strings.Builder
		in    bool // inside a word
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words = append(words, word.String())
				word.Reset()
				in = false
			}
		case c == '\\':
			in = true
			if i+1 < len(s) {
				i++
				word.WriteByte(s[i])
			}
		case c == '\'':
			in = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated ' quote")
			}
			word.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			in = true
			for i++; ; i++ {
				if i >= len(s) {
					return nil, errors.New(`unterminated " quote`)
				}
				if s[i] == '"' {
					break
				}
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\\"$`", s[i+1]) >= 0 {
					i++
				}
				word.WriteByte(s[i])
			}
		default:
			in = true
			word.WriteByte(c)
		}
	}
	if in {
		words = append(words, word.String())
	}
	return words, nil
}
