package tui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
)

// TestRemoteChat: at a server's table the newest chat lines show under
// the table (a phrase in the reader's language, free text as typed, a
// muted line withheld), m picks a quick phrase and M sends it.
func TestRemoteChat(t *testing.T) {
	local := scripted(t, "de", auctionMoves...)
	view := protocol.NewView(local.Game().View(0))
	m := NewRemote(context.Background(), nil, 0, "", Options{Lang: "de"})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.received(stateMsg{state: &client.State{Game: protocol.GameInfo{Status: protocol.StatusPlaying}, Seat: 0, View: &view, First: true}})
	if m.over != noOverlay {
		press(m, "esc")
	}
	cmd := m.received(stateMsg{state: &client.State{Chat: &protocol.ChatMessage{Type: protocol.TypeChat, Lines: []protocol.ChatLine{
		{Seq: 0, Seat: 1, Name: "Bob", Channel: protocol.ChannelPlayers, Phrase: "hello"},
		{Seq: 1, Seat: 1, Name: "Bob", Channel: protocol.ChannelPlayers, Phrase: "gg"},
		{Seq: 2, Seat: 2, Name: "Cleo", Channel: protocol.ChannelPlayers, Text: "<b>gut</b> https://x.example"},
	}}}})
	if cmd == nil {
		t.Error("after a chat message the terminal does not wait for the next")
	}
	m.received(stateMsg{state: &client.State{Chat: &protocol.ChatMessage{Type: protocol.TypeChat, Lines: []protocol.ChatLine{
		{Seq: 3, Seat: 2, Name: "Cleo", Channel: protocol.ChannelPlayers, Muted: true},
	}}}})
	checkFits(t, m, "chat")
	s := screen(m)
	contains(t, s, "Cleo: <b>gut</b> https://x.example", "Cleo: "+m.cat.T("chat.muted"))
	// A line an operator removed is sent again, and replaces the one shown.
	m.received(stateMsg{state: &client.State{Chat: &protocol.ChatMessage{Type: protocol.TypeChat, Lines: []protocol.ChatLine{
		{Seq: 2, Seat: 2, Name: "Cleo", Channel: protocol.ChannelPlayers, Removed: true},
	}}}})
	if s := screen(m); !strings.Contains(s, "Cleo: "+m.cat.T("moderation.chat.removed")) || strings.Contains(s, "gut") {
		t.Errorf("a removed line still shows, or its notice does not:\n%s", s)
	}
	if strings.Contains(s, m.cat.T("chat.phrase.hello")) {
		t.Error("an old chat line stays on the screen")
	}
	m.key(keyMsg("m"))
	contains(t, screen(m), m.cat.T("tui.chat.pick", "phrase", m.cat.T("chat.phrase.hello")))
	m.key(keyMsg("m"))
	contains(t, screen(m), m.cat.T("tui.chat.pick", "phrase", m.cat.T("chat.phrase.gl")))
	if m.key(keyMsg("M")) == nil {
		t.Error("M sends nothing")
	}
	if m.remote.phrase != "gl" {
		t.Errorf("M sent %q, want gl", m.remote.phrase)
	}
}
