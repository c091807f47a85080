package main

import (
	"strings"
	"testing"
)

// parsed is a piece of go tool trace -d=parsed: goroutine 7 waits in
// reader.wait, is woken by the poller, waits again, and is woken by
// goroutine 3 in sender.send; goroutine 8 waits and is never woken.
const parsed = `M=1 P=0 G=7 StateTransition Time=1 GoID=7 Running->Waiting Reason="chan receive"
TransitionStack=
	runtime.gopark @ 0x1
		/go/src/runtime/proc.go:1
	example.com/reader.wait @ 0x2
		/src/reader.go:9

M=1 P=0 G=-1 StateTransition Time=2 GoID=7 Waiting->Runnable Reason=""
M=1 P=0 G=7 StateTransition Time=3 GoID=7 Running->Waiting Reason="chan receive"
TransitionStack=
	example.com/reader.wait @ 0x2
		/src/reader.go:9
M=1 P=0 G=8 Metric Time=4 Name="/x" Value=Value{Uint64(2)}
Stack=
	example.com/other.f @ 0x4
		/src/other.go:1
M=1 P=0 G=3 StateTransition Time=5 GoID=7 Waiting->Runnable Reason=""
Stack=
	runtime.chansend1 @ 0x5
		/go/src/runtime/chan.go:1
	example.com/sender.send @ 0x6
		/src/sender.go:3
M=1 P=0 G=8 StateTransition Time=6 GoID=8 Running->Waiting Reason="select"
TransitionStack=
	example.com/idle.loop @ 0x7
		/src/idle.go:3
`

func TestCount(t *testing.T) {
	counts, err := count(strings.NewReader(parsed))
	if err != nil {
		t.Fatal(err)
	}
	want := map[pair]int{{"example.com/reader.wait", "netpoll"}: 1, {"example.com/reader.wait", "example.com/sender.send"}: 1}
	if len(counts) != len(want) {
		t.Fatalf("counts %v, want %v", counts, want)
	}
	for p, n := range want {
		if counts[p] != n {
			t.Errorf("%v: %d wake-ups, want %d", p, counts[p], n)
		}
	}
	var b strings.Builder
	print(&b, counts, 2, 10)
	if !strings.HasSuffix(b.String(), "   1.000  in all\n") {
		t.Errorf("printed %q", b.String())
	}
}
