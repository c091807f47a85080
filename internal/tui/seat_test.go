package tui

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
)

// startedGame returns a game of three with its first player to move, and
// the info a server sends with it.
func startedGame(t *testing.T) (*razzia.Game, protocol.GameInfo) {
	t.Helper()
	names := []string{"Annabella Rossini", "Bob", "Cy"}
	g, err := razzia.NewGame(razzia.Setup{Players: names})
	if err != nil {
		t.Fatal(err)
	}
	info := protocol.GameInfo{ID: "k3x7q2m5ab", Status: protocol.StatusPlaying, Players: 3,
		Seats: []protocol.SeatInfo{{Name: names[0]}, {Name: names[1]}, {Name: names[2]}}}
	return g, info
}

// TestQuitLeavesSeatToBot: q at a started table says, whole in every
// language at 80×24, that a bot plays until the person comes back, and y
// leaves the seat to the bot before the program ends.
func TestQuitLeavesSeatToBot(t *testing.T) {
	for _, tc := range []struct{ lang, want string }{
		{"en", "A bot plays for you until you come back"},
		{"de", "Ein Bot spielt für dich, bis du"},
		{"hu", "Egy bot játszik helyetted"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			g, info := startedGame(t)
			m, f := onlineModel(t, g, g.ToMove(), info)
			m.cat = langCat(t, tc.lang)
			m.key(keyMsg("q"))
			s := screen(m)
			flat := strings.Join(strings.Fields(s), " ")
			for _, w := range []string{tc.want, "y:", "n:"} {
				if !strings.Contains(flat, w) {
					t.Errorf("the question lacks %q:\n%s", w, s)
				}
			}
			checkFits(t, m, tc.lang)
			cmd := m.key(keyMsg("y"))
			if cmd == nil {
				t.Fatal("y does not quit")
			}
			if _, ok := cmd().(tea.QuitMsg); !ok {
				t.Error("y does not end the program")
			}
			if !slices.Equal(f.sent, []protocol.PreMoveMessage{{Type: protocol.TypeLeave}}) {
				t.Errorf("quitting sent %v, want the seat left to a bot", f.sent)
			}
		})
	}
}

// TestQuitWaitingRoomGuest: a guest at a table that waits for players is
// told, whole at 80×24, that the seat is kept and the game can start
// without them; L, which hands a started game's seat to a bot, is neither
// offered nor taken there.
func TestQuitWaitingRoomGuest(t *testing.T) {
	for _, tc := range []struct{ lang, want string }{
		{"en", "the game can start while you are away"},
		{"de", "das Spiel kann ohne dich beginnen"},
		{"hu", "a játék nélküled is elindulhat"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			c, _ := client.New("http://localhost:1")
			m := NewRemote(t.Context(), c.Session("k3x7q2m5ab", "tok"), 2, "http://localhost:1/g/k3x7q2m5ab", Options{Lang: tc.lang})
			f := &fakeActor{}
			m.remote.act = f
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			m.received(stateMsg{state: &client.State{Seat: 2, Game: protocol.GameInfo{ID: "k3x7q2m5ab", Status: protocol.StatusOpen, Players: 4,
				Seats: []protocol.SeatInfo{{Name: "Ann"}, {Name: "Bot 2 (easy)", Bot: "easy"}, {Name: "Bob"}, {Open: true}}}}})
			lacks(t, screen(m), "L: ")
			m.key(keyMsg("L"))
			m.key(keyMsg("y"))
			if len(f.sent) != 0 {
				t.Errorf("L sent %v before the game started", f.sent)
			}
			m.key(keyMsg("q"))
			s := screen(m)
			for _, w := range []string{tc.want, "razzia play", "y:", "n:"} {
				if !strings.Contains(strings.Join(strings.Fields(s), " "), w) {
					t.Errorf("the question lacks %q:\n%s", w, s)
				}
			}
			checkFits(t, m, tc.lang)
		})
	}
}

// TestQuitWaitingRoom: the creator quitting a table that waits for
// players is asked whether to close it: n leaves it open, y closes it;
// a refusal to close it keeps the program running and says why.
func TestQuitWaitingRoom(t *testing.T) {
	for _, tc := range []struct {
		name      string
		key       string
		err       error
		cancelled bool
		quits     bool
	}{
		{"keep it open", "n", nil, false, true},
		{"close it", "y", nil, true, true},
		{"stay", "esc", nil, false, false},
		{"closing refused", "y", &client.Error{Code: protocol.AlreadyStarted}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := client.New("http://localhost:1")
			calls := 0
			opt := Options{Lang: "en", Remote: RemoteOptions{Creator: true, Cancel: func(context.Context) error { calls++; return tc.err }}}
			m := NewRemote(t.Context(), c.Session("k3x7q2m5ab", "tok"), 0, "http://localhost:1/g/k3x7q2m5ab", opt)
			m.remote.act = &fakeActor{}
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			m.received(stateMsg{state: &client.State{Game: protocol.GameInfo{ID: "k3x7q2m5ab", Status: protocol.StatusOpen, Players: 3}, Seat: 0}})
			m.key(keyMsg("q"))
			contains(t, screen(m), "Close this table? y: close it, n: keep it open for others, esc: stay")
			cmd := m.key(keyMsg(tc.key))
			for cmd != nil {
				msg := cmd()
				if _, ok := msg.(tea.QuitMsg); ok {
					break
				}
				_, cmd = m.Update(msg)
			}
			if (calls == 1) != (tc.key == "y") || m.Cancelled() != tc.cancelled || m.quit != tc.quits {
				t.Errorf("cancel called %d times, cancelled %v, quit %v", calls, m.Cancelled(), m.quit)
			}
			if tc.err != nil {
				contains(t, screen(m), "✗ ")
			}
		})
	}
}

// TestWaitingRoomSeats: the waiting room of a server table lists its
// seats, numbered from 1: who sits, the person as "you", and the seats
// still open, in the person's language.
func TestWaitingRoomSeats(t *testing.T) {
	for _, tc := range []struct{ lang, you, open string }{
		{"en", "1  Ann (you)", "3  — open —"},
		{"hu", "1  Ann (te)", "3  — szabad —"},
	} {
		c, _ := client.New("http://localhost:1")
		m := NewRemote(t.Context(), c.Session("k3x7q2m5ab", "tok"), 0, "http://localhost:1/g/k3x7q2m5ab", Options{Lang: tc.lang})
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		m.received(stateMsg{state: &client.State{Seat: 0, Game: protocol.GameInfo{ID: "k3x7q2m5ab", Status: protocol.StatusOpen, Players: 3,
			Seats: []protocol.SeatInfo{{Name: "Ann"}, {Name: "Bot 2 (easy)", Bot: "easy"}, {Open: true}}}}})
		s := screen(m)
		contains(t, s, tc.you, "2  Bot 2 (easy)", tc.open, "http://localhost:1/g/k3x7q2m5ab")
		checkFits(t, m, tc.lang)
	}
}

// TestTimeRanOut: when the person's time ran out the screen says so, not
// "You left"; no "Your turn" shows while the bot plays; the row keeps its
// columns.
func TestTimeRanOut(t *testing.T) {
	g, info := startedGame(t)
	seat := g.ToMove()
	m, _ := onlineModel(t, g, seat, info)
	before := playerLine(t, screen(m), "▶ Ann")
	contains(t, screen(m), "Your turn")
	out := info
	out.Seats = slices.Clone(info.Seats)
	out.Seats[seat].StandIn = "medium"
	view := protocol.NewView(g.View(seat))
	m.received(stateMsg{state: &client.State{Game: out, Seat: seat, View: &view,
		TakeOvers: []protocol.TakeOver{{Seat: seat, Bot: "medium", Reason: protocol.ReasonTimeout}}}})
	s := screen(m)
	contains(t, s, "Your time ran out: a bot plays for you. B takes your seat back.", "A bot plays for Annabella Rossini…")
	lacks(t, s, "You left", "Your turn", "is thinking")
	// Another person's stand-in is told the same way to the others.
	other, _ := onlineModel(t, g, (seat+1)%3, info)
	other.received(stateMsg{state: &client.State{Game: out, Seat: (seat + 1) % 3, View: &view}})
	contains(t, screen(other), "A bot plays for Annabella Rossini…")
	after := playerLine(t, s, "▶ Ann")
	if i, j := ansiWidth(before[:strings.Index(before, "$")]), ansiWidth(after[:strings.Index(after, "$")]); i != j {
		t.Errorf("the row shifted from column %d to %d:\n%s\n%s", i, j, before, after)
	}
	if cmd := m.key(keyMsg("d")); cmd != nil || m.remote.loop.Pending() {
		t.Error("a move was sent while the bot plays for the seat")
	}
	// Whole in German and Hungarian, at 80×24 and 120×40.
	for _, lang := range []string{"de", "hu"} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			m, _ := onlineModel(t, g, seat, info)
			m.cat = langCat(t, lang)
			m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			m.received(stateMsg{state: &client.State{Game: out, Seat: seat, View: &view,
				TakeOvers: []protocol.TakeOver{{Seat: seat, Bot: "medium", Reason: protocol.ReasonTimeout}}}})
			flat := strings.Join(strings.Fields(screen(m)), " ")
			for _, want := range []string{m.cat.T("tui.timeout.standin"), m.cat.T("tui.standin.playing", "player", "Annabella Rossini")} {
				if !strings.Contains(flat, want) {
					t.Errorf("%s %dx%d: the screen lacks %q:\n%s", lang, size[0], size[1], want, screen(m))
				}
			}
			lacks(t, screen(m), m.cat.T("tui.yourturn", "player", "Annabella Rossini"))
			checkFits(t, m, lang)
		}
	}
}

// playerLine returns the line of the table that names the player.
func playerLine(t *testing.T, screen, name string) string {
	t.Helper()
	for l := range strings.SplitSeq(screen, "\n") {
		if strings.Contains(l, name) && strings.Contains(l, "$") {
			return l
		}
	}
	t.Fatalf("no line of %s:\n%s", name, screen)
	return ""
}

// TestDisconnected: while the connection is lost the screen says so and
// when it tries again, never "Your turn", and no move is sent; the next
// state brings the turn back.
func TestDisconnected(t *testing.T) {
	g, info := startedGame(t)
	seat := g.ToMove()
	for _, lang := range []string{"de", "hu"} {
		m, _ := onlineModel(t, g, seat, info)
		m.cat = langCat(t, lang)
		m.Update(dropMsg{err: errors.New("connection lost"), wait: 4 * time.Second})
		flat := strings.Join(strings.Fields(screen(m)), " ")
		if want := m.cat.T("tui.server.reconnecting", "seconds", 4); !strings.Contains(flat, want) {
			t.Errorf("%s: the screen does not say %q whole:\n%s", lang, want, screen(m))
		}
		checkFits(t, m, lang)
	}
	// Lost before the first state: the screen says so, not only that
	// it connects.
	c, _ := client.New("http://localhost:1")
	first := NewRemote(t.Context(), c.Session("k3x7q2m5ab", "tok"), seat, "", Options{Lang: "en"})
	first.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	first.Update(dropMsg{err: errors.New("connection refused"), wait: 4 * time.Second})
	contains(t, screen(first), "Connecting to the server…", "No connection to the server: trying again in 4 s")

	m, _ := onlineModel(t, g, seat, info)
	m.Update(dropMsg{err: errors.New("connection lost"), wait: 4 * time.Second})
	s := screen(m)
	contains(t, s, "No connection to the server: trying again in 4 s")
	lacks(t, s, "Your turn")
	if cmd := m.key(keyMsg("d")); cmd != nil || m.remote.loop.Pending() {
		t.Error("a move was sent without a connection")
	}
	receive(m, g, seat, info, nil)
	s = screen(m)
	contains(t, s, "Your turn")
	lacks(t, s, "No connection")
}

// TestResumeTakesSeatBack: a person who comes back to a seat a bot plays
// for takes it back at once.
func TestResumeTakesSeatBack(t *testing.T) {
	g, info := startedGame(t)
	seat := g.ToMove()
	c, _ := client.New("http://localhost:1")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	m := NewRemote(ctx, c.Session("k3x7q2m5ab", "tok"), seat, "", Options{Lang: "en", Remote: RemoteOptions{Resumed: true}})
	f := &signalActor{sent: make(chan protocol.PreMoveMessage, 1)}
	m.remote.act = f
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	away := info
	away.Seats = slices.Clone(info.Seats)
	away.Seats[seat].StandIn = "medium"
	view := protocol.NewView(g.View(seat))
	cmd := m.received(stateMsg{state: &client.State{Game: away, Seat: seat, View: &view, First: true}})
	batch, _ := cmd().(tea.BatchMsg)
	for _, c := range batch {
		if c != nil {
			go c() // the session's wait ends with ctx
		}
	}
	select {
	case got := <-f.sent:
		if got.Type != protocol.TypeTakeBack {
			t.Errorf("sent %v, want takeback", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the seat was not taken back")
	}
}

// signalActor hands each request it gets to the test.
type signalActor struct{ sent chan protocol.PreMoveMessage }

func (f *signalActor) Send(_ context.Context, msg any) error {
	f.sent <- msg.(protocol.PreMoveMessage)
	return nil
}

func (f *signalActor) Move(context.Context, string, int) error { return nil }

func (f *signalActor) Rematch(context.Context, bool) (protocol.RematchOffer, string, error) {
	return protocol.RematchOffer{}, "", nil
}

// langCat returns the catalogue of the language.
func langCat(t *testing.T, lang string) *i18n.Catalogue {
	t.Helper()
	cat, ok := i18n.Lookup(lang)
	if !ok {
		t.Fatalf("no language %q", lang)
	}
	return cat
}

// TestMoveSentAgain: a move refused for a while is sent again by itself,
// without an error for the person to answer; once the game moved on it
// is not. An illegal move is the person's to choose again.
func TestMoveSentAgain(t *testing.T) {
	g, info := startedGame(t)
	m, f := onlineModel(t, g, g.ToMove(), info)
	draw := client.Send{Move: "draw", Seq: m.snap.Moves}
	run(m, m.key(keyMsg("d")))
	if !slices.Equal(f.moves, []client.Send{draw}) {
		t.Fatalf("d sent %v", f.moves)
	}
	cmd := m.received(stateMsg{err: &client.Error{Code: protocol.RateLimited}})
	s := screen(m)
	lacks(t, s, "✗", "Your turn")
	contains(t, s, "Sending your move")
	// The commands, not run: the next state, and the move again after a
	// wait, which this is.
	if batch, _ := cmd().(tea.BatchMsg); len(batch) != 2 || batch[1] == nil {
		t.Fatalf("a refusal for a while gave %d commands, want the next state and the move again", len(batch))
	}
	again := resend{draw}
	run(m, m.resent(again))
	if !slices.Equal(f.moves, []client.Send{draw, draw}) {
		t.Errorf("sent %v, want the draw twice", f.moves)
	}
	m.received(stateMsg{err: &client.Error{Code: protocol.IllegalMove}})
	contains(t, screen(m), "✗ ", "Your turn")
	if cmd := m.resent(again); cmd != nil {
		t.Error("a move given up is sent again")
	}
}

// TestMoveAfterReconnecting: a move on its way when the connection
// dropped is sent again, same seq, at the first state of the new
// connection, if that shows the same position; a state of the position
// that is not a new connection's (the clocks, someone's presence) leaves
// it on its way, with nothing for the person to choose meanwhile.
func TestMoveAfterReconnecting(t *testing.T) {
	g, info := startedGame(t)
	m, f := onlineModel(t, g, g.ToMove(), info)
	run(m, m.key(keyMsg("d")))
	view := protocol.NewView(g.View(g.ToMove()))
	state := func(first bool) stateMsg {
		return stateMsg{state: &client.State{Game: info, Seat: g.ToMove(), View: &view, First: first}}
	}
	m.received(state(false))
	if !m.remote.loop.Pending() || m.mine() || len(f.moves) != 1 {
		t.Fatalf("after a state of the same position: on its way %v, the person's to choose %v, sent %v",
			m.remote.loop.Pending(), m.mine(), f.moves)
	}
	contains(t, screen(m), "Sending your move")
	m.Update(dropMsg{err: errors.New("connection lost"), wait: time.Second})
	// The last command sends the move; the first would wait for the
	// next state.
	batch, _ := m.received(state(true))().(tea.BatchMsg)
	run(m, batch[len(batch)-1])
	want := client.Send{Move: "draw", Seq: view.Moves}
	if !slices.Equal(f.moves, []client.Send{want, want}) {
		t.Errorf("sent %v, want the draw again on the new connection", f.moves)
	}
}
