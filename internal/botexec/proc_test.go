package botexec

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// reads returns each of its chunks in a Read of its own, then io.EOF.
type reads []string

func (r *reads) Read(b []byte) (int, error) {
	if len(*r) == 0 {
		return 0, io.EOF
	}
	n := copy(b, (*r)[0])
	(*r)[0] = (*r)[0][n:]
	if (*r)[0] == "" {
		*r = (*r)[1:]
	}
	return n, nil
}

// TestReadKeepsWritesTogether: the lines that come in one read are passed
// on together, so that the lines a program writes with its answer are in
// hand with it, whenever the reading goroutine runs; a line split between
// reads is whole, its ends dropped as bufio.ScanLines drops them.
func TestReadKeepsWritesTogether(t *testing.T) {
	p := &proc{lines: make(chan []line, 16)}
	in := reads{"draw\nbid 99\nhello\n", "call\r\n", "pa", "ss\nlast without end"}
	go p.read(&in)
	var got [][]string
	for batch := range p.lines {
		var texts []string
		for _, l := range batch {
			if l.err != nil {
				t.Fatalf("line error %v", l.err)
			}
			texts = append(texts, l.text)
		}
		got = append(got, texts)
	}
	want := [][]string{{"draw", "bid 99", "hello"}, {"call"}, {"pass"}, {"last without end"}}
	if len(got) != len(want) {
		t.Fatalf("batches %q, want %q", got, want)
	}
	for i := range want {
		if strings.Join(got[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("batch %d is %q, want %q", i, got[i], want[i])
		}
	}
}

func TestReadLineTooLong(t *testing.T) {
	p := &proc{lines: make(chan []line, 16)}
	in := reads{strings.Repeat("x", maxAnswer+10) + "\n"}
	go p.read(&in)
	var last line
	for batch := range p.lines {
		last = batch[len(batch)-1]
	}
	if !errors.Is(last.err, ErrMalformed) || !strings.Contains(last.err.Error(), "longer than") {
		t.Errorf("a line of %d bytes ends with %+v, want an error wrapping ErrMalformed", maxAnswer+10, last)
	}
}
