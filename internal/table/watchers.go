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
	var added []store.ChatLine
	if len(c.Lines) > len(l.m.Chat) {
		added = c.Lines[len(l.m.Chat):]
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

// clockView is the table's clocks as the state messages show them at now;
// nil for an untimed table.
func (l *loop) clockView(now time.Time) *protocol.ClockView {
	c := l.m.Timing.Clock
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
	if h := l.m.Timing.Hold; h != nil {
		v.HeldUntil, v.Continued = protocol.Millis(h.Until), h.Continued
	}
	return v
}

// decorate adds the table's pace and stand-ins to a description of it.
func (l *loop) decorate(in *protocol.GameInfo) {
	in.Pace = PaceInfo(l.m.Timing.Clock.Pace())
	for i := range in.Seats {
		if l.m.Timing.StandingIn(i) {
			in.Seats[i].StandIn = StandInLevel
		}
	}
}

// addClock fills in the clock, take-overs and the seat's own pre-move of
// an update, the clock view shared by the updates of one change.
func (l *loop) addClock(u *Update, c *change) {
	if c.clock == nil && l.m.Game != nil {
		c.clock = l.clockView(l.env.now())
	}
	u.Clock = c.clock
	u.TakeOvers = l.m.Timing.TakeOvers
	p := l.m.Timing.PreMoveOf(u.Seat)
	u.PreMove, u.PreMoveDropped = p.Move, p.Dropped
}

func (l *loop) info() protocol.GameInfo {
	moves := 0
	var winners []int
	if l.m.Game != nil {
		moves = l.m.Game.Len()
		winners = l.m.Game.Winners()
	}
	in := newInfo(l.env.limits.OpenTTL, l.id, l.m.Status, l.m.Seats, l.m.Rated, moves, l.m.Created, l.m.Updated, winners)
	if l.m.Game != nil && !l.m.Game.Over() {
		to := l.m.Game.ToMove()
		in.ToMove = &to
	}
	l.decorate(&in)
	in.RematchOf = l.m.RematchOf
	return in
}

// broadcast sends every subscriber the new state.
func (l *loop) broadcast() {
	l.show()
	info := l.info()
	events, c, views := map[int][]razzia.Event{}, &change{}, map[int]*protocol.View{}
	for s := range l.subs {
		l.send(s, info, events, c, views)
	}
}

// tellSeat sends the seat's watchers the state: a change only they see.
func (l *loop) tellSeat(seat int) {
	info := l.info()
	c := &change{}
	for s := range l.subs {
		if s.seat == seat {
			l.send(s, info, map[int][]razzia.Event{}, c, map[int]*protocol.View{})
		}
	}
}

// send gives s the state and the events it has not received. It never
// blocks: an update the subscriber has not taken yet is replaced by one
// that also carries its events. events (by the move they start from),
// views (by seat) and c (the encoded messages) are shared by the
// subscribers of one broadcast, so that each is made once, and only the
// events not yet sent are copied.
func (l *loop) send(s *Subscription, info protocol.GameInfo, events map[int][]razzia.Event, c *change, views map[int]*protocol.View) {
	from := s.sent
	select {
	case old := <-s.c:
		from = old.from
	default:
	}
	u := Update{Game: info, Seat: s.seat, from: from, change: c}
	if l.m.Game != nil {
		ev, ok := events[from]
		if !ok {
			ev = l.m.Game.EventsSince(from)
			events[from] = ev
		}
		u.Events = ev
		u.View = l.view(s.seat, views)
		l.addClock(&u, c)
		s.sent = l.m.Game.Len()
	}
	s.c <- u // the buffer has room: this goroutine is the only sender
}

// view returns the seat's view, from views (by seat) or made and kept
// there: each seat's is derived from the public view (seat -1), built
// once, since they differ only in the seat's legal moves.
func (l *loop) view(seat int, views map[int]*protocol.View) *protocol.View {
	if v, ok := views[seat]; ok {
		return v
	}
	public, ok := views[-1]
	if !ok {
		v := protocol.NewView(l.m.Game.View(-1))
		public = &v
		views[-1] = public
	}
	v := public
	if seat >= 0 {
		v = public.ForSeat(l.m.Game.View(seat))
	}
	views[seat] = v
	return v
}
