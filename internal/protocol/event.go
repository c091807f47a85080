package protocol

import (
	"encoding/json"

	"github.com/razziagame/razzia"
)

// An Event is one thing that happened: the engine's event, whose JSON it
// keeps ({"kind": "bid", "seat": 1, "cheque": 9}), with the sentence that
// tells it in the reader's language ("text"), so that no client needs to
// narrate.
type Event struct {
	razzia.Event
	Text string // empty when nobody asked for sentences
}

// MarshalJSON encodes the engine's event with "text" added.
func (e Event) MarshalJSON() ([]byte, error) {
	b, err := e.Event.MarshalJSON()
	if err != nil || e.Text == "" {
		return b, err
	}
	b = append(b[:len(b)-1], `,"text":`...)
	return append(appendString(b, e.Text), '}'), nil
}

// UnmarshalJSON decodes what MarshalJSON encodes.
func (e *Event) UnmarshalJSON(b []byte) error {
	var text struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &text); err != nil {
		return err
	}
	if err := e.Event.UnmarshalJSON(b); err != nil {
		return err
	}
	e.Text = text.Text
	return nil
}

// A Narrator tells an event in a sentence, naming the players:
// i18n.Catalogue in the server.
type Narrator interface {
	Narrate(e razzia.Event, players []string) string
}

// Events returns the engine's events told by n (nil: without sentences);
// never nil, so that an empty list encodes as [].
func Events(events []razzia.Event, players []string, n Narrator) []Event {
	out := make([]Event, len(events))
	for i, e := range events {
		out[i].Event = e
		if n != nil {
			out[i].Text = n.Narrate(e, players)
		}
	}
	return out
}
