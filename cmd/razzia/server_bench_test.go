package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/razziagame/razzia"

	"github.com/razziagame/razzia/internal/loadgen"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/store/sqlite"
)

// BenchmarkServer plays moves as fast as the game allows at 100 tables of
// four clients through a whole server in the process (HTTP API, table
// Hub, store), with the memory store and with SQLite (every move on disk
// before it is broadcast), and reports the moves a second and the CPU
// time of the process a move: the server's and its clients'. It is here,
// where the stores are wired, so that loadgen's tests link no store.
func BenchmarkServer(b *testing.B) {
	for _, name := range []string{"memory", "sqlite"} {
		b.Run(name, func(b *testing.B) {
			var opts servertest.Options
			if name == "sqlite" {
				opts.Store = func(*memstore.Store) store.Store {
					s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
					if err != nil {
						b.Fatal(err)
					}
					b.Cleanup(func() { s.Close() })
					return s
				}
			}
			srv := servertest.New(b, opts)
			const tables = 100
			cfg := loadgen.Config{Servers: []string{srv.URL}, Tables: tables, Seats: 4, Moves: max(1, b.N/tables)}
			cpu0 := cpuTime(b)
			rep, err := loadgen.Run(b.Context(), cfg)
			if err != nil {
				b.Fatal(err)
			}
			cpu := cpuTime(b) - cpu0
			b.ReportMetric(rep.Moves.PerSecond, "moves/s")
			b.ReportMetric(float64(cpu.Microseconds())/float64(rep.Moves.Total), "cpu-µs/move")
			b.ReportMetric(rep.Latency["same_node"].P99, "p99-ms")
		})
	}
}

// cpuTime returns the CPU time the process has used.
func cpuTime(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// BenchmarkMove measures the server's own work for a move, with the
// memory store and with SQLite: a game of four people, each with a
// WebSocket of protocol version 2; a move is sent on the mover's socket
// and the benchmark waits until every seat read its message. The moves
// are chosen on a copy of the game made from the store (its seed), so
// the clients decode nothing: they only read bytes. It reports the
// process's CPU time (the server's and this thin client's) and its
// allocations a move, the bytes each seat received a move, the first
// state of each game included, and the context switches of its threads a
// move (voluntary, and involuntary, which a busy machine adds to);
// profile it with -cpuprofile and -memprofile. The goroutines woken a
// move are counted in its execution trace (-trace t.out):
// go tool trace -d=parsed t.out | go run ./internal/tools/wakes -per N.
func BenchmarkMove(b *testing.B) {
	for _, name := range []string{"memory", "sqlite"} {
		b.Run(name, func(b *testing.B) {
			var opts servertest.Options
			opts.API.MessageRate, opts.API.MessageBurst = 1e9, 1e9
			var st store.Store
			opts.Store = func(m *memstore.Store) store.Store {
				st = m
				if name == "sqlite" {
					s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
					if err != nil {
						b.Fatal(err)
					}
					b.Cleanup(func() { s.Close() })
					st = s
				}
				return st
			}
			srv := servertest.New(b, opts)
			benchMove(b, srv, st)
		})
	}
}

// A benchTable is a game of four people at a test server, each seat's
// socket, and a copy of the game that chooses the moves.
type benchTable struct {
	conns  [4]*websocket.Conn
	mirror *razzia.Game
	buf    []byte
	bytes  int
}

func newBenchTable(b *testing.B, srv *servertest.Server, st store.Store) *benchTable {
	ctx := servertest.Context(b)
	id := srv.Create("", "", "", "").ID
	t := &benchTable{buf: make([]byte, 64<<10)}
	for s := range t.conns {
		_, token := srv.Join(id, fmt.Sprintf("P%d", s))
		url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/games/" + id + "/ws?protocol=2"
		c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
		if err != nil {
			b.Fatal(err)
		}
		c.SetReadLimit(1 << 20)
		b.Cleanup(func() { c.CloseNow() })
		t.conns[s] = c
	}
	g, err := st.Game(ctx, id)
	if err != nil {
		b.Fatal(err)
	}
	players := make([]string, len(g.Seats))
	for i, s := range g.Seats {
		players[i] = s.Name
	}
	if t.mirror, err = razzia.NewGame(razzia.Setup{Players: players, Cheques: g.Cheques, Seed: g.Seed}); err != nil {
		b.Fatal(err)
	}
	t.readAll(b) // the first states
	return t
}

// readAll reads one message on every socket.
func (t *benchTable) readAll(b *testing.B) {
	ctx := context.Background()
	for _, c := range t.conns {
		_, r, err := c.Reader(ctx)
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.ReadFull(r, t.buf)
		if err != io.ErrUnexpectedEOF {
			b.Fatalf("read %d bytes: %v", n, err)
		}
		t.bytes += n
	}
}

func benchMove(b *testing.B, srv *servertest.Server, st store.Store) {
	t := newBenchTable(b, srv, st)
	ctx := context.Background()
	var msg []byte
	moves, bytes := 0, 0
	b.ReportAllocs()
	cpu0 := cpuTime(b)
	vcsw0, ivcsw0 := ctxSwitches(b)
	for b.Loop() {
		if t.mirror.Over() {
			b.StopTimer()
			bytes += t.bytes
			t = newBenchTable(b, srv, st) // its first states count, as they do over a game
			b.StartTimer()
		}
		legal := t.mirror.LegalMoves()
		m := legal[moves%len(legal)]
		seq := t.mirror.Len()
		msg = append(msg[:0], `{"type":"move","move":"`...)
		msg = append(append(msg, m.String()...), `","seq":`...)
		msg = append(strconv.AppendInt(msg, int64(seq), 10), '}')
		if err := t.conns[t.mirror.ToMove()].Write(ctx, websocket.MessageText, msg); err != nil {
			b.Fatal(err)
		}
		// The card a draw reveals is the seed's: the server's and the
		// copy's are the same.
		if err := t.mirror.Play(m); err != nil {
			b.Fatal(err)
		}
		t.readAll(b)
		moves++
	}
	cpu := cpuTime(b) - cpu0
	vcsw, ivcsw := ctxSwitches(b)
	b.ReportMetric((vcsw-vcsw0)/float64(moves), "vcsw/move")
	b.ReportMetric((ivcsw-ivcsw0)/float64(moves), "ivcsw/move")
	bytes += t.bytes
	b.ReportMetric(float64(cpu.Microseconds())/float64(moves), "cpu-µs/move")
	b.ReportMetric(float64(bytes)/float64(4*moves), "bytes/seat/move")
}
