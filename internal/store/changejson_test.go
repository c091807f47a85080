package store

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeChange: the decoding of a change notice without reflection
// agrees with encoding/json on every payload it takes, and takes those
// that Payload writes.
func FuzzDecodeChange(f *testing.F) {
	clock := []byte(`{"pace":"rapid","left":[180000000000,179000000000],"since":1764000000000000000}`)
	for _, c := range []struct {
		c     Change
		taken bool // HTML's characters are escaped as \u...: left to encoding/json
	}{
		{MoveChange("abcdefghjk", 41, "bid 9", StatusPlaying, clock).Asked(&Ask{Node: "node-b", ID: 1 << 40}), true},
		{MoveChange("abcdefghjk", 0, "draw", StatusFinished, nil), true},
		{ClockChange("abcdefghjk", 7, StatusPlaying, []byte(`{"a":"\\\"é"}`)), true},
		{ClockChange("abcdefghjk", 7, StatusPlaying, []byte(`{"a":"<&>"}`)), false},
		{Change{Game: "abcdefghjk", Kind: ChangeLease, Moves: 3, Status: StatusOpen, Node: "n1", Fence: -2}, true},
		{Change{Game: "g", Kind: "a kind of a newer node", Status: "a status of one"}, true},
	} {
		p := c.c.Payload()
		if got, ok := decodeChange(p); ok != c.taken || ok && got != c.c {
			f.Errorf("decodeChange(%s) = %+v, %t; want %+v, %t", p, got, ok, c.c, c.taken)
		}
		f.Add(p)
	}
	for _, p := range []string{`{}`, `{"game":"a",}`, `{"game":"a","Game":"b"}`, `{"moves":1e3}`, `{"moves":01}`, `{"ask":-1}`,
		`{"token":null}`, `{"game":"a\u00e9"}`, `{"game":"\xff"}`, `{"moves":-0}`, `{"game":"a"} `, `{"fence":9223372036854775807}`} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, ok := decodeChange(p)
		if !ok {
			return
		}
		var want Change
		if err := json.Unmarshal([]byte(p), &want); err != nil {
			t.Fatalf("decodeChange(%q) = %+v, where encoding/json fails: %v", p, got, err)
		}
		if got != want {
			t.Fatalf("decodeChange(%q) = %+v, encoding/json %+v", p, got, want)
		}
	})
}

// BenchmarkParseChange measures the decoding of a timed move's notice,
// which every node makes for every move of the cluster.
func BenchmarkParseChange(b *testing.B) {
	clock := []byte(`{"pace":"rapid","left":[180000000000,180000000000,180000000000,180000000000],"since":1764000000000000000}`)
	p := MoveChange("abcdefghjk", 41, "bid 9", StatusPlaying, clock).Asked(&Ask{Node: "node-b", ID: 1234}).Payload()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseChange(p); err != nil {
			b.Fatal(err)
		}
	}
}
