package pace

import (
	"encoding/json"
	"testing"
	"time"
)

// storedClocks returns clocks as tables store them: every preset, idle,
// deciding, reminded, some reserve spent, at three and five seats.
func storedClocks(t testing.TB) []Clock {
	var out []Clock
	for _, p := range Presets() {
		for _, players := range []int{3, 5} {
			c := mustClock(t, p.ID, players)
			out = append(out, c)
			c.Start(players-1, t0)
			out = append(out, c)
			c.Stop(t0.Add(p.Decision + 7*time.Second))
			c.Start(0, t0.Add(time.Hour))
			out = append(out, c)
			c.Remind(t0.Add(10 * Day))
			out = append(out, c)
		}
	}
	return out
}

// TestReadJSON: every clock a table stores reads back as UnmarshalJSON
// reads it, without allocating (a node decodes each move's clock), from
// the start of a longer text.
func TestReadJSON(t *testing.T) {
	for _, c := range storedClocks(t) {
		b, err := c.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		got, n, ok := ReadJSON(append(b, `,"more":1}`...))
		if !ok || n != len(b) || got != c {
			t.Fatalf("ReadJSON(%s) = %+v, %d, %v; want %+v, %d, true", b, got, n, ok, c, len(b))
		}
		if allocs := testing.AllocsPerRun(10, func() { ReadJSON(b) }); allocs != 0 {
			t.Errorf("ReadJSON(%s): %v allocations, want none", b, allocs)
		}
	}
	custom, err := New(Pace{ID: "mine", Kind: Live, Decision: time.Second, Reserve: time.Minute, Grace: time.Second}, 4)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := custom.AppendJSON(nil)
	if got, _, ok := ReadJSON(b); !ok || got != custom {
		t.Errorf("ReadJSON(%s) = %+v, %v", b, got, ok)
	}
}

// TestReadJSONLeaves: what AppendJSON does not write, or UnmarshalJSON
// refuses, ReadJSON leaves to UnmarshalJSON.
func TestReadJSONLeaves(t *testing.T) {
	const rapid = `{"id":"rapid","kind":"live","decisionMs":20000,"reserveMs":180000,"graceMs":15000}`
	for _, s := range []string{
		``,
		`{"pace":` + rapid + `,"reserveMs":[180001,0]}`,     // beyond the pace's reserve
		`{"pace":` + rapid + `,"reserveMs":[0,0],"seat":0}`, // no start
		`{"pace":` + rapid + `,"reserveMs":[0,0],"seat":2,"startedMs":5}`,
		`{"pace":` + rapid + `,"reserveMs":[0]}`,           // one seat
		`{"pace":` + rapid + `,"reserveMs":[0,0,0,0,0,0]}`, // six
		`{"pace":` + rapid + `, "reserveMs":[0,0]}`,        // white space
		`{"reserveMs":[0,0],"pace":` + rapid + `}`,         // another order
		`{"pace":{"id":"r\"apid","kind":"live","decisionMs":20000,"reserveMs":180000},"reserveMs":[0,0]}`,
		`{"pace":` + rapid + `,"reserveMs":[00,0]}`,
		`{"pace":` + rapid + `,"reserveMs":[1e3,0]}`,
		`{"pace":` + rapid + `,"reserveMs":[0,0],"reminded":false}`,
		`{"pace":{"id":"rapid","kind":"fast","decisionMs":20000,"reserveMs":180000},"reserveMs":[0,0]}`,
	} {
		if c, n, ok := ReadJSON([]byte(s)); ok {
			t.Errorf("ReadJSON(%s) = %+v, %d, true; want it left to UnmarshalJSON", s, c, n)
		}
	}
}

// FuzzReadJSON: ReadJSON never contradicts UnmarshalJSON.
func FuzzReadJSON(f *testing.F) {
	for _, c := range storedClocks(f) {
		b, _ := c.AppendJSON(nil)
		f.Add(b)
	}
	f.Add([]byte(`{"pace":{"id":"rapid","kind":"live","decisionMs":20000,"reserveMs":180000},"reserveMs":[-0,0]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, n, ok := ReadJSON(b)
		if !ok {
			return
		}
		var want Clock
		if err := json.Unmarshal(b[:n], &want); err != nil {
			t.Fatalf("ReadJSON(%q) = %+v; UnmarshalJSON: %v", b[:n], c, err)
		}
		if c != want {
			t.Fatalf("ReadJSON(%q) = %+v; UnmarshalJSON %+v", b[:n], c, want)
		}
	})
}
