package protocol

import (
	"encoding/json"
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
