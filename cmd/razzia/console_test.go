package main

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestConsoleLines: a message written while the progress bar is drawn
// blanks the bar's line first, so that it stands on a line of its own;
// one written when the bar is not drawn goes out as it is.
func TestConsoleLines(t *testing.T) {
	var out bytes.Buffer
	c := newConsole(&out)
	bar := barWriter{c}
	fmt.Fprint(bar, "\rarena 3/10 ▕██")
	fmt.Fprintln(c, "razzia arena: stopping")
	fmt.Fprintln(c, "razzia arena: interrupted")
	fmt.Fprint(bar, "\rarena 4/10\r") // the bar's line ends on a carriage return
	fmt.Fprint(bar, "\r    \r")       // the bar blanks itself
	fmt.Fprintln(c, "done")
	want := "\rarena 3/10 ▕██" + "\r" + strings.Repeat(" ", 14) + "\r" + "razzia arena: stopping\n" +
		"razzia arena: interrupted\n" + "\rarena 4/10\r" + "\r    \r" + "done\n"
	if got := out.String(); got != want {
		t.Errorf("the console wrote %q, want %q", got, want)
	}
}

// TestConsoleWriters: the console's writers, used from several
// goroutines at once, write each message whole (the race detector checks
// that they share one lock).
func TestConsoleWriters(t *testing.T) {
	var out bytes.Buffer
	c := newConsole(&out)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 50 {
				if i%2 == 0 {
					fmt.Fprint(barWriter{c}, "\rbar")
				} else {
					fmt.Fprintf(c, "message %d\n", i)
				}
			}
		})
	}
	wg.Wait()
	lines := strings.Split(out.String(), "\n")
	for _, line := range lines[:len(lines)-1] {
		if _, msg, _ := strings.Cut(strings.TrimLeft(line, "\r bar"), "message "); len(msg) != 1 {
			t.Fatalf("a line is not one message after the bar: %q", line)
		}
	}
	if len(lines) != 4*50+1 {
		t.Errorf("%d lines, want %d", len(lines)-1, 4*50)
	}
}
