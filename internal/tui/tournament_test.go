package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/razziagame/razzia/internal/protocol"
)

func screenTournament() protocol.Tournament {
	next := time.Date(2026, 11, 24, 18, 1, 15, 0, time.UTC)
	return protocol.Tournament{
		TournamentSummary: protocol.TournamentSummary{ID: "tourn23456", Name: "Tuesday club", Format: protocol.FormatSwiss,
			Status: protocol.TournamentRunning, TableSize: 4, Pace: "rapid", Rounds: 5, Round: 2, Players: 7, Max: 100},
		Version: 10, Next: &next,
		Ranking: []protocol.TournamentLine{{Rank: 1, Name: "Ann", Points: 2, Games: 2}, {Rank: 2, Name: "Bea", Points: 1.5, Games: 2, Fire: true}},
		You:     &protocol.TournamentYou{Name: "Bea", Joined: true, Status: protocol.PlayerIn},
	}
}

// TestLobby: between rounds the terminal shows the tournament, counts
// down to the next round, ends when the person's table is ready (not one
// played already), and sends the person's actions.
func TestLobby(t *testing.T) {
	feed := make(chan protocol.Tournament, 1)
	var acted []string
	act := func(_ context.Context, a string) (protocol.Tournament, error) {
		acted = append(acted, a)
		return protocol.Tournament{}, nil
	}
	now := time.Date(2026, 11, 24, 18, 0, 0, 0, time.UTC)
	l := NewTournamentScreen(context.Background(), screenTournament(), feed, map[string]bool{"playedgame": true}, act,
		Options{Lang: "en", Now: func() time.Time { return now }})
	l.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	screen := l.Render()
	for _, want := range []string{"Tuesday club", "Swiss · tables of 4 · 5 rounds", "Round 2 of 5 is over", "Round 3 starts in 1:15", "You are in.", "Ann", "×2", "p sit out"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen lacks %q:\n%s", want, screen)
		}
	}
	for i, line := range strings.Split(screen, "\n") {
		if w := len([]rune(line)); w > 200 {
			t.Errorf("line %d is %d long", i+1, w)
		}
	}
	if _, cmd := l.Update(tea.KeyPressMsg{Code: 'p', Text: "p"}); cmd == nil {
		t.Fatal("p does nothing")
	} else if msg := cmd(); msg == nil || len(acted) != 1 || acted[0] != protocol.ActionPause {
		t.Errorf("p acted %v", acted)
	}
	// A table played already does not end the screen; the next one does.
	old := screenTournament()
	old.Version, old.You.Game = 11, "playedgame"
	if _, cmd := l.Update(tourUpdate{old}); l.NextGame() != "" || cmd == nil {
		t.Errorf("a game played already ended the screen: %q", l.NextGame())
	}
	stale := screenTournament()
	stale.Version, stale.Name = 3, "An older description"
	l.Update(tourUpdate{stale})
	if l.Tournament().Name != "Tuesday club" {
		t.Errorf("an older description replaced a newer one")
	}
	ready := screenTournament()
	ready.Version, ready.You.Game = 12, "newgame234"
	if _, cmd := l.Update(tourUpdate{ready}); l.NextGame() != "newgame234" || cmd == nil {
		t.Errorf("the next table did not end the screen: %q", l.NextGame())
	}
	l2 := NewTournamentScreen(context.Background(), screenTournament(), feed, nil, act, Options{Lang: "de"})
	if _, cmd := l2.Update(tourClosed{}); !l2.Lost() || cmd == nil {
		t.Errorf("a lost connection does not end the screen")
	}
}
