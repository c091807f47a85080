package tui

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/gametest"
	"github.com/razziagame/razzia/internal/protocol"
)

// fakeActor records a seat's requests instead of sending them.
type fakeActor struct {
	sent    []protocol.PreMoveMessage
	moves   []client.Send
	answers []bool
	offer   protocol.RematchOffer
	err     error
}

func (f *fakeActor) Send(_ context.Context, msg any) error {
	f.sent = append(f.sent, msg.(protocol.PreMoveMessage))
	return nil
}

func (f *fakeActor) Move(_ context.Context, move string, seq int) error {
	f.moves = append(f.moves, client.Send{Move: move, Seq: seq})
	return nil
}

func (f *fakeActor) Rematch(_ context.Context, accept bool) (protocol.RematchOffer, string, error) {
	f.answers = append(f.answers, accept)
	return f.offer, "next-token", f.err
}

// onlineModel returns a seat on a server, sized 80×24, that has received
// the state and whose requests the fake records.
func onlineModel(t *testing.T, g *razzia.Game, seat int, info protocol.GameInfo) (*Model, *fakeActor) {
	t.Helper()
	c, err := client.New("http://localhost:1")
	if err != nil {
		t.Fatal(err)
	}
	m := NewRemote(t.Context(), c.Session("k3x7q2m5ab", "old-token"), seat, "", Options{Lang: "en"})
	f := &fakeActor{}
	m.remote.act = f
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	receive(m, g, seat, info, nil)
	return m, f
}

// receive gives the model a state of g for the seat, as the server sends
// it; the command that would wait for the next one is not run.
func receive(m *Model, g *razzia.Game, seat int, info protocol.GameInfo, offer *protocol.RematchOffer) tea.Cmd {
	view := protocol.NewView(g.View(seat))
	cmd := m.received(stateMsg{state: &client.State{Game: info, Seat: seat, View: &view, First: true, Offer: offer}})
	if m.over != noOverlay {
		press(m, "esc")
	}
	return cmd
}

// run runs the command a key returned, once, and gives the model its
// message.
func run(m *Model, cmd tea.Cmd) {
	if cmd != nil {
		m.Update(cmd())
	}
}

// TestOnlineKeys: a seat on a server that is not yet to decide in an
// auction decides ahead (p, a bid typed and enter, x withdraws); L leaves
// the table after asking, and B takes the seat back; the key line says
// which keys work now.
func TestOnlineKeys(t *testing.T) {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob", "Cy"}})
	if err != nil {
		t.Fatal(err)
	}
	caller := g.ToMove()
	if err := g.PlayToken("call"); err != nil {
		t.Fatal(err)
	}
	info := protocol.GameInfo{ID: "k3x7q2m5ab", Status: protocol.StatusPlaying, Players: 3,
		Seats: []protocol.SeatInfo{{Name: "Ann"}, {Name: "Bob"}, {Name: "Cy"}}}
	m, f := onlineModel(t, g, caller, info)
	contains(t, screen(m), "p 1…9 x: ahead")
	run(m, m.key(keyMsg("p")))
	m.key(keyMsg("1"))
	m.key(keyMsg("3"))
	contains(t, screen(m), "Decide ahead: bid 13?")
	run(m, m.key(keyMsg("enter")))
	run(m, m.key(keyMsg("x")))
	want := []protocol.PreMoveMessage{
		{Type: protocol.TypePreMove, Move: "pass"}, {Type: protocol.TypePreMove, Move: "bid 13"}, {Type: protocol.TypePreMove}}
	if !slices.Equal(f.sent, want) {
		t.Fatalf("deciding ahead sent %v, want %v", f.sent, want)
	}

	// The server holds the pre-move: the status line says so.
	view := protocol.NewView(g.View(caller))
	m.received(stateMsg{state: &client.State{Game: info, Seat: caller, View: &view, PreMove: "bid 13"}})
	contains(t, screen(m), "Decided ahead: Bid 13")

	f.sent = nil
	m.key(keyMsg("L"))
	contains(t, screen(m), "Leave the table? A bot plays for you")
	run(m, m.key(keyMsg("n")))
	if len(f.sent) != 0 {
		t.Fatalf("declining to leave sent %v", f.sent)
	}
	m.key(keyMsg("L"))
	run(m, m.key(keyMsg("y")))
	if !slices.Equal(f.sent, []protocol.PreMoveMessage{{Type: protocol.TypeLeave}}) {
		t.Fatalf("leaving sent %v", f.sent)
	}
	left := info
	left.Seats = slices.Clone(info.Seats)
	left.Seats[caller].StandIn = "hard"
	receive(m, g, caller, left, nil)
	contains(t, screen(m), "B: seat back", "You left: a bot plays for you. Press B")
	f.sent = nil
	run(m, m.key(keyMsg("p"))) // the bot decides now: no pre-move
	run(m, m.key(keyMsg("B")))
	if !slices.Equal(f.sent, []protocol.PreMoveMessage{{Type: protocol.TypeTakeBack}}) {
		t.Fatalf("taking the seat back sent %v", f.sent)
	}
	receive(m, g, caller, info, nil)
	contains(t, screen(m), "p 1…9 x: ahead")
}

// TestOnlineRematch: at the end a seat offers a rematch with a, is told
// the offer, cannot answer twice, and goes on to the new table, with the
// token the server gave, once it starts; another's offer is declined
// with n.
func TestOnlineRematch(t *testing.T) {
	over := gametest.Random(t, 3, 5)
	info := protocol.GameInfo{ID: "k3x7q2m5ab", Status: protocol.StatusFinished, Players: 3,
		Seats: []protocol.SeatInfo{{Name: "Ann"}, {Name: "Bob"}, {Name: "Bot 3 (easy)", Bot: "easy"}}}
	m, f := onlineModel(t, over, 0, info)
	contains(t, screen(m), "Press a to offer a rematch.", "a: rematch  n: no")
	open := protocol.RematchOffer{By: 0, State: protocol.RematchOpen, Answers: []string{"yes", "", "yes"},
		Expires: time.Now().Add(time.Minute), Game: "q7nd2kx4ma"}
	f.offer = open
	run(m, m.key(keyMsg("a")))
	if !slices.Equal(f.answers, []bool{true}) {
		t.Fatalf("a sent %v, want an offer", f.answers)
	}
	contains(t, screen(m), "Rematch: waiting for one more answer.")
	m.key(keyMsg("a"))
	contains(t, screen(m), "✗ A rematch was offered at this game already")

	old := m.remote.session
	started := open
	started.State, started.Answers = protocol.RematchStarted, []string{"yes", "yes", "yes"}
	if cmd := receive(m, over, 0, info, &started); cmd == nil {
		t.Fatal("a started rematch: no command to follow it")
	}
	if m.remote.session == old || m.remote.act != m.remote.session || m.Over() {
		t.Fatalf("the terminal stayed at the old game")
	}
	contains(t, screen(m), "The rematch starts")
	if g := m.ServerGame(); g != "q7nd2kx4ma" {
		t.Errorf("the model shows game %q, want the rematch", g)
	}
	// The old session's last words are not this game's.
	if m.received(stateMsg{err: context.Canceled, from: old}) != nil || m.remote.ended != nil {
		t.Error("the old game's session ended the new one")
	}

	// Bob's offer, declined.
	m2, f2 := onlineModel(t, over, 0, info)
	bobs := protocol.RematchOffer{By: 1, State: protocol.RematchOpen, Answers: []string{"", "yes", "yes"}, Game: "q7nd2kx4ma"}
	receive(m2, over, 0, info, &bobs)
	contains(t, screen(m2), "offers a rematch: a to play again, n to decline.")
	f2.offer = bobs
	f2.offer.Answers = []string{"no", "yes", "yes"}
	f2.offer.State = protocol.RematchStarted
	run(m2, m2.key(keyMsg("n")))
	if !slices.Equal(f2.answers, []bool{false}) || !m2.Over() {
		t.Fatalf("n sent %v and left the game over: %t; want a decline, staying", f2.answers, m2.Over())
	}
	contains(t, screen(m2), "The rematch started without you: game q7nd2kx4ma.")
}

// TestTournamentTableNoRematch: at the end of a tournament's game the
// terminal offers no rematch, which the server would refuse: it says that
// the tournament seats the next game, a sends nothing, and the help
// leaves the rematch's keys out.
func TestTournamentTableNoRematch(t *testing.T) {
	over := gametest.Random(t, 3, 5)
	info := protocol.GameInfo{ID: "k3x7q2m5ab", Status: protocol.StatusFinished, Players: 3,
		Seats: []protocol.SeatInfo{{Name: "Ann"}, {Name: "Bob"}, {Name: "Cy"}}}
	m, f := onlineModel(t, over, 0, info)
	m.remote.opts.Tournament = true
	s := screen(m)
	// The sentence may be wrapped: compare the words.
	contains(t, strings.Join(strings.Fields(s), " "), "A tournament's game has no rematch: the tournament seats you at your next game.")
	lacks(t, s, "rematch  n: no", "Press a to offer a rematch.")
	run(m, m.key(keyMsg("a")))
	run(m, m.key(keyMsg("n")))
	if len(f.answers) != 0 {
		t.Errorf("a and n sent %v to the server", f.answers)
	}
	press(m, "?")
	lacks(t, screen(m), "offer or accept a rematch")
}

// TestGoOnFromRoundScores: while the server holds a new round's first
// clock for the people reading the scores, the terminal, which covers
// nothing, says at once that its player goes on; once per hold, not for a
// spectator, not when the server already counts the seat.
func TestGoOnFromRoundScores(t *testing.T) {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob"}})
	if err != nil {
		t.Fatal(err)
	}
	info := protocol.GameInfo{ID: "k3x7q2m5ab", Status: protocol.StatusPlaying, Players: 2,
		Seats: []protocol.SeatInfo{{Name: "Ann"}, {Name: "Bob"}}}
	m, _ := onlineModel(t, g, 0, info)
	held := func(continued ...int) *client.State {
		return &client.State{Game: info, Seat: 0, Clock: &protocol.ClockView{Running: -1, HeldUntil: 1_000_000, Continued: continued}}
	}
	for _, tt := range []struct {
		name string
		st   *client.State
		want bool
	}{
		{"no clock", &client.State{Game: info, Seat: 0}, false},
		{"a clock not held", &client.State{Game: info, Seat: 0, Clock: &protocol.ClockView{Running: 0}}, false},
		{"the seat already went on", held(0), false},
		{"held", held(1), true},
		{"held, told already", held(1), false},
	} {
		if got := m.goOn(tt.st) != nil; got != tt.want {
			t.Errorf("%s: goes on %v, want %v", tt.name, got, tt.want)
		}
	}
	watcher, _ := onlineModel(t, g, -1, info)
	if watcher.goOn(held()) != nil {
		t.Error("a spectator goes on")
	}
}
