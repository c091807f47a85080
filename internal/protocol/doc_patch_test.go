package protocol_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/protocol"
)

// patchExamples adds the examples of protocol version 2: Cy's connection
// at the walk-through's moment (version 41), then Cy calls an auction and
// Ann passes; and the client's resync.
func patchExamples(t *testing.T, add func(string, any)) {
	t.Helper()
	players := []string{"Ann", "Bot 2 (hard)", "Cy"}
	g, err := razzia.NewGame(razzia.Setup{Players: players})
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range exampleMoves {
		if err := g.PlayToken(tok); err != nil {
			t.Fatal(err)
		}
	}
	at := func(version int64) (protocol.StateMessage, []byte) {
		info := exampleInfo(protocol.StatusPlaying, g.Len())
		info.Updated = info.Updated.Add(time.Duration(version-41) * 7 * time.Second)
		to := g.ToMove()
		info.ToMove = &to
		view := protocol.NewView(g.View(2))
		m := protocol.StateMessage{Type: protocol.TypeState, Game: info, Seat: 2, View: &view, Version: version}
		doc, err := m.AppendState(nil)
		if err != nil {
			t.Fatal(err)
		}
		return m, doc
	}
	whole, last := at(41)
	whole.Events = protocol.Events(g.Events(), players, nil)
	lean, err := whole.AppendLean(nil)
	if err != nil {
		t.Fatal(err)
	}
	add("state-numbered", json.RawMessage(lean))
	for i, tok := range []string{"call", "pass"} {
		n := g.Len()
		if err := g.PlayToken(tok); err != nil {
			t.Fatal(err)
		}
		version := int64(42 + i)
		_, doc := at(version)
		patch, _, err := protocol.AppendDiff(nil, last, doc)
		if err != nil {
			t.Fatal(err)
		}
		p := protocol.PatchMessage{Type: protocol.TypePatch, Base: version - 1, Version: version,
			Events: protocol.Events(g.EventsSince(n), players, nil), Patch: json.RawMessage(patch)}
		msg, err := p.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		add("patch-"+tok, json.RawMessage(msg))
		last = doc
	}
	add("resync", protocol.ResyncMessage{Type: protocol.TypeResync})
}
