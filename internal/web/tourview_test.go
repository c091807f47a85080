package web

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tourviewCheck runs tourview.js over tournaments at given times: the
// countdown to the start, to the next round and to an arena's end, none
// while paused, the status lines, and the standings' columns by format.
const tourviewCheck = `import { countdown, statusLine, standingsColumns, cellsOf, clock } from "./tourview.mjs";
const t = (k, a) => k + (a ? " " + JSON.stringify(a) : "");
const now = Date.parse("2026-11-24T18:00:00Z");
const iso = (s) => new Date(now + s * 1000).toISOString();
const swiss = { status: "running", format: "swiss", round: 2, rounds: 5, next: iso(75), paused: false };
const out = [
  clock(0), clock(59001), clock(3723000),
  countdown(t, { status: "waiting", format: "swiss", start: iso(3600) }, now),
  countdown(t, { status: "waiting", format: "swiss" }, now),
  countdown(t, swiss, now),
  countdown(t, { ...swiss, paused: true }, now),
  countdown(t, { ...swiss, next: undefined }, now),
  countdown(t, { status: "running", format: "arena", ends: iso(600) }, now),
  countdown(t, { status: "running", format: "arena", ends: iso(-5) }, now),
  countdown(t, { status: "finished", format: "swiss" }, now),
  statusLine(t, { status: "waiting" }, String),
  statusLine(t, { ...swiss, next: undefined }, String),
  statusLine(t, swiss, String),
  statusLine(t, { ...swiss, paused: true }, String),
  statusLine(t, { status: "cancelled" }, String),
  standingsColumns("swiss").join(","), standingsColumns("arena").join(","), standingsColumns("duplicate").join(","),
  cellsOf(t, standingsColumns("duplicate"), { percent: 62.5, games: 3, score: 91, sheet: [1, 0.25, 0.625] }).join("|"),
];
console.log(out.join("\n"));
`

func TestTournamentView(t *testing.T) {
	t.Parallel() // mostly node starting: on both cores
	node, dir := nodeModules(t, map[string][]byte{"check.mjs": []byte(tourviewCheck)})
	out, err := exec.Command(node, filepath.Join(dir, "check.mjs")).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	want := []string{
		"0:00", "1:00", "1:02:03",
		`tour.starts.in {"time":"1:00:00"}`,
		"",
		`tour.next.in {"n":3,"time":"1:15"}`,
		"",
		"",
		`tour.ends.in {"time":"10:00"}`,
		"",
		"",
		"tour.starts.word",
		`tour.round.now {"n":2,"of":5}`,
		`tour.between {"n":2,"of":5}`,
		"tour.paused",
		"tour.status.cancelled",
		"points,buchholz,games,wins,sheet", "points,games,wins,sheet", "percent,games,score,sheet",
		"62.5 %|3|91|1 0.25 0.63",
	}
	got := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(got), len(want), out)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d = %q, want %q", i+1, got[i], want[i])
		}
	}
}
