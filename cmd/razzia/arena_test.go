package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/razziagame/razzia/internal/arena"
)

func TestSplitSpecs(t *testing.T) {
	tests := []struct {
		name, list string
		want       []string
	}{
		{"plain", "hard,heuristic,random", []string{"hard", "heuristic", "random"}},
		{"spaces", " hard , random ", []string{"hard", "random"}},
		{"options with commas", "mcts:iters=500,time=1s,random", []string{"mcts:iters=500,time=1s", "random"}},
		{"two specs with options", "mcts:iters=5,c=1,heuristic:noise=2,easy", []string{"mcts:iters=5,c=1", "heuristic:noise=2", "easy"}},
		{"stray option first", "iters=5,random", []string{"iters=5", "random"}},
		{"stray option after a plain spec", "random,iters=5", []string{"random", "iters=5"}},
		{"empty part", "random,,hard", []string{"random", "", "hard"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := splitSpecs(tt.list); !slices.Equal(got, tt.want) {
				t.Errorf("splitSpecs(%q) = %q, want %q", tt.list, got, tt.want)
			}
		})
	}
}

// TestArenaUsageErrors checks that bad flags and bad specs are usage errors
// (status 2, the message and the usage on stderr) found before any game is
// played: no records directory appears.
func TestArenaUsageErrors(t *testing.T) {
	const valid = "valid specs: random, heuristic"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no bots", nil, "give the bots with --seats or --bots; " + valid},
		{"seats and bots", []string{"--seats", "random,random", "--bots", "random"}, "not both"},
		{"players with seats", []string{"--seats", "random,random", "--players", "3"}, "--players goes with --bots"},
		{"bad option", []string{"--seats", "mcts:iters=-3,random"}, "iters=-3: want a whole number"},
		{"bad option lists specs", []string{"--seats", "mcts:iters=-3,random"}, valid},
		{"unknown bot", []string{"--bots", "random,grandmaster"}, `unknown bot "grandmaster"; ` + valid},
		{"empty spec", []string{"--seats", "random,,random"}, "empty spec"},
		{"one seat", []string{"--seats", "random"}, "a table of 1: Razzia is for 2 to 5 players"},
		{"six seats", []string{"--seats", "random,random,random,random,random,random"}, "a table of 6"},
		{"too many bots", []string{"--bots", "random,easy,hard", "--players", "2"}, "3 bots cannot all sit at a table of 2 players"},
		{"seven players", []string{"--bots", "random", "--players", "7"}, "7 players: Razzia is for 2 to 5"},
		{"no games", []string{"--seats", "random,random", "--games", "0"}, "--games 0: want at least 1"},
		{"negative games", []string{"--seats", "random,random", "--games", "-5"}, "--games -5"},
		{"no workers", []string{"--seats", "random,random", "--workers", "0"}, "--workers 0: want at least 1"},
		{"bad seed", []string{"--seats", "random,random", "--seed", "-1"}, `invalid value "-1" for flag --seed`},
		{"unknown flag", []string{"--seats", "random,random", "--rounds", "3"}, "unknown flag --rounds"},
		{"positional argument", []string{"--seats", "random,random", "extra"}, `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "records")
			args := append([]string{"arena", "--records", dir}, tt.args...)
			stdout, stderr, status := runCmd(t, nil, args...)
			if status != 2 || stdout != "" {
				t.Errorf("exit status %d, stdout %q; want 2 and nothing", status, stdout)
			}
			if !strings.HasPrefix(stderr, "razzia arena: ") || !strings.Contains(stderr, tt.want) ||
				!strings.HasSuffix(stderr, " (see \"razzia arena --help\")\n") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr %q, want one line with %q that points to the help", stderr, tt.want)
			}
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("records directory exists after a usage error: %v", err)
			}
		})
	}
}

// TestArenaJSONRecordsReplay runs a small tournament with --json and
// --records, then replays every record with "razzia replay --json" and
// checks that the records give the scores and wins the run reported.
func TestArenaJSONRecordsReplay(t *testing.T) {
	dir := t.TempDir()
	const games = 6
	stdout, stderr, status := runCmd(t, nil, "arena", "--bots", "heuristic,random", "--players", "3",
		"--games", "6", "--seed", "9", "--json", "--records", dir)
	if status != 0 || stderr != "" {
		t.Fatalf("exit status %d, stderr %q; want 0 and nothing (no progress bar on a pipe)", status, stderr)
	}
	var r arena.Result
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, stdout)
	}
	if r.Games != games || r.Players != 3 || !slices.Equal(r.Seats, []string{"heuristic", "random", "heuristic"}) {
		t.Errorf("games %d players %d seats %v; want 6, 3, heuristic random heuristic", r.Games, r.Players, r.Seats)
	}

	sum := map[string]int{}
	wins := map[string]float64{}
	for i := range games {
		name := filepath.Join(dir, arena.RecordName(i, games))
		out, errOut, st := runCmd(t, nil, "replay", "--json", name)
		if st != 0 {
			t.Fatalf("replay %s: status %d, %s%s", name, st, out, errOut)
		}
		var rep struct {
			Players  []string
			Finished bool
			Totals   []int
			Winners  []int
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || !rep.Finished {
			t.Fatalf("replay %s: %v, finished %v", name, err, rep.Finished)
		}
		for s, p := range rep.Players {
			spec, _, _ := strings.Cut(p, "#")
			sum[spec] += rep.Totals[s]
		}
		for _, s := range rep.Winners {
			spec, _, _ := strings.Cut(rep.Players[s], "#")
			wins[spec] += 1 / float64(len(rep.Winners))
		}
	}
	for _, b := range r.Bots {
		if got := float64(sum[b.Spec]) / float64(b.Games); got != b.MeanScore {
			t.Errorf("%s: replays give mean score %v, arena reported %v", b.Spec, got, b.MeanScore)
		}
		if d := wins[b.Spec] - b.Wins; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: replays give %v wins, arena reported %v", b.Spec, wins[b.Spec], b.Wins)
		}
	}
}

// TestArenaTables checks the human report: its sections, and the note when
// the games do not divide evenly among the positions.
func TestArenaTables(t *testing.T) {
	stdout, stderr, status := runCmd(t, nil, "arena", "--seats", "heuristic,random", "--games", "3")
	if status != 0 || stderr != "" {
		t.Fatalf("exit status %d, stderr %q", status, stderr)
	}
	for _, want := range []string{
		"3 games of 2 players, seed 1",
		"seats (rotated every game): heuristic, random",
		"note: 3 games are not a multiple of 2 players",
		"bot        seats  games  wins  win rate",
		"thieves  bodyguards  cars  jewels  gold  businesses  cheques",
		"head to head",
		"decision time  decisions",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

// TestArenaReproducible checks that --seed fixes the games whatever the
// number of workers: the same records, byte for byte.
func TestArenaReproducible(t *testing.T) {
	read := func(workers string) map[string]string {
		dir := t.TempDir()
		_, stderr, status := runCmd(t, nil, "arena", "--seats", "random,heuristic,easy", "--games", "5",
			"--seed", "77", "--workers", workers, "--records", dir)
		if status != 0 {
			t.Fatalf("exit status %d: %s", status, stderr)
		}
		files := map[string]string{}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
			files[e.Name()] = string(b)
		}
		return files
	}
	a, b := read("1"), read("2")
	if len(a) != 5 || len(b) != 5 {
		t.Fatalf("%d and %d records, want 5", len(a), len(b))
	}
	for name := range a {
		if a[name] != b[name] {
			t.Errorf("%s differs between 1 and 2 workers", name)
		}
	}
}

func TestArenaLadder(t *testing.T) {
	stdout, stderr, status := runCmd(t, nil, "arena", "--ladder", "--bots", "random,medium,easy", "--players", "2", "--deals", "2")
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	for _, want := range []string{"ladder of 3 bots: 3 tables of 2 players, 2 duplicate deals each, 12 games",
		"ordinal", "95% interval", "random", "medium", "easy", "decision time"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	stdout, _, status = runCmd(t, nil, "arena", "--ladder", "--bots", "random,medium", "--players", "2", "--deals", "1", "--json")
	var r arena.LadderResult
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || status != 0 {
		t.Fatalf("status %d, %v: %s", status, err, stdout)
	}
	if len(r.Rungs) != 2 || r.Games != 2 {
		t.Errorf("rungs %v, games %d", r.Rungs, r.Games)
	}
	stdout, stderr, status = runCmd(t, nil, "arena", "--ladder", "--bots", "random,easy,medium", "--players", "2", "--deals", "1", "--span", "1", "--cheap", "2", "--cheap-deals", "3")
	if want := "2 tables of 2 players (bots at most 1 apart in the list), 1 duplicate deal each (3 at the 1 table of the first 2 bots alone), 8 games"; status != 0 || !strings.Contains(stdout, want) {
		t.Errorf("--cheap: status %d, %s\noutput lacks %q:\n%s", status, stderr, want, stdout)
	}
}

func TestArenaLadderUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--ladder", "--seats", "random,medium"}, "--seats does not go with --ladder"},
		{[]string{"--ladder", "--bots", "random,medium", "--games", "4"}, "--games does not go with --ladder"},
		{[]string{"--ladder"}, "--ladder rates the --bots"},
		{[]string{"--ladder", "--bots", "random"}, "cannot fill a table of 4"},
		{[]string{"--ladder", "--bots", "random,medium", "--players", "2", "--deals", "0"}, "--deals 0"},
		{[]string{"--bots", "random,medium", "--deals", "3"}, "--deals goes with --ladder"},
		{[]string{"--ladder", "--bots", "random,medium", "--players", "2", "--resume"}, "--resume goes with --records"},
		{[]string{"--bots", "random,medium", "--resume"}, "--resume goes with --records"},
		{[]string{"--bots", "random,medium", "--cheap", "2"}, "--cheap goes with --ladder"},
		{[]string{"--bots", "random,medium", "--span", "1"}, "--span goes with --ladder"},
		{[]string{"--ladder", "--bots", "random,easy,medium", "--players", "3", "--span", "1"}, "a span of 1 cannot seat 3 players"},
		{[]string{"--bots", "random,medium", "--cheap-deals", "20"}, "--cheap-deals goes with --ladder"},
		{[]string{"--ladder", "--bots", "random,medium", "--players", "2", "--cheap", "2"}, "2 cheap bots but no cheap deals"},
		{[]string{"--ladder", "--bots", "random,medium", "--players", "2", "--cheap", "2", "--cheap-deals", "4"}, "4 cheap deals, fewer than the 10"},
	} {
		_, stderr, status := runCmd(t, nil, append([]string{"arena"}, tt.args...)...)
		if status != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: status %d, stderr %q; want %q", tt.args, status, stderr, tt.want)
		}
	}
}

// TestArenaResume runs a tournament, loses a record, and resumes it: only
// the game without a record is played, and the report is the same.
func TestArenaResume(t *testing.T) {
	dir := t.TempDir()
	args := []string{"arena", "--seats", "heuristic,random", "--games", "4", "--seed", "5", "--json", "--records", dir}
	first, _, status := runCmd(t, nil, args...)
	if status != 0 {
		t.Fatalf("status %d", status)
	}
	if err := os.Remove(filepath.Join(dir, arena.RecordName(2, 4))); err != nil {
		t.Fatal(err)
	}
	again, stderr, status := runCmd(t, nil, append(args, "--resume")...)
	if status != 0 {
		t.Fatalf("resumed: status %d, %s", status, stderr)
	}
	var a, b arena.Result
	if err := json.Unmarshal([]byte(first), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(again), &b); err != nil {
		t.Fatal(err)
	}
	if b.Resumed != 3 || b.Games != 4 {
		t.Errorf("resumed %d of %d games, want 3 of 4", b.Resumed, b.Games)
	}
	for i := range a.Bots {
		if a.Bots[i].Wins != b.Bots[i].Wins || a.Bots[i].MeanScore != b.Bots[i].MeanScore {
			t.Errorf("%s: %v wins, %v points resumed; %v and %v played", a.Bots[i].Spec, b.Bots[i].Wins, b.Bots[i].MeanScore, a.Bots[i].Wins, a.Bots[i].MeanScore)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, arena.RecordName(2, 4))); err != nil {
		t.Errorf("the game played again was not recorded: %v", err)
	}
}
