package tui

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
)

// The keys of a seat on a server, beside the moves: deciding
// ahead in an auction before the seat's turn (p, digits and enter, x to
// withdraw), leaving the table to a bot (L, asked first) and taking the
// seat back (B), and at the game's end the rematch (a to offer or
// accept, n to decline); once it starts with this seat, the terminal
// goes on to the new table.

// An actor makes a seat's requests: a *client.Session.
type actor interface {
	Send(ctx context.Context, msg any) error
	Rematch(ctx context.Context, accept bool) (protocol.RematchOffer, string, error)
	Move(ctx context.Context, move string, seq int) error
}

// online is what a seat on a server keeps of those requests.
type online struct {
	act            actor
	leaving        bool   // asking whether to leave
	ahead          string // the digits of a bid typed to decide ahead
	preMove        string // the seat's decision ahead, as the server holds it
	preMoveDropped string // why it was not played
	offer          *protocol.RematchOffer
	nextToken      string // the seat's token at the rematch; "" the same
}

// sent is what an actor's Send returned.
type sent struct{ err error }

// rematchAnswered is what an actor's Rematch returned.
type rematchAnswered struct {
	offer protocol.RematchOffer
	token string
	err   error
}

// send sends msg off the update loop.
func (m *Model) send(msg any) tea.Cmd {
	r := m.remote
	act, ctx := r.act, r.ctx
	return func() tea.Msg { return sent{act.Send(ctx, msg)} }
}

// onlineKey handles the keys of a seat on a server; handled is false for
// a key it leaves to the table.
func (m *Model) onlineKey(s string) (cmd tea.Cmd, handled bool) {
	r := m.remote
	if r == nil || r.seat < 0 || r.act == nil {
		return nil, false
	}
	if r.leaving {
		r.leaving = false
		m.notice, m.failed = "", false
		if s == "y" || s == "Y" {
			return m.send(protocol.PreMoveMessage{Type: protocol.TypeLeave}), true
		}
		return nil, true
	}
	if m.Over() {
		return m.rematchKey(s)
	}
	standIn := r.seat < len(r.standIn) && r.standIn[r.seat]
	switch s {
	case "L":
		if standIn || r.open { // no bot stands in before the start
			return nil, true
		}
		r.leaving = true
		m.notice, m.failed = m.cat.T("tui.leave.confirm"), false
		return nil, true
	case "B":
		if !standIn {
			return nil, true
		}
		return m.send(protocol.PreMoveMessage{Type: protocol.TypeTakeBack}), true
	}
	if r.open {
		return m.levelKey(s)
	}
	if m.mine() || m.snap.Auction == nil || standIn {
		return nil, false
	}
	return m.aheadKey(s)
}

// rematchKey handles a key at the game's end: a offers or accepts the
// rematch, n declines it.
func (m *Model) rematchKey(s string) (cmd tea.Cmd, handled bool) {
	r := m.remote
	if (s != "a" && s != "n") || r.opts.Tournament {
		return nil, false
	}
	if r.offer != nil && !r.offer.Pending(r.seat) {
		m.setError(m.cat.T("error.rematch_refused"))
		return nil, true
	}
	act, ctx, accept := r.act, r.ctx, s == "a"
	return func() tea.Msg {
		offer, token, err := act.Rematch(ctx, accept)
		return rematchAnswered{offer, token, err}
	}, true
}

// aheadKey handles a key that decides ahead in an auction, before the
// seat's turn: p passes, digits and enter bid, x withdraws.
func (m *Model) aheadKey(s string) (cmd tea.Cmd, handled bool) {
	r := m.remote
	switch {
	case s == "p":
		r.ahead = ""
		return m.send(protocol.PreMoveMessage{Type: protocol.TypePreMove, Move: "pass"}), true
	case s == "x":
		r.ahead = ""
		return m.send(protocol.PreMoveMessage{Type: protocol.TypePreMove}), true
	case len(s) == 1 && s[0] >= '0' && s[0] <= '9':
		if len(r.ahead) < 2 {
			r.ahead += s
		}
		return nil, true
	case s == "backspace" || s == "esc":
		r.ahead = ""
		return nil, true
	case s == "enter" && r.ahead != "":
		tok := "bid " + strings.TrimLeft(r.ahead, "0")
		r.ahead = ""
		return m.send(protocol.PreMoveMessage{Type: protocol.TypePreMove, Move: tok}), true
	}
	return nil, false
}

// sentDone shows why a request did not leave; the server's answer, a
// refusal or the next state, comes from the session.
func (m *Model) sentDone(msg sent) tea.Cmd {
	if msg.err != nil {
		m.setError(m.cat.T("tui.server.notsent"))
	}
	return nil
}

// answered takes the server's answer to the seat's rematch answer.
func (m *Model) answered(msg rematchAnswered) tea.Cmd {
	r := m.remote
	if msg.err != nil {
		m.requestFailed(msg.err)
		return nil
	}
	if msg.token != "" {
		r.nextToken = msg.token
	}
	return m.takeOffer(&msg.offer)
}

// takeOffer shows the rematch offer as it is now, and goes on to the new
// table once it started with this seat.
func (m *Model) takeOffer(o *protocol.RematchOffer) tea.Cmd {
	r := m.remote
	if o == nil {
		return nil
	}
	r.offer = o
	if o.State != protocol.RematchStarted || r.seat < 0 || r.seat >= len(o.Answers) || o.Answers[r.seat] != protocol.RematchYes || r.session == nil {
		return nil
	}
	old := r.session
	r.session = old.Follow(o.Game, r.nextToken)
	r.act = r.session
	old.Close()
	r.offer, r.nextToken, r.preMove, r.preMoveDropped, r.loop = nil, "", "", "", client.SeatLoop{}
	r.chat = nil // the chat of the game before
	m.events, m.scored, m.clock = m.events[:0], 0, nil
	m.snap.Phase, m.snap.Players = "", nil
	m.notice, m.failed = m.cat.T("tui.rematch.started"), false
	return r.next()
}

// onlineStatus is the status line of a seat on a server when no notice
// is shown: the leave question, the decision ahead, the rematch.
func (m *Model) onlineStatus() string {
	r := m.remote
	if r == nil || r.seat < 0 {
		return ""
	}
	if m.Over() {
		o := r.offer
		switch {
		case r.opts.Tournament:
			return m.cat.T("error.tournament_rematch")
		case o == nil:
			return m.cat.T("tui.rematch.offer")
		case o.Pending(r.seat):
			return m.cat.T("tui.rematch.offered", "player", m.name(o.By))
		case o.State == protocol.RematchOpen:
			n := 0
			for _, a := range o.Answers {
				if a == "" {
					n++
				}
			}
			return m.cat.T("tui.rematch.waiting", "n", n)
		case o.State == protocol.RematchLapsed:
			return m.cat.T("tui.rematch.lapsed")
		}
		return m.cat.T("tui.rematch.without", "id", o.Game)
	}
	switch {
	case r.ahead != "":
		return m.cat.T("tui.premove.typing", "cheque", strings.TrimLeft(r.ahead, "0"))
	case r.preMoveDropped != "":
		return m.cat.T("tui.premove.dropped", "move", m.moveText(r.preMove), "reason", r.preMoveDropped)
	case r.preMove != "":
		return m.cat.T("tui.premove.set", "move", m.moveText(r.preMove))
	case r.standingIn() && r.timedOut():
		return m.cat.T("tui.timeout.standin")
	case r.standingIn():
		return m.cat.T("tui.leave.done")
	}
	return ""
}

// moveText tells a decision ahead, "pass" or "bid N", in the language.
func (m *Model) moveText(tok string) string {
	if n, ok := strings.CutPrefix(tok, "bid "); ok {
		c, _ := strconv.Atoi(n)
		return m.cat.T("action.bid.cheque", "cheque", c)
	}
	return m.cat.T("action.pass")
}

// onlineKeys is the part of the key line for a seat on a server.
func (m *Model) onlineKeys() string {
	r := m.remote
	switch {
	case r == nil || r.seat < 0 || r.act == nil || m.Over() && r.opts.Tournament:
		return ""
	case m.Over():
		return m.cat.T("tui.keys.rematch")
	case r.seat < len(r.standIn) && r.standIn[r.seat]:
		return m.cat.T("tui.keys.back")
	case m.snap.Auction != nil && !m.mine():
		return m.cat.T("tui.keys.ahead")
	case r.open:
		return ""
	}
	return m.cat.T("tui.keys.leave")
}

// levelSet is what the creator's change of a bot's level returned.
type levelSet struct {
	level string
	err   error
}

// levelKey handles a key at the creator's table that waits for players:
// a bot's seat number (from 1, as the screen shows them) gives that bot
// the next level, after the strongest the weakest again.
func (m *Model) levelKey(s string) (cmd tea.Cmd, handled bool) {
	r := m.remote
	if !m.changesLevels() || len(s) != 1 || s[0] < '1' || s[0] > '9' {
		return nil, false
	}
	seat := int(s[0] - '1')
	if seat >= len(r.seats) || r.seats[seat].Bot == "" {
		return nil, true
	}
	level, ok := m.nextLevel(r.seats[seat].Bot)
	if !ok {
		return nil, true
	}
	set, ctx := r.opts.SetLevel, r.ctx
	m.notice, m.failed = "", false
	return func() tea.Msg { return levelSet{level, set(ctx, seat, level)} }, true
}

// nextLevel returns the level after the bot's, skipping those the server
// refused at this table (a rated table takes the rated levels only).
func (m *Model) nextLevel(current string) (string, bool) {
	levels := bot.LevelNames()
	i := slices.Index(levels, current)
	for range levels {
		i = (i + 1) % len(levels)
		if l := levels[i]; l != current && !m.remote.noLevels[l] {
			return l, true
		}
	}
	return "", false
}

// changesLevels reports whether the person may change the bots' levels:
// they created the table, which waits for players.
func (m *Model) changesLevels() bool {
	r := m.remote
	return r != nil && r.open && r.opts.Creator && r.opts.SetLevel != nil && r.ended == nil
}

// levelChanged shows why a bot's level did not change; the table's next
// state shows the level it has.
func (m *Model) levelChanged(msg levelSet) tea.Cmd {
	if msg.err == nil {
		return nil
	}
	if errors.Is(msg.err, protocol.BadRequest) {
		if m.remote.noLevels == nil {
			m.remote.noLevels = map[string]bool{}
		}
		m.remote.noLevels[msg.level] = true
	}
	m.requestFailed(msg.err)
	return nil
}
