package match

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/pace"
)

// storedTimings returns the timings of a clock alone that tables store at
// most moves: untimed, timed and running, reminded, a tournament's.
func storedTimings(t testing.TB) [][]byte {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var out [][]byte
	for _, p := range pace.Presets() {
		c, err := pace.New(p, 4)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Timing{Clock: c}.Encode())
		if p.Timed() {
			if err := c.Start(2, at); err != nil {
				t.Fatal(err)
			}
			out = append(out, Timing{Clock: c}.Encode(), Timing{Clock: c, Tournament: true}.Encode())
			c.Remind(at.Add(30 * 24 * time.Hour))
			out = append(out, Timing{Clock: c}.Encode())
		}
	}
	return out
}

// TestDecodeTimingWithoutReflection: the timing of a clock alone, which a
// node that follows a game decodes at each of its moves, is decoded as
// encoding/json decodes it, without allocating.
func TestDecodeTimingWithoutReflection(t *testing.T) {
	for _, b := range storedTimings(t) {
		got, err := DecodeTiming(b, 4)
		if err != nil {
			t.Fatal(err)
		}
		var want Timing
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("DecodeTiming(%s) = %+v; encoding/json decodes %+v", b, got, want)
		}
		if allocs := testing.AllocsPerRun(20, func() { DecodeTiming(b, 4) }); allocs != 0 {
			t.Errorf("DecodeTiming(%s): %v allocations; want none", b, allocs)
		}
	}
}

// FuzzDecodeTiming: decodeClockAlone never contradicts encoding/json.
func FuzzDecodeTiming(f *testing.F) {
	for _, b := range storedTimings(f) {
		f.Add(b)
	}
	f.Add([]byte(`{"clock":{"pace":{"id":"untimed","kind":"untimed","decisionMs":0,"reserveMs":0},"reserveMs":[0,0,0]},"tournament":false}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := decodeClockAlone(b)
		if !ok {
			return
		}
		var want Timing
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("decodeClockAlone(%s) = %+v; encoding/json: %v", b, got, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeClockAlone(%s) = %+v; encoding/json %+v", b, got, want)
		}
	})
}

// TestStoredTimingsFit: the timings tables store at most moves fit the
// room a move's result keeps for them (Move: one allocation).
func TestStoredTimingsFit(t *testing.T) {
	for _, b := range storedTimings(t) {
		if len(b) > 256 {
			t.Errorf("%d bytes: %s", len(b), b)
		}
	}
}
