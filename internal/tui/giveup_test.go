package tui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
)

// TestQuitWaitingRoomGiveUp: a guest quitting another's table that waits
// for players is asked, whole at 80×24 in their language, whether to keep
// the seat, give it up or stay. k keeps it and quits; g gives it up on
// the server (this seat, with its token) and quits; esc stays; a refusal
// (the game started meanwhile) keeps the program running and says why.
func TestQuitWaitingRoomGiveUp(t *testing.T) {
	for _, tc := range []struct {
		name, lang, key string
		err             error
		calls           int
		givenUp, quits  bool
	}{
		{"keep the seat", "en", "k", nil, 0, false, true},
		{"q again keeps it", "de", "q", nil, 0, false, true},
		{"give it up", "hu", "g", nil, 1, true, true},
		{"stay", "en", "esc", nil, 0, false, false},
		{"n stays", "en", "n", nil, 0, false, false},
		{"an unknown key", "en", "x", nil, 0, false, false},
		{"given up too late", "en", "g", &client.Error{Code: protocol.AlreadyStarted, Message: "the game has started"}, 1, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := client.New("http://localhost:1")
			calls := 0
			giveUp := func(_ context.Context, game, token string, seat int) error {
				calls++
				if game != "k3x7q2m5ab" || token != "tok" || seat != 2 {
					t.Errorf("gave up game %q, token %q, seat %d; want k3x7q2m5ab, tok, 2", game, token, seat)
				}
				return tc.err
			}
			opt := Options{Lang: tc.lang, Remote: RemoteOptions{GiveUp: giveUp}}
			m := NewRemote(t.Context(), c.Session("k3x7q2m5ab", "tok"), 2, "http://localhost:1/g/k3x7q2m5ab", opt)
			m.remote.act = &fakeActor{}
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			m.received(stateMsg{state: &client.State{Seat: 2, Game: protocol.GameInfo{ID: "k3x7q2m5ab", Status: protocol.StatusOpen, Players: 4,
				Seats: []protocol.SeatInfo{{Name: "Ann"}, {Name: "Bot 2 (easy)", Bot: "easy"}, {Name: "Bob"}, {Open: true}}}}})
			m.key(keyMsg("q"))
			s := strings.Join(strings.Fields(screen(m)), " ")
			for _, w := range []string{m.cat.T("waitroom.quit.ask")[:20], "k:", "g:", "esc:", "razzia play"} {
				if !strings.Contains(s, w) {
					t.Errorf("the question lacks %q:\n%s", w, s)
				}
			}
			checkFits(t, m, tc.lang)
			cmd := m.key(keyMsg(tc.key))
			for cmd != nil {
				msg := cmd()
				if _, ok := msg.(tea.QuitMsg); ok {
					break
				}
				_, cmd = m.Update(msg)
			}
			if calls != tc.calls || (m.GivenUp() == "tok") != tc.givenUp || m.quit != tc.quits {
				t.Errorf("give-up called %d times, given up %q, quit %v; want %d, %v, %v", calls, m.GivenUp(), m.quit, tc.calls, tc.givenUp, tc.quits)
			}
			if tc.err != nil {
				contains(t, screen(m), "✗ ")
			}
			if !tc.quits && tc.key != "x" && m.confirm {
				t.Error("the question still shows")
			}
		})
	}
}

// TestGiveUpNotForCreator: the creator of a table that waits is asked
// whether to close it, not whether to give up their seat.
func TestGiveUpNotForCreator(t *testing.T) {
	c, _ := client.New("http://localhost:1")
	opt := Options{Lang: "en", Remote: RemoteOptions{Creator: true, Cancel: func(context.Context) error { return nil },
		GiveUp: func(context.Context, string, string, int) error {
			t.Error("the creator's seat was given up")
			return nil
		}}}
	m := NewRemote(t.Context(), c.Session("k3x7q2m5ab", "tok"), 0, "http://localhost:1/g/k3x7q2m5ab", opt)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.received(stateMsg{state: &client.State{Game: protocol.GameInfo{ID: "k3x7q2m5ab", Status: protocol.StatusOpen, Players: 3}, Seat: 0}})
	m.key(keyMsg("q"))
	contains(t, screen(m), "Close this table?")
	m.key(keyMsg("g"))
}
