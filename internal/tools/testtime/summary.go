package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
)

// usage is what testtime exec records of one test binary.
type usage struct {
	Package string  `json:"package"`
	Wall    float64 `json:"wall"`
	User    float64 `json:"user"`
	Sys     float64 `json:"sys"`
	MaxRSS  int64   `json:"maxRSSKiB"`
	Load    string  `json:"load"` // /proc/loadavg's first three figures at the end
}

func (u *usage) cpu() float64 { return u.User + u.Sys }

// readCPU adds the CPU log of testtime exec to the packages.
func (r *run) readCPU(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var u usage
		if err := json.Unmarshal(sc.Bytes(), &u); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if p := r.pkgs[u.Package]; p != nil {
			p.cpu = &u
		} else {
			r.pkg(u.Package).cpu = &u
		}
	}
	return sc.Err()
}

// summary prints the slowest packages and tests.
func (r *run) summary(out io.Writer, top int, subs bool) {
	pkgs := make([]*pkg, 0, len(r.pkgs))
	var elapsed, cpu float64
	withCPU := false
	for _, path := range r.order {
		p := r.pkgs[path]
		pkgs = append(pkgs, p)
		elapsed += p.elapsed
		if p.cpu != nil {
			cpu += p.cpu.cpu()
			withCPU = true
		}
	}
	sort.SliceStable(pkgs, func(i, j int) bool { return pkgs[i].elapsed > pkgs[j].elapsed })
	fmt.Fprintf(out, "\n=== the slowest packages (of %d; %.0f s of packages' elapsed time", len(pkgs), elapsed)
	if withCPU {
		fmt.Fprintf(out, ", %.0f CPU-s in the test binaries", cpu)
	}
	fmt.Fprintf(out, "; load now %s)\n", loadAverage())
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "elapsed s\tCPU s\tshare of CPU\ttests\tskipped\tresult\t")
	for i, p := range pkgs {
		if i == top {
			break
		}
		n, skipped := 0, 0
		for name, t := range p.tests {
			if !strings.Contains(name, "/") {
				n++
				if t.action == "skip" {
					skipped++
				}
			}
		}
		c, share := "-", "-"
		if p.cpu != nil {
			c = fmt.Sprintf("%.1f", p.cpu.cpu())
			share = fmt.Sprintf("%.0f%%", 100*p.cpu.cpu()/cpu)
		}
		result := p.action
		if result == "" {
			result = "(no end)"
		}
		fmt.Fprintf(w, "%.1f\t%s\t%s\t%d\t%d\t%s\t  %s\n", p.elapsed, c, share, n, skipped, result, short(p.path))
	}
	w.Flush()

	type row struct {
		pkg string
		*test
	}
	var tests []row
	for _, p := range pkgs {
		for name, t := range p.tests {
			if subs || !strings.Contains(name, "/") {
				tests = append(tests, row{p.path, t})
			}
		}
	}
	sort.SliceStable(tests, func(i, j int) bool { return tests[i].elapsed > tests[j].elapsed })
	fmt.Fprintf(out, "\n=== the slowest tests (elapsed; parallel tests overlap)\n")
	w = tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	for i, t := range tests {
		if i == top {
			break
		}
		result := t.action
		if result == "" {
			result = "(no end)"
		}
		fmt.Fprintf(w, "%.1f s\t%s\t  %s %s\n", t.elapsed, result, short(t.pkg), t.name)
	}
	w.Flush()
}

// short drops the module's path from a package's.
func short(path string) string {
	if path == module {
		return "."
	}
	return strings.TrimPrefix(path, module+"/")
}

// loadAverage returns the machine's load averages over 1, 5 and 15
// minutes, or "unknown".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
