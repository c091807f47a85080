// Package tui is Razzia in the terminal: a Bubble Tea program that plays a
// game against bots, hot-seat for several people at one keyboard, or as one
// player of a game on a server.
//
// The model renders from a protocol.View and the game's events whatever
// the game's source: a local razzia.Game, whose bots move through Bubble Tea
// commands after a short delay, or the latest state a server sent. The rules
// stay in the engine; the model only offers the legal moves it is given.
package tui

import (
	"context"
	"fmt"
	"time"

	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
)

// MinWidth and MinHeight are the smallest terminal the table fits.
const (
	MinWidth  = 80
	MinHeight = 24
)

// DefaultDelay is how long a local bot waits before its move shows, so that
// people can follow the game.
const DefaultDelay = 600 * time.Millisecond

// A Seat is one seat of a local game: a person at the keyboard or a bot.
type Seat struct {
	Name string
	Bot  bot.Bot // nil for a person
}

// Options configure the program.
type Options struct {
	// Lang is the language tag asked for; an unknown one falls back to
	// English with a notice.
	Lang string
	// Delay is how long a local bot takes at least to move.
	Delay time.Duration
	// Now is the clock the table's clocks are counted down with; default
	// time.Now.
	Now func() time.Time
	// Moved, when set, is called in the update loop after every move of a
	// local game, so that the caller can keep the record on disk as the
	// game goes.
	Moved func(*razzia.Game)
	// Remote is what a seat on a server needs beyond the session.
	Remote RemoteOptions
}

// RemoteOptions configure a seat on a server.
type RemoteOptions struct {
	// Resumed: the person comes back to a seat they held, so a bot that
	// plays for them hands it back at once.
	Resumed bool
	// Creator: the person created the table; Cancel, when set, closes it
	// while it waits for players.
	Creator bool
	Cancel  func(ctx context.Context) error
	// SetLevel, when set, gives the bot of seat another level while the
	// creator's table waits for players.
	SetLevel func(ctx context.Context, seat int, level string) error
	// GiveUp, when set, lets a person who quits another's table while it
	// waits for players give their seat up rather than keep it.
	GiveUp GiveUpFunc
	// Tournament: the table is a tournament's, which seats the next game
	// itself; the server refuses a rematch there, so none is offered.
	Tournament bool
}

// overlay is what covers the table: nothing, or a scrollable page.
type overlay uint8

const (
	noOverlay overlay = iota
	helpOverlay
	rulesOverlay
	scoresOverlay
	logOverlay
	deckOverlay
)

// Model is the Bubble Tea model of a game in the terminal.
type Model struct {
	cat    *i18n.Catalogue
	notice string // the status line: a notice, an error, or empty
	failed bool   // the notice is an error

	width, height int

	// What is shown: the latest view and every event so far.
	snap   protocol.View
	events []razzia.Event

	// A local game.
	game     *razzia.Game
	seats    []Seat
	delay    time.Duration
	thinking bool     // a bot's move is on its way
	held     *botMove // a bot's move that arrived while the terminal was too small
	viewer   int      // the person whose view is shown
	revealed int      // hot-seat: the person who has seen their choices, -1 none

	// A game on a server.
	remote *remote

	// The table's clocks, when timed: as the server sent them, and the
	// difference between its clock and ours then.
	clock   *protocol.ClockView
	offset  int64 // milliseconds
	now     func() time.Time
	ticking bool // a clockTick is on its way
	// clockSpan is the running decision's whole time as first received
	// (ms), and rang the deadline of the decision the bell rang for.
	clockSpan int64
	rang      int64

	// Input.
	choice  int    // the selected choice; -1 for none yet
	digits  string // digits typed to select a bid
	picking bool   // choosing row cards for thieves
	cursor  int    // the row card under the cursor while picking
	picked  []bool // row cards chosen while picking
	confirm bool   // asking whether to quit
	over    overlay
	page    viewport.Model
	scored  int // rounds whose score table has been shown
	quit    bool
	// interrupted: the person quit with ctrl+c, which a shell counts as
	// an interrupt (exit status 130).
	interrupted bool
	onMove      func(*razzia.Game)
}

// NewLocal returns the model of a local game between the seats, which name
// the game's players in order.
func NewLocal(g *razzia.Game, seats []Seat, opt Options) (*Model, error) {
	if len(seats) != len(g.Players()) {
		return nil, fmt.Errorf("tui: %d seats for %d players", len(seats), len(g.Players()))
	}
	m := newModel(opt)
	m.game, m.seats, m.delay, m.onMove = g, seats, opt.Delay, opt.Moved
	m.viewer, m.revealed = -1, -1
	for i, s := range seats {
		if s.Bot == nil && m.viewer < 0 {
			m.viewer = i
		}
	}
	m.refresh()
	return m, nil
}

// NewRemote returns the model of a seat in a game on a server, played
// through the session; seat is -1 to watch. The session is the model's
// until the program ends.
func NewRemote(ctx context.Context, s *client.Session, seat int, invite string, opt Options) *Model {
	m := newModel(opt)
	m.remote = &remote{ctx: ctx, session: s, seat: seat, invite: invite, opts: opt.Remote, drops: make(chan dropMsg, 4)}
	if s != nil {
		m.remote.act = s
		drops := m.remote.drops
		s.OnDrop = func(err error, wait time.Duration) {
			select {
			case drops <- dropMsg{err: err, wait: wait}:
			default: // the screen shows a drop already
			}
		}
	}
	m.snap.Seat, m.snap.ToMove = seat, -1
	return m
}

func newModel(opt Options) *Model {
	cat, ok := i18n.Lookup(opt.Lang)
	m := &Model{cat: cat, now: opt.Now}
	if m.now == nil {
		m.now = time.Now
	}
	if opt.Lang == "" {
		cat, _ = i18n.Lookup(i18n.Fallback)
		m.cat = cat
	} else if !ok {
		m.cat = i18n.Default()
		m.notice = m.cat.T("tui.lang.unknown", "lang", opt.Lang)
	}
	m.page = viewport.New()
	return m
}

// Catalogue returns the language the model speaks.
func (m *Model) Catalogue() *i18n.Catalogue { return m.cat }

// ServerGame returns the id of the game on a server the model shows: the
// last rematch it followed, or the game it started with; "" for a local
// game.
func (m *Model) ServerGame() string {
	if m.remote == nil || m.remote.session == nil {
		return ""
	}
	return m.remote.session.Game()
}

// Game returns the local game, or nil for a game on a server.
func (m *Model) Game() *razzia.Game { return m.game }

// SeatToken returns the token of the seat on a server the model plays,
// after any rematch it followed; "" for a local game or a spectator.
func (m *Model) SeatToken() string {
	if m.remote == nil || m.remote.session == nil || m.remote.seat < 0 {
		return ""
	}
	return m.remote.session.Token()
}

// Cancelled reports whether the person closed their table on a server
// before it started.
func (m *Model) Cancelled() bool { return m.remote != nil && m.remote.cancelled }

// LeaveToBot hands the seat to a server bot until the person comes back,
// as q does, if the model plays a started game that is not over: for a
// program that ends otherwise (ctrl+c, a signal, a terminal closed), so
// that the others are not left waiting for a seat nobody plays.
func (m *Model) LeaveToBot(ctx context.Context) error {
	if !m.leavesToBot() {
		return nil
	}
	return m.remote.act.Send(ctx, protocol.PreMoveMessage{Type: protocol.TypeLeave})
}

// Interrupted reports whether the person quit with ctrl+c.
func (m *Model) Interrupted() bool { return m.interrupted }

// Over reports whether the game is over.
func (m *Model) Over() bool { return m.snap.Phase == "over" }

// Init starts the bots of a local game or the connection to the server.
func (m *Model) Init() tea.Cmd {
	if m.remote != nil {
		return tea.Batch(m.remote.next(), m.remote.waitDrop())
	}
	return m.schedule()
}

// small reports whether the terminal is too small for the table.
func (m *Model) small() bool {
	return m.width < MinWidth || m.height < MinHeight
}

// mine reports whether a person at this keyboard is to move.
func (m *Model) mine() bool {
	if m.snap.ToMove < 0 || len(m.snap.Legal) == 0 {
		return false
	}
	if r := m.remote; r != nil {
		// Only a move that can reach the server, and that no bot makes
		// for the person, is theirs to choose.
		return m.snap.ToMove == r.seat && !r.loop.Pending() && r.drop == nil && !r.standingIn() && r.ended == nil
	}
	return m.seats[m.snap.ToMove].Bot == nil
}

// hotSeat reports whether several people share the keyboard.
func (m *Model) hotSeat() bool {
	n := 0
	for _, s := range m.seats {
		if s.Bot == nil {
			n++
		}
	}
	return n > 1
}

// curtain reports whether the choices wait for the person to move to
// show themselves: hot-seat, so that each person sees their turn named
// before their choices.
func (m *Model) curtain() bool {
	return m.game != nil && m.hotSeat() && m.mine() && m.revealed != m.snap.ToMove
}

// Snapshot returns the view shown last.
func (m *Model) Snapshot() protocol.View { return m.snap }
