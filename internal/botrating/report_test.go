package botrating

import (
	"strings"
	"testing"
)

// TestWriteText: the embedded calibration's summary names every level
// with its rating, each table size, and the verdict on sizes.
func TestWriteText(t *testing.T) {
	c, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	c.WriteText(&b)
	out := b.String()
	for _, want := range []string{"seed", "all tables", "2 players", "5 players", "Mu ± Sigma;"} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary lacks %q:\n%s", want, out)
		}
	}
	for l := range c.Levels {
		if !strings.Contains(out, "\n"+l+" ") {
			t.Errorf("the summary lacks level %s:\n%s", l, out)
		}
	}
}
