package tui

import (
	"context"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/i18n"
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

// The terminal shows every refusal of the server in its language: the
// limits' codes too. A table that expired ends the session; too many
// connections does not (the session reconnects later).
func TestServerRefusals(t *testing.T) {
	c, err := client.New("http://localhost:1")
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range i18n.Languages() {
		cat, _ := i18n.Lookup(lang.Tag)
		for _, ci := range protocol.Codes() {
			m := NewRemote(t.Context(), c.Session("k3x7q2m5ab", ""), 0, "", Options{Lang: lang.Tag})
			cmd := m.received(stateMsg{err: &client.Error{Code: ci.Code, Message: "English from the server"}})
			if want := cat.T("error." + string(ci.Code)); m.notice != want || !m.failed {
				t.Errorf("%s %s: notice %q, want %q", lang.Tag, ci.Code, m.notice, want)
			}
			ends := ci.Code == protocol.NotFound || ci.Code == protocol.TableExpired
			if (m.remote.ended != nil) != ends || (cmd == nil) != ends {
				t.Errorf("%s: the session ended %v, want %v", ci.Code, m.remote.ended != nil, ends)
			}
		}
	}
}
