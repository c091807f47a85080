package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/razziagame/razzia/internal/botrating"
)

func TestCalibrateUsage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "levels.json")
	checkUsage(t, []usageCase{
		{"help", []string{"calibrate", "--help"}, nil, 0, "usage: razzia calibrate"},
		{"help names weight", []string{"help", "calibrate"}, nil, 0, "--weight LEVEL=W"},
		{"bad weight", []string{"calibrate", "--weight", "expert"}, nil, 2, `"expert": want LEVEL=W`},
		{"weight not a number", []string{"calibrate", "--weight", "expert=lots"}, nil, 2, `"expert=lots": want LEVEL=W`},
		{"unknown level", []string{"calibrate", "--levels", "easy,grandmaster"}, nil, 2, `--levels: "grandmaster" is not a bot level`},
		{"weight of a level not rated", []string{"calibrate", "--levels", "easy,medium", "--weight", "expert=0.1", "--out", out}, nil, 2, `--weight expert: not a level rated (the levels rated are easy, medium)`},
		{"weight of no level", []string{"calibrate", "--weight", "genius=1", "--out", filepath.Join("no", "such", "dir", "levels.json")}, nil, 2, `--weight genius: not a level rated`},
		{"weight zero", []string{"calibrate", "--levels", "easy,medium", "--weight", "easy=0", "--out", out}, nil, 2, `"easy=0": want LEVEL=W, W a number above 0`},
		{"a level twice", []string{"calibrate", "--levels", "easy,easy", "--out", out}, nil, 2, "--levels: easy twice: name each level once"},
		{"one level", []string{"calibrate", "--levels", "easy", "--out", out}, nil, 2, "--levels: calibrating needs two levels or more"},
		{"no games", []string{"calibrate", "--games", "0"}, nil, 2, "--games must be at least 1"},
		{"argument", []string{"calibrate", "extra"}, nil, 2, `unexpected argument "extra"`},
	})
}

// TestCalibrateChecksFilesFirst: a calibration whose --out or --log cannot
// be written fails at once, naming the file, before any game is played
// (a real run plays for CPU-hours).
func TestCalibrateChecksFilesFirst(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "such", "dir", "levels.json")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"out in a missing directory", []string{"--out", missing}, "--out: cannot write " + missing + ": there is no folder " + filepath.Dir(missing) + "\n"},
		{"out is a directory", []string{"--out", dir}, "--out: " + dir + " is a folder, not a file"},
		{"log in a missing directory", []string{"--out", filepath.Join(dir, "levels.json"), "--log", missing}, "--log: cannot write " + missing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"calibrate", "--games", "2", "--workers", "1", "--levels", "easy,medium"}, tt.args...)
			stdout, stderr, status := runCmd(t, nil, args...)
			if status != 1 || !strings.Contains(stderr, "razzia calibrate: "+tt.want) {
				t.Errorf("status %d, stderr %q; want 1 and %q", status, stderr, tt.want)
			}
			if strings.Contains(stderr, " of 2 games") || stdout != "" {
				t.Errorf("games were played before the check: stdout %q, stderr %q", stdout, stderr)
			}
		})
	}
}

// TestCalibrateCommand: a small run of the cheap levels writes a
// calibration that names the command making it again, weights included
// (not --log, which does not change the games), and logs its tables.
func TestCalibrateCommand(t *testing.T) {
	out, log := filepath.Join(t.TempDir(), "levels.json"), filepath.Join(t.TempDir(), "calibrate.log")
	stdout, stderr, status := runCmd(t, nil, "calibrate", "--games", "6", "--seed", "3", "--workers", "1",
		"--levels", "easy,medium", "--weight", "easy=2", "--log", log, "--out", out)
	if status != 0 {
		t.Fatalf("status %d: %s%s", status, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var c botrating.Calibration
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	if want := "razzia calibrate --games 6 --seed 3 --levels easy,medium --weight easy=2"; c.Command != want {
		t.Errorf("command %q, want %q", c.Command, want)
	}
	if len(c.Levels) != 2 || c.Weights["easy"] != 2 || c.Specs["medium"] != "heuristic" {
		t.Errorf("calibration %+v", c)
	}
	if b, err := os.ReadFile(log); err != nil || !bytes.Contains(b, []byte(`"table":0`)) {
		t.Errorf("the log: %q, %v", b, err)
	}
}
