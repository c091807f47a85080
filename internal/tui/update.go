package tui

import (
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/protocol"
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
	case dropMsg:
		return m, m.dropped(msg)
	case resend:
		return m, m.resent(msg)
	case tableCancelled:
		return m, m.tableCancelled(msg)
	case seatGivenUp:
		return m, m.seatGivenUp(msg)
	case levelSet:
		return m, m.levelChanged(msg)
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

// key handles a key press: first the keys that work in every state, then
// the pages, the seat's keys at a server, and last the moves.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	s := k.String()
	if cmd, ok := m.controlKey(s); ok {
		return cmd
	}
	if m.over != noOverlay {
		return m.pageKey(k)
	}
	if cmd, ok := m.tableKey(s); ok {
		return cmd
	}
	if cmd, ok := m.chatKey(s); ok {
		return cmd
	}
	if cmd, ok := m.onlineKey(s); ok {
		return cmd
	}
	return m.turnKey(s)
}

// controlKey handles what works whatever shows: ctrl+c, ctrl+z (the
// shell's job control: the screen comes back on fg), the keys of a
// terminal too small, and the answer to the question whether to quit.
func (m *Model) controlKey(s string) (tea.Cmd, bool) {
	switch {
	case s == "ctrl+c":
		m.quit, m.interrupted = true, true
		return tea.Quit, true
	case s == "ctrl+z":
		return tea.Suspend, true
	case m.small() && s == "q":
		m.quit = true
		return tea.Quit, true
	case m.small():
		return nil, true
	case m.confirm:
		return m.quitKey(s), true
	}
	return nil, false
}

// tableKey handles q and the keys that open a page over the table.
func (m *Model) tableKey(s string) (tea.Cmd, bool) {
	pages := map[string]overlay{"?": helpOverlay, "f1": helpOverlay, "r": rulesOverlay, "s": scoresOverlay, "l": logOverlay, "i": deckOverlay}
	if o, ok := pages[s]; ok {
		m.open(o)
		return nil, true
	}
	if s != "q" {
		return nil, false
	}
	// A game over, a lost session or a spectator's seat: quitting changes
	// nothing at the table, so it is not asked about.
	if m.Over() || (m.remote != nil && (m.remote.ended != nil || m.remote.seat < 0)) {
		m.quit = true
		return tea.Quit, true
	}
	m.confirm = true
	return nil, true
}

// turnKey handles the keys of the person to move: the hand-over in
// hot-seat, the thieves' picker, or the choices.
func (m *Model) turnKey(s string) tea.Cmd {
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
	return m.choiceKey(s)
}

// choiceKey moves the selection, plays it, or plays a move by its key.
func (m *Model) choiceKey(s string) tea.Cmd {
	cs := m.choices()
	shortcuts := map[string]razzia.Action{"d": razzia.ActionDraw, "c": razzia.ActionCall, "p": razzia.ActionPass, "t": razzia.ActionThieves}
	switch s {
	case "left", "up", "shift+tab", "h", "k":
		m.choice = (max(m.choice, 0) + len(cs) - 1) % len(cs)
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
	case "d", "c", "p", "t":
		return m.shortcut(cs, shortcuts[s])
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

// quitKey answers the question whether to quit. At a server's table the
// seat is not simply dropped: a started game is left to a bot until the
// person comes back, the creator of a table that waits for players
// chooses whether to close it, and another person there whether to keep
// their seat or give it up (giveup.go).
func (m *Model) quitKey(s string) tea.Cmd {
	if m.offersGiveUp() {
		return m.giveUpKey(s)
	}
	closing := m.closingTable()
	switch {
	case s == "esc" || (!closing && (s == "n" || s == "N")):
		m.confirm = false
		return nil
	case closing && (s == "n" || s == "N"):
		m.quit = true // the table stays open; the seat is saved
		return tea.Quit
	case s != "y" && s != "Y" && s != "enter" && s != "q":
		return nil
	case closing:
		cancel, ctx := m.remote.opts.Cancel, m.remote.ctx
		return func() tea.Msg { return tableCancelled{cancel(ctx)} }
	case m.leavesToBot():
		m.quit = true
		act, ctx := m.remote.act, m.remote.ctx
		return func() tea.Msg {
			_ = act.Send(ctx, protocol.PreMoveMessage{Type: protocol.TypeLeave}) // unsent, the seat simply waits
			return tea.QuitMsg{}
		}
	}
	m.quit = true
	return tea.Quit
}

// closingTable reports whether quitting asks to close the table: the
// person created it and it still waits for players.
func (m *Model) closingTable() bool {
	r := m.remote
	return r != nil && r.open && r.opts.Creator && r.opts.Cancel != nil && r.ended == nil
}

// leavesToBot reports whether quitting leaves the seat to a server bot:
// a started game, not over, that the person still plays.
func (m *Model) leavesToBot() bool {
	r := m.remote
	return r != nil && r.seat >= 0 && !r.open && len(m.snap.Players) > 0 && !m.Over() &&
		!r.standingIn() && r.ended == nil && r.act != nil
}

// quitQuestion is the question q asks.
func (m *Model) quitQuestion() string {
	switch {
	case m.closingTable():
		return m.cat.T("tui.quit.open")
	case m.offersGiveUp():
		return m.cat.T("waitroom.quit.ask")
	case m.remote != nil && m.remote.seat >= 0 && m.remote.open && m.remote.ended == nil:
		return m.cat.T("tui.quit.waiting") // a guest's seat at a table not started
	case m.remote != nil && m.remote.seat >= 0 && !m.Over() && m.remote.ended == nil && len(m.snap.Players) > 0:
		return m.cat.T("tui.quit.standin")
	}
	return m.cat.T("tui.quit.confirm")
}

// tableCancelled is what closing the table returned.
type tableCancelled struct{ err error }

// tableCancelled quits once the table is closed, or says why it is not.
func (m *Model) tableCancelled(msg tableCancelled) tea.Cmd {
	if msg.err != nil {
		m.confirm = false
		m.requestFailed(msg.err)
		return nil
	}
	m.remote.cancelled, m.quit = true, true
	return tea.Quit
}
