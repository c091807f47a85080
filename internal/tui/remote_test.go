package tui

import (
	"context"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
)

// TestRemoteStake: a seat on a server reads what is at stake from the
// server's view, as a local game shows it: in round 3 for the bid
// selected (TestStakeFollowsTheBid plays the same game locally).
func TestRemoteStake(t *testing.T) {
	local := scripted(t, "en", roundThree...)
	view := protocol.NewView(local.Game().View(0))
	m := NewRemote(context.Background(), nil, 0, "", Options{Lang: "en"})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	// The command it returns would wait for the next state: not run here.
	m.received(stateMsg{state: &client.State{Game: protocol.GameInfo{Status: protocol.StatusPlaying}, Seat: 0, View: &view, First: true}})
	if m.over != noOverlay {
		press(m, "esc")
	}
	contains(t, screen(m), "Round 3 of 3", "▶ Pass", "Worth to you now, for 2: ■ +5  ● +3  = +8")
	m.key(keyMsg("1"))
	m.key(keyMsg("3"))
	contains(t, screen(m), "▶ Bid 13", "Worth to you now, for 13: ■ +5  ● +3  $ -5  = +3")
}
