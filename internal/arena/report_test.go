package arena

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestReport: a result's text names its games and bots, shows the faults
// of programs only when asked, and its JSON reads back.
func TestReport(t *testing.T) {
	r, err := Run(context.Background(), Config{Seats: []string{"rand", "last"}, Games: 4, Seed: 7, Workers: 1, New: fakeNew(nil)})
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	r.WriteText(&text, ReportOptions{Workers: 1})
	out := text.String()
	for _, want := range []string{"4 games of 2 players, seed 7, 1 worker:", "every bot sat in every position equally often", "head to head", "decision time"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "faults") {
		t.Errorf("faults shown where no program played:\n%s", out)
	}
	text.Reset()
	r.WriteText(&text, ReportOptions{Workers: 1, Faults: true})
	if !strings.Contains(text.String(), "faults") {
		t.Errorf("no faults column where programs played:\n%s", text.String())
	}
	var js bytes.Buffer
	if err := r.WriteJSON(&js, 1, true); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Result == nil || back.Games != 4 || !back.Interrupted || back.Workers != 1 {
		t.Errorf("the JSON reads back as %+v (%v)", back, err)
	}
}
