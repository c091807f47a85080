package protocol

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/razziagame/razzia"
)

func TestMoveMessageToken(t *testing.T) {
	seq := 3
	tests := []struct {
		name string
		msg  MoveMessage
		want string // "" for an error
	}{
		{"token", MoveMessage{Move: "bid 9"}, "bid 9"},
		{"typed bid", MoveMessage{Action: "bid", Cheque: 9}, "bid 9"},
		{"typed thieves", MoveMessage{Action: "thieves", Cards: []string{"gold", "driver"}}, "thief gold driver"},
		{"typed draw", MoveMessage{Action: "draw"}, "draw"},
		{"both agree", MoveMessage{Move: "thief driver gold", Action: "thieves", Cards: []string{"gold", "driver"}}, "thief gold driver"},
		{"both differ", MoveMessage{Move: "bid 8", Action: "bid", Cheque: 9}, ""},
		{"unknown action", MoveMessage{Action: "steal"}, ""},
		{"cheque without action", MoveMessage{Move: "pass", Cheque: 9}, ""},
		{"cards on a bid", MoveMessage{Action: "bid", Cheque: 9, Cards: []string{"car"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.msg.Type, tt.msg.Seq = TypeMove, &seq
			if err := tt.msg.Check(); err != nil {
				t.Fatalf("Check: %v", err)
			}
			got, err := tt.msg.Token()
			if (err != nil) != (tt.want == "") || got != tt.want {
				t.Errorf("Token() = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	for name, m := range map[string]MoveMessage{
		"no seq":       {Type: TypeMove, Move: "draw"},
		"negative seq": {Type: TypeMove, Move: "draw", Seq: new(-1)},
		"no move":      {Type: TypeMove, Seq: &seq},
		"chat":         {Type: "chat", Move: "draw", Seq: &seq},
	} {
		if m.Check() == nil {
			t.Errorf("%s: Check accepts %+v", name, m)
		}
	}
}

// TestMoveOf: the typed form of every sort of move, and back.
func TestMoveOf(t *testing.T) {
	for _, tt := range []struct {
		m    razzia.Move
		want string
	}{
		{razzia.Draw(razzia.NoKind), `{"token":"draw","action":"draw"}`},
		{razzia.Draw(razzia.Car), `{"token":"draw car","action":"draw","card":"car"}`},
		{razzia.Call(), `{"token":"call","action":"call"}`},
		{razzia.Pass(), `{"token":"pass","action":"pass"}`},
		{razzia.Bid(13), `{"token":"bid 13","action":"bid","cheque":13}`},
		{razzia.Thieves(razzia.Gold, razzia.Driver), `{"token":"thief driver gold","action":"thieves","cards":["driver","gold"]}`},
	} {
		mv := MoveOf(tt.m)
		b, _ := json.Marshal(mv)
		if string(b) != tt.want {
			t.Errorf("%v: %s, want %s", tt.m, b, tt.want)
		}
		if tt.m.Card != razzia.NoKind {
			continue // a client never sends the card drawn
		}
		msg := MoveMessage{Type: TypeMove, Action: mv.Action, Cheque: mv.Cheque, Cards: mv.Cards}
		if tok, err := msg.Token(); err != nil || tok != mv.Token {
			t.Errorf("%v: typed back to %q, %v", tt.m, tok, err)
		}
	}
}

func TestEventJSON(t *testing.T) {
	e := Event{Event: razzia.Event{Kind: razzia.EventBid, Seat: 1, Cheque: 9}, Text: `Bob <b> bids 9.`}
	b, err := json.Marshal(e)
	if err != nil || string(b) != `{"kind":"bid","seat":1,"cheque":9,"text":"Bob \u003cb\u003e bids 9."}` {
		t.Fatalf("%s, %v", b, err)
	}
	var back Event
	if err := json.Unmarshal(b, &back); err != nil || back.Text != e.Text || back.Event.Cheque != 9 || back.Event.Seat != 1 {
		t.Errorf("back: %+v, %v", back, err)
	}
	// Without a sentence the engine's JSON is unchanged; unknown kinds fail.
	if b, _ := json.Marshal(Event{Event: e.Event}); string(b) != `{"kind":"bid","seat":1,"cheque":9}` {
		t.Errorf("without text: %s", b)
	}
	if err := json.Unmarshal([]byte(`{"kind":"earthquake"}`), &back); err == nil {
		t.Error("an unknown kind decodes")
	}
}

// TestBriefFields checks that the brief types are parts of the full ones:
// each field has the name, JSON key and type of a field of the full type
// (a brief type where the full one has its own), so the wire format is
// defined once.
func TestBriefFields(t *testing.T) {
	for _, c := range []struct{ brief, full any }{{BriefMessage{}, Message{}}, {BriefView{}, View{}}} {
		bt, ft := reflect.TypeOf(c.brief), reflect.TypeOf(c.full)
		for i := range bt.NumField() {
			b := bt.Field(i)
			f, ok := ft.FieldByName(b.Name)
			switch {
			case !ok:
				t.Errorf("%s.%s: %s has no such field", bt.Name(), b.Name, ft.Name())
			case b.Tag.Get("json") != f.Tag.Get("json"):
				t.Errorf("%s.%s: JSON key %q, %s's is %q", bt.Name(), b.Name, b.Tag.Get("json"), ft.Name(), f.Tag.Get("json"))
			case b.Type != f.Type && !(b.Type == reflect.TypeFor[*BriefView]() && f.Type == reflect.TypeFor[*View]()):
				t.Errorf("%s.%s: type %v, %s's is %v", bt.Name(), b.Name, b.Type, ft.Name(), f.Type)
			}
		}
	}
	// And a state decodes the same either way.
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob"}, Seed: []byte("brief")})
	if err != nil {
		t.Fatal(err)
	}
	v := NewView(g.View(0))
	data, err := json.Marshal(StateMessage{Type: TypeState, Game: GameInfo{ID: "k3x7q2m5ab", Moves: 0}, Seat: 0, View: &v})
	if err != nil {
		t.Fatal(err)
	}
	var brief BriefMessage
	if err := json.Unmarshal(data, &brief); err != nil {
		t.Fatal(err)
	}
	got := brief.View.View()
	if brief.Type != TypeState || brief.Game.ID != "k3x7q2m5ab" || got.Seat != 0 || got.ToMove != v.ToMove ||
		got.Phase != v.Phase || !reflect.DeepEqual(got.Legal, v.Legal) || !got.MyTurn() {
		t.Errorf("brief %+v, view %+v; want the parts of %+v", brief, got, v)
	}
}
