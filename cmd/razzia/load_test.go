package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
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

// TestMeasureScript: deploy/measure is valid bash and names only flags
// that razzia serve and razzia load have (PostgreSQL's own commands
// aside).
func TestMeasureScript(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	if out, err := exec.Command(bash, "-n", filepath.Join("..", "..", "deploy", "measure")).CombinedOutput(); err != nil {
		t.Fatalf("bash -n deploy/measure: %v: %s", err, out)
	}
	flags := serveFlagNames(t)
	help, _, _ := runCmd(t, nil, "load", "--help")
	for _, f := range helpFlags(help) {
		flags[f] = true
	}
	found := 0
	for _, line := range strings.Split(deployFile(t, "measure"), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") || strings.Contains(line, "PG_BIN") {
			continue
		}
		for _, m := range flagRE.FindAllStringSubmatch(line, -1) {
			found++
			if !flags[m[1]] {
				t.Errorf("--%s is not a flag of razzia serve or load: %q", m[1], line)
			}
		}
	}
	if found < 10 {
		t.Errorf("deploy/measure names %d flags", found)
	}
}

// TestLoadSummary puts JSON reports in one table.
func TestLoadSummary(t *testing.T) {
	dir := t.TempDir()
	rep := loadgen.Report{Tables: 500, Moves: loadgen.Moves{PerSecond: 498}, States: loadgen.States{Mean: 280},
		Latency: map[string]*loadgen.Summary{"same_node": {P50: 1.7, P99: 10, Max: 30, EchoP99: 9.8}},
		CPU:     []loadgen.CPU{{Name: "server", PerMove: 100}, {Name: "server", PerMove: 50}, {Name: "load", PerMove: 70}},
		Echo:    &loadgen.EchoReport{Latency: &loadgen.Summary{P50: 0.33, P99: 1.02}, CPU: []loadgen.CPU{{Name: "echo", PerMove: 20}}}}
	data, _ := json.Marshal(rep)
	file := filepath.Join(dir, "one-500-1.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runCmd(t, nil, "load", "--summary", file)
	want := "| one-500-1 | 500 | 498 | 1.70ms | 10.0ms | 30.0ms |  | 0.33ms | 1.02ms | 9.8× | 150 µs |  | 70 µs | 20 µs | 280 |"
	if status != 0 || !strings.Contains(out, want) {
		t.Errorf("status %d, %s\n%s\nwant the row %s", status, errOut, out, want)
	}
	if _, errOut, status := runCmd(t, nil, "load", "--summary", filepath.Join(dir, "none.json")); status != 1 || !strings.Contains(errOut, "none.json") {
		t.Errorf("a missing report: status %d, %q", status, errOut)
	}
}
