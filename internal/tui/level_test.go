package tui

import (
	"context"
	"errors"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
)

// levelSetter records the creator's changes of a bot's level.
type levelSetter struct {
	seats  []int
	levels []string
	err    error
}

func (f *levelSetter) set(_ context.Context, seat int, level string) error {
	f.seats, f.levels = append(f.seats, seat), append(f.levels, level)
	return f.err
}

// openTable returns the model of a seat at a table that waits for
// players, as its creator or not.
func openTable(t *testing.T, creator bool, f *levelSetter) *Model {
	t.Helper()
	levels := bot.LevelNames()
	opt := Options{Lang: "en", Remote: RemoteOptions{Creator: creator, SetLevel: f.set}}
	m := NewRemote(t.Context(), nil, 0, "http://localhost:8080/g/k3x7q2m5ab", opt)
	m.remote.act = &fakeActor{}
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	info := protocol.GameInfo{ID: "k3x7q2m5ab", Status: protocol.StatusOpen, Players: 3, Seats: []protocol.SeatInfo{
		{Name: "Ann"}, {Name: "Bot 2 (" + levels[0] + ")", Bot: levels[0]}, {Name: "Bot 3 (" + levels[len(levels)-1] + ")", Bot: levels[len(levels)-1]}, {Open: true}}}
	m.received(stateMsg{state: &client.State{Game: info, Seat: 0, First: true}})
	return m
}

// TestCreatorSetsLevel: at the table they created, waiting for players,
// the person gives a bot the next level by its seat's number, after the
// strongest the weakest again; a person's seat, an open one, or a table
// of someone else's does not change.
func TestCreatorSetsLevel(t *testing.T) {
	levels := bot.LevelNames()
	f := &levelSetter{}
	m := openTable(t, true, f)
	contains(t, screen(m), "Waiting for players", "Press a bot's number to give it the next level.")
	for _, k := range []string{"2", "3", "1", "4"} {
		run(m, m.key(keyMsg(k)))
	}
	if len(f.seats) != 2 || f.seats[0] != 1 || f.levels[0] != levels[1] || f.seats[1] != 2 || f.levels[1] != levels[0] {
		t.Errorf("set %v to %v; want seat 1 to %s and seat 2 to %s", f.seats, f.levels, levels[1], levels[0])
	}
	f.err = &client.Error{Code: protocol.NotCreator}
	run(m, m.key(keyMsg("2")))
	contains(t, screen(m), "✗")

	other := &levelSetter{}
	m = openTable(t, false, other)
	lacks(t, screen(m), "next level")
	run(m, m.key(keyMsg("2")))
	if len(other.seats) != 0 {
		t.Errorf("a guest set %v", other.seats)
	}
}

// TestRatedLevels: a level the server refuses at the table (a rated
// table takes the rated levels only) is skipped from then on, so that
// the levels after it can be reached.
func TestRatedLevels(t *testing.T) {
	levels := bot.LevelNames()
	f := &levelSetter{err: &client.Error{Code: protocol.BadRequest}}
	m := openTable(t, true, f)
	run(m, m.key(keyMsg("2")))
	contains(t, screen(m), "✗")
	f.err = nil
	run(m, m.key(keyMsg("2")))
	if len(f.levels) != 2 || f.levels[0] != levels[1] || f.levels[1] != levels[2] {
		t.Errorf("tried %v; want %s, refused, then %s", f.levels, levels[1], levels[2])
	}
}

// TestSetLevelFailed: a change that did not reach the server says so.
func TestSetLevelFailed(t *testing.T) {
	m := openTable(t, true, &levelSetter{err: errors.New("connection refused")})
	run(m, m.key(keyMsg("2")))
	contains(t, screen(m), "did not reach the server")
}
