package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
)

// fakeLobby is a server's lobby in memory: what the terminal asked of it.
type fakeLobby struct {
	seeks      protocol.SeeksAnswer
	challenges []protocol.ChallengeInfo
	answered   []string // "id accept" or "id reason"
	cancelled  []string
}

func (f *fakeLobby) Seeks(context.Context) (protocol.SeeksAnswer, error) { return f.seeks, nil }
func (f *fakeLobby) Seek(_ context.Context, r protocol.SeekRequest) (protocol.SeekInfo, error) {
	return protocol.SeekInfo{}, &client.Error{Code: protocol.TooManySeeks}
}
func (f *fakeLobby) JoinSeek(context.Context, string, string) (protocol.SeekInfo, error) {
	return protocol.SeekInfo{}, nil
}
func (f *fakeLobby) CancelSeek(_ context.Context, id string) (protocol.SeekInfo, error) {
	f.cancelled = append(f.cancelled, id)
	return protocol.SeekInfo{ID: id, Status: protocol.SeekCancelled}, nil
}
func (f *fakeLobby) Challenges(context.Context) ([]protocol.ChallengeInfo, error) {
	return f.challenges, nil
}
func (f *fakeLobby) Answer(_ context.Context, id string, accept bool, reason string) (protocol.ChallengeInfo, error) {
	if accept {
		reason = "accept"
	}
	f.answered = append(f.answered, id+" "+reason)
	return protocol.ChallengeInfo{ID: id, Status: protocol.ChallengeDeclined}, nil
}
func (f *fakeLobby) Online(context.Context) (client.OnlineList, error) {
	return client.OnlineList{People: []client.Online{{Name: "Cy", Guest: true, Activity: "lobby"}}, Online: 1}, nil
}

// driveLobby runs cmd's message through the lobby, and what that returns,
// as the program would, but for ticks and the quit.
func driveLobby(l *Lobby, cmd tea.Cmd) {
	for cmd != nil {
		msg := cmd()
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				driveLobby(l, c)
			}
			return
		}
		switch msg.(type) {
		case lobbyTick, tea.QuitMsg:
			return
		}
		_, cmd = l.Update(msg)
	}
}

func pressLobby(l *Lobby, key string) {
	r := []rune(key)
	k := tea.KeyPressMsg{Code: r[0], Text: key}
	switch key {
	case "tab":
		k = tea.KeyPressMsg{Code: tea.KeyTab}
	case "down":
		k = tea.KeyPressMsg{Code: tea.KeyDown}
	}
	_, cmd := l.Update(k)
	driveLobby(l, cmd)
}

// TestLobbyKeys: the lobby lists a challenge, the person's request and
// another's; tab chooses a decline's reason and d sends it; x cancels the
// person's request; a refused request shows the refusal's text.
func TestLobbyKeys(t *testing.T) {
	now := time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)
	f := &fakeLobby{
		seeks: protocol.SeeksAnswer{
			Seeks: []protocol.SeekInfo{{ID: "k2", Name: "Dee", Min: 2, Max: 2, Pace: "blitz", Status: protocol.SeekOpen, Created: now.Add(-42 * time.Second)}},
			Mine:  []protocol.SeekInfo{{ID: "k1", Name: "Bob", Min: 2, Max: 4, Pace: "rapid", Status: protocol.SeekOpen, Mine: true, Created: now}},
		},
		challenges: []protocol.ChallengeInfo{{ID: "c1", From: "Ann", To: []protocol.ChallengedInfo{{Name: "Bob"}}, Pace: "rapid",
			Status: protocol.ChallengeOpen, Expires: now.Add(time.Minute)}},
	}
	l := NewLobby(t.Context(), f, LobbyOptions{Lang: "en", Server: "http://razzia.test", Me: "Bob", Clock: func() time.Time { return now }})
	driveLobby(l, l.Init())
	screen := l.View().Content
	for _, want := range []string{"Ann challenges you · Rapid", "1:00 left", "waiting 0:00 · Rapid · casual · 2–4 players", "Dee · Blitz", "0:42", "Cy (guest) · in the lobby"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the lobby lacks %q:\n%s", want, screen)
		}
	}
	pressLobby(l, "tab")
	pressLobby(l, "d")
	if len(f.answered) != 1 || f.answered[0] != "c1 later" {
		t.Errorf("answered %v, want c1 declined for later", f.answered)
	}
	pressLobby(l, "down")
	pressLobby(l, "x")
	if len(f.cancelled) != 1 || f.cancelled[0] != "k1" {
		t.Errorf("cancelled %v, want k1", f.cancelled)
	}
	pressLobby(l, "n")
	if !strings.Contains(l.View().Content, "as many open requests as you may") {
		t.Errorf("the refusal is not told:\n%s", l.View().Content)
	}
	if l.Seated() != nil {
		t.Error("seated without a table")
	}
}

// TestLobbyStaleRead: the lists' reads end in any order. A read started
// before a challenge came (at the start, or for another message) that
// ends after the one its message started must not take the challenge off
// the list, and the message shows it at once: a, pressed on the notice
// that says a accepts, accepts it.
func TestLobbyStaleRead(t *testing.T) {
	now := time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)
	f := &fakeLobby{}
	l := NewLobby(t.Context(), f, LobbyOptions{Lang: "en", Server: "http://razzia.test", Me: "Bob", Clock: func() time.Time { return now }})
	early := l.read()().(lobbyRead) // read before the challenge, told late
	c := protocol.ChallengeInfo{ID: "c1", From: "Ann", To: []protocol.ChallengedInfo{{Name: "Bob"}}, Pace: "rapid",
		Status: protocol.ChallengeOpen, Expires: now.Add(time.Minute)}
	f.challenges = []protocol.ChallengeInfo{c}
	_, cmd := l.Update(lobbyMeet{msg: protocol.MeetMessage{Type: protocol.TypeChallenge, Challenge: &c}, ok: true})
	if screen := l.View().Content; !strings.Contains(screen, "Ann challenges you · Rapid") {
		t.Errorf("the message's challenge is not listed with its notice:\n%s", screen)
	}
	driveLobby(l, cmd)
	l.Update(early)
	if screen := l.View().Content; !strings.Contains(screen, "Ann challenges you · Rapid") {
		t.Errorf("a read older than the challenge took it off the list:\n%s", screen)
	}
	pressLobby(l, "a")
	if len(f.answered) != 1 || f.answered[0] != "c1 accept" {
		t.Errorf("answered %v, want c1 accepted", f.answered)
	}
}

// TestLobbyAnswerKeys: a and d answer the selected challenge to the
// person, or the only one when another line is selected (the notice of a
// challenge says a accepts it); with none, or two and neither selected,
// they say so rather than do nothing.
func TestLobbyAnswerKeys(t *testing.T) {
	now := time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)
	challenge := func(id, from string) protocol.ChallengeInfo {
		return protocol.ChallengeInfo{ID: id, From: from, To: []protocol.ChallengedInfo{{Name: "Bob"}}, Pace: "rapid",
			Status: protocol.ChallengeOpen, Expires: now.Add(time.Minute)}
	}
	dee := protocol.SeeksAnswer{Seeks: []protocol.SeekInfo{{ID: "k2", Name: "Dee", Min: 2, Max: 2, Pace: "blitz", Status: protocol.SeekOpen, Created: now}}}
	for _, tc := range []struct {
		name       string
		challenges []protocol.ChallengeInfo
		down       bool // the cursor on the line after the challenges
		key        string
		answered   string // "" for none
	}{
		{"a on the challenge", []protocol.ChallengeInfo{challenge("c1", "Ann")}, false, "a", "c1 accept"},
		{"a on another's request, one challenge", []protocol.ChallengeInfo{challenge("c1", "Ann")}, true, "a", "c1 accept"},
		{"d on another's request, one challenge", []protocol.ChallengeInfo{challenge("c1", "Ann")}, true, "d", "c1 later"},
		{"a on another's request, two challenges", []protocol.ChallengeInfo{challenge("c2", "Cy"), challenge("c1", "Ann")}, true, "a", ""},
		{"a with no challenge", nil, false, "a", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeLobby{seeks: dee, challenges: tc.challenges}
			l := NewLobby(t.Context(), f, LobbyOptions{Lang: "en", Server: "http://razzia.test", Me: "Bob", Clock: func() time.Time { return now }})
			driveLobby(l, l.read()) // Init's read, without its tick's second
			if tc.down {
				for range tc.challenges {
					pressLobby(l, "down")
				}
			}
			pressLobby(l, "tab")
			pressLobby(l, tc.key)
			if tc.answered == "" {
				if len(f.answered) != 0 {
					t.Errorf("answered %v, want none", f.answered)
				}
				if screen := l.View().Content; !strings.Contains(screen, "No challenge to you is selected") {
					t.Errorf("the key does nothing and says nothing:\n%s", screen)
				}
				return
			}
			if len(f.answered) != 1 || f.answered[0] != tc.answered {
				t.Errorf("answered %v, want %s", f.answered, tc.answered)
			}
		})
	}
}
