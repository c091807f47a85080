// Command wakes counts the goroutine wake-ups of an execution trace: each
// time a waiting goroutine was made runnable, by where it waited and by
// what woke it (the first frame outside the runtime and the standard
// library's plumbing; "netpoll" for the network poller and the system).
// It reads what go tool trace -d=parsed prints, and divides the counts by
// -per (the moves of a benchmark, say):
//
//	go test ./internal/table -run '^$' -bench MoveAcrossNodes -benchtime 1000x -trace t.out
//	go tool trace -d=parsed t.out | go run ./internal/tools/wakes -per 1000
//
// The counts are the scheduler's: a machine's load barely changes them.
package main

import (
	"bufio"
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
)

func main() {
	per := flag.Float64("per", 1, "divide the counts by this (the benchmark's iterations)")
	top := flag.Int("top", 20, "the pairs of places to print")
	flag.Parse()
	counts, err := count(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wakes:", err)
		os.Exit(1)
	}
	print(os.Stdout, counts, *per, *top)
}

// A pair is where a goroutine waited and what woke it.
type pair struct{ waited, waker string }

// transition matches a goroutine's change of state in the parsed trace.
var transition = regexp.MustCompile(`^M=\S+ P=\S+ G=(\S+) StateTransition Time=\d+ GoID=(\d+) (\S+)->(\S+) `)

// count reads the parsed trace and counts the wake-ups of each pair.
func count(r io.Reader) (map[pair]int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	waiting := map[string]string{} // a goroutine's place of its last wait
	counts := map[pair]int{}
	var g, id, from, to string
	stacks := map[string][]string{}
	var current string // the stack being read, if any
	done := func() {
		switch {
		case from == "Running" && to == "Waiting":
			waiting[id] = place(stacks["TransitionStack="])
		case from == "Waiting" && to == "Runnable":
			waker := "netpoll"
			if g != "-1" {
				waker = place(stacks["Stack="])
			}
			counts[pair{cmp.Or(waiting[id], "?"), waker}]++
		}
		from, to = "", ""
	}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "Stack=" || line == "TransitionStack=":
			current = line
		case strings.HasPrefix(line, "\t") && current != "":
			if f := strings.TrimSpace(line); !strings.HasPrefix(f, "/") {
				stacks[current] = append(stacks[current], strings.SplitN(f, " @ ", 2)[0])
			}
		default:
			done()
			current = ""
			if m := transition.FindStringSubmatch(line); m != nil {
				g, id, from, to = m[1], m[2], m[3], m[4]
				stacks = map[string][]string{}
			}
		}
	}
	done()
	return counts, sc.Err()
}

// place returns the first frame of stack outside the runtime and the
// standard library's plumbing.
func place(stack []string) string {
	for _, f := range stack {
		if !strings.HasPrefix(f, "runtime.") && !strings.HasPrefix(f, "internal/") && !strings.HasPrefix(f, "sync.") &&
			!strings.HasPrefix(f, "time.") && !strings.HasPrefix(f, "context.") && !strings.HasPrefix(f, "net.") &&
			!strings.HasPrefix(f, "os.") && !strings.HasPrefix(f, "syscall.") {
			return f
		}
	}
	if len(stack) > 0 {
		return stack[0]
	}
	return "?"
}

// print writes the top pairs by count, and the total, each divided by per.
func print(w io.Writer, counts map[pair]int, per float64, top int) {
	pairs := make([]pair, 0, len(counts))
	total := 0
	for p, n := range counts {
		pairs = append(pairs, p)
		total += n
	}
	slices.SortFunc(pairs, func(a, b pair) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), cmp.Compare(a.waited, b.waited), cmp.Compare(a.waker, b.waker))
	})
	for _, p := range pairs[:min(top, len(pairs))] {
		fmt.Fprintf(w, "%8.3f  %s  <-  %s\n", float64(counts[p])/per, p.waited, p.waker)
	}
	fmt.Fprintf(w, "%8.3f  in all\n", float64(total)/per)
}
