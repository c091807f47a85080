package tui

import (
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/razziagame/razzia"
)

// Update handles a key, a resize, a bot's move or the server's state.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layoutPage()
		if m.small() {
			return m, nil
		}
		return m, tea.Batch(m.resume(), m.schedule())
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case botMove:
		return m, m.botMoved(msg)
	case stateMsg:
		return m, m.received(msg)
	case moveSent:
		return m, m.moved(msg)
	case chatSent:
		if msg.err != nil {
			m.setError(m.cat.T("tui.server.notsent"))
		}
		return m, nil
	case clockTick:
		return m, m.ticked()
	case sent:
		return m, m.sentDone(msg)
	case rematchAnswered:
		return m, m.answered(msg)
	}
	return m, nil
}

// afterChange brings the input up to date with a new view: the selection
// starts afresh, and a round just scored shows its score table.
func (m *Model) afterChange() {
	m.choice, m.digits, m.picking, m.picked = -1, "", false, nil
	m.choice = m.safeChoice()
	if n := m.scoredRounds(); n > m.scored {
		m.scored = n
		if m.Over() {
			m.over = noOverlay
		} else {
			m.open(scoresOverlay)
		}
	}
	if m.over != noOverlay {
		m.fillPage(true)
	}
}

// scoredRounds returns how many rounds have been scored.
func (m *Model) scoredRounds() int {
	if len(m.snap.Seats) == 0 {
		return 0
	}
	return len(m.snap.Seats[0].Scores)
}

func (m *Model) setError(s string) { m.notice, m.failed = s, true }

// key handles a key press.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	s := k.String()
	if s == "ctrl+c" {
		m.quit, m.interrupted = true, true
		return tea.Quit
	}
	if m.small() {
		if s == "q" {
			m.quit = true
			return tea.Quit
		}
		return nil
	}
	if m.confirm {
		switch s {
		case "y", "Y", "enter", "q":
			m.quit = true
			return tea.Quit
		case "n", "N", "esc":
			m.confirm = false
		}
		return nil
	}
	if m.over != noOverlay {
		return m.pageKey(k)
	}
	switch s {
	case "q":
		if m.Over() || (m.remote != nil && m.remote.ended != nil) {
			m.quit = true
			return tea.Quit
		}
		m.confirm = true
		return nil
	case "?", "f1":
		m.open(helpOverlay)
		return nil
	case "r":
		m.open(rulesOverlay)
		return nil
	case "s":
		m.open(scoresOverlay)
		return nil
	case "l":
		m.open(logOverlay)
		return nil
	case "i":
		m.open(deckOverlay)
		return nil
	}
	if cmd, ok := m.chatKey(s); ok {
		return cmd
	}
	if cmd, handled := m.onlineKey(s); handled {
		return cmd
	}
	if !m.mine() {
		return nil
	}
	if m.curtain() {
		if s == "enter" || s == "space" {
			// The safe move is selected, as after any other change, so
			// that an enter typed twice by habit risks nothing.
			m.revealed, m.choice = m.snap.ToMove, m.safeChoice()
		}
		return nil
	}
	m.notice, m.failed = m.noticeKept(), false
	if m.picking {
		return m.pickKey(s)
	}
	cs := m.choices()
	switch s {
	case "left", "up", "shift+tab", "h", "k":
		if m.choice < 0 {
			m.choice = 0
		}
		m.choice = (m.choice + len(cs) - 1) % len(cs)
		m.digits = ""
	case "right", "down", "tab", "j":
		m.choice = (m.choice + 1) % len(cs)
		m.digits = ""
	case "enter", "space":
		if m.choice < 0 {
			m.setError(m.cat.T("tui.key.choosefirst"))
			return nil
		}
		return m.choose(cs[m.choice])
	case "d":
		return m.shortcut(cs, razzia.ActionDraw)
	case "c":
		return m.shortcut(cs, razzia.ActionCall)
	case "p":
		return m.shortcut(cs, razzia.ActionPass)
	case "t":
		return m.shortcut(cs, razzia.ActionThieves)
	case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9":
		m.bidDigit(cs, s)
	}
	return nil
}

// noticeKept returns the notice that survives a key: a language notice
// stays until the first move, errors go.
func (m *Model) noticeKept() string {
	if m.failed {
		return ""
	}
	return m.notice
}

// shortcut plays the choice with the action, or says why it is not possible.
func (m *Model) shortcut(cs []choice, a razzia.Action) tea.Cmd {
	i := find(cs, a)
	if i < 0 {
		m.setError(m.whyNot(a))
		return nil
	}
	m.choice = i
	return m.choose(cs[i])
}

// whyNot explains why the person to move cannot take the action now.
func (m *Model) whyNot(a razzia.Action) string {
	auction := m.snap.Auction != nil
	switch {
	case auction && (a == razzia.ActionDraw || a == razzia.ActionCall || a == razzia.ActionThieves):
		return m.cat.T("tui.key.auction")
	case !auction && a == razzia.ActionPass:
		return m.cat.T("tui.key.noauction")
	case auction && a == razzia.ActionPass && m.snap.Auction.MustBid:
		return m.cat.T("tui.key.mustbid")
	case a == razzia.ActionThieves && m.thievesHeld() == 0:
		return m.cat.T("tui.key.nothief")
	case a == razzia.ActionThieves && len(m.snap.Row) == 0:
		return m.cat.T("tui.key.emptyrow")
	}
	return m.cat.T("tui.key.notnow")
}

// bidDigit selects the bid typed so far: "1" then "3" selects 13; a digit
// that continues no bid starts afresh.
func (m *Model) bidDigit(cs []choice, d string) {
	for _, typed := range []string{m.digits + d, d} {
		exact, prefix := -1, -1
		for i, c := range cs {
			if c.action != razzia.ActionBid {
				continue
			}
			v := strconv.Itoa(c.cheque)
			if v == typed {
				exact = i
			} else if prefix < 0 && len(v) > len(typed) && v[:len(typed)] == typed {
				prefix = i
			}
		}
		if exact < 0 {
			exact = prefix
		}
		if exact >= 0 {
			m.digits, m.choice = typed, exact
			return
		}
	}
	m.digits = ""
	m.setError(m.cat.T("tui.key.nobid", "cheque", d))
}

// choose plays a choice, or opens the picker for thieves.
func (m *Model) choose(c choice) tea.Cmd {
	if c.action == razzia.ActionThieves {
		m.picking, m.cursor = true, 0
		m.picked = make([]bool, len(m.snap.Row))
		return nil
	}
	return m.play(c.token)
}

// play plays the move for the person to move.
func (m *Model) play(token string) tea.Cmd {
	if m.remote != nil {
		return m.playRemote(token)
	}
	return m.playLocal(token)
}

// pickKey handles a key while row cards are picked for thieves.
func (m *Model) pickKey(s string) tea.Cmd {
	n := len(m.picked)
	switch s {
	case "esc", "t":
		m.picking = false
	case "left", "up", "shift+tab", "h", "k":
		m.cursor = (m.cursor + n - 1) % n
	case "right", "down", "tab", "j":
		m.cursor = (m.cursor + 1) % n
	case "space", "x":
		m.toggle(m.cursor)
	case "1", "2", "3", "4", "5", "6", "7":
		if i := int(s[0] - '1'); i < n {
			m.cursor = i
			m.toggle(i)
		}
	case "enter":
		tok, ok := m.pickedMove()
		if !ok {
			m.setError(m.cat.T("tui.thieves.illegal", "n", m.thievesHeld()))
			return nil
		}
		return m.play(tok)
	}
	return nil
}

func (m *Model) toggle(i int) {
	if i >= 0 && i < len(m.picked) {
		m.picked[i] = !m.picked[i]
	}
}
