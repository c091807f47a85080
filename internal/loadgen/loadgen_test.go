package loadgen_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/loadgen"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// run runs the load against the servers and fails the test on an error.
func run(t *testing.T, cfg loadgen.Config) *loadgen.Report {
	t.Helper()
	rep, err := loadgen.Run(servertest.Context(t), cfg)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return rep
}

// checkSummary checks that a latency summary is ordered and plausible:
// positive, below a minute, with count samples (any, when count < 0).
func checkSummary(t *testing.T, rep *loadgen.Report, key string, count int) *loadgen.Summary {
	t.Helper()
	s := rep.Latency[key]
	switch {
	case s == nil:
		t.Fatalf("no %s latency in %+v", key, rep.Latency)
	case count >= 0 && s.Count != count:
		t.Errorf("%s: %d samples, want %d", key, s.Count, count)
	case s.Count == 0 || !(0 < s.Min && s.Min <= s.P50 && s.P50 <= s.P90 && s.P90 <= s.P99 && s.P99 <= s.Max && s.Max < 60e3):
		t.Errorf("%s: implausible %+v", key, *s)
	}
	return s
}

func TestRunReport(t *testing.T) {
	t.Parallel() // a server of its own, mostly waiting on the network
	srv := servertest.New(t, servertest.Options{})
	const tables, moves = 3, 15
	rep := run(t, loadgen.Config{Servers: []string{srv.URL}, Tables: tables, Seats: 4, Moves: moves, Echo: true})
	if rep.Moves.Total != tables*moves || rep.Moves.Clients != tables*moves || rep.Moves.Bots != 0 {
		t.Errorf("moves %+v, want %d by clients", rep.Moves, tables*moves)
	}
	if rep.Moves.Unconfirmed != 0 || len(rep.Errors) != 0 {
		t.Errorf("unconfirmed %d, errors %v: want none", rep.Moves.Unconfirmed, rep.Errors)
	}
	if want := (loadgen.Connections{Servers: 12, Peak: 12}); rep.Connections != want {
		t.Errorf("connections %+v, want %+v", rep.Connections, want)
	}
	if rep.Games.Started != tables || rep.Clients != 12 || rep.Bots != 0 || rep.Seconds <= 0 || rep.Moves.PerSecond <= 0 {
		t.Errorf("report %+v", rep)
	}
	// Every client of the table sees every move, all on the sender's node.
	same := checkSummary(t, rep, "same_node", tables*moves*4)
	// The echo alone: the same tables and moves, each reaching every
	// client of its table.
	e := rep.Echo
	if e == nil || e.Moves != tables*moves || e.Clients != 12 || e.Errors != 0 {
		t.Fatalf("echo %+v, want %d moves of 12 clients", e, tables*moves)
	}
	echo := e.Latency
	if echo == nil || echo.Count != tables*moves*4 || !(0 < echo.Min && echo.Min <= echo.P99 && echo.P99 <= echo.Max) {
		t.Errorf("echo latency %+v, want %d samples", echo, tables*moves*4)
	} else if same.EchoP99 != same.P99/echo.P99 {
		t.Errorf("the ratio to the echo is %g, want %g", same.EchoP99, same.P99/echo.P99)
	}
	if rep.States.Count == 0 || rep.States.Mean < 100 {
		t.Errorf("states %+v, want some, of a patch's size at least", rep.States)
	}
	// The server runs in the test's process: only the load is measured.
	checkCPU(t, rep.CPU, "load")
	checkCPU(t, e.CPU, "load")
	for _, key := range []string{"other_node", "bot_same_node", "bot_commit"} {
		if rep.Latency[key] != nil {
			t.Errorf("a %s latency with one server and no bots", key)
		}
	}

	// The report's shapes.
	var text, js bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"3 tables of 4 seats (12 clients, no bots) on 1 server, as fast as the game allows",
		"moves:         45 (", "errors:        none", "same node", "echo alone:", "echo, every client", "×",
		"CPU in the window:", "bytes each on average"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text report lacks %q:\n%s", want, text.String())
		}
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"servers", "moves", "errors", "connections", "latency", "rate", "seconds", "warmup", "cpu", "echo", "states"} {
		if _, ok := back[key]; !ok {
			t.Errorf("the JSON report lacks %q: %s", key, js.String())
		}
	}
	lat := back["latency"].(map[string]any)["same_node"].(map[string]any)
	for _, key := range []string{"count", "p50", "p90", "p99", "max", "echoP99"} {
		if _, ok := lat[key]; !ok {
			t.Errorf("the JSON latency lacks %q: %v", key, lat)
		}
	}
}

// TestRunTwoNodes runs the load on two listeners of one server, as two
// nodes of one database: the players of each table sit on both, and the
// latencies are told apart by node.
func TestRunTwoNodes(t *testing.T) {
	t.Parallel() // a server of its own, mostly waiting on the network
	srv := servertest.New(t, servertest.Options{})
	other := httptest.NewServer(srv.API)
	t.Cleanup(other.Close)
	const tables, moves = 2, 10
	rep := run(t, loadgen.Config{Servers: []string{srv.URL, other.URL}, Tables: tables, Seats: 4, Moves: moves})
	// Seat s of table t plays through node (t+s) mod 2: two clients of
	// each table on each node.
	checkSummary(t, rep, "same_node", tables*moves*2)
	checkSummary(t, rep, "other_node", tables*moves*2)
}

// slowStore takes delay for each move, as a slow disk would.
type slowStore struct {
	store.Store
	delay time.Duration
}

func (s slowStore) AppendTimedMove(ctx context.Context, id string, fence store.Fence, index int, token string, status store.Status, clock []byte) error {
	time.Sleep(s.delay)
	return s.Store.AppendTimedMove(ctx, id, fence, index, token, status, clock)
}

// TestRunLatencyPlausible checks that the latency measures the server's
// work: with a store that takes 25ms a move, no move reaches a client
// sooner, and the echo, which has no store, is faster.
func TestRunLatencyPlausible(t *testing.T) {
	t.Parallel() // a server of its own, mostly waiting on the network
	const delay = 25 * time.Millisecond
	srv := servertest.New(t, servertest.Options{Store: func(m *memstore.Store) store.Store { return slowStore{m, delay} }})
	rep := run(t, loadgen.Config{Servers: []string{srv.URL}, Tables: 2, Seats: 3, Moves: 6, Echo: true})
	same := checkSummary(t, rep, "same_node", 2*6*3)
	echo := rep.Echo.Latency
	if same.Min < ms(delay) {
		t.Errorf("a move reached a client in %.2fms, less than the store's %v a move", same.Min, delay)
	}
	if echo.P50 >= same.P50 {
		t.Errorf("the echo's p50 %.2fms is not below the server's %.2fms", echo.P50, same.P50)
	}
}

// checkCPU checks that the processes of names were measured (on Linux).
func checkCPU(t *testing.T, cpu []loadgen.CPU, names ...string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		return
	}
	for _, name := range names {
		i := slices.IndexFunc(cpu, func(c loadgen.CPU) bool { return c.Name == name })
		if i < 0 || cpu[i].Missing || cpu[i].Seconds < 0 || len(cpu[i].PIDs) != 1 {
			t.Errorf("CPU of %s: %+v", name, cpu)
		}
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// TestRunBots seats server bots beside the clients: their moves are
// measured too.
func TestRunBots(t *testing.T) {
	t.Parallel()                                   // a server of its own, mostly waiting on the network
	srv := servertest.New(t, servertest.Options{}) // bots of every level play random moves at once
	rep := run(t, loadgen.Config{Servers: []string{srv.URL}, Tables: 2, Seats: 4, Bots: "hard", BotSeats: 2, Moves: 30})
	if rep.Clients != 4 || rep.Bots != 4 || rep.BotLevel != "hard" {
		t.Errorf("clients %d, bots %d %q: want 4 and 4 hard", rep.Clients, rep.Bots, rep.BotLevel)
	}
	if rep.Moves.Bots == 0 || rep.Moves.Clients == 0 || rep.Moves.Total < 60 {
		t.Errorf("moves %+v: want at least 60, by bots and clients", rep.Moves)
	}
	checkSummary(t, rep, "same_node", -1)
	checkSummary(t, rep, "bot_same_node", -1)
	checkSummary(t, rep, "bot_commit", -1)
}

// TestRunNextGame plays past the end of a game: the table starts another.
func TestRunNextGame(t *testing.T) {
	t.Parallel() // a server of its own, mostly waiting on the network
	srv := servertest.New(t, servertest.Options{})
	rep := run(t, loadgen.Config{Servers: []string{srv.URL}, Tables: 1, Seats: 2, Moves: 400})
	if rep.Games.Finished < 1 || rep.Games.Started != rep.Games.Finished+1 || rep.Moves.Total != 400 {
		t.Errorf("games %+v, moves %+v: want 400 moves over several games", rep.Games, rep.Moves)
	}
	if len(rep.Errors) != 0 || rep.Moves.Unconfirmed != 0 {
		t.Errorf("errors %v, unconfirmed %d", rep.Errors, rep.Moves.Unconfirmed)
	}
}

// TestRunRefusals counts the moves the server refuses by code: here its
// message rate, one message per connection. A refused move is sent again
// at most client.MaxResends times, each after the seat loop's wait (not
// slept here).
func TestRunRefusals(t *testing.T) {
	t.Parallel() // a server of its own, mostly waiting on the network
	srv := servertest.New(t, servertest.Options{API: httpapi.Options{MessageRate: 1e-9, MessageBurst: 1}})
	var short atomic.Int32
	wait := func(ctx context.Context, d time.Duration) bool {
		if d < client.MinRetry {
			short.Add(1)
		}
		return ctx.Err() == nil
	}
	// The run must hold two moves and a refusal on a loaded machine (half
	// a second once held one move).
	rep := run(t, loadgen.Config{Servers: []string{srv.URL}, Tables: 1, Seats: 2, Duration: 2 * time.Second, Wait: wait})
	if rep.Errors["rate_limited"] == 0 || rep.Moves.Clients != 2 || rep.Moves.Unconfirmed != 0 {
		t.Errorf("errors %v, moves %+v: want the first move of each seat played, then refusals", rep.Errors, rep.Moves)
	}
	if most := 2 * (1 + client.MaxResends); rep.Errors["rate_limited"] > most || short.Load() != 0 {
		t.Errorf("%d refusals (want at most %d: each seat's next move and its resends), %d waits under client.MinRetry",
			rep.Errors["rate_limited"], most, short.Load())
	}
}

func TestCheck(t *testing.T) {
	ok := loadgen.Config{Servers: []string{"http://localhost:8080"}, Tables: 1, Seats: 4, Duration: time.Second}
	for _, c := range []struct {
		name   string
		change func(*loadgen.Config)
		want   string // in the error; empty: valid
	}{
		{"valid", func(*loadgen.Config) {}, ""},
		{"no server", func(c *loadgen.Config) { c.Servers = nil }, "server: name at least one"},
		{"bad server", func(c *loadgen.Config) { c.Servers = []string{"localhost:8080"} }, "want an http:// or https:// URL"},
		{"no tables", func(c *loadgen.Config) { c.Tables = 0 }, "tables 0"},
		{"one seat", func(c *loadgen.Config) { c.Seats = 1 }, "seats 1: a table has 2 to 5 seats"},
		{"six seats", func(c *loadgen.Config) { c.Seats = 6 }, "seats 6"},
		{"negative rate", func(c *loadgen.Config) { c.Rate = -1 }, "rate -1"},
		{"no end", func(c *loadgen.Config) { c.Duration = 0 }, "duration: give how long"},
		{"moves alone", func(c *loadgen.Config) { c.Duration, c.Moves = 0, 5 }, ""},
		{"unknown level", func(c *loadgen.Config) { c.Bots, c.BotSeats = "genius", 1 }, `bots "genius": not a bot level`},
		{"bot seats without bots", func(c *loadgen.Config) { c.BotSeats = 1 }, "bot-seats 1"},
		{"only bots", func(c *loadgen.Config) { c.Bots, c.BotSeats = "easy", 4 }, "at least one bot and one client"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := ok
			c.change(&cfg)
			err := cfg.Check()
			switch {
			case c.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, loadgen.ErrConfig)):
				t.Errorf("error %v, want ErrConfig with %q", err, c.want)
			}
		})
	}
}

func TestParseRate(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		bad  bool
	}{
		{"1/s", 1, false}, {"30/m", 0.5, false}, {"0.5", 0.5, false}, {"3600/h", 1, false},
		{"max", 0, false}, {"0", 0, false}, {" 2/s ", 2, false},
		{"", 0, true}, {"fast", 0, true}, {"1/d", 0, true}, {"-1/s", 0, true}, {"max/s", 0, true}, {"1e9", 0, true},
	} {
		got, err := loadgen.ParseRate(c.in)
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("ParseRate(%q) = %g, %v; want %g, error %v", c.in, got, err, c.want, c.bad)
		}
	}
}

func TestRunUnreachable(t *testing.T) {
	srv := httptest.NewServer(nil)
	url := srv.URL
	srv.Close() // nothing listens there now
	_, err := loadgen.Run(servertest.Context(t), loadgen.Config{Servers: []string{url}, Tables: 1, Seats: 2, Moves: 1})
	if err == nil || !strings.Contains(err.Error(), "server "+url+" cannot be reached") {
		t.Errorf("error %v, want the server named as unreachable", err)
	}
}

func ExampleParseRate() {
	for _, s := range []string{"1/s", "30/m", "max"} {
		r, _ := loadgen.ParseRate(s)
		fmt.Printf("%s: %g moves a second\n", s, r)
	}
	// Output:
	// 1/s: 1 moves a second
	// 30/m: 0.5 moves a second
	// max: 0 moves a second
}
