package arena

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/razziagame/razzia"
)

// TestResume checks that a resumed run reads the games recorded and plays
// only the others, and reports what an uninterrupted run reports.
func TestResume(t *testing.T) {
	dir := t.TempDir()
	c := Config{Seats: []string{"rand", "first", "rand"}, Games: 6, Seed: 9, Duplicate: true, Workers: 2, Records: dir, New: fakeNew(nil)}
	whole, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{1, 4} {
		if err := os.Remove(filepath.Join(dir, RecordName(i, c.Games))); err != nil {
			t.Fatal(err)
		}
	}
	var made atomic.Int64
	c.New, c.Resume = fakeNew(&made), true
	r, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := made.Load(), int64(2*len(c.Seats)); got != want {
		t.Errorf("%d bots made for games, want %d: only the two games without a record are played", got, want)
	}
	if r.Resumed != 4 {
		t.Errorf("Resumed = %d, want 4", r.Resumed)
	}
	if !reflect.DeepEqual(r.Outcomes, whole.Outcomes) || !reflect.DeepEqual(r.HeadToHead, whole.HeadToHead) {
		t.Errorf("resumed outcomes %v, want %v", r.Outcomes, whole.Outcomes)
	}
	for b := range r.Bots {
		got, want := r.Bots[b], whole.Bots[b]
		got.Decisions, want.Decisions = Timing{}, Timing{}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("resumed %+v, want %+v", got, want)
		}
	}
	for i := range c.Games {
		if _, err := os.Stat(filepath.Join(dir, RecordName(i, c.Games))); err != nil {
			t.Errorf("game %d: %v", i+1, err)
		}
	}
	var out strings.Builder
	r.WriteText(&out, ReportOptions{Workers: 2})
	if !strings.Contains(out.String(), "4 games read from the records of an earlier run, not played: the decision times are of the other 2") {
		t.Errorf("the report does not say which games were played:\n%s", out.String())
	}
}

// TestResumeRefusesAnotherRun checks that a record of another game stops a
// resumed run, naming the file and what differs, whatever else is there.
func TestResumeRefusesAnotherRun(t *testing.T) {
	base := Config{Seats: []string{"rand", "last"}, Games: 2, Seed: 4, New: fakeNew(nil)}
	tests := []struct {
		name   string
		change func(c *Config)          // the resumed run's configuration
		edit   func(rec *razzia.Record) // the record of game 1, before
		err    string
	}{
		{"another seed", func(c *Config) { c.Seed++ }, nil, ""}, // other cheques, or other draws
		{"other seats", func(c *Config) { c.Seats = []string{"rand", "first"} }, nil, "its players are rand, last"},
		{"another draw", nil, func(rec *razzia.Record) {
			for k, m := range rec.Moves {
				if strings.HasPrefix(m, "draw ") && m != "draw police" {
					rec.Moves[k] = "draw police"
					return
				}
			}
		}, "the deal's is"},
		{"not over", nil, func(rec *razzia.Record) { rec.Moves = rec.Moves[:len(rec.Moves)/2] }, "does not end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			c.Records = t.TempDir()
			if _, err := Run(context.Background(), c); err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(c.Records, RecordName(0, c.Games))
			if tt.edit != nil {
				rec := readRecord(t, name)
				tt.edit(rec)
				f, err := os.Create(name)
				if err != nil {
					t.Fatal(err)
				}
				rec.WriteTo(f)
				f.Close()
			}
			before, _ := os.ReadFile(name)
			if tt.change != nil {
				tt.change(&c)
			}
			c.Resume, c.Workers = true, 1
			_, err := Run(context.Background(), c)
			if err == nil || !strings.Contains(err.Error(), name+" is not this run's game") || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("Run = %v, want an error naming %s and %q", err, name, tt.err)
			}
			if after, _ := os.ReadFile(name); string(after) != string(before) {
				t.Error("the record of another run was overwritten")
			}
		})
	}
}
