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
// decodes them, a move's with no allocation (into the request that holds
// its command and hash) where encoding/json took fifteen: a game's owner
// decodes every move passed to it.
func TestDecodeRequest(t *testing.T) {
	for _, env := range requests() {
		b, err := json.Marshal(env)
		if err != nil {
			t.Fatal(err)
		}
		got, err := parseEnvelope(string(b), new(request))
		if err != nil || !reflect.DeepEqual(got, env) {
			t.Errorf("parseEnvelope(%s) = %+v, %v; want %+v", b, got.Req, err, env.Req)
		}
	}
	b, _ := json.Marshal(requests()[0])
	p := string(b)
	if _, ok := decodeRequest(p, new(request)); !ok {
		t.Fatalf("decodeRequest(%s) left it to encoding/json", p)
	}
	var q request
	if allocs := testing.AllocsPerRun(100, func() { parseEnvelope(p, &q) }); allocs > 0 {
		t.Errorf("parseEnvelope of a move: %v allocations; want none", allocs)
	}
	// An answer, and what ask does not write, go to encoding/json.
	for _, s := range []string{`{"id":3,"from":"n","re":{"kind":"x"}}`, `{"id":3, "from":"n","req":{}}`,
		`{"id":3,"from":"n","req":{},"req":{}}`, `{"id":3,"from":"n","req":{"op":"pl\u0061y"}}`, `{"id":-3,"req":{}}`} {
		if env, ok := decodeRequest(s, new(request)); ok {
			t.Errorf("decodeRequest(%s) = %+v, true; want it left to encoding/json", s, env)
		}
	}
	if env, err := parseEnvelope(`{"id":3,"from":"n","re":{"kind":"x"}}`, new(request)); err != nil || env.Re == nil || env.Re.Kind != "x" {
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
		got, ok := decodeRequest(p, new(request))
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

// TestEncodeRequest: a request is written as encoding/json writes it, a
// move in one allocation (its string): a node passes on every move of its
// players whose game another node runs.
func TestEncodeRequest(t *testing.T) {
	for _, env := range requests() {
		want, err := json.Marshal(env)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := encodeRequest(env); err != nil || got != string(want) {
			t.Errorf("encodeRequest = %s, %v; want %s", got, err, want)
		}
	}
	move := requests()[0]
	if _, ok := appendRequest(nil, move); !ok {
		t.Fatal("a move left to encoding/json")
	}
	if allocs := testing.AllocsPerRun(100, func() { encodeRequest(move) }); allocs > 1 {
		t.Errorf("encodeRequest of a move: %v allocations; want 1", allocs)
	}
}

// FuzzEncodeRequest: whatever a request holds, encodeRequest writes what
// encoding/json writes.
func FuzzEncodeRequest(f *testing.F) {
	f.Add(uint64(1), "node-a", "play", "abcdefghij", []byte{1, 2, 3}, "", "acc", -1, "bid 3", 17, "", "", false, "", true)
	f.Add(uint64(7), "n", "chat", "g", []byte(nil), "Zoë <b>", "", 2, "", -1, "gg", "well \"played\"\n", true, "hard", false)
	f.Fuzz(func(t *testing.T, id uint64, from, op, game string, hash []byte, name, account string, seat int, move string, seq int,
		phrase, text string, mute bool, level string, notice bool) {
		env := envelope{ID: id, From: from, Notice: notice, Req: &match.Command{Kind: match.Kind(op), Game: game, Hash: hash,
			Name: name, Account: account, Seat: seat, Move: move, Seq: seq, Phrase: phrase, Text: text, Mute: mute, Level: level}}
		want, err := json.Marshal(env)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := encodeRequest(env); err != nil || got != string(want) {
			t.Errorf("encodeRequest = %s, %v; want %s", got, err, want)
		}
	})
}
