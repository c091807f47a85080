package postgres

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"testing"
)

// message returns a protocol message of type typ with body.
func message(typ byte, body ...[]byte) []byte {
	b := []byte{typ, 0, 0, 0, 0}
	for _, part := range body {
		b = append(b, part...)
	}
	binary.BigEndian.PutUint32(b[1:5], uint32(len(b)-1))
	return b
}

// notification returns a NotificationResponse of channel and payload.
func notification(channel, payload string) []byte {
	return message('A', []byte{0, 0, 0, 7}, []byte(channel), []byte{0}, []byte(payload), []byte{0})
}

// chunks reads its stream a few bytes at a time, some reads failing with
// a timeout (as the listener's interrupt makes them) before any byte.
type chunks struct {
	rest    []byte
	rng     *rand.Rand
	timeout error
}

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.rest) == 0 {
		return 0, io.EOF
	}
	if c.rng.IntN(4) == 0 {
		return 0, c.timeout
	}
	n := copy(p, c.rest[:min(len(c.rest), 1+c.rng.IntN(40))])
	c.rest = c.rest[n:]
	return n, nil
}

// TestNoticeReader: whatever the reads' sizes and their interruptions,
// the notifications are heard in order, whole, and everything else
// reaches pgx byte for byte: other messages, a long one, and
// notifications it cannot read (too long, malformed), which pgx decodes.
func TestNoticeReader(t *testing.T) {
	long := bytes.Repeat([]byte("x"), 20000)
	var stream, want []byte
	var heard []string
	add := func(b []byte, passed bool) {
		stream = append(stream, b...)
		if passed {
			want = append(want, b...)
		}
	}
	for i := range 200 {
		add(message('Z', []byte("I")), true)
		add(notification("razzia_changes", fmt.Sprint(`{"game":"g`, i, `"}`)), false)
		heard = append(heard, fmt.Sprint(`razzia_changes {"game":"g`, i, `"}`))
		if i%50 == 0 {
			add(message('D', long), true)
			add(notification("razzia_node_a", string(long)), true)        // longer than a notification can be
			add(message('A', []byte{0, 0, 0, 7}, []byte("no end")), true) // no zero bytes
			add(notification("empty", ""), false)
			heard = append(heard, "empty ")
		}
	}
	timeout := errors.New("i/o timeout")
	for seed := range uint64(20) {
		var got []string
		r := newNoticeReader(&chunks{rest: stream, rng: rand.New(rand.NewPCG(seed, 1)), timeout: timeout},
			func(channel, payload string) { got = append(got, channel+" "+payload) })
		var passed []byte
		buf := make([]byte, 64)
		for {
			n, err := r.Read(buf)
			passed = append(passed, buf[:n]...)
			if err == io.EOF {
				break
			}
			if err != nil && err != timeout {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(passed, want) {
			t.Fatalf("seed %d: %d bytes passed on, want %d", seed, len(passed), len(want))
		}
		if fmt.Sprint(got) != fmt.Sprint(heard) {
			t.Fatalf("seed %d: heard %d notifications, want %d", seed, len(got), len(heard))
		}
	}
}

// FuzzNoticeReader: whatever the stream, the reader hands on every byte
// of it that is not a notification it heard, and never fails but with
// the stream's own error.
func FuzzNoticeReader(f *testing.F) {
	f.Add(append(notification("c", "p"), message('Z', []byte("I"))...), uint64(1))
	f.Add([]byte{'A', 0, 0, 0, 2, 'x'}, uint64(2))
	f.Add([]byte{'A', 0xff, 0xff, 0xff, 0xff}, uint64(3))
	f.Fuzz(func(t *testing.T, stream []byte, seed uint64) {
		var heard int
		r := newNoticeReader(&chunks{rest: stream, rng: rand.New(rand.NewPCG(seed, 1)), timeout: os.ErrDeadlineExceeded},
			func(channel, payload string) { heard += 5 + 4 + len(channel) + 1 + len(payload) + 1 })
		var passed int
		buf := make([]byte, 64)
		for {
			n, err := r.Read(buf)
			passed += n
			if err == io.EOF {
				break
			}
			if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatal(err)
			}
		}
		if passed+heard > len(stream) {
			t.Fatalf("%d bytes passed on and %d heard of %d", passed, heard, len(stream))
		}
	})
}
