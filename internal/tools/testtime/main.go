// Command testtime tells where the time of a test run goes. It reads the
// event stream of go test -json and prints the slowest packages and
// tests, with the CPU each test binary used when the run recorded it:
//
//	go test -json ./... > run.json
//	go run ./internal/tools/testtime run.json
//
// CPU is recorded by running the test binaries through it:
//
//	go build -o /tmp/testtime ./internal/tools/testtime
//	go test -json -exec '/tmp/testtime exec -log /tmp/cpu.jsonl --' ./... > run.json
//	/tmp/testtime -cpu /tmp/cpu.jsonl run.json
//
// The CPU of a binary counts the processes it started and their
// descendants (razzia serve, Chromium and its renderers, which testtime
// reaps when the browser leaves them), not daemons that outlive it such
// as a PostgreSQL cluster.
// On a busy machine elapsed times grow with the load; CPU-seconds and
// proportions are what compare between runs.
//
// As a filter (-tee FILE, reading standard input) it writes the stream to
// FILE and prints what go test prints without -json: a line per package,
// and the output of the tests that failed or were still running when
// their package failed; the summary follows at the end.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "exec" {
		os.Exit(execMain(os.Args[2:]))
	}
	var (
		top  = flag.Int("n", 15, "how many packages and tests to list")
		cpu  = flag.String("cpu", "", "the CPU log that testtime exec wrote")
		tee  = flag.String("tee", "", "read the event stream from standard input, write it to this file and print go test's usual output")
		subs = flag.Bool("subtests", false, "list subtests beside top-level tests")
	)
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: testtime [flags] [run.json ...]\n       testtime exec -log FILE -- test.binary [args]")
		flag.PrintDefaults()
	}
	flag.Parse()
	r := newRun()
	if *tee != "" {
		f, err := os.Create(*tee)
		if err != nil {
			fatal(err)
		}
		err = r.read(io.TeeReader(os.Stdin, f), os.Stdout)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			fatal(err)
		}
	}
	for _, name := range flag.Args() {
		f, err := os.Open(name)
		if err != nil {
			fatal(err)
		}
		err = r.read(f, nil)
		f.Close()
		if err != nil {
			fatal(fmt.Errorf("%s: %w", name, err))
		}
	}
	if *tee == "" && flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *cpu != "" {
		if err := r.readCPU(*cpu); err != nil {
			fatal(err)
		}
	}
	r.summary(os.Stdout, *top, *subs)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "testtime:", err)
	os.Exit(1)
}

// An event is one line of go test -json (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output and build-fail
	Test       string
	Elapsed    float64
	Output     string
}

// A pkg is what the run says of one package.
type pkg struct {
	path    string
	action  string // pass, fail, skip, or "" while it runs
	elapsed float64
	cpu     *usage
	tests   map[string]*test
	order   []string // tests in the order they started
}

type test struct {
	name    string
	action  string
	elapsed float64
	output  []string
}

type run struct {
	pkgs  map[string]*pkg
	order []string
}

func newRun() *run { return &run{pkgs: map[string]*pkg{}} }

func (r *run) pkg(path string) *pkg {
	p := r.pkgs[path]
	if p == nil {
		p = &pkg{path: path, tests: map[string]*test{}}
		r.pkgs[path] = p
		r.order = append(r.order, path)
	}
	return p
}

// read reads an event stream. With out set, it prints what go test
// prints without -json as the events come.
func (r *run) read(in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			if out != nil {
				fmt.Fprintf(out, "%s\n", line) // not an event: go's own message
			}
			continue
		}
		r.event(e, out)
	}
	return sc.Err()
}

func (r *run) event(e event, out io.Writer) {
	switch e.Action {
	case "build-output":
		if out != nil {
			io.WriteString(out, e.Output)
		}
		return
	case "build-fail", "start":
		return
	}
	if e.Package == "" {
		return
	}
	p := r.pkg(e.Package)
	if e.Test == "" {
		switch e.Action {
		case "output":
			if out != nil && e.Output != "PASS\n" {
				io.WriteString(out, e.Output)
			}
		case "pass", "fail", "skip":
			p.action, p.elapsed = e.Action, e.Elapsed
			if e.Action == "fail" && out != nil {
				for _, name := range p.order {
					if t := p.tests[name]; len(t.output) > 0 {
						fmt.Fprintf(out, "--- %s was still running when %s ended:\n%s", name, p.path, strings.Join(t.output, ""))
					}
				}
			}
		}
		return
	}
	t := p.tests[e.Test]
	if t == nil {
		t = &test{name: e.Test}
		p.tests[e.Test] = t
		p.order = append(p.order, e.Test)
	}
	// Output is kept with the top-level test, subtests' in the order it
	// came, until that test ends: printed if it failed, dropped if not.
	name, _, sub := strings.Cut(e.Test, "/")
	top := p.tests[name]
	if top == nil {
		top = &test{name: name}
		p.tests[name] = top
		p.order = append(p.order, name)
	}
	switch e.Action {
	case "output":
		top.output = append(top.output, e.Output)
	case "pass", "fail", "skip":
		t.action, t.elapsed = e.Action, e.Elapsed
		if !sub {
			if e.Action == "fail" && out != nil {
				io.WriteString(out, strings.Join(t.output, ""))
			}
			t.output = nil
		}
	}
}
