package table

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/razziagame/razzia/internal/match"
)

// requests returns envelopes of requests as ask passes them.
func requests() []envelope {
	hash := make([]byte, 32)
	for i := range hash {
		hash[i] = byte(i * 7)
	}
	return []envelope{
		{ID: 1, From: "node-a", Notice: true, Req: &match.Command{Kind: match.Play, Game: "abcdefghij", Hash: hash, Seat: -1, Move: "bid 3", Seq: 17}},
		{ID: 123456789, From: "seats-x1", Req: &match.Command{Kind: match.Join, Game: "abcdefghij", Hash: hash, Name: "Zoë <b>&", Account: "acc1", Seat: 2, Seq: -1}},
		{ID: 7, From: "n", Req: &match.Command{Kind: match.Chat, Game: "g", Hash: hash, Phrase: "gg", Text: "well \"played\"\n", Account: "a"}},
		{ID: 8, From: "n", Req: &match.Command{Kind: match.Mute, Game: "g", Seat: 1, Mute: true, Level: "hard"}},
		{ID: 9, From: "n", Req: &match.Command{}},
	}
}

// TestDecodeRequest: the requests ask passes decode as encoding/json
// decodes them, a move's in two allocations (the command and its hash)
// where encoding/json took fifteen: a game's owner decodes every move
// passed to it.
func TestDecodeRequest(t *testing.T) {
	for _, env := range requests() {
		b, err := json.Marshal(env)
		if err != nil {
			t.Fatal(err)
		}
		got, err := parseEnvelope(string(b))
		if err != nil || !reflect.DeepEqual(got, env) {
			t.Errorf("parseEnvelope(%s) = %+v, %v; want %+v", b, got.Req, err, env.Req)
		}
	}
	b, _ := json.Marshal(requests()[0])
	p := string(b)
	if _, ok := decodeRequest(p); !ok {
		t.Fatalf("decodeRequest(%s) left it to encoding/json", p)
	}
	if allocs := testing.AllocsPerRun(100, func() { parseEnvelope(p) }); allocs > 2 {
		t.Errorf("parseEnvelope of a move: %v allocations; want at most 2", allocs)
	}
	// An answer, and what ask does not write, go to encoding/json.
	for _, s := range []string{`{"id":3,"from":"n","re":{"kind":"x"}}`, `{"id":3, "from":"n","req":{}}`,
		`{"id":3,"from":"n","req":{},"req":{}}`, `{"id":3,"from":"n","req":{"op":"pl\u0061y"}}`, `{"id":-3,"req":{}}`} {
		if env, ok := decodeRequest(s); ok {
			t.Errorf("decodeRequest(%s) = %+v, true; want it left to encoding/json", s, env)
		}
	}
	if env, err := parseEnvelope(`{"id":3,"from":"n","re":{"kind":"x"}}`); err != nil || env.Re == nil || env.Re.Kind != "x" {
		t.Errorf("an answer: %+v, %v", env, err)
	}
}

// FuzzDecodeRequest: decodeRequest never contradicts encoding/json.
func FuzzDecodeRequest(f *testing.F) {
	for _, env := range requests() {
		b, _ := json.Marshal(env)
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, ok := decodeRequest(p)
		if !ok {
			return
		}
		var want envelope
		if err := json.Unmarshal([]byte(p), &want); err != nil {
			t.Fatalf("decodeRequest(%q) = %+v; encoding/json: %v", p, got.Req, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeRequest(%q) = %+v %+v; encoding/json %+v %+v", p, got, got.Req, want, want.Req)
		}
	})
}
