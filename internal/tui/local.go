package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/protocol"
)

// A botMove is a local bot's decision, made off the update loop.
type botMove struct {
	seq  int // the number of moves played when the bot was asked
	move razzia.Move
}

// refresh takes the view of the local game: the person to move sees their
// legal moves; while a bot moves, the last person to have moved looks on.
func (m *Model) refresh() {
	if t := m.game.ToMove(); t >= 0 && m.seats[t].Bot == nil {
		m.viewer = t
	}
	m.snap = protocol.NewView(m.game.View(m.viewer))
	if m.onMove != nil {
		m.onMove(m.game)
	}
	m.events = m.game.Events()
	m.afterChange()
}

// schedule asks the bot to move, if a bot is to move and nobody is asked
// yet. The bot decides in a command, and the delay is spent there too,
// so the update loop never waits; its View is a copy of the state.
func (m *Model) schedule() tea.Cmd {
	if m.game == nil || m.thinking || m.held != nil {
		return nil
	}
	t := m.game.ToMove()
	if t < 0 || m.seats[t].Bot == nil {
		return nil
	}
	m.thinking = true
	b, v, delay := m.seats[t].Bot, m.game.View(t), m.delay
	return func() tea.Msg {
		start := time.Now()
		mv := b.Choose(v)
		if d := delay - time.Since(start); d > 0 {
			time.Sleep(d)
		}
		return botMove{seq: v.Moves, move: mv}
	}
}

// botMoved plays a bot's move, unless the terminal is too small to follow
// it: then it waits until the terminal is large enough again.
func (m *Model) botMoved(bm botMove) tea.Cmd {
	m.thinking = false
	if bm.seq != m.game.Len() {
		return m.schedule() // stale: cannot happen while only bots are asked
	}
	if m.small() {
		m.held = &bm
		return nil
	}
	if err := m.game.Play(bm.move); err != nil {
		// A bot's illegal move is a bug in the bot; the game goes on
		// with the default a faulty external bot gets.
		m.setError(err.Error())
		legal := m.game.LegalMoves()
		tokens := make([]string, len(legal))
		for i, l := range legal {
			tokens[i] = l.String()
		}
		if err := m.game.PlayToken(bot.DefaultMove(tokens)); err != nil {
			m.setError(err.Error())
			return nil
		}
	}
	m.refresh()
	return m.schedule()
}

// resume plays a held bot move once the terminal is large enough.
func (m *Model) resume() tea.Cmd {
	if m.held == nil || m.small() {
		return nil
	}
	bm := *m.held
	m.held = nil
	return m.botMoved(bm)
}

// playLocal plays a person's move in the local game.
func (m *Model) playLocal(token string) tea.Cmd {
	if err := m.game.PlayToken(token); err != nil {
		m.setError(err.Error())
		return nil
	}
	m.notice, m.failed = "", false
	m.refresh()
	return m.schedule()
}
