package main

import (
	"bytes"
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/razziagame/razzia/internal/loadgen"
	"github.com/razziagame/razzia/internal/servertest"
)

func TestLoadUsage(t *testing.T) {
	srv := "--server=http://localhost:8080"
	checkUsage(t, []usageCase{
		{"help", []string{"load", "--help"}, nil, 0, "usage: razzia load --server URL"},
		{"help names echo", []string{"help", "load"}, nil, 0, "--echo"},
		{"no server", []string{"load"}, nil, 2, "server: name at least one server"},
		{"bad server", []string{"load", "--server", "localhost:8080"}, nil, 2, "want an http:// or https:// URL"},
		{"bad rate", []string{"load", srv, "--rate", "fast"}, nil, 2, `rate "fast": want moves a second`},
		{"bad seats", []string{"load", srv, "--seats", "7"}, nil, 2, "seats 7: a table has 2 to 5 seats"},
		{"bad tables", []string{"load", srv, "--tables", "-1"}, nil, 2, "tables -1"},
		{"bad level", []string{"load", srv, "--bots", "genius"}, nil, 2, `bots "genius": not a bot level`},
		{"bot seats without bots", []string{"load", srv, "--bot-seats", "2"}, nil, 2, "bot-seats 2"},
		{"no end", []string{"load", srv, "--duration", "0"}, nil, 2, "duration: give how long"},
		{"echo alone with a server", []string{"load", srv, "--echo-only", "--echo-size", "300"}, nil, 2, "echo-only: runs no servers"},
		{"echo alone, no size", []string{"load", "--echo-only"}, nil, 2, "echo-size 0: the echo alone needs the bytes"},
		{"bad pid", []string{"load", srv, "--pid", "postgres"}, nil, 2, `pid "postgres": want NAME=PID`},
		{"bad echo url", []string{"load", srv, "--echo-url", "http://x"}, nil, 2, `echo-url "http://x": want a ws:// URL`},
		{"bad warmup", []string{"load", srv, "--warmup", "-1s"}, nil, 2, "warmup -1s"},
		{"unknown flag", []string{"load", srv, "--nodes", "3"}, nil, 2, "unknown flag --nodes"},
		{"argument", []string{"load", srv, "extra"}, nil, 2, `unexpected argument "extra"`},
		{"unreachable", []string{"load", "--server", "http://127.0.0.1:1", "--moves", "1"}, nil, 1, "razzia load: nothing answers at 127.0.0.1:1"},
	})
}

// TestLoadJSON runs the command against a test server, then its echo
// alone, a process of its own: its JSON report is loadgen's Report.
func TestLoadJSON(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	t.Setenv(asRazzia, "1") // the echo's process is this binary, as razzia
	var stdout, stderr bytes.Buffer
	status := run([]string{"load", "--server", srv.URL, "--tables", "2", "--seats", "3", "--rate", "max",
		"--warmup", "0", "--duration", "0", "--moves", "6", "--echo", "--json"}, strings.NewReader(""), &stdout, &stderr)
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr.String())
	}
	var rep loadgen.Report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	if rep.Moves.Total != 12 || rep.Latency["same_node"] == nil || rep.Clients != 6 {
		t.Errorf("report %+v", rep)
	}
	// The echo ran apart, and its CPU was measured.
	e := rep.Echo
	if e == nil || e.Moves != 12 || e.Latency == nil || e.Latency.Count != 36 {
		t.Fatalf("echo %+v", e)
	}
	if runtime.GOOS == "linux" && (len(e.CPU) != 2 || e.CPU[1].Name != "echo" || e.CPU[1].Missing || e.CPU[1].PIDs[0] == os.Getpid()) {
		t.Errorf("echo's CPU %+v, want the load's and the echo's process apart", e.CPU)
	}
	if !strings.Contains(stderr.String(), "setting up 2 tables of 3 seats") {
		t.Errorf("stderr %q lacks the progress", stderr.String())
	}
}
