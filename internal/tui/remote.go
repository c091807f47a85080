package tui

import (
	"context"
	"errors"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
)

// remote is a seat in a game on a server.
type remote struct {
	ctx     context.Context
	session *client.Session
	seat    int
	invite  string              // the invite link, shown while the table is open
	open    bool                // the table waits for players
	loop    client.SeatLoop     // what the seat sends: its moves, again after a refusal
	standIn []bool              // by seat: a server bot plays for the person
	seats   []protocol.SeatInfo // the table's seats, shown while it is open
	ended   error               // the session ended for good
	online                      // pre-moves, leaving, the rematch (online.go)

	chat   []protocol.ChatLine // the newest chat lines (chat.go)
	phrase string              // the quick phrase M sends, once m chose it

	opts      RemoteOptions
	drops     chan dropMsg // the session's lost connections
	drop      *dropMsg     // the connection is lost: trying again
	states    int          // states received
	goneOn    int64        // the hold (its end) this seat was said to go on from
	takeOvers []protocol.TakeOver
	cancelled bool            // the person closed the table
	givingUp  bool            // the seat is being given up (giveup.go)
	givenUp   string          // the token of the seat given up
	noLevels  map[string]bool // the bots' levels the server refused at the table
}

// dropMsg is a lost connection, or a failed attempt to connect, and the
// wait before the session tries again.
type dropMsg struct {
	err  error
	wait time.Duration
}

// waitDrop waits for the session to lose its connection.
func (r *remote) waitDrop() tea.Cmd {
	drops := r.drops
	return func() tea.Msg { return <-drops }
}

// standingIn reports whether a server bot plays for the seat.
func (r *remote) standingIn() bool {
	return r.seat >= 0 && r.seat < len(r.standIn) && r.standIn[r.seat]
}

// timedOut reports whether the bot that plays for the seat took over
// because the person's time ran out, rather than because they left.
func (r *remote) timedOut() bool {
	for i := len(r.takeOvers) - 1; i >= 0; i-- {
		if t := r.takeOvers[i]; t.Seat == r.seat && t.BackMove == nil {
			return t.Reason == protocol.ReasonTimeout
		}
	}
	return false
}

// stateMsg is what the session's Next returned.
type stateMsg struct {
	state *client.State
	err   error
	from  *client.Session // nil in tests: the current session
}

// moveSent is what the session's Move returned. A move that did not leave
// waits for the connection: the session, which dropped it, connects
// again, and the seat loop sends the move again at its first state.
type moveSent struct{ err error }

// next waits for the server's next state, off the update loop.
func (r *remote) next() tea.Cmd {
	s, ctx := r.session, r.ctx
	return func() tea.Msg {
		st, err := s.Next(ctx)
		return stateMsg{st, err, s}
	}
}

// received takes a state or an error from the server.
func (m *Model) received(msg stateMsg) tea.Cmd {
	r := m.remote
	if msg.from != nil && msg.from != r.session {
		return nil // the game before a rematch: its session is closed
	}
	var refused *client.Error
	switch {
	case errors.As(msg.err, &refused) && endsSession(refused.Code):
		// The game is gone (or expired): the server refuses it for good.
		r.ended = msg.err
		m.setError(m.serverError(refused))
		return nil
	case errors.As(msg.err, &refused):
		// The server refused a move, another request, or this connection
		// (too many of them): the session goes on, reconnecting as it
		// needs.
		return tea.Batch(r.next(), m.refused(refused))
	case msg.err != nil:
		r.ended = msg.err
		m.setError(m.cat.T("tui.server.lost", "error", msg.err.Error()))
		return nil
	}
	st := msg.state
	if st.Chat != nil {
		m.heard(st.Chat)
		return r.next()
	}
	again, lost := r.loop.Seen(st) // lost: the move sent may have been lost with a connection
	m.takeState(st)
	if m.failed {
		m.notice, m.failed = "", false
	}
	m.afterChange()
	if st.Offer != nil {
		if follow := m.takeOffer(st.Offer); follow != nil {
			return follow
		}
	}
	cmds := []tea.Cmd{r.next(), m.tick()}
	if lost {
		cmds = append(cmds, m.sendMove(again))
	}
	if c := m.goOn(st); c != nil {
		cmds = append(cmds, c)
	}
	if r.states == 1 && r.opts.Resumed && r.standingIn() && !m.Over() {
		// Back at the seat: the bot that played meanwhile hands it back.
		cmds = append(cmds, m.send(protocol.PreMoveMessage{Type: protocol.TypeTakeBack}))
	}
	return tea.Batch(cmds...)
}

// takeState shows the state of the table the server sent: its seats,
// the view, the clock and the events since the last state.
func (m *Model) takeState(st *client.State) {
	r := m.remote
	r.drop = nil
	r.seat = st.Seat
	r.open = st.View == nil
	r.takeOvers = st.TakeOvers
	r.states++
	if st.View != nil {
		m.snap = *st.View
	}
	r.standIn, r.seats = r.standIn[:0], st.Game.Seats
	for _, seat := range st.Game.Seats {
		r.standIn = append(r.standIn, seat.StandIn != "")
	}
	r.preMove, r.preMoveDropped = st.PreMove, st.PreMoveDropped
	if st.Clock != nil && (m.clock == nil || m.clock.Deadline != st.Clock.Deadline) {
		m.clockSpan = st.Clock.Deadline - st.Clock.ServerTime // a new decision
	}
	m.clock = st.Clock
	if st.Clock != nil {
		m.offset = st.Clock.ServerTime - m.now().UnixMilli()
	}
	if st.First {
		m.events = m.events[:0]
	}
	// The terminal tells events with its own catalogue, as in a local game.
	for _, e := range st.Events {
		m.events = append(m.events, e.Event)
	}
}

// dropped shows that the connection is lost and when the session tries
// again, until the next state arrives.
func (m *Model) dropped(msg dropMsg) tea.Cmd {
	r := m.remote
	if r.ended == nil {
		r.drop = &msg
	}
	return r.waitDrop()
}

// endsSession reports whether a refusal with the code ends the session:
// the server will never serve the game again.
func endsSession(c protocol.Code) bool { return c == protocol.NotFound || c == protocol.TableExpired }

// serverError translates a refusal by its code.
func (m *Model) serverError(e *client.Error) string {
	key := "error." + string(e.Code)
	if m.cat.Has(key) {
		return m.cat.T(key)
	}
	return m.cat.T("error.unknown", "code", string(e.Code))
}

// refused takes a refusal: the seat loop sends a move refused for a
// while again, by itself; the person reads any other.
func (m *Model) refused(e *client.Error) tea.Cmd {
	if e.Status == 0 {
		if s, ok := m.remote.loop.Refused(e); ok {
			return tea.Tick(s.Wait, func(time.Time) tea.Msg { return resend{s} })
		}
	}
	m.setError(m.serverError(e))
	return nil
}

// playRemote sends the person's move to the server; the next state shows
// it played.
func (m *Model) playRemote(token string) tea.Cmd {
	m.notice, m.failed = "", false
	if s, ok := m.remote.loop.Chose(token); ok {
		return m.sendMove(s)
	}
	return nil
}

// sendMove sends a move off the update loop.
func (m *Model) sendMove(s client.Send) tea.Cmd {
	act, ctx := m.remote.act, m.remote.ctx
	return func() tea.Msg { return moveSent{act.Move(ctx, s.Move, s.Seq)} }
}

// resend is the time to send again a move refused for a while.
type resend struct{ s client.Send }

// resent sends the move again, unless the game has moved on or the move
// was answered meanwhile.
func (m *Model) resent(msg resend) tea.Cmd {
	if !m.remote.loop.Due(msg.s) {
		return nil
	}
	return m.sendMove(msg.s)
}

// requestFailed says why a request to the server failed: the server's
// refusal, or that it did not reach the server.
func (m *Model) requestFailed(err error) {
	var refused *client.Error
	if errors.As(err, &refused) {
		m.setError(m.serverError(refused))
	} else {
		m.setError(m.cat.T("tui.server.notsent"))
	}
}

// stakeOf reads from the view what the lot is worth to the seat to move:
// for a bid among its legal moves (the view carries each bid's gain), or,
// for bid -1, at its lowest bid (the view's stakes). It also returns the
// bid the gain is for. A server's view carries both, as a local game's
// does, so the terminal shows the stake either way; ok is false when the
// view has nothing for the seat.
func (m *Model) stakeOf(bid int) (gain razzia.Score, paid int, ok bool) {
	s := &m.snap
	if bid >= 0 {
		for _, mv := range s.LegalMoves {
			if mv.Action == "bid" && mv.Cheque == bid && mv.Gain != nil {
				return *mv.Gain, bid, true
			}
		}
	}
	for _, st := range s.Stakes {
		if st.Seat == s.ToMove {
			return st.Gain, st.Bid, true
		}
	}
	return razzia.Score{}, 0, false
}

// goOn tells the server, once per hold, that this seat's person has gone
// on from a round's scores, when the server holds the new round's first
// clock for the people reading them: the terminal shows nothing that
// covers the table, so its player is ready at once and does not keep the
// others waiting for the grace.
func (m *Model) goOn(st *client.State) tea.Cmd {
	r := m.remote
	c := st.Clock
	if c == nil || c.HeldUntil == 0 || r.seat < 0 || r.act == nil || r.goneOn == c.HeldUntil || slices.Contains(c.Continued, r.seat) {
		return nil
	}
	r.goneOn = c.HeldUntil
	return m.send(protocol.PreMoveMessage{Type: protocol.TypeContinue})
}
