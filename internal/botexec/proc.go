package botexec

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// A proc is one run of the program. Its three standard streams are pipes
// of ours, so that waiting for the process never waits for a stream that
// a process it started still holds.
type proc struct {
	cmd     *exec.Cmd
	stdin   *os.File      // the write end
	stdout  *os.File      // the read end, closed by kill to free the reader
	stderr  *os.File      // the read end
	lines   chan []line   // standard output: the whole lines of each read
	pending []line        // lines received and not yet looked at
	errDone chan struct{} // closed once standard error is passed on to its end
	exited  chan struct{} // closed once the process is reaped
	err     error         // cmd.Wait's, once exited is closed
	once    sync.Once
}

type line struct {
	text string
	err  error
}

// start starts the program for the bot's seat.
func (b *Bot) start() (*proc, error) {
	var files []*os.File // every end, closed on failure
	pipe := func() (r, w *os.File, err error) {
		if r, w, err = os.Pipe(); err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	fail := func(err error) (*proc, error) {
		for _, f := range files {
			f.Close()
		}
		return nil, err
	}
	inR, inW, err := pipe()
	if err != nil {
		return fail(err)
	}
	outR, outW, err := pipe()
	if err != nil {
		return fail(err)
	}
	errR, errW, err := pipe()
	if err != nil {
		return fail(err)
	}
	cmd := exec.Command(b.argv[0], b.argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		return fail(unwrapExec(err))
	}
	// The child holds its ends now.
	inR.Close()
	outW.Close()
	errW.Close()
	p := &proc{cmd: cmd, stdin: inW, stdout: outR, stderr: errR, lines: make(chan []line, 16),
		errDone: make(chan struct{}), exited: make(chan struct{})}
	go p.read(outR)
	go func() {
		lw := &lineWriter{w: b.opts.Stderr, prefix: b.prefix(b.seat)}
		io.Copy(lw, errR)
		lw.flush()
		close(p.errDone)
	}()
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// read passes the program's standard output on a line at a time, the
// lines that came in one read together: the lines a program writes at
// once with its answer are then in hand when the answer is, and never
// taken for the answer to the next question however late this goroutine
// runs.
func (p *proc) read(out io.Reader) {
	defer close(p.lines)
	r := bufio.NewReaderSize(out, 4096)
	for {
		var batch []line
		for {
			text, err := readLine(r)
			if err != nil {
				if text != "" {
					batch = append(batch, line{text: text})
				}
				if err != io.EOF {
					batch = append(batch, line{err: err})
				}
				if len(batch) > 0 {
					p.lines <- batch
				}
				return
			}
			batch = append(batch, line{text: text})
			if b, _ := r.Peek(r.Buffered()); bytes.IndexByte(b, '\n') < 0 {
				break // no whole line more has come yet
			}
		}
		p.lines <- batch
	}
}

// readLine reads a line without its end (a newline, and a carriage
// return before it) as bufio.ScanLines does. A line longer than maxAnswer
// is an error wrapping ErrMalformed.
func readLine(r *bufio.Reader) (string, error) {
	var long []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(long)+len(chunk) > maxAnswer+2 {
			return "", fmt.Errorf("%w: an answer line longer than %d bytes", ErrMalformed, maxAnswer)
		}
		long = append(long, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		return strings.TrimSuffix(strings.TrimSuffix(string(long), "\n"), "\r"), err
	}
}

// next returns the next line received, if one is in hand.
func (p *proc) next() (line, bool) {
	if len(p.pending) == 0 {
		return line{}, false
	}
	l := p.pending[0]
	p.pending = p.pending[1:]
	return l, true
}

// drain passes on the lines the program wrote unasked, which would
// otherwise be taken as the answer to the next question. A line that
// says how the output ended is left for the question.
func (p *proc) drain(note func(string)) {
	for {
		for len(p.pending) > 0 && p.pending[0].err == nil {
			l, _ := p.next()
			note(l.text)
		}
		if len(p.pending) > 0 {
			return
		}
		select {
		case batch, ok := <-p.lines:
			if !ok {
				return
			}
			p.pending = batch
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

// exitError describes why the program's output ended, waiting for the
// program to exit until lapse, the end of the decision's time limit: a
// program that closed its standard output cannot answer, but it is only
// said to live on once its time is up, never because a busy machine was
// slow to reap it.
func (p *proc) exitError(readErr error, lapse <-chan time.Time) error {
	if errors.Is(readErr, ErrMalformed) {
		return readErr
	}
	select {
	case <-p.exited:
	case <-lapse:
		return fmt.Errorf("%w: it closed its standard output", ErrExited)
	}
	if p.err != nil {
		return fmt.Errorf("%w: it ended with %v", ErrExited, p.err)
	}
	return fmt.Errorf("%w: it exited", ErrExited)
}

// kill stops the process and everything it started, and frees the
// goroutines reading it. Standard error is passed on to its end, which
// comes at once unless a process escaped the group, and after grace then.
func (p *proc) kill(grace time.Duration) {
	p.once.Do(func() {
		killGroup(p.cmd.Process)
		p.stdin.Close()
		p.stdout.Close()
		go func() {
			for range p.lines {
			}
		}()
		<-p.exited
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-p.errDone:
		case <-t.C:
			p.stderr.Close()
			<-p.errDone
		}
		p.stderr.Close()
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
