package httpapi

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/razziagame/razzia/internal/protocol"
)

// TestHandlersNameTheTypes: the types a client is told of, when it sends
// one nobody knows, are exactly those with a handler.
func TestHandlersNameTheTypes(t *testing.T) {
	err := (&protocol.MoveMessage{Type: "dance"}).Check()
	if err == nil {
		t.Fatal("a message of type dance passed the check")
	}
	var told []string
	for _, m := range regexp.MustCompile(`"([a-z]+)"`).FindAllStringSubmatch(err.Error(), -1)[1:] { // the first is "dance"
		told = append(told, m[1])
	}
	slices.Sort(told)
	if handled := slices.Sorted(maps.Keys(wsHandlers)); !slices.Equal(told, handled) {
		t.Errorf("the client is told of the types %q; handled are %q", told, handled)
	}
}

// TestMessageType reads the type of any message, "" when there is none.
func TestMessageType(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"a move", `{"type":"move","move":"draw","seq":0}`, "move"},
		{"type last", `{"seat":1,"type":"mute"}`, "mute"},
		{"no type", `{"move":"draw"}`, ""},
		{"not a string", `{"type":7}`, ""},
		{"malformed", `{"type":"move",`, ""},
		{"not an object", `["move"]`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := messageType([]byte(tt.data)); got != tt.want {
				t.Errorf("messageType(%s) = %q, want %q", tt.data, got, tt.want)
			}
		})
	}
}

// TestInboundFields: inbound has the fields of every handler's form, by
// their JSON names and types, and no other; the names are lower case
// ASCII, as keysIn matches them.
func TestInboundFields(t *testing.T) {
	in := reflect.TypeFor[inbound]()
	want := map[string]reflect.Type{}
	for typ, h := range wsHandlers {
		form := reflect.TypeOf(h.form)
		for i := range form.NumField() {
			f := form.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name != strings.ToLower(name) || !regexp.MustCompile(`^[a-z]+$`).MatchString(name) {
				t.Errorf("%s: field %q is not lower case ASCII", typ, name)
			}
			if other, ok := want[name]; ok && other != f.Type {
				t.Errorf("field %q is %v in one form, %v in another", name, other, f.Type)
			}
			want[name] = f.Type
		}
	}
	got := map[string]reflect.Type{}
	for i := range in.NumField() {
		if f := in.Field(i); f.IsExported() {
			got[f.Tag.Get("json")] = f.Type
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("inbound's fields %v, the forms' %v", got, want)
	}
}

// TestParseInbound: a message decoded once into an inbound gives its
// form's fields as decoding it into its form alone does, and a message
// its form refuses is refused with the form's error, word for word.
func TestParseInbound(t *testing.T) {
	for _, data := range []string{
		`{"type":"move","move":"draw","seq":0}`,
		` {"seq":3, "move":"bid 9" ,"type":"move"} `,
		`{"type":"move","action":"thieves","cards":["a","b"],"cheque":0,"seq":1}`,
		`{"TYPE":"move","Move":"draw","SEQ":2}`,
		`{"type":"move","mo\u0076e":"draw","seq":0}`,
		`{"type":"move","movе":"draw","seq":0}`, // a Cyrillic e
		`{"type":"move","move":"draw","seq":0,"text":"hi"}`,
		`{"type":"move","move":"draw","seq":0,"seq":1}`,
		`{"type":"move","move":"dr\"aw:","seq":0}`,
		`{"type":"move","move":"draw","seq":0}{}`,
		`{"type":"move","move":"draw","seq":0} x`,
		`{"type":"move","move":7}`,
		`{"type":"move",`,
		`{"type":"move","card":"police"}`,
		`{"type":"chat","move":"hi"}`,
		`{"type":"chat","phrase":"gg","to":1}`,
		`{"type":"chat","text":"a \"quoted\" {text}: [1]"}`,
		`{"type":"dance","move":"draw","seq":0}`,
		`{"type":"dance","phrase":"x"}`,
		`{"move":"draw","seq":0}`,
		`{"type":7}`,
		`["move"]`,
		`null`,
		``,
		`{"type":"mute","seat":2}`,
		`{"type":"unmute","seat":"2"}`,
		`{"type":"rematch","accept":true}`,
		`{"type":"rematch","accept":true,"seats":2}`,
		`{"type":"away","away":false}`,
		`{"type":"resync"}`,
		`{"type":"resync","seq":1}`,
		`{"type":"takeback","move":""}`,
		`{"type":"premove","move":"pass","extra":{"move":1}}`,
		`{"type":"premove","move":"pass","seat":{"type":1}}`,
		// parseMove's edges: each decoded by it, or left to the rest.
		"\t{ \"move\" : \"thief 3 7\" ,\n\"seq\":-0,\"type\" :\"move\"}\r\n",
		`{"type":"move","move":"draw","seq":01}`,
		`{"type":"move","move":"draw","seq":1.0}`,
		`{"type":"move","move":"draw","seq":1e2}`,
		`{"type":"move","move":"draw","seq":-}`,
		`{"type":"move","move":"draw","seq":123456789}`,
		`{"type":"move","move":"draw","seq":12345678901234567890}`,
		`{"type":"move","move":"draw","seq":null}`,
		`{"type":"move","move":"draw","seq":"1"}`,
		`{"type":"move","move":"","seq":-1}`,
		`{"type":"move","move":"draw"}`,
		`{"type":"move","move":"draw","move":"pass","seq":0}`,
		`{"type":"move","type":"move","move":"draw","seq":0}`,
		`{"type":"move","move":"dräw","seq":0}`,
		`{"type":"move","move":"dr\u0061w","seq":0}`,
		`{"type":"movE","move":"draw","seq":0}`,
		`{"type":"move","move":"draw","seq":0,}`,
		`{"type":"move","move":"draw","seq":0 `,
		`{"type":"move""move":"draw","seq":0}`,
		`{"type":"move","move":"draw","seq":0}}`,
		`{"type":"premove","move":"draw","seq":0}`,
	} {
		t.Run(data, func(t *testing.T) { checkParse(t, []byte(data)) })
	}
}

// FuzzParseInbound: parseInbound takes any message as its form does.
func FuzzParseInbound(f *testing.F) {
	f.Add([]byte(`{"type":"move","move":"draw","seq":0}`))
	f.Add([]byte(`{"type":"chat","text":"a \"b\": {c}","Phrase":""}`))
	f.Add([]byte(`{"type":"mute","seat":1,"x":[{"seat":2}]}`))
	f.Fuzz(checkParse)
}

// checkParse checks that parseInbound decodes data as data's form does:
// the same error, or the same fields.
func checkParse(t *testing.T, data []byte) {
	h := handlerOf(messageType(data))
	form := reflect.New(reflect.TypeOf(h.form))
	want := decodeMessage(data, form.Interface())
	var m inbound
	got, err := parseInbound(data, &m)
	if fmt.Sprint(err) != fmt.Sprint(want) {
		t.Fatalf("parseInbound(%s): %v, want %v", data, err, want)
	}
	if err != nil {
		return
	}
	if got != handlerOf(m.Type) {
		t.Errorf("the handler is not its type's, %q", m.Type)
	}
	// What parseMove takes, encoding/json decodes alike.
	var fast, slow inbound
	if parseMove(data, &fast) {
		if err := json.Unmarshal(data, &slow); err != nil {
			t.Fatalf("parseMove took %s, which encoding/json refuses: %v", data, err)
		}
		if fast.Seq == nil || slow.Seq == nil || *fast.Seq != *slow.Seq {
			t.Fatalf("parseMove(%s): seq %v, encoding/json's %v", data, fast.Seq, slow.Seq)
		}
		fast.Seq, slow.Seq, fast.seqValue = nil, nil, 0
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("parseMove(%s) = %+v, encoding/json's %+v", data, fast, slow)
		}
	}
	in := reflect.ValueOf(m)
	for i := range form.Elem().NumField() {
		name, _, _ := strings.Cut(form.Elem().Type().Field(i).Tag.Get("json"), ",")
		v := in.FieldByNameFunc(func(f string) bool { return strings.EqualFold(f, name) })
		if !reflect.DeepEqual(v.Interface(), form.Elem().Field(i).Interface()) {
			t.Errorf("%s: %s: %v, its form says %v", data, name, v, form.Elem().Field(i))
		}
	}
}

// TestParseMoveAllocs: a move as clients send it is decoded without
// reflection, its token's string its one allocation.
func TestParseMoveAllocs(t *testing.T) {
	data := []byte(`{"type":"move","move":"bid 13","seq":42}`)
	var m inbound
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := parseInbound(data, &m); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 1 || m.Move != "bid 13" || m.Seq == nil || *m.Seq != 42 {
		t.Errorf("%v allocations, %+v", allocs, m)
	}
}

// BenchmarkParseInbound is the decoding of a move on a table socket.
func BenchmarkParseInbound(b *testing.B) {
	data := []byte(`{"type":"move","move":"bid 13","seq":42}`)
	b.ReportAllocs()
	for b.Loop() {
		var m inbound
		if _, err := parseInbound(data, &m); err != nil {
			b.Fatal(err)
		}
	}
}
