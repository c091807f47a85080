package client

import (
	"encoding/json"

	"github.com/razziagame/razzia"
)

// decodeEvents turns the server's events into the engine's. Events of a
// kind or with names this client does not know are left out, and unknown
// fields ignored, as the protocol asks of clients.
func decodeEvents(raw []json.RawMessage) []razzia.Event {
	events := make([]razzia.Event, 0, len(raw))
	for _, r := range raw {
		var e razzia.Event
		if json.Unmarshal(r, &e) == nil {
			events = append(events, e)
		}
	}
	return events
}
