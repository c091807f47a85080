package protocol_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/gametest"
	"github.com/razziagame/razzia/internal/protocol"
)

// briefCases are server messages and odd ones: DecodeBrief must answer
// each as json.Unmarshal does.
func briefCases(t testing.TB) map[string][]byte {
	cases := map[string][]byte{
		"error":           []byte(`{"type":"error","code":"stale","message":"the game has moved on: \"bid 9\" was late"}`),
		"chat":            []byte(`{"type":"chat","lines":[{"seat":1,"phrase":"gg"}],"muted":[]}`),
		"null view":       []byte(`{"type":"state","game":{"id":"k3x7q2m5ab","status":"open"},"seat":-1,"view":null,"events":[]}`),
		"spaces":          []byte(" {\n\t\"type\" : \"state\" , \"view\" : { \"moves\" : 3 , \"legal\" : [ \"draw\" , \"call\" ] } , \"seat\" : 2 }\r\n"),
		"empty":           []byte(`{}`),
		"empty view":      []byte(`{"view":{}}`),
		"escaped key":     []byte(`{"typ\u0065":"state","seat":1}`),
		"cased key":       []byte(`{"Seat":3,"type":"state"}`),
		"cased view key":  []byte(`{"view":{"Moves":4}}`),
		"twice":           []byte(`{"seat":1,"seat":2}`),
		"view twice":      []byte(`{"view":{"moves":1,"phase":"turn"},"view":{"moves":2}}`),
		"view then null":  []byte(`{"view":{"moves":1},"view":null}`),
		"wrong type":      []byte(`{"type":"state","seat":"one","code":"x"}`),
		"wrong view type": []byte(`{"view":{"legal":"draw","moves":2}}`),
		"escapes":         []byte(`{"message":"a \\\"quoted\\\" } ] { [ line\n","type":"error","view":{"phase":"t\"urn"}}`),
		"unknown":         []byte(`{"events":[{"text":"}{][\""}],"x":{"y":[1,{"z":null}]},"seat":5,"n":-1.5e3,"t":true}`),
		"array":           []byte(`[1,2]`),
		"string":          []byte(`"state"`),
		"invalid":         []byte(`{"type":"state","seat":1`),
		"trailing":        []byte(`{"seat":1} x`),
		"bad literal":     []byte(`{"seat":1,"x":tru}`),
		"nothing":         nil,
		"bad utf-8":       []byte("{\"type\":\"st\xffate\",\"view\":{\"legal\":[\"dr\xc3aw\"]}}"),
		"big number":      []byte(`{"seat":99999999999999999999}`),
		"fraction":        []byte(`{"view":{"moves":1.5}}`),
		"numbers listed":  []byte(`{"view":{"legal":["draw",1]}}`),
		"null members":    []byte(`{"type":null,"seat":null,"view":{"legal":null,"phase":null}}`),
		"empty legal":     []byte(`{"view":{"legal":[ ]}}`),
	}
	g := gametest.Random(t, 4, 7)
	events := g.Events()
	for _, seat := range []int{0, 3, -1} {
		view := protocol.NewView(g.View(seat))
		info := protocol.GameInfo{ID: "k3x7q2m5ab", Status: protocol.StatusPlaying, Players: 4, Moves: g.Len(), Invite: "/g/k3x7q2m5ab"}
		data, err := json.Marshal(protocol.StateMessage{Type: protocol.TypeState, Game: info, Seat: seat, View: &view,
			Events: protocol.Events(events[len(events)-2:], g.Players(), english)})
		if err != nil {
			t.Fatal(err)
		}
		cases["state of seat "+string(rune('0'+seat+1))] = data
	}
	return cases
}

// TestDecodeBrief: a message decodes as json.Unmarshal decodes it, on the
// fast path and on every way off it.
func TestDecodeBrief(t *testing.T) {
	for name, data := range briefCases(t) {
		t.Run(name, func(t *testing.T) { checkBrief(t, data) })
	}
}

// TestDecodeBriefGame decodes every state of a game, as a seat sees it.
func TestDecodeBriefGame(t *testing.T) {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob", "Cy"}, Seed: []byte("brief game")})
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		seat := g.Len() % 3
		view := protocol.NewView(g.View(seat))
		data, err := json.Marshal(protocol.StateMessage{Type: protocol.TypeState, Seat: seat, View: &view})
		if err != nil {
			t.Fatal(err)
		}
		got := checkBrief(t, data)
		if got.View == nil || got.View.Moves != g.Len() || !reflect.DeepEqual(got.View.Legal, view.Legal) {
			t.Fatalf("move %d: brief view %+v, want the view's %+v", g.Len(), got.View, view)
		}
		legal := g.LegalMoves()
		if err := g.Play(legal[g.Len()%len(legal)]); err != nil {
			t.Fatal(err)
		}
	}
}

func checkBrief(t *testing.T, data []byte) protocol.BriefMessage {
	t.Helper()
	var want protocol.BriefMessage
	werr := json.Unmarshal(data, &want)
	got, err := protocol.DecodeBrief(data)
	if (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) {
		t.Fatalf("DecodeBrief(%s) error %v, json.Unmarshal's %v", data, err, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("DecodeBrief(%s) = %+v (view %+v), json.Unmarshal's %+v (view %+v)", data, got, got.View, want, want.View)
	}
	return got
}

func FuzzDecodeBrief(f *testing.F) {
	for _, data := range briefCases(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkBrief(t, data) })
}
