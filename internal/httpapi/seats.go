package httpapi

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/presence"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/table"
	"github.com/razziagame/razzia/internal/tutorial"
)

// The presence of a table's socket: its person is at the table (in their
// seat, or watching), and every socket of the table hears when a seat's
// person comes, hides their page or goes.

// tablePresence is a table socket's part in presence.
type tablePresence struct {
	person  presence.Person
	conn    atomic.Pointer[presence.Conn] // made by the writer's goroutine, read by the reader's (a page hidden)
	awayMu  sync.Mutex                    // orders the reader's away with the writer's conn
	away    bool                          // the page said it is hidden, maybe before conn was made
	seat    int
	changed <-chan struct{} // the seats' presence may have changed
	stop    func()
	send    bool              // the socket asked for the seats' presence (?presence=1)
	game    protocol.GameInfo // the table as last sent (a copy: no allocation an update)
	known   bool              // game was sent
	sent    []protocol.SeatPresence
	blocked []string // the keys of the names of the accounts the reader blocks, sorted
}

// startPresence makes the socket's presence at game id, and sends the
// seats' presence when send; its stop ends it.
func (w *wsConn) startPresence(ctx context.Context, p presence.Person, send bool) func() {
	if w.s.opts.Presence == nil {
		return func() {}
	}
	tp := &tablePresence{person: p, seat: -2, send: send}
	tp.changed, tp.stop = w.s.opts.Presence.WatchGame(w.id)
	w.pres = tp
	w.loadBlocked(ctx)
	return func() {
		tp.stop()
		if c := tp.conn.Load(); c != nil {
			c.Close()
		}
	}
}

// loadBlocked reads whose chat the reader hides.
func (w *wsConn) loadBlocked(ctx context.Context) {
	if w.pres == nil || w.account == "" || w.s.opts.Social == nil {
		return
	}
	ids, err := w.s.opts.Social.Blocking(ctx, w.account)
	if err != nil {
		w.s.log.Warn("cannot read whom a player blocks", "err", err)
		return
	}
	var keys []string
	for _, id := range ids {
		if card, err := w.s.opts.Social.Card(ctx, id); err == nil {
			keys = append(keys, playername.Key(card.Name))
		}
	}
	slices.Sort(keys)
	w.pres.blocked = keys
}

// seatUpdate follows the table's update u: the socket's person is in
// their seat while the game is open or playing, else watching. The
// seats' presence is sent again when the seats or the person's seat
// changed: else it changes only as presence says (seatsChanged).
func (w *wsConn) seatUpdate(ctx context.Context, u table.Update) error {
	tp := w.pres
	if tp == nil {
		return nil
	}
	g := u.Game
	changed := !tp.known || !sameSeats(tp.game.Seats, g.Seats)
	tp.game, tp.known = g, true
	if guided(g) {
		// A guided first game is the learner's own: they are online, in
		// no table anyone could watch.
		if tp.conn.Load() == nil && tp.person.Key != "" {
			c, err := w.s.opts.Presence.Connect(ctx, tp.person, "", -1)
			if err != nil {
				w.s.log.Warn("cannot record a table's socket", "game", w.id, "err", err)
				return nil
			}
			w.connected(ctx, c)
		}
		return nil
	}
	seat := presentSeat(u)
	if seat != tp.seat {
		changed = true
		p := tp.person
		if p.Name == "" && p.Key != "" && seat >= 0 {
			// A guest goes by their seat's name, unless it is an account's.
			p.Name = w.s.guestName(ctx, g.Seats[seat].Name)
		}
		if c := tp.conn.Load(); c != nil {
			if err := c.SetSeat(ctx, seat); err != nil {
				w.s.log.Warn("cannot record a seat's socket", "game", w.id, "err", err)
			}
		} else {
			c, err := w.s.opts.Presence.Connect(ctx, p, w.id, seat)
			if err != nil {
				w.s.log.Warn("cannot record a table's socket", "game", w.id, "err", err)
				return nil
			}
			w.connected(ctx, c)
		}
		tp.seat = seat
	}
	if !changed {
		return nil
	}
	return w.sendSeats(ctx)
}

// connected keeps c as the socket's presence, made by the writer. The
// page may have said it is hidden before (the reader's awayMessage, as a
// page opened in a background tab does at once): c is hidden then too.
func (w *wsConn) connected(ctx context.Context, c *presence.Conn) {
	tp := w.pres
	tp.conn.Store(c)
	tp.awayMu.Lock()
	defer tp.awayMu.Unlock()
	if tp.away {
		if err := c.SetAway(ctx, true); err != nil {
			w.s.log.Warn("cannot store that a page is hidden", "game", w.id, "err", err)
		}
	}
}

// setAway is the reader's: the page is hidden or shown. Before the
// writer made the presence it is kept for connected. Under awayMu, either
// this sees the conn or connected sees the page's last word.
func (tp *tablePresence) setAway(ctx context.Context, away bool) error {
	tp.awayMu.Lock()
	defer tp.awayMu.Unlock()
	tp.away = away
	if c := tp.conn.Load(); c != nil {
		return c.SetAway(ctx, away)
	}
	return nil
}

// presentSeat is the seat the socket's person is at in presence after
// u: theirs while the game is open or playing, else -1 (watching).
func presentSeat(u table.Update) int {
	if u.Seat >= 0 && u.Game.Status.Live() {
		return u.Seat
	}
	return -1
}

// sameSeats reports whether the seats are the same as the seats'
// presence tells them: open or a bot's, or a person's.
func sameSeats(a, b []protocol.SeatInfo) bool {
	return slices.EqualFunc(a, b, func(a, b protocol.SeatInfo) bool { return a.Open == b.Open && a.Bot == b.Bot })
}

// presenceKnows reports whether following u (seatUpdate) would ask
// nothing of presence, neither a call nor a read: the person is at the
// seat presence knows, and the seats are those last sent.
func (w *wsConn) presenceKnows(u table.Update) bool {
	tp := w.pres
	switch {
	case tp == nil:
		return true
	case !tp.known || !sameSeats(tp.game.Seats, u.Game.Seats):
		return false
	case guided(u.Game):
		return tp.conn.Load() != nil || tp.person.Key == ""
	}
	return presentSeat(u) == tp.seat
}

// guided reports whether g is a guided first game (a tutorial's bot).
func guided(g protocol.GameInfo) bool {
	return slices.ContainsFunc(g.Seats, func(s protocol.SeatInfo) bool { return s.Bot == tutorial.Bot })
}

// sendSeats sends the presence of the people at the seats, unless it is
// what was sent last.
func (w *wsConn) sendSeats(ctx context.Context) error {
	tp := w.pres
	if tp == nil || !tp.known || !tp.send {
		return nil
	}
	seats := w.s.opts.Presence.Seats(w.id)
	var seen map[int]time.Time
	m := protocol.SeatsMessage{Type: protocol.TypeSeats, Seats: []protocol.SeatPresence{}}
	for i, s := range tp.game.Seats {
		if s.Open || s.Bot != "" {
			continue
		}
		p := protocol.SeatPresence{Seat: i, Presence: protocol.SeatGone}
		switch st, ok := seats[i]; {
		case ok && st.Away:
			p.Presence = protocol.SeatAway
		case ok:
			p.Presence = protocol.SeatConnected
		default:
			if seen == nil {
				var err error
				if seen, err = w.s.opts.Presence.SeatsSeen(ctx, w.id); err != nil {
					w.s.log.Warn("cannot read when seats were last seen", "game", w.id, "err", err)
					seen = map[int]time.Time{}
				}
			}
			if at, ok := seen[i]; ok {
				at = at.UTC()
				p.LastSeen = &at
			}
		}
		m.Seats = append(m.Seats, p)
	}
	if slices.EqualFunc(m.Seats, tp.sent, func(a, b protocol.SeatPresence) bool {
		return a.Seat == b.Seat && a.Presence == b.Presence && (a.LastSeen == nil) == (b.LastSeen == nil) &&
			(a.LastSeen == nil || a.LastSeen.Equal(*b.LastSeen))
	}) {
		return nil
	}
	tp.sent = m.Seats
	return w.send(ctx, "the seats' presence", func() ([]byte, error) { return json.Marshal(m) })
}

// seatsChanged is the channel that says the seats' presence may have
// changed; nil without presence.
func (w *wsConn) seatsChanged() <-chan struct{} {
	if w.pres == nil || !w.pres.send {
		return nil
	}
	return w.pres.changed
}

// unblocked returns m without the lines of the players the reader
// blocks: signed-in players (a seat of an account, or a spectator, who
// chats signed in only) by their names.
func (w *wsConn) unblocked(m protocol.ChatMessage) protocol.ChatMessage {
	if w.pres == nil || len(w.pres.blocked) == 0 || !w.pres.known {
		return m
	}
	seats := w.pres.game.Seats
	out := m
	out.Lines = nil
	for _, l := range m.Lines {
		account := l.Seat < 0 || l.Seat < len(seats) && seats[l.Seat].Account
		if _, hid := slices.BinarySearch(w.pres.blocked, playername.Key(l.Name)); account && hid {
			continue
		}
		out.Lines = append(out.Lines, l)
	}
	if out.Lines == nil {
		out.Lines = []protocol.ChatLine{}
	}
	return out
}

// awayMessage handles a table socket's TypeAway: the page is hidden or
// shown again.
func (w *wsConn) awayMessage(ctx context.Context, m *inbound) error {
	msg := protocol.AwayMessage{Type: m.Type, Away: m.Away}
	if err := msg.Check(); err != nil {
		return w.error(ctx, protocol.BadMessage, 0, "%s", err)
	}
	if w.pres == nil {
		return nil
	}
	return w.awayStored(ctx, w.pres.setAway(ctx, *msg.Away))
}
