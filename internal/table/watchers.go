package table

import (
	"context"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// syncChat reads the game's chat from the store: at the loop's start,
// and in a replica when the owner changed it. New messages and changed
// mutes go to the watchers.
func (l *loop) syncChat() {
	ctx, cancel := context.WithTimeout(l.env.ctx, commitTimeout)
	defer cancel()
	c, err := l.env.store.Chat(ctx, l.id)
	if err != nil {
		l.env.log.Error("cannot read the chat", "game", l.id, "err", err)
		if l.m.Room == nil {
			l.m.Room = match.RoomOf(nil) // the conversation is read again at the next change
		}
		return
	}
	added := newlyStruck(l.m.Chat, c.Lines)
	if len(c.Lines) > len(l.m.Chat) {
		added = append(added, c.Lines[len(l.m.Chat):]...)
	}
	l.m.Chat = c.Lines
	if l.m.Room == nil || !l.owns() {
		// A replica's room only shows; an owner's keeps its rate limits,
		// and the mutes it stored itself.
		l.m.Room = match.RoomOf(c.Mutes)
	}
	for s := range l.subs {
		l.chatTo(s, added)
	}
}

// chatTo sends s the lines its reader may see, and the seats it muted
// when they changed.
func (l *loop) chatTo(s *Subscription, lines []store.ChatLine) {
	s.tell(l.m.Room, lines, l.m.Game != nil && l.m.Game.Over())
}

// info describes the table as it is now.
func (l *loop) info() protocol.GameInfo {
	return describeAfter(l.m, l.id, l.env.limits.OpenTTL, &protocol.GameInfo{})
}

// describe describes the table for a broadcast, sharing with the last
// one what did not change.
func (l *loop) describe() protocol.GameInfo {
	l.described = describeAfter(l.m, l.id, l.env.limits.OpenTTL, &l.described)
	return l.described
}

// showing returns a new broadcast of the table's state, the next version.
func (l *loop) showing() *showing {
	l.version++
	// The showing and its change in one allocation: the change lives as
	// long as its updates, the showing no longer.
	both := &struct {
		sh showing
		c  change
	}{sh: showing{m: l.m, info: l.describe(), now: l.env.now, version: l.version, last: &l.public}}
	both.sh.c, both.sh.events = &both.c, both.sh.eventsBuf[:0]
	return &both.sh
}

// resend sends s the state again, whole, with every event of the game.
func (l *loop) resend(s *Subscription) {
	if _, ok := l.subs[s]; ok {
		s.sent, s.full = 0, true
		l.showing().send(s)
	}
}

// broadcast sends every subscriber the new state.
func (l *loop) broadcast() {
	l.show()
	sh := l.showing()
	for s := range l.subs {
		sh.send(s)
	}
}

// tellSeat sends the seat's watchers the state: a change only they see.
func (l *loop) tellSeat(seat int) {
	sh := l.showing()
	for s := range l.subs {
		if s.seat == seat {
			sh.send(s)
		}
	}
}

// A showing is one broadcast of a match's state to its subscribers: the
// events (by the move they start from), the views (by seat), the clocks
// and the encoded messages (c) are shared by its updates, so that each is
// made once, and only the events not yet sent are copied.
type showing struct {
	m         *match.Match
	info      protocol.GameInfo
	now       func() time.Time // read once, for the clocks
	events    []eventsFrom     // by the move they start from: one or two
	eventsBuf [2]eventsFrom
	// views by seat, the spectators' (-1) first: views[seat+1].
	views [razzia.MaxPlayers + 1]*protocol.View
	c     *change
	last  **protocol.View // the loop's last spectators' view, shared from and replaced
	// version numbers the broadcast among the loop's (Update.Version).
	version int64
	// seatViews holds the seats' views, made with the showing, not one
	// by one (the spectators' outlives it: the next showing shares from it).
	seatViews [razzia.MaxPlayers]protocol.View
}

// send gives s the state and the events it has not received. It never
// blocks: an update the subscriber has not taken yet is replaced by one
// that also carries its events (all of them when either is whole). A
// subscriber that handled every update it took may take it at once
// (Watcher.Direct), without waiting for a receiver to wake.
func (sh *showing) send(s *Subscription) {
	from, full := s.sent, s.full
	merged := false
	select {
	case old := <-s.c:
		from, full, merged = min(from, old.from), full || old.Full, true
	default:
	}
	s.full = false
	u := Update{Game: sh.info, Seat: s.seat, from: from, change: sh.c, Version: sh.version, Full: full}
	if g := sh.m.Game; g != nil {
		u.Events = sh.eventsSince(from)
		u.View, u.Public = sh.view(s.seat), sh.view(-1)
		sh.addClock(&u)
		s.sent = g.Len()
	}
	if s.direct != nil && !merged {
		if s.queued.Load() == 0 && s.direct(u) {
			return
		}
		s.queued.Add(1) // merged, it stays one update to handle
	}
	s.c <- u // the buffer has room: the game's goroutine is the only sender
}

// view returns the seat's view, made once: each seat's is derived from
// the public view (seat -1), built once, since they differ only in the
// seat's legal moves.
func (sh *showing) view(seat int) *protocol.View {
	if v := sh.views[seat+1]; v != nil {
		return v
	}
	public := sh.views[0]
	if public == nil {
		v := protocol.NewViewAfter(sh.m.Game.View(-1), *sh.last)
		public = &v
		sh.views[0], *sh.last = public, public
	}
	v := public
	if seat >= 0 {
		v = &sh.seatViews[seat]
		*v = *public.ForSeat(sh.m.Game.View(seat))
	}
	sh.views[seat+1] = v
	return v
}

// An eventsFrom is the game's events from a move on.
type eventsFrom struct {
	from   int
	events []razzia.Event
}

// eventsSince returns the game's events from move from on, made once.
func (sh *showing) eventsSince(from int) []razzia.Event {
	for _, e := range sh.events {
		if e.from == from {
			return e.events
		}
	}
	ev := sh.m.Game.EventsSince(from)
	sh.events = append(sh.events, eventsFrom{from, ev})
	return ev
}

// addClock fills in the clock, take-overs and the seat's own pre-move of
// an update, the clock view made once for the showing.
func (sh *showing) addClock(u *Update) {
	t := sh.m.Timing
	if sh.c.clock == nil {
		sh.c.clock = clockView(t, sh.now())
	}
	u.Clock = sh.c.clock
	u.TakeOvers = t.TakeOvers
	p := t.PreMoveOf(u.Seat)
	u.PreMove, u.PreMoveDropped = p.Move, p.Dropped
}

// clockView is the table's clocks t as the state messages show them at
// now; nil for an untimed table.
func clockView(t match.Timing, now time.Time) *protocol.ClockView {
	c := t.Clock
	if !c.Pace().Timed() {
		return nil
	}
	v := &protocol.ClockView{ReserveMs: make([]int64, c.Players()), Running: -1, ServerTime: protocol.Millis(now)}
	for i := range v.ReserveMs {
		v.ReserveMs[i] = c.Reserve(i).Milliseconds()
	}
	if seat, started, ok := c.Running(); ok {
		deadline, _ := c.Deadline()
		v.Running = seat
		v.DecisionEnds = protocol.Millis(started.Add(c.Pace().Decision))
		v.Deadline = protocol.Millis(deadline)
	}
	if h := t.Hold; h != nil {
		v.HeldUntil, v.Continued = protocol.Millis(h.Until), h.Continued
	}
	return v
}

// struck sends every watcher the chat lines removed, as each may read
// them: marked removed, without their words.
func (l *loop) struck(seqs []int) {
	if len(seqs) == 0 {
		return
	}
	lines := make([]store.ChatLine, 0, len(seqs))
	for _, seq := range seqs {
		lines = append(lines, l.m.Chat[seq])
	}
	for s := range l.subs {
		l.chatTo(s, lines)
	}
}
