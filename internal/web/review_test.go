package web

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// reviewCheck sums up a small report: counts and accuracy per player
// (forced moves left out), the mistakes, and the next and previous one.
const reviewCheck = `globalThis.document = {};
const { summary, mistakes, nextMistake } = await import("./analysis.mjs");
const d = (move, seat, label, forced) => ({ move, seat, label, forced });
const report = { players: ["Ann", "Bob", "Cy"], winners: [0], decisions: [
  d(1, 0, "best"), d(2, 1, "blunder"), d(3, 0, "inaccuracy"), d(4, 1, "good"),
  d(5, 0, "mistake"), d(6, 1, "best", true), d(7, 0, "good"), d(8, 1, "mistake", true), d(9, 0, "blunder"),
] };
console.log(JSON.stringify(summary(report)));
console.log(mistakes(report).map((x) => x.move).join(","));
console.log([nextMistake(report, 0, 1), nextMistake(report, 2, 1), nextMistake(report, 5, 1), nextMistake(report, 9, 1),
  nextMistake(report, 9, -1), nextMistake(report, 5, -1), nextMistake(report, 2, -1)].join(","));
`

func TestReviewSummary(t *testing.T) {
	t.Parallel()
	node, dir := nodeModules(t, map[string][]byte{"check.mjs": []byte(reviewCheck)})
	out, err := exec.Command(node, filepath.Join(dir, "check.mjs")).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	got := strings.Split(strings.TrimSpace(string(out)), "\n")
	want := []string{
		// Ann: 5 decisions, 2 best or good (40%); Bob: 2 unforced, 1 good (50%); Cy none.
		`[{"seat":0,"decisions":5,"inaccuracy":1,"mistake":1,"blunder":1,"accuracy":40},` +
			`{"seat":1,"decisions":2,"inaccuracy":0,"mistake":0,"blunder":1,"accuracy":50},` +
			`{"seat":2,"decisions":0,"inaccuracy":0,"mistake":0,"blunder":0,"accuracy":null}]`,
		"2,5,9",
		"2,5,9,,5,2,",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(got), len(want), out)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d = %s\nwant     %s", i+1, got[i], want[i])
		}
	}
}
