package main

import (
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// A console is a command's standard error written from several
// goroutines: the games' bots and faults, the signal handler's notice,
// the progress bar. Each write goes out whole under one lock, and a
// message written while the progress bar is drawn first blanks the bar's
// line, so that the message stands on a line of its own; the bar is
// drawn again below it at its next step.
type console struct {
	mu    sync.Mutex
	w     io.Writer
	drawn int // the columns of the progress bar on the current line
}

// newConsole returns the console writing to w.
func newConsole(w io.Writer) *console {
	return &console{w: w}
}

// Write writes p whole, on a line of its own if the bar was drawn.
func (c *console) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.drawn > 0 {
		io.WriteString(c.w, "\r"+strings.Repeat(" ", c.drawn)+"\r")
		c.drawn = 0
	}
	return c.w.Write(p)
}

// A barWriter is the progress bar's way to its console: it draws on the
// current line, which it keeps count of.
type barWriter struct{ c *console }

func (b barWriter) Write(p []byte) (int, error) {
	b.c.mu.Lock()
	defer b.c.mu.Unlock()
	n, err := b.c.w.Write(p)
	for s := string(p[:n]); s != ""; {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		switch r {
		case '\r', '\n':
			b.c.drawn = 0
		default:
			b.c.drawn++
		}
	}
	return n, err
}

// newProgress returns a progress bar on the console for total steps, or
// nil when the console is not a terminal.
func newProgress(c *console, total int, what, unit string) *progressbar.ProgressBar {
	f, ok := c.w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(barWriter{c}),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString(unit),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetWidth(30),
	)
}
