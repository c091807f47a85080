package loadgen

import (
	"context"
	"net/http"
	"runtime"
	"strconv"
	"testing"
)

// dialTable dials seats connections of one table to a new echo in the
// test's process.
func dialTable(t *testing.T, seats int) []*echoConn {
	t.Helper()
	ctx := context.Background()
	e, err := startEcho(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Stop() })
	conns := make([]*echoConn, seats)
	for s := range conns {
		if conns[s], err = dialEcho(ctx, e.URL, http.DefaultClient, 7, s, seats); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conns[s].CloseNow() })
	}
	return conns
}

// TestEchoFansOut: a move sent by one seat reaches every seat of its
// table, the sender too, each with the size asked for it.
func TestEchoFansOut(t *testing.T) {
	ctx := context.Background()
	conns := dialTable(t, 3)
	sizes := []int{300, 2000, 41}
	if err := conns[1].ask(ctx, 12, sizes); err != nil {
		t.Fatal(err)
	}
	for s, c := range conns {
		seq, err := c.next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if seq != 12 || c.buf.Len() != sizes[s] {
			t.Errorf("seat %d got move %d in %d bytes, want move 12 in %d", s, seq, c.buf.Len(), sizes[s])
		}
	}
	if len(conns[1].req) != moveSize {
		t.Errorf("the request is %d bytes, want the size of a move, %d", len(conns[1].req), moveSize)
	}
}

// TestEchoRefusesBadAsks: a request that does not name a size per seat
// closes the connection; the echo goes on serving the others.
func TestEchoRefusesBadAsks(t *testing.T) {
	for _, bad := range [][]int{{100}, {100, 100, 100}, {1, 100}, {100, maxEcho + 1}} {
		if _, _, ok := parseEchoAsk(echoReq(5, bad), 2); ok {
			t.Errorf("parseEchoAsk accepted sizes %v for 2 seats", bad)
		}
	}
	if seq, sizes, ok := parseEchoAsk(echoReq(5, []int{100, 200}), 2); !ok || string(seq) != "5" || sizes[0] != 100 || sizes[1] != 200 {
		t.Errorf("parseEchoAsk = %q %v %v", seq, sizes[:2], ok)
	}
}

func echoReq(seq int, sizes []int) []byte {
	b := strconv.AppendInt(nil, int64(seq), 10)
	for _, n := range sizes {
		b = strconv.AppendInt(append(b, ' '), int64(n), 10)
	}
	return b
}

// TestEchoReusesMemory: a move through the echo allocates far less than
// its messages, on either side: the load shares the machine with the
// servers it measures, and its collector's work counts against them.
func TestEchoReusesMemory(t *testing.T) {
	const size, moves = 64 << 10, 50
	ctx := context.Background()
	conns := dialTable(t, 4)
	sizes := []int{size, size, size, size}
	move := func(seq int) {
		if err := conns[seq%4].ask(ctx, seq, sizes); err != nil {
			t.Fatal(err)
		}
		for _, c := range conns {
			if _, err := c.next(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	move(0) // the buffers grow once
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range moves {
		move(i + 1)
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / moves; per > size/4 {
		t.Errorf("a move fanned out to 4 seats of %d bytes allocated %d bytes", size, per)
	}
}
