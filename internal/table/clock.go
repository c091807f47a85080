package table

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// The clocks of a table: the match decides them (internal/match); the
// loop sets one timer, for the clock's alarm.

// StandInLevel is the bot level that plays for a person whose time ran out.
const StandInLevel = match.StandInLevel

// ChoosePace returns the pace a table is created with: the preset id
// ("" for the default) at a rated or casual table. It is the one place
// that judges a pace asked for; an unknown preset, or untimed at a rated
// table, is ErrBadRequest wrapping the *pace.ChoiceError.
func ChoosePace(id string, rated bool) (pace.Pace, error) {
	p, err := pace.Choose(id, rated)
	if err != nil {
		return pace.Pace{}, &Error{Kind: ErrBadRequest, Msg: err.Error(), Err: err}
	}
	return p, nil
}

// PaceInfo describes a pace in protocol terms.
func PaceInfo(p pace.Pace) *protocol.PaceInfo {
	return &protocol.PaceInfo{ID: p.ID, Kind: p.Kind.String(),
		DecisionMs: p.Decision.Milliseconds(), ReserveMs: p.Reserve.Milliseconds(), GraceMs: p.Grace.Milliseconds()}
}

// armClock sets the timer for the clock's next alarm (the end of a held
// clock's grace, a reminder or the deadline), after releasing a held clock
// every person connected here has continued (match.Release) and starting
// the decision of a person to move whose clock does not run
// (match.ResumeClock).
func (l *loop) armClock() {
	l.stopClock()
	if !l.owns() || l.m.Game == nil || l.m.Status != store.StatusPlaying {
		return
	}
	now := l.h.opts.Now()
	if r := l.m.Release(l.present(), now); r.Write.Kind != match.NoWrite {
		l.make(r, now, time.Time{}) // its effects arm the clock, or commit retries
		return
	}
	if r := l.m.ResumeClock(); r.Write.Kind != match.NoWrite && l.make(r, now, time.Time{}) != nil {
		return // reloaded, or retried by commit
	}
	at, ok := l.m.Alarm()
	if !ok {
		return
	}
	l.alarm = l.h.opts.AfterFunc(max(at.Sub(l.h.opts.Now()), 0), func() {
		select {
		case l.reqs <- func(l *loop) { l.ring() }:
		case <-l.done:
		}
	})
}

// present returns the seats whose people watch the table, here or (with
// Options.Present) through any node: a held clock waits for them only.
func (l *loop) present() []int {
	var seats []int
	for s := range l.subs {
		if s.seat >= 0 && !slices.Contains(seats, s.seat) {
			seats = append(seats, s.seat)
		}
	}
	return l.presentElsewhere(seats)
}

// ring is what the clock's alarm does: the timeout once the time is up,
// else the reminder when due, and the next alarm.
func (l *loop) ring() {
	now := l.h.opts.Now()
	l.make(l.m.Ring(now), now, time.Time{})
}

// stopClock stops the timer of the clock's alarm, if set.
func (l *loop) stopClock() {
	if l.alarm != nil {
		l.alarm()
		l.alarm = nil
	}
}

// standIn builds the bot that plays for a person's seat.
func (l *loop) standIn(seat int) {
	if l.bots == nil || l.bots[seat] != nil {
		return
	}
	b, err := l.h.opts.NewBot(StandInLevel, razzia.SeededRand(l.m.Seed, fmt.Sprintf("stand-in %d", seat)).Uint64())
	if err != nil {
		l.h.log.Error("cannot build the stand-in bot; it will play the default move", "game", l.id, "seat", seat, "err", err)
		b = bot.Fallback{}
	}
	l.bots[seat] = b
}

// standIns builds the bots of the seats a bot stands in for (load).
func (l *loop) standIns() {
	for seat := range l.m.Seats {
		if l.m.Timing.StandingIn(seat) {
			l.standIn(seat)
		}
	}
}

// comeBack gives a player who connects their seat back from the bot that
// stands in for them: here if this node runs the game, else by passing the
// write to the node that does, without holding up the connection.
func (l *loop) comeBack(seat int, hash []byte) {
	if seat < 0 || !l.m.Timing.StandingIn(seat) {
		return
	}
	c := match.Command{Kind: match.TakeBack, Game: l.id, Hash: hash}
	if l.owns() {
		if _, err := l.do(c, time.Now()); err != nil {
			l.h.log.Error("cannot give the seat back", "game", l.id, "seat", seat, "err", err)
		}
		return
	}
	h := l.h
	h.background(func() {
		ctx, cancel := context.WithTimeout(h.ctx, commitTimeout)
		defer cancel()
		if _, err := h.write(ctx, c); err != nil {
			h.log.Warn("cannot give the seat back", "game", c.Game, "err", err)
		}
	})
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
		c.clock = l.clockView(l.h.opts.Now())
	}
	u.Clock = c.clock
	u.TakeOvers = l.m.Timing.TakeOvers
	p := l.m.Timing.PreMoveOf(u.Seat)
	u.PreMove, u.PreMoveDropped = p.Move, p.Dropped
}

// A TableSetup is what a new table is created with.
type TableSetup struct {
	// Seats has an entry per seat: "" for an open seat, or the name of a
	// bot level (see bot.Levels).
	Seats []string
	// Pace is the id of a pace preset (pace.Presets); "" for the default
	// (pace.Default): untimed at a casual table, standard at a rated one.
	Pace string
	// Rated makes a rated table: only signed-in players (and the bots)
	// sit at it, each account at one seat, and its result changes their
	// ratings.
	Rated bool
	// Client names who asks (such as the client's address), for the limit
	// on the tables one client holds; "" counts for nobody.
	Client string
	// Tutorial makes the guided first game for a person called Learner
	// instead (Seats, Pace and Rated are the tutorial's): the prepared
	// deal of package tutorial, the person at seat tutorial.Learner and
	// the tutorial's bots at the others.
	Tutorial bool
	Learner  string
}

// A Table is a table just created and the tokens it gives out.
type Table struct {
	Info protocol.GameInfo
	// Creator is the creator's secret token, which Remove and Cancel ask
	// for; "" for a tutorial.
	Creator string
	// Seat and Token are a tutorial's person's seat and secret token.
	Seat  int
	Token string
}

// TakeBack gives the person whose token is given their seat back from the
// bot that played for them since their time ran out or they left. It does
// nothing when no bot stands in for them; watching the game with the
// seat's token, playing a move or entering a pre-move takes the seat back
// too.
func (h *Hub) TakeBack(ctx context.Context, id, token string) error {
	hash := hashToken(token)
	_, err := h.write(ctx, match.Command{Kind: match.TakeBack, Game: id, Hash: hash})
	return err
}

// Continue tells, for the person whose token is given, that they have
// read the round's scores: the next round's first clock, held meanwhile,
// starts once every connected person has continued, or when the pace's
// grace runs out. It does nothing when no clock is held or they
// continued already; a token without a seat is refused.
func (h *Hub) Continue(ctx context.Context, id, token string) error {
	hash := hashToken(token)
	_, err := h.write(ctx, match.Command{Kind: match.Continue, Game: id, Hash: hash})
	return err
}

// PreMove enters, for the person whose token is given, a choice for the
// running auction to be played when their turn comes: "pass" or "bid N"
// (a record token); the empty move withdraws it. It replaces the seat's
// last pre-move and is shown to its owner only.
func (h *Hub) PreMove(ctx context.Context, id, token, move string) error {
	hash := hashToken(token)
	_, err := h.write(ctx, match.Command{Kind: match.EnterPreMove, Game: id, Hash: hash, Move: move})
	return err
}

// Cancel closes a table that waits for players, for its creator
// (creatorToken, returned by Create): it is stored as cancelled, every
// watcher is told, and it can no longer be joined. It returns the table
// as it is then.
func (h *Hub) Cancel(ctx context.Context, id, creatorToken string) (protocol.GameInfo, error) {
	hash := hashToken(creatorToken)
	_, err := h.write(ctx, match.Command{Kind: match.Cancel, Game: id, Hash: hash})
	if err != nil {
		return protocol.GameInfo{}, err
	}
	g, err := h.store.Game(ctx, id)
	if err != nil {
		return protocol.GameInfo{}, h.storeError("read game", id, err)
	}
	in := h.newInfo(g.ID, g.Status, g.Seats, g.Rated, len(g.Moves), g.Created, g.Updated, nil)
	return in, nil
}

// cancelled is the error of a request about a cancelled table.
func cancelled() *Error {
	return reject(ErrCancelled, "the table was cancelled by its creator: create a new one")
}

// RecordMeta returns the metadata of a game's record: its pace, its
// take-overs and its rematch links. A game stored before clocks is untimed.
func (h *Hub) RecordMeta(ctx context.Context, id string) (protocol.RecordMeta, error) {
	if !protocol.ValidID(id) {
		return protocol.RecordMeta{}, notFound(id)
	}
	g, err := h.store.Game(ctx, id)
	if err != nil {
		return protocol.RecordMeta{}, h.storeError("read game", id, err)
	}
	var in protocol.GameInfo
	describeRematch(&in, g)
	meta := protocol.RecordMeta{RematchOf: in.RematchOf, Rematch: in.Rematch}
	if g.Clock == nil {
		return meta, nil
	}
	t, err := match.DecodeTiming(g.Clock, len(g.Seats))
	if err != nil {
		return protocol.RecordMeta{}, h.failed("read the clock", id, err)
	}
	meta.Pace, meta.TakeOvers = PaceInfo(t.Clock.Pace()), t.TakeOvers
	return meta, nil
}

// Leave hands the seat of the person whose token is given to a server bot
// (StandInLevel) for the rest of the game, or until they come back as
// after a timeout: the others are never stuck with a player who left.
func (h *Hub) Leave(ctx context.Context, id, token string) error {
	hash := hashToken(token)
	_, err := h.write(ctx, match.Command{Kind: match.Leave, Game: id, Hash: hash})
	return err
}
