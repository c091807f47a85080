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

// TestRemoteClock: at a timed table the terminal shows every seat's clock
// in its line at 80×24, counts the running one down with its own clock
// (corrected by the server's), and marks a seat a bot plays for.
func TestRemoteClock(t *testing.T) {
	local := scripted(t, "en")
	view := protocol.NewView(local.Game().View(0))
	now := time.UnixMilli(1_000_000)
	m := NewRemote(context.Background(), nil, 0, "", Options{Lang: "en", Now: func() time.Time { return now }})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	server := now.UnixMilli() + 5000 // the server's clock is 5 s ahead
	game := protocol.GameInfo{Status: protocol.StatusPlaying, Seats: make([]protocol.SeatInfo, len(view.Players))}
	game.Seats[1].StandIn = "hard"
	clock := &protocol.ClockView{ReserveMs: make([]int64, len(view.Players)), Running: view.ToMove,
		DecisionEnds: server + 10000, Deadline: server + 70000, ServerTime: server}
	for i := range clock.ReserveMs {
		clock.ReserveMs[i] = 60000
	}
	cmd := m.received(stateMsg{state: &client.State{Game: game, Seat: 0, View: &view, First: true, Clock: clock}})
	if cmd == nil {
		t.Fatal("no command: the clock does not tick")
	}
	line := func(name string) string {
		for _, l := range strings.Split(screen(m), "\n") {
			if strings.Contains(l, name) {
				return l
			}
		}
		t.Fatalf("no line for %s in\n%s", name, screen(m))
		return ""
	}
	mover := view.Players[view.ToMove]
	if l := line(mover); !strings.Contains(l, "0:10+1:00") {
		t.Errorf("the running clock at the start: %q, want 0:10+1:00", l)
	}
	now = now.Add(4 * time.Second)
	m.Update(clockTick{})
	if l := line(mover); !strings.Contains(l, "0:06+1:00") {
		t.Errorf("4 s later: %q, want 0:06+1:00", l)
	}
	now = now.Add(16 * time.Second)
	m.Update(clockTick{})
	if l := line(mover); !strings.Contains(l, "0:50") || strings.Contains(l, "+") {
		t.Errorf("in the reserve: %q, want 0:50", l)
	}
	if l := line(mover); strings.Contains(l, "⌛") {
		t.Errorf("50 s left of 70 is not low: %q", l)
	}
	if rang := bells(m.bell()); rang != 0 {
		t.Errorf("the bell rang %d times with time to spare", rang)
	}
	now = now.Add(41 * time.Second) // 9 s left: low
	if l := line(mover); !strings.Contains(l, "⌛0:09") {
		t.Errorf("9 s left: %q, want it marked low", l)
	}
	if bold := m.Render(); !strings.Contains(bold, errorStyle.Render("⌛0:09")) {
		t.Error("the low clock is not red")
	}
	if rang := bells(m.bell()) + bells(m.bell()); rang != 1 {
		t.Errorf("the bell rang %d times at low time, want once", rang)
	}
	if l := line(view.Players[1]); !strings.Contains(l, "bot plays") {
		t.Errorf("the stood-in seat: %q, want it marked", l)
	}
	for _, l := range strings.Split(screen(m), "\n") {
		if w := len([]rune(l)); w > 80 {
			t.Errorf("a line of %d cells: %q", w, l)
		}
	}
	if got := clockFormat(3*24*time.Hour + 5*time.Hour); got != "3d05h" {
		t.Errorf("clockFormat(3 days 5 h) = %q", got)
	}
}

// bells counts the bells a command of the clock rings.
func bells(cmd tea.Cmd) int {
	if cmd == nil {
		return 0
	}
	if raw, ok := cmd().(tea.RawMsg); ok && raw.Msg == "\a" {
		return 1
	}
	return 0
}
