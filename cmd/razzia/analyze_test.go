package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/razziagame/razzia/internal/recordview"
)

// TestAnalyzeBadRecords: a malformed record or an illegal move fails as
// "razzia replay" fails: with --json the same error object on stdout, and
// without it the same message on stderr; the status is 1.
func TestAnalyzeBadRecords(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "err-*.json"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join("testdata", "no-such-file.json"))
	n := 0
	for _, file := range files {
		if strings.HasSuffix(file, ".want.json") {
			continue
		}
		n++
		t.Run(filepath.Base(file), func(t *testing.T) {
			want, _, wantStatus := runCmd(t, nil, "replay", "--json", file)
			got, _, status := runCmd(t, nil, "analyze", "--json", "--iterations", "5", file)
			if got != want || status != 1 || wantStatus != 1 {
				t.Errorf("analyze --json: %q (status %d); replay --json: %q (status %d)", got, status, want, wantStatus)
			}
			_, wantErr, _ := runCmd(t, nil, "replay", file)
			stdout, gotErr, status := runCmd(t, nil, "analyze", "--iterations", "5", file)
			// The same message, from the other command.
			if gotErr != strings.Replace(wantErr, "razzia replay: ", "razzia analyze: ", 1) || stdout != "" || status != 1 {
				t.Errorf("analyze: stderr %q, stdout %q (status %d); replay's stderr %q", gotErr, stdout, status, wantErr)
			}
		})
	}
	if n < 5 {
		t.Errorf("only %d bad records", n)
	}
}

// TestAnalyzeUnfinished: a game still being played is refused.
func TestAnalyzeUnfinished(t *testing.T) {
	file := filepath.Join("testdata", "hand-4p-unfinished.json")
	stdout, stderr, status := runCmd(t, nil, "analyze", "--iterations", "5", file)
	if status != 1 || stdout != "" || !strings.Contains(stderr, "not finished") {
		t.Errorf("status %d, stdout %q, stderr %q; want status 1 and a refusal", status, stdout, stderr)
	}
	stdout, _, status = runCmd(t, nil, "analyze", "--json", "--iterations", "5", file)
	var out recordview.Failure
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || status != 1 || !strings.Contains(out.Error.Reason, "not finished") {
		t.Errorf("--json: status %d, %q", status, stdout)
	}
}

func TestAnalyzeGame(t *testing.T) {
	file := filepath.Join("testdata", "game-2p.json")
	stdout, stderr, status := runCmd(t, nil, "analyze", "--json", "--iterations", "20", "--workers", "2", file)
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if strings.Count(stdout, "\n") != 1 {
		t.Errorf("the JSON is not one compact line")
	}
	var rep struct {
		Players   []string `json:"players"`
		Decisions []struct {
			Move   int       `json:"move"`
			Played string    `json:"played"`
			Before []float64 `json:"before"`
			Label  string    `json:"label"`
		} `json:"decisions"`
		Summary []struct {
			Seat                                 int
			Start, Result, Luck, Skill, Adjusted float64
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	rec, err := readRecord(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Decisions) != len(rec.Moves) {
		t.Fatalf("%d decisions for %d moves", len(rep.Decisions), len(rec.Moves))
	}
	for i, d := range rep.Decisions {
		if d.Played != rec.Moves[i] || len(d.Before) != 2 || d.Label == "" {
			t.Errorf("decision %d: %+v", i+1, d)
		}
	}
	if len(rep.Summary) != 2 || rep.Summary[0].Result+rep.Summary[1].Result != 1 {
		t.Fatalf("summary %+v; want one per player, the results summing to 1", rep.Summary)
	}
	for p, s := range rep.Summary {
		if s.Seat != p || s.Skill > 0 || s.Luck == 0 || math.Abs(s.Adjusted-(s.Result-s.Luck)) > 0.0015 {
			t.Errorf("seat %d: summary %+v; want skill at most 0, some luck, adjusted = result - luck", p, s)
		}
	}

	text, _, status := runCmd(t, nil, "analyze", "--iterations", "20", file)
	if status != 0 || !strings.Contains(text, "Summary") || !strings.Contains(text, "Ann") {
		t.Errorf("status %d, account:\n%s", status, text)
	}
	if !strings.Contains(text, "Luck and play") || !regexp.MustCompile(`(?m)^Ann +\d+% +[+-]\d+% +[+-]\d+% +\d+% +-?\d+%$`).MatchString(text) {
		t.Errorf("no line of luck and play for Ann in the account:\n%s", text)
	}
}

func TestAnalyzeUsage(t *testing.T) {
	for _, args := range [][]string{
		{"analyze"},
		{"analyze", "a.json", "b.json"},
		{"analyze", "--iterations", "0", "a.json"},
		{"analyze", "--workers", "0", "a.json"},
		{"analyze", "--bogus", "a.json"},
	} {
		_, stderr, status := runCmd(t, nil, args...)
		if status != 2 || !strings.HasPrefix(stderr, "razzia analyze: ") || !strings.HasSuffix(stderr, `(see "razzia analyze --help")`+"\n") {
			t.Errorf("%v: status %d, stderr %q", args, status, stderr)
		}
	}
}
