package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
)

var manyGames = flag.Int("patch-games", 0, "random games for the patch tests (default 5: -patch-games 3000 for a thorough run)")

// sameJSON reports whether two JSON documents say the same, a null member
// and a missing one being the same.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return reflect.DeepEqual(withoutNulls(va), withoutNulls(vb))
}

// withoutNulls removes the null members of every object in v.
func withoutNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			if x != nil {
				out[k] = withoutNulls(x)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = withoutNulls(x)
		}
		return out
	}
	return v
}

// checkPatch checks that the patch of a into b turns a into b, applied to
// the bytes (AppendPatched) and, with generic, to the decoded value
// (Patch), and returns it.
func checkPatch(t *testing.T, what string, a, b []byte, generic bool) []byte {
	t.Helper()
	p, same, err := AppendDiff([]byte("x"), a, b)
	if err != nil {
		t.Fatalf("%s: AppendDiff: %v", what, err)
	}
	p = p[1:]
	if same != (len(p) == 0) || (same && !bytes.Equal(a, b) && !sameJSON(t, a, b)) {
		t.Fatalf("%s: same %t with patch %s", what, same, p)
	}
	if same {
		return nil
	}
	got, err := AppendPatched([]byte("y"), a, p)
	if err != nil || got[0] != 'y' {
		t.Fatalf("%s: AppendPatched: %v", what, err)
	}
	// Members keep their order: mostly the very bytes.
	if !bytes.Equal(got[1:], b) && !sameJSON(t, got[1:], b) {
		t.Fatalf("%s: patched\n%s\nwith %s\ngives %s\nwant %s", what, a, p, got[1:], b)
	}
	if !generic {
		return p
	}
	var va, vp any
	json.Unmarshal(a, &va)
	json.Unmarshal(p, &vp)
	gen, _ := json.Marshal(Patch(va, vp))
	if !sameJSON(t, gen, b) {
		t.Fatalf("%s: Patch gives %s, want %s", what, gen, b)
	}
	return p
}

func TestDiffAndPatch(t *testing.T) {
	for _, c := range []struct{ name, a, b, patch string }{
		{"same", `{"a":1,"b":[1,2]}`, `{"a":1,"b":[1,2]}`, ``},
		{"a number", `{"a":1,"b":2}`, `{"a":1,"b":3}`, `{"b":3}`},
		{"added", `{"a":1}`, `{"a":1,"b":{"c":null,"d":2}}`, `{"b":{"c":null,"d":2}}`},
		{"removed", `{"a":1,"b":2}`, `{"a":1}`, `{"b":null}`},
		{"became null", `{"a":{"x":1}}`, `{"a":null}`, `{"a":null}`},
		{"null and missing are one", `{"a":null}`, `{}`, ``},
		{"nested", `{"v":{"x":1,"y":{"z":[1]}}}`, `{"v":{"x":1,"y":{"z":[2]}}}`, `{"v":{"y":{"z":[2]}}}`},
		{"one element of many", `{"r":[1,2,3,4,5]}`, `{"r":[1,2,9,4,5]}`, `{"r":{"2":9}}`},
		{"most elements", `{"r":[1,2,3]}`, `{"r":[7,8,3]}`, `{"r":[7,8,3]}`},
		{"objects in an array", `{"s":[{"a":1,"b":2},{"a":3}]}`, `{"s":[{"a":1,"b":5},{"a":4}]}`, `{"s":{"0":{"b":5},"1":{"a":4}}}`},
		{"longer array", `{"r":["a"]}`, `{"r":["a","b"]}`, `{"r":["a","b"]}`},
		{"emptied", `{"r":["a"]}`, `{"r":[]}`, `{"r":[]}`},
		{"keys in another order", `{"a":1,"b":2,"c":3}`, `{"c":3,"a":1,"b":4}`, `{"b":4}`},
		{"a string with braces", `{"t":"a}b"}`, `{"t":"a]c,\"d"}`, `{"t":"a]c,\"d"}`},
		{"from a number to an object", `{"a":5}`, `{"a":{"b":1}}`, `{"a":{"b":1}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := checkPatch(t, c.name, []byte(c.a), []byte(c.b), true)
			if string(p) != c.patch {
				t.Errorf("patch %s, want %s", p, c.patch)
			}
		})
	}
}

func TestDiffRefuses(t *testing.T) {
	for _, c := range []struct{ name, a, b string }{
		{"array to object", `{"a":[1]}`, `{"a":{"0":1}}`},
		{"object to array", `{"a":{"b":1}}`, `{"a":[1]}`},
		{"not JSON", `{"a":1}`, `{"a":}`},
		{"escaped key", `{"a":1}`, `{"\u0061":2}`},
	} {
		if p, _, err := AppendDiff(nil, []byte(c.a), []byte(c.b)); err == nil {
			t.Errorf("%s: patch %s, want an error", c.name, p)
		}
	}
	if _, _, err := AppendDiff(nil, []byte(`{"a":[1]}`), []byte(`{"a":{"x":1}}`)); !errors.Is(err, ErrNotPatchable) {
		t.Errorf("an array become an object: %v, want ErrNotPatchable", err)
	}
	for _, bad := range []string{`{"a":`, `[1,`, `{"a":1}x`, `nul`} {
		if got, err := AppendPatched(nil, []byte(`{"a":[1,2]}`), []byte(bad)); err == nil {
			t.Errorf("AppendPatched with patch %s = %s, want an error", bad, got)
		}
	}
	if got, err := AppendPatched(nil, []byte(`{"a":[1,2]}`), []byte(`{"a":{"1":3,"7":9,"x":1}}`)); err != nil || string(got) != `{"a":[1,3]}` {
		t.Errorf("indices out of the array: %s, %v; want them ignored", got, err)
	}
}

// TestPatchGames: the patch of each state into the next, for every seat
// and a spectator at every moment of random games of 2 to 5 players with
// every optional part of the game's information by turns, turns the one
// into the other, as bytes and as values (go test -patch-games 3000 for
// thousands).
func TestPatchGames(t *testing.T) {
	games := *manyGames
	if games == 0 {
		games = 5
	}
	names := []string{"Miriam", `<b>Felix</b> & "co"`, "Zoë", "Ann\\", "Ed"}
	for i := range games {
		players := razzia.MinPlayers + i%(razzia.MaxPlayers-razzia.MinPlayers+1)
		g, err := razzia.NewGame(razzia.Setup{Players: names[:players], Seed: []byte{byte(i), byte(i >> 8), 'p'}})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		prev := map[int][]byte{}
		for step := 0; ; step++ {
			info := gameInfo(g, step+i, names[:players])
			for seat := -1; seat < players; seat++ {
				v := NewView(g.View(seat))
				m := StateMessage{Type: TypeState, Game: info, Seat: seat, View: &v, PreMove: []string{"", "bid 9"}[(step+seat+2)%2],
					Events: Events(g.EventsSince(max(0, g.Len()-2)), names[:players], teller{}), Version: int64(step + 1)}
				if step%7 == 0 {
					m.View = nil // an open table has none
				}
				doc, err := m.AppendState(nil)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(doc), `"events"`+":[") || strings.Contains(string(doc), `"version"`) {
					t.Fatalf("the state holds the message's events or version: %s", doc)
				}
				if a, ok := prev[seat]; ok {
					what := fmt.Sprintf("game %d, move %d, seat %d", i, g.Len(), seat)
					p := checkPatch(t, what, a, doc, step%8 == 0)
					// The same patch from the states' members found once.
					sa, err1 := NewState(a)
					sb, err2 := NewState(doc)
					q, _, err3 := AppendStateDiff(nil, sa, sb)
					if err := errors.Join(err1, err2, err3); err != nil || string(p) != string(q) {
						t.Fatalf("%s: AppendStateDiff gives %s (%v), AppendDiff %s", what, q, err, p)
					}
				}
				prev[seat] = doc
			}
			if !playOn(t, g, rng) {
				break
			}
		}
	}
}

func TestNegotiateVersion(t *testing.T) {
	for _, c := range []struct {
		list string
		want int
		bad  bool
	}{
		{"", Version1, false}, {"1", 1, false}, {"2", 2, false}, {"1,2", 2, false}, {" 2 , 1 ", 2, false},
		{"2,9", 2, false}, {"9", 0, true}, {"0", 0, true}, {"x", 0, true}, {",", 0, true},
	} {
		got, err := NegotiateVersion(c.list)
		if got != c.want || (err != nil) != c.bad {
			t.Errorf("NegotiateVersion(%q) = %d, %v", c.list, got, err)
		}
		if err != nil && (!errors.Is(err, ErrUnsupportedVersion) || !strings.Contains(err.Error(), "speaks versions 1, 2")) {
			t.Errorf("NegotiateVersion(%q): %v, want the versions spoken named", c.list, err)
		}
	}
}

func TestParsePatch(t *testing.T) {
	data := []byte(`{"type":"patch","base":41,"version":42,"events":[{"kind":"pass","seat":1}],"patch":{"view":{"toMove":2}}}`)
	p, err := ParsePatch(data)
	if err != nil || p.Base != 41 || p.Version != 42 || string(p.Events) != `[{"kind":"pass","seat":1}]` || string(p.Patch) != `{"view":{"toMove":2}}` {
		t.Errorf("ParsePatch = %+v, %v", p, err)
	}
	// A base left out is the version before.
	if p, err := ParsePatch([]byte(`{"type":"patch","version":42,"events":[],"patch":{}}`)); err != nil || p.Base != 41 || p.Version != 42 {
		t.Errorf("ParsePatch without a base = %+v, %v; want base 41", p, err)
	}
	for _, bad := range []string{`{"type":"state"}`, `{"type":"patch","base":1}`, `{"type":"patch","base":"x","patch":{}}`, `[`} {
		if _, err := ParsePatch([]byte(bad)); err == nil {
			t.Errorf("ParsePatch(%s) accepted", bad)
		}
	}
}

// TestStateOf: the state a whole state message carries is the document
// patches change: without the message's events and version.
func TestStateOf(t *testing.T) {
	got, err := StateOf(nil, []byte(`{"type":"state","seat":1,"events":[{"kind":"pass"}],"version":7,"view":null}`))
	if err != nil || string(got) != `{"type":"state","seat":1,"view":null}` {
		t.Errorf("StateOf = %s, %v", got, err)
	}
}

// FuzzPatch: for any two JSON objects, the patch of the one into the
// other turns it into the other.
func FuzzPatch(f *testing.F) {
	f.Add(`{"a":1,"b":[1,2,{"c":null}]}`, `{"a":2,"b":[1,3,{"c":4}],"d":"x"}`)
	f.Add(`{"r":[]}`, `{"r":[{"a":1}]}`)
	f.Fuzz(func(t *testing.T, a, b string) {
		var va, vb map[string]any
		if json.Unmarshal([]byte(a), &va) != nil || json.Unmarshal([]byte(b), &vb) != nil {
			return
		}
		// Compact, as this package encodes.
		ca, _ := json.Marshal(va)
		cb, _ := json.Marshal(vb)
		if _, _, err := AppendDiff(nil, ca, cb); err != nil {
			return // an array become an object, or an escaped key
		}
		checkPatch(t, "fuzz", ca, cb, true)
	})
}

// patchBenchStates returns the states of seat 1 at every moment of a
// four-player game.
func patchBenchStates(b *testing.B) [][]byte {
	names := []string{"Load 1.0", "Load 1.1", "Load 1.2", "Load 1.3"}
	g, err := razzia.NewGame(razzia.Setup{Players: names, Seed: []byte("bench")})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	var docs [][]byte
	for step := 0; !g.Over(); step++ {
		info := gameInfo(g, 3, names)
		v := NewView(g.View(1))
		m := StateMessage{Type: TypeState, Game: info, Seat: 1, View: &v}
		doc, err := m.AppendState(nil)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, doc)
		legal := g.LegalMoves()
		g.Play(legal[rng.IntN(len(legal))])
	}
	return docs
}

// BenchmarkDiff is the patch of a seat's state into the next, a server's
// work for each seat at each move: from the encoded states alone
// (AppendDiff), and from States whose members were found once, as a
// server keeps them (AppendStateDiff, the finding of the new state's
// members included).
func BenchmarkDiff(b *testing.B) {
	docs := patchBenchStates(b)
	b.Run("bytes", func(b *testing.B) {
		var dst []byte
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			k := i % (len(docs) - 1)
			dst, _, _ = AppendDiff(dst[:0], docs[k], docs[k+1])
		}
	})
	b.Run("states", func(b *testing.B) {
		states := make([]*State, len(docs))
		for i, d := range docs {
			states[i], _ = NewState(d)
		}
		var dst []byte
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			k := i % (len(docs) - 1)
			next, _ := NewState(docs[k+1])
			dst, _, _ = AppendStateDiff(dst[:0], states[k], next)
		}
	})
}

// TestSeatState: every seat's state made from the spectators' is the
// seat's own, byte for byte, members found, at every moment of random
// games with pre-moves and the optional parts of the game by turns.
func TestSeatState(t *testing.T) {
	names := []string{"Miriam", `<b>Felix</b> & "co"`, "Zoë", "Ann\\", "Ed"}
	for i := range 5 {
		players := razzia.MinPlayers + i%(razzia.MaxPlayers-razzia.MinPlayers+1)
		g, err := razzia.NewGame(razzia.Setup{Players: names[:players], Seed: []byte{byte(i), 's'}})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 9))
		prevSeat := map[int]*State{}
		for step := 0; ; step++ {
			pm, public := publicMoment(t, g, gameInfo(g, step+i, names[:players]), step%5 == 0)
			for seat := -1; seat < players; seat++ {
				m := seatMoment(g, pm, seat, step)
				want, _ := m.AppendState(nil)
				got, err := SeatState(public, &m)
				if err != nil || string(got.encoded()) != string(want) {
					t.Fatalf("game %d, move %d, seat %d: %v\n got %s\nwant %s", i, g.Len(), seat, err, got.encoded(), want)
				}
				found, _ := NewState(want)
				gotTop, gotView := got.lists(new(diffScratch))
				if !reflect.DeepEqual(gotView, found.view) || len(gotTop) != len(found.top) {
					t.Fatalf("game %d, move %d, seat %d: the members found differ", i, g.Len(), seat)
				}
				for j, mb := range gotTop {
					// A seat's view is known by its members.
					if string(mb.key) != string(found.top[j].key) || (string(mb.value) != string(found.top[j].value) && !(got.split && string(mb.key) == "view")) {
						t.Fatalf("game %d, move %d, seat %d: member %s differs", i, g.Len(), seat, mb.key)
					}
				}
				// The patch from the seat's state and into it, from and
				// into the state of another moment and of a finished game's
				// (found from bytes), is the patch of the bytes.
				if prev, ok := prevSeat[seat]; ok {
					for _, c := range []struct{ a, b *State }{{prev, got}, {got, prev}, {found, prev}, {prev, found}} {
						p, _, err := AppendStateDiff(nil, c.a, c.b)
						q, _, err2 := AppendDiff(nil, c.a.encoded(), c.b.encoded())
						if err != nil || err2 != nil || string(p) != string(q) {
							t.Fatalf("game %d, move %d, seat %d: AppendStateDiff %s (%v), AppendDiff %s (%v)", i, g.Len(), seat, p, err, q, err2)
						}
					}
				}
				prevSeat[seat] = got
			}
			if g.Over() {
				break
			}
			legal := g.LegalMoves()
			g.Play(legal[rng.IntN(len(legal))])
		}
	}
}

// TestDiffLargeDocuments: objects and arrays with more members and
// elements than a diff's pooled lists hold at first, nested, patch as
// small ones do: a deeper level that moves the lists leaves its parents'
// members where they were.
func TestDiffLargeDocuments(t *testing.T) {
	doc := func(v int) []byte {
		var b bytes.Buffer
		b.WriteString(`{`)
		for i := range 140 {
			fmt.Fprintf(&b, `"k%d":{"n":%d,"list":[`, i, (i*v)%7)
			for j := range []int{40, 3}[min(1, i%30)] { // a few long lists
				if j > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `{"x":%d,"y":[%d,%d]}`, (i+j*v)%5, j, (j*v)%3)
			}
			b.WriteString(`]},`)
		}
		fmt.Fprintf(&b, `"last":%d}`, v)
		return b.Bytes()
	}
	for _, pair := range [][2]int{{1, 2}, {2, 3}, {3, 1}} {
		checkPatch(t, fmt.Sprintf("%d into %d", pair[0], pair[1]), doc(pair[0]), doc(pair[1]), true)
	}
}

// TestNewStateOnePass: NewState finds the view's members in the pass
// over the state's, as finding the state's and then reading the view
// again does, for states of a game and for documents that are not what
// a server encodes.
func TestNewStateOnePass(t *testing.T) {
	twoPasses := func(doc []byte) (top, view []jsonMember, err error) {
		if top, err = objectMembers([]jsonMember{}, doc); err != nil {
			return nil, nil, err
		}
		if v := find(top, []byte("view"), new(int)); isObject(v) {
			if view, err = objectMembers([]jsonMember{}, v); err != nil {
				return nil, nil, err
			}
		}
		return top, view, nil
	}
	docs := []string{
		`{"view":{"a":1,"b":[1,{"c":2}]},"x":3}`,
		`{ "type" : "state" , "view" : { "a" : { "b" : "}" } } }`,
		`{"view":{}}`,
		`{"view":null,"x":{"view":{"a":1}}}`,
		`{"view":[1,2],"view":{"a":1}}`,
		`{"view":{"a":1},"view":{"b":2}}`,
		`{"view":{"a":1 "b":2},"x":1}`,
		`{"view":{"a":1},"x"}`,
		`{"view":{"a\"":1}}`,
		`{"view":{"a":1}`,
		`{"view":{"a":1}}trailing`,
		`{}`,
		`[]`,
		``,
	}
	names := []string{"Miriam", "Felix", "Zoë"}
	g, err := razzia.NewGame(razzia.Setup{Players: names, Seed: []byte("one pass")})
	if err != nil {
		t.Fatal(err)
	}
	for step := 0; step < 40 && !g.Over(); step++ {
		v := NewView(g.View(step % 3))
		m := StateMessage{Type: TypeState, Game: gameInfo(g, step, names), Seat: step % 3, View: &v, PreMove: "bid 3"}
		doc, _ := m.AppendLean(nil)
		docs = append(docs, string(doc))
		g.Play(g.LegalMoves()[step%len(g.LegalMoves())])
	}
	for _, doc := range docs {
		wantTop, wantView, wantErr := twoPasses([]byte(doc))
		st, err := NewState([]byte(doc))
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%s: error %v, want %v", doc, err, wantErr)
		}
		if err != nil {
			continue
		}
		if !reflect.DeepEqual(st.top, wantTop) || !reflect.DeepEqual(st.view, wantView) {
			t.Errorf("%s: members\n%q %q\nwant\n%q %q", doc, st.top, st.view, wantTop, wantView)
		}
	}
}
