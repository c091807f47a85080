package protocol_test

import (
	"encoding/json"
	"testing"

	"github.com/razziagame/razzia/internal/gametest"
	"github.com/razziagame/razzia/internal/protocol"
)

// BenchmarkDecodeState decodes a state message of a four-player game at
// its end (the largest view), whole (as a player's client does), brief
// with json.Unmarshal and with DecodeBrief (as the load generator does),
// beside the server's cost to encode it.
func BenchmarkDecodeState(b *testing.B) {
	g := gametest.Random(b, 4, 1)
	seat := 0
	view := protocol.NewView(g.View(seat))
	events := g.Events()
	msg := protocol.StateMessage{Type: protocol.TypeState, Game: exampleInfo(protocol.StatusPlaying, g.Len()), Seat: seat, View: &view,
		Events: protocol.Events(events[len(events)-2:], g.Players(), english)}
	data, err := json.Marshal(msg)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("encode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := json.Marshal(msg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("whole", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			var m protocol.Message
			if err := json.Unmarshal(data, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("brief", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			var m protocol.BriefMessage
			if err := json.Unmarshal(data, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("DecodeBrief", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := protocol.DecodeBrief(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
