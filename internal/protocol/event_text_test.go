package protocol

import (
	"encoding/json"
	"testing"

	"github.com/razziagame/razzia"
)

// FuzzEventText: an event's text is encoded as json.Marshal encodes the
// string, whatever it holds, and reads back the same.
func FuzzEventText(f *testing.F) {
	for _, s := range []string{"Ann bids 9.", "Zoë <b>&</b> \"x\"\\", "\u2028\u2029\x00\x1f\x7f", "\xff\xfe bad", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		e := Event{Event: razzia.Event{Kind: razzia.EventBid, Seat: 1, Cheque: 9}, Text: text}
		got, err := e.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		plain, err := e.Event.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		want := plain
		if text != "" {
			quoted, err := json.Marshal(text)
			if err != nil {
				t.Fatal(err)
			}
			want = append(append(append(plain[:len(plain)-1:len(plain)-1], `,"text":`...), quoted...), '}')
		}
		if string(got) != string(want) {
			t.Fatalf("text %q encodes as %s, want %s", text, got, want)
		}
		var back Event
		if err := json.Unmarshal(got, &back); err != nil || back.Event.Kind != e.Event.Kind {
			t.Fatalf("%s does not read back: %v", got, err)
		}
	})
}
