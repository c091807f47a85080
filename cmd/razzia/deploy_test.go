package main

import (
	"bufio"
	"context"
	"debug/elf"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// deployFile reads a file of the repository's deploy directory.
func deployFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "deploy", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// serveFlagNames returns the flags razzia serve has, from its help.
func serveFlagNames(t *testing.T) map[string]bool {
	t.Helper()
	help, _, _ := runCmd(t, nil, "serve", "--help")
	names := map[string]bool{}
	for _, f := range helpFlags(help) {
		names[f] = true
	}
	if len(names) < 10 {
		t.Fatalf("serve --help lists %d flags", len(names))
	}
	return names
}

var (
	flagRE = regexp.MustCompile(`(?:^|[\s"\[,])--([a-z][a-z0-9-]*)`)
	envRE  = regexp.MustCompile(`\bRAZZIA_[A-Z0-9_]+\b`)
)

// TestDeployFilesNameServerSettings: the systemd unit and the compose file
// name only flags and RAZZIA_ variables that razzia serve has, the
// Dockerfile only such variables, and the unit's settings are valid.
func TestDeployFilesNameServerSettings(t *testing.T) {
	flags := serveFlagNames(t)
	vars := map[string]bool{}
	for f := range flags {
		vars[envName(f)] = true
	}
	for _, name := range []string{"razzia.service", "compose.yaml", "Dockerfile"} {
		t.Run(name, func(t *testing.T) {
			text := deployFile(t, name)
			// The Dockerfile's own flags are docker's; its variables
			// are the server's.
			checkFlags := name != "Dockerfile"
			found := 0
			for _, line := range strings.Split(text, "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "#") {
					continue // comments may show other commands
				}
				for _, m := range flagRE.FindAllStringSubmatch(line, -1) {
					if !checkFlags {
						break
					}
					found++
					if !flags[m[1]] {
						t.Errorf("--%s is not a flag of razzia serve: %q", m[1], line)
					}
				}
				for _, v := range envRE.FindAllString(line, -1) {
					found++
					if !vars[v] {
						t.Errorf("%s is not a variable razzia serve reads: %q", v, line)
					}
				}
			}
			if found == 0 {
				t.Error("names no setting at all")
			}
		})
	}

	// The unit's environment and command line, as the server parses them.
	unit := deployFile(t, "razzia.service")
	var args []string
	for line := range strings.SplitSeq(unit, "\n") {
		if kv, ok := strings.CutPrefix(line, "Environment="); ok {
			k, v, _ := strings.Cut(kv, "=")
			t.Setenv(k, v)
		}
		if cmd, ok := strings.CutPrefix(line, "ExecStart="); ok {
			words := strings.Fields(cmd)
			if len(words) < 2 || words[1] != "serve" {
				t.Fatalf("ExecStart %q does not run razzia serve", cmd)
			}
			args = words[2:]
		}
	}
	var stderr strings.Builder
	if _, status, done := parseServeFlags(args, io.Discard, &stderr); done {
		t.Errorf("the unit's settings are refused (status %d): %s", status, stderr.String())
	}
}

// TestStaticBuild builds razzia as the Dockerfile does, without cgo, checks
// that the binary is static, and that it serves on SQLite: the driver must
// work without cgo.
func TestStaticBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole binary")
	}
	if raceEnabled {
		t.Skip("SKIPPED under -race: the build and its server are other processes, the same as without -race, which the detector does not watch")
	}
	if runtime.GOOS != "linux" {
		t.Skip("checks an ELF binary")
	}
	// The build line of the recipe: RUN CGO_ENABLED=0 go build FLAGS -o OUT ./cmd/razzia
	var env, flags []string
	for line := range strings.SplitSeq(deployFile(t, "Dockerfile"), "\n") {
		rest, ok := strings.CutPrefix(line, "RUN ")
		if !ok || !strings.Contains(rest, "go build") {
			continue
		}
		words := shellWords(rest)
		for i := 0; i < len(words); i++ {
			w := strings.Trim(words[i], `"'`)
			switch {
			case strings.Contains(w, "=") && i < 2:
				env = append(env, w)
			case w == "go" || w == "build" || strings.HasPrefix(w, "./"):
			case w == "-o":
				i++
			default:
				flags = append(flags, strings.ReplaceAll(w, `"`, ""))
			}
		}
	}
	if len(env) == 0 || env[0] != "CGO_ENABLED=0" {
		t.Fatalf("the Dockerfile does not build with CGO_ENABLED=0: env %q", env)
	}
	bin := filepath.Join(t.TempDir(), "razzia")
	build := exec.Command("go", append(append([]string{"build"}, flags...), "-o", bin, ".")...)
	build.Env = append(os.Environ(), env...)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build %q with %q: %v\n%s", flags, env, err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary has a dynamic loader: it is not static")
		}
	}
	f.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	cmd := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "razzia.db"), "--log-format", "json")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	_, url, ok := strings.Cut(strings.TrimSpace(line), "open ")
	if err != nil || !ok {
		t.Fatalf("the static server did not start: %q, %v", line, err)
	}
	resp, err := http.Get(url + "readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("/readyz of the static server on SQLite: %s", resp.Status)
	}
}
