package pace

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"
)

// reflectJSON is how encoding/json writes c from its stored form: what
// Clock.AppendJSON must write byte for byte.
func reflectJSON(t *testing.T, c Clock) string {
	t.Helper()
	p := c.pace
	pw := paceJSON{ID: p.ID, Kind: p.Kind, DecisionMs: p.Decision.Milliseconds(), ReserveMs: p.Reserve.Milliseconds()}
	if p.Timed() {
		g := p.Grace.Milliseconds()
		pw.GraceMs = &g
	}
	pb, err := json.Marshal(pw)
	if err != nil {
		t.Fatal(err)
	}
	w := struct {
		Pace      json.RawMessage `json:"pace"`
		ReserveMs []int64         `json:"reserveMs"`
		Seat      *int            `json:"seat,omitempty"`
		StartedMs int64           `json:"startedMs,omitempty"`
		Reminded  bool            `json:"reminded,omitempty"`
	}{Pace: pb, ReserveMs: make([]int64, c.players), Reminded: c.reminded}
	for i := range w.ReserveMs {
		w.ReserveMs[i] = c.reserve[i].Milliseconds()
	}
	if c.seat >= 0 {
		seat := int(c.seat)
		w.Seat, w.StartedMs = &seat, c.started
	}
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAppendJSON checks the clocks' hand-written encoding against
// encoding/json's over every preset, random states and paces whose names
// need escaping, and that each reads back equal.
func TestAppendJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	paces := Presets()
	for _, id := range []string{`a"b`, `<&>`, "caf\u00e9", "tab\there", "line\u2028sep", `back\slash`} {
		paces = append(paces, Pace{ID: id, Kind: Live, Decision: 20 * time.Second, Reserve: 3 * time.Minute, Grace: 15 * time.Second})
	}
	for range 2000 {
		p := paces[r.IntN(len(paces))]
		c, err := New(p, 2+r.IntN(4))
		if err != nil {
			t.Fatal(err)
		}
		for i := range int(c.players) {
			c.reserve[i] = time.Duration(r.Int64N(int64(p.Reserve/p.Step())+1)) * p.Step()
		}
		if r.IntN(3) > 0 {
			c.seat = int8(r.IntN(int(c.players)))
			c.started = []int64{0, 1, r.Int64N(1 << 42)}[r.IntN(3)]
			c.reminded = r.IntN(2) == 0
		}
		got, err := c.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if want := reflectJSON(t, c); string(got) != want {
			t.Fatalf("clock written as\n%s\nencoding/json writes\n%s", got, want)
		}
		if c.seat >= 0 && c.started == 0 {
			continue // written as encoding/json would, but no clock reads back so
		}
		var back Clock
		if err := json.Unmarshal(got, &back); err != nil || back != c {
			t.Fatalf("%s read back as %+v (%v), want %+v", got, back, err, c)
		}
	}
}
