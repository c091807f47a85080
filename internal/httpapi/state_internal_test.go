package httpapi

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/table"
)

// TestStateMessageAsMarshal: the state messages a connection is sent,
// encoded by hand (protocol.StateMessage.AppendJSON) into a shared
// buffer, are the bytes json.Marshal makes of them, in every language,
// at every move of a game, and none shares memory with the next.
func TestStateMessageAsMarshal(t *testing.T) {
	players := []string{"Miriam", "Zoë", "<Felix> & co"}
	g, err := razzia.NewGame(razzia.Setup{Players: players, Seed: []byte("state")})
	if err != nil {
		t.Fatal(err)
	}
	info := protocol.GameInfo{ID: "abc", Status: protocol.StatusPlaying, Players: len(players), Invite: "/g/abc",
		Created: time.Unix(1, 2).UTC(), Updated: time.Unix(3, 4).UTC()}
	for _, name := range players {
		info.Seats = append(info.Seats, protocol.SeatInfo{Name: name})
	}
	var earlier [][]byte
	var wants []string
	for i := 0; !g.Over(); i++ {
		for _, tag := range []string{"en", "de", "hu"} {
			cat, _ := i18n.Lookup(tag)
			seat := i%(len(players)+1) - 1
			v := protocol.NewView(g.View(seat))
			u := table.Update{Game: info, Seat: seat, View: &v, Events: g.EventsSince(max(0, g.Len()-2)),
				TakeOvers: []protocol.TakeOver{{Seat: 1, Bot: "easy", Reason: protocol.ReasonTimeout, At: time.Unix(5, 6).UTC()}}}
			got, err := stateMessage(u, cat)
			if err != nil {
				t.Fatal(err)
			}
			want, err := json.Marshal(protocol.StateMessage{Type: protocol.TypeState, Game: u.Game, Seat: u.Seat, View: u.View,
				Events: protocol.Events(u.Events, players, cat), TakeOvers: takeOvers(u.TakeOvers, players, cat)})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Fatalf("move %d, %s:\n got %s\nwant %s", g.Len(), tag, got, want)
			}
			earlier, wants = append(earlier, got), append(wants, string(want))
		}
		legal := g.LegalMoves()
		if err := g.Play(legal[i%len(legal)]); err != nil {
			t.Fatal(err)
		}
	}
	for i := range earlier {
		if string(earlier[i]) != wants[i] {
			t.Fatalf("message %d changed after it was sent", i)
		}
	}
}
