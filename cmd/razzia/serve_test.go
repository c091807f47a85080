package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/table"
)

func TestServeUsage(t *testing.T) {
	checkUsage(t, []usageCase{
		{"help", []string{"serve", "--help"}, nil, 0, "RAZZIA_ADDR"},
		{"help command", []string{"help", "serve"}, nil, 0, "--bot-delay"},
		{"usage lists serve", []string{"help"}, nil, 0, "serve"},
		{"unknown flag", []string{"serve", "--port", "80"}, nil, 2, "-port"},
		{"argument", []string{"serve", "extra"}, nil, 2, `unexpected argument "extra"`},
		{"negative delay", []string{"serve", "--bot-delay", "-1s"}, nil, 2, "--bot-delay"},
		{"bad delay", []string{"serve", "--bot-delay", "soon"}, nil, 2, "bot-delay"},
		{"bad log format", []string{"serve", "--log-format", "xml"}, nil, 2, `"xml"`},
		{"bad env delay", []string{"serve"}, map[string]string{"RAZZIA_BOT_DELAY": "soon"}, 2, "RAZZIA_BOT_DELAY=soon"},
		{"bad env log format", []string{"serve"}, map[string]string{"RAZZIA_LOG_FORMAT": "xml"}, 2, `"xml"`},
		{"empty db", []string{"serve", "--db", ""}, nil, 2, "--db"},
		{"help names the limits", []string{"serve", "--help"}, nil, 0, "--trusted-proxies"},
		{"bad proxy", []string{"serve", "--trusted-proxies", "10.0.0.0/8,nonsense"}, nil, 2, `"nonsense"`},
		{"zero rate", []string{"serve", "--create-rate", "0"}, nil, 2, "--create-rate 0"},
		{"negative cap", []string{"serve", "--max-open-tables", "-1"}, nil, 2, "--max-open-tables -1"},
		{"zero register rate", []string{"serve", "--register-rate", "0"}, nil, 2, "--register-rate 0"},
		{"zero passkey burst", []string{"serve", "--passkey-burst", "0"}, nil, 2, "--passkey-burst 0"},
		{"zero ttl", []string{"serve", "--open-ttl", "0s"}, nil, 2, "--open-ttl"},
		{"bad env limit", []string{"serve"}, map[string]string{"RAZZIA_MAX_SPECTATORS": "many"}, 2, "RAZZIA_MAX_SPECTATORS=many"},
		{"bad env proxy", []string{"serve"}, map[string]string{"RAZZIA_TRUSTED_PROXIES": "::x"}, 2, `"::x"`},
	})
}

// The limits come from their flags, or the environment, or the defaults
// of httpapi and table.
func TestServeLimitFlags(t *testing.T) {
	t.Setenv("RAZZIA_TRUSTED_PROXIES", "127.0.0.1, 10.0.0.0/8")
	t.Setenv("RAZZIA_OPEN_TTL", "2h")
	t.Setenv("RAZZIA_CREATE_RATE", "12")
	t.Setenv("RAZZIA_PASSKEY_RATE", "30")
	cfg, _, done := parseServeFlags([]string{"--max-spectators", "7", "--open-ttl", "3h", "--register-rate", "6"}, io.Discard, io.Discard)
	if done {
		t.Fatal("the flags were refused")
	}
	if len(cfg.api.TrustedProxies) != 2 || cfg.api.TrustedProxies[1].String() != "10.0.0.0/8" {
		t.Errorf("trusted proxies %v", cfg.api.TrustedProxies)
	}
	if cfg.limits.MaxSpectators != 7 || cfg.limits.OpenTTL != 3*time.Hour || cfg.api.CreateRate != 0.2 {
		t.Errorf("limits %+v, create rate %g a second", cfg.limits, cfg.api.CreateRate)
	}
	if cfg.api.RegisterRate != 0.1 || cfg.api.CeremonyRate != 0.5 || cfg.api.RegisterBurst != httpapi.DefaultOptions().RegisterBurst {
		t.Errorf("account limits: register %g a second (burst %d), passkeys %g a second", cfg.api.RegisterRate, cfg.api.RegisterBurst, cfg.api.CeremonyRate)
	}
	if cfg.limits.MaxOpen != table.DefaultLimits().MaxOpen || cfg.api.MaxConns != httpapi.DefaultOptions().MaxConns {
		t.Errorf("defaults not kept: %+v %+v", cfg.limits, cfg.api)
	}
}

func TestServeFlagsFromEnvironment(t *testing.T) {
	t.Setenv("RAZZIA_ADDR", "0.0.0.0:9999")
	t.Setenv("RAZZIA_DB", "/tmp/x.db")
	t.Setenv("RAZZIA_BOT_DELAY", "5ms")
	t.Setenv("RAZZIA_ORIGINS", "a.example, https://b.example")
	t.Setenv("RAZZIA_LOG_FORMAT", "text")
	cfg, _, done := parseServeFlags(nil, io.Discard, io.Discard)
	if done || cfg.addr != "0.0.0.0:9999" || cfg.db != "/tmp/x.db" || cfg.botDelay != 5*time.Millisecond ||
		strings.Join(cfg.origins, "|") != "a.example|https://b.example" || cfg.logFormat != "text" {
		t.Errorf("from the environment: %+v", cfg)
	}
	// A flag wins over the environment.
	cfg, _, done = parseServeFlags([]string{"--addr", "127.0.0.1:1", "--bot-delay", "0", "--log-format", "json"}, io.Discard, io.Discard)
	if done || cfg.addr != "127.0.0.1:1" || cfg.botDelay != 0 || cfg.logFormat != "json" {
		t.Errorf("flags over the environment: %+v", cfg)
	}
}

func TestDisplayAddr(t *testing.T) {
	bound := &fakeAddr{"127.0.0.1:41234"}
	for asked, want := range map[string]string{
		"localhost:8080": "localhost:41234",
		":8080":          "localhost:41234",
		"0.0.0.0:0":      "localhost:41234",
		"[::]:0":         "localhost:41234",
		"127.0.0.1:0":    "127.0.0.1:41234",
		"club.example:0": "club.example:41234",
	} {
		if got := displayAddr(asked, bound); got != want {
			t.Errorf("%s: got %s, want %s", asked, got, want)
		}
	}
}

type fakeAddr struct{ s string }

func (a *fakeAddr) Network() string { return "tcp" }
func (a *fakeAddr) String() string  { return a.s }

// TestServeInProcess starts the server, asks it something, and stops it
// the way a signal does.
func TestServeInProcess(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	db := filepath.Join(t.TempDir(), "razzia.db")
	url, stop := serveInProcess(t, ctx, "--db", db, "--bot-delay", "0")
	resp, err := http.Get(url + "healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()
	resp, err = http.Get(url)
	if err != nil || resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("the page: %v %v", resp, err)
	}
	resp.Body.Close()
	if s := stop(); s != 0 {
		t.Errorf("exit status %d", s)
	}
}

// serveInProcess runs razzia serve on a free port of the loopback with the
// arguments, in this process, and returns its URL (ending in a slash) and
// a function that stops it as a signal does and returns its exit status;
// it is stopped when t ends. It is for the tests of what serve wires
// together; the tests of a process's end (a signal, a crash) start one.
func serveInProcess(t *testing.T, ctx context.Context, args ...string) (url string, stop func() int) {
	t.Helper()
	srvCtx, cancel := context.WithCancel(ctx)
	out, w := io.Pipe()
	status := make(chan int, 1)
	go func() {
		status <- serveContext(srvCtx, append([]string{"--addr", "127.0.0.1:0"}, args...), w, io.Discard)
		w.Close()
	}()
	stop = sync.OnceValue(func() int {
		cancel()
		select {
		case s := <-status:
			return s
		case <-time.After(30 * time.Second): // not ctx: it may be done
			t.Error("the server did not stop within 30 s")
			return -1
		}
	})
	t.Cleanup(func() { stop() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "Razzia is running: open http://127.0.0.1:") {
		t.Fatalf("first line %q, %v", line, err)
	}
	go io.Copy(io.Discard, out)
	return strings.TrimSpace(strings.TrimPrefix(line, "Razzia is running: open ")), stop
}

// TestServeAddressTaken: a server that cannot listen stops before it
// creates its database, so a mistyped port leaves nothing behind.
func TestServeAddressTaken(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	status := serveContext(t.Context(), []string{"--addr", taken.Addr().String(), "--db", filepath.Join(dir, "razzia.db")}, &stdout, &stderr)
	if status != 1 || stdout.Len() != 0 {
		t.Errorf("exit status %d, stdout %q; want 1 and nothing", status, stdout.String())
	}
	if !strings.Contains(stderr.String(), taken.Addr().String()) {
		t.Errorf("stderr %q does not name the address", stderr.String())
	}
	if files, err := os.ReadDir(dir); err != nil || len(files) != 0 {
		t.Errorf("the directory holds %v (%v); want nothing", files, err)
	}
}

// TestListenError: why serve cannot listen is said in words, by the
// --addr given: taken, a port that needs rights, an address this machine
// does not have.
func TestListenError(t *testing.T) {
	for _, tc := range []struct {
		errno syscall.Errno
		want  string
	}{
		{syscall.EADDRINUSE, "--addr :80 is in use: another program (another razzia serve?) listens there"},
		{syscall.EACCES, "--addr :80: permission denied (ports below 1024 need rights a user usually lacks)"},
		{syscall.EADDRNOTAVAIL, "--addr :80: no network interface of this machine has that address"},
	} {
		err := &net.OpError{Op: "listen", Net: "tcp", Err: os.NewSyscallError("bind", tc.errno)}
		if got := listenError(":80", err).Error(); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%v: %q, want it to start %q", tc.errno, got, tc.want)
		}
	}
}

// TestServeGCPercent: the server collects at its own target unless GOGC
// says otherwise.
func TestServeGCPercent(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	for _, c := range []struct {
		gogc string
		want int
	}{{"", serveGCPercent}, {"100", 100}, {"off", 100}} {
		debug.SetGCPercent(100)
		setGCPercent(func(name string) string {
			if name == "GOGC" {
				return c.gogc
			}
			return ""
		})
		if got := debug.SetGCPercent(100); got != c.want {
			t.Errorf("GOGC=%q: the GC percent is %d, want %d", c.gogc, got, c.want)
		}
	}
}
