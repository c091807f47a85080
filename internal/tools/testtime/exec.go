package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// module is the import path of the repository's module.
const module = "github.com/razziagame/razzia"

// execMain runs a test binary as go test -exec does, and appends what it
// used to the log: a JSON line per binary. It exits as the binary did.
func execMain(args []string) int {
	fs := flag.NewFlagSet("testtime exec", flag.ExitOnError)
	log := fs.String("log", "", "the file to append a line to for each binary")
	fs.Parse(args)
	argv := fs.Args()
	if *log == "" || len(argv) == 0 {
		fmt.Fprintln(os.Stderr, "usage: testtime exec -log FILE -- test.binary [args]")
		return 2
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	adoptOrphans()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testtime exec:", err)
		return 1
	}
	// go test stops a binary that overruns with a signal: pass it on.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGQUIT)
	go func() {
		for s := range sigs {
			cmd.Process.Signal(s)
		}
	}()
	err := cmd.Wait()
	signal.Stop(sigs)
	wall := time.Since(start)
	reapOrphans(time.Second)
	u := usage{Package: packagePath(), Wall: wall.Seconds(), Load: loadAverage()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		// Rusage counts the binary and the children it waited for.
		u.User = time.Duration(ru.Utime.Nano()).Seconds()
		u.Sys = time.Duration(ru.Stime.Nano()).Seconds()
		u.MaxRSS = ru.Maxrss
	}
	if user, sys, ok := childrenCPU(); ok {
		// And the orphans reaped here: Chromium's renderers, which the
		// browser does not wait for.
		u.User, u.Sys = user.Seconds(), sys.Seconds()
	}
	if werr := appendLine(*log, u); werr != nil {
		fmt.Fprintln(os.Stderr, "testtime exec:", werr)
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return ee.ExitCode()
	default:
		fmt.Fprintln(os.Stderr, "testtime exec:", err)
		return 1
	}
}

// appendLine appends u to the log in one write, which several binaries
// running at once may do.
func appendLine(name string, u usage) error {
	b, err := json.Marshal(u)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// packagePath returns the import path of the package whose test binary
// runs here: go test runs it in the package's directory.
func packagePath() string {
	dir, err := os.Getwd()
	if err != nil {
		return "unknown"
	}
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			mod := module
			for _, line := range strings.Split(string(b), "\n") {
				if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
					mod = strings.TrimSpace(m)
					break
				}
			}
			rel, err := filepath.Rel(d, dir)
			if err != nil || rel == "." {
				return mod
			}
			return mod + "/" + filepath.ToSlash(rel)
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}
