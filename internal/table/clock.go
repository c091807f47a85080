package table

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// The clocks of a table (issue 12). The loop keeps its table's timing: the
// pace.Clock, every take-over by a bot, and the pre-moves. It is stored
// with the game (store.Game.Clock) at every change, with the move that
// changed it when there is one (AppendTimedMove), so that a restarted or
// taken-over table resumes the same deadlines and a timeout is stored,
// and so happens, once. The loop sets one timer, for the clock's alarm.

// StandInLevel is the bot level that plays for a person whose time ran out.
const StandInLevel = "hard"

// A timing is what a table stores in store.Game.Clock.
type timing struct {
	Clock     pace.Clock          `json:"clock"`
	TakeOvers []protocol.TakeOver `json:"takeOvers,omitempty"`
	PreMoves  []storedPreMove     `json:"preMoves,omitempty"`
}

// decodeTiming reads a stored timing; a game stored before clocks (nil)
// is untimed.
func decodeTiming(b []byte, players int) (timing, error) {
	if b == nil {
		c, err := pace.New(pace.Default(false), players)
		return timing{Clock: c}, err
	}
	var t timing
	if err := json.Unmarshal(b, &t); err != nil {
		return timing{}, fmt.Errorf("the stored clock: %w", err)
	}
	if t.Clock.Players() != players {
		return timing{}, fmt.Errorf("the stored clock has %d seats, the table %d", t.Clock.Players(), players)
	}
	for _, to := range t.TakeOvers {
		if to.Seat < 0 || to.Seat >= players {
			return timing{}, fmt.Errorf("the stored take-over of seat %d: no such seat", to.Seat)
		}
	}
	return t, nil
}

// clone returns a copy of t whose lists the caller may change.
func (t timing) clone() timing {
	t.TakeOvers = slices.Clone(t.TakeOvers)
	t.PreMoves = slices.Clone(t.PreMoves)
	return t
}

func (t timing) encode() []byte {
	b, err := json.Marshal(t)
	if err != nil {
		// Every field encodes: only a bug gets here.
		panic(fmt.Sprintf("table: encoding a clock: %v", err))
	}
	return b
}

// onlyPreMoves reports whether a and b differ in their pre-moves only.
func onlyPreMoves(a, b timing) bool {
	a.PreMoves, b.PreMoves = nil, nil
	return bytes.Equal(a.encode(), b.encode())
}

// standingIn reports whether a bot plays for the seat now.
func (t timing) standingIn(seat int) bool {
	for i := len(t.TakeOvers) - 1; i >= 0; i-- {
		if t.TakeOvers[i].Seat == seat {
			return t.TakeOvers[i].BackMove == nil
		}
	}
	return false
}

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
		DecisionMs: p.Decision.Milliseconds(), ReserveMs: p.Reserve.Milliseconds()}
}

// personPlays reports whether a person makes the seat's decisions now: a
// person holds it and no bot stands in. Only their decisions are timed,
// and only they have pre-moves played.
func (l *loop) personPlays(seat int) bool {
	return seat >= 0 && l.seats[seat].Bot == "" && !l.timing.standingIn(seat)
}

// nextTiming returns the timing after the move that leads to state after,
// made at now: the mover's decision ends, the next person's starts, and
// the pre-moves of auctions that are over expire.
func (l *loop) nextTiming(mover int, after *razzia.State, now time.Time) timing {
	next := l.timing.clone()
	next.Clock.Stop(now)
	next.PreMoves = slices.DeleteFunc(next.PreMoves, func(p storedPreMove) bool { return p.Seat == mover })
	if seat := after.ToMove(); !after.Over() && l.personPlays(seat) {
		if err := next.Clock.Start(seat, now); err != nil {
			panic(fmt.Sprintf("table: game %s: starting the clock of seat %d: %v", l.id, seat, err))
		}
	}
	next.PreMoves = livePreMoves(next.PreMoves, after)
	return next
}

// armClock sets the timer for the clock's next alarm (a reminder or the
// deadline), after starting the
// decision of a person to move whose clock does not run (the game started
// and the server stopped before it stored the clock: the decision started
// when the game last changed, as stored).
func (l *loop) armClock() {
	l.stopClock()
	if !l.owns() || l.game == nil || l.status != store.StatusPlaying {
		return
	}
	if _, _, running := l.timing.Clock.Running(); !running && l.timing.Clock.Pace().Timed() && l.personPlays(l.game.ToMove()) {
		next := l.timing.clone()
		if err := next.Clock.Start(l.game.ToMove(), l.updated); err == nil && l.saveTiming(next) != nil {
			return // reloaded, or retried by saveTiming
		}
	}
	at, ok := l.timing.Clock.Alarm()
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

// stopClock stops the timer of the clock's alarm, if set.
func (l *loop) stopClock() {
	if l.alarm != nil {
		l.alarm()
		l.alarm = nil
	}
}

// saveTiming stores next as the table's timing at the current move and
// keeps it. On a conflict the table reloads; on another failure it tries
// again after RetryDelay (armClock); either way it returns the error.
func (l *loop) saveTiming(next timing) error {
	moves := 0
	if l.game != nil {
		moves = l.game.Len()
	}
	ctx, cancel := context.WithTimeout(l.h.ctx, commitTimeout)
	defer cancel()
	stored := next.encode()
	if err := l.h.store.SetClock(ctx, l.id, l.lease.Fence, moves, stored); err != nil {
		switch {
		case errors.Is(err, store.ErrLeaseLost):
			return l.lostLease(err)
		case errors.Is(err, store.ErrConflict):
			l.reload()
		default:
			l.h.log.Error("cannot store the clock; trying again later", "game", l.id, "err", err)
			l.alarm = l.h.opts.AfterFunc(l.h.opts.RetryDelay, func() {
				select {
				case l.reqs <- func(l *loop) { l.armClock() }:
				case <-l.done:
				}
			})
		}
		return err
	}
	l.timing, l.stored = next, stored
	l.updated = l.h.opts.Now()
	return nil
}

// timeout ends the running decision if its time is up: the seat's
// reserve is gone and a bot stands in for it until the player comes back.
// A move that arrives at or after the deadline finds the same.
func (l *loop) timeout() {
	if l.game == nil || l.status != store.StatusPlaying {
		return
	}
	now := l.h.opts.Now()
	if !l.timing.Clock.Expired(now) {
		l.armClock() // a move came first, or the timer fired early
		return
	}
	next := l.timing.clone()
	spent := next.Clock.Stop(now)
	next.TakeOvers = append(next.TakeOvers, protocol.TakeOver{Seat: spent.Seat, Bot: StandInLevel,
		Reason: protocol.ReasonTimeout, Move: l.game.Len(), At: spent.At.UTC()})
	next.PreMoves = slices.DeleteFunc(next.PreMoves, func(p storedPreMove) bool { return p.Seat == spent.Seat })
	if l.saveTiming(next) != nil {
		return
	}
	l.h.log.Info("time ran out; a bot plays for the seat", "game", l.id, "seat", spent.Seat, "bot", StandInLevel)
	l.standIn(spent.Seat)
	l.broadcast()
	l.armClock()
	l.schedule(l.h.opts.BotDelay)
}

// standIn builds the bot that plays for a person's seat.
func (l *loop) standIn(seat int) {
	if l.bots == nil || l.bots[seat] != nil {
		return
	}
	b, err := l.h.opts.NewBot(StandInLevel, razzia.SeededRand(l.seed, fmt.Sprintf("stand-in %d", seat)).Uint64())
	if err != nil {
		l.h.log.Error("cannot build the stand-in bot; it will play the default move", "game", l.id, "seat", seat, "err", err)
		b = bot.Fallback{}
	}
	l.bots[seat] = b
}

// standIns builds the bots of the seats a bot stands in for (load).
func (l *loop) standIns() {
	for seat := range l.seats {
		if l.timing.standingIn(seat) {
			l.standIn(seat)
		}
	}
}

// takeBack gives a person their seat back from the bot that stood in:
// the seat's decisions are timed again, with what is left of its reserve.
// It does nothing for a seat no bot stands in for.
func (l *loop) takeBack(seat int) error {
	if seat < 0 || !l.timing.standingIn(seat) || l.status != store.StatusPlaying {
		return nil
	}
	now := l.h.opts.Now()
	next := l.timing.clone()
	back, at := l.game.Len(), now.UTC()
	last := len(next.TakeOvers) - 1
	for next.TakeOvers[last].Seat != seat {
		last--
	}
	next.TakeOvers[last].BackMove, next.TakeOvers[last].BackAt = &back, &at
	if l.game.ToMove() == seat {
		if err := next.Clock.Start(seat, now); err != nil && !errors.Is(err, pace.ErrRunning) {
			return l.h.failed("start the clock", l.id, err)
		}
	}
	if err := l.saveTiming(next); err != nil {
		return reject(ErrInternal, "could not give your seat back: please try again")
	}
	if b := l.bots[seat]; b != nil {
		if l.thinking && l.orphan == nil && l.thinkSeat == seat {
			l.orphan = b // botMove closes it and drops its choice
		} else {
			b.Close()
		}
		l.bots[seat] = nil
	}
	l.h.log.Info("player took the seat back", "game", l.id, "seat", seat)
	l.broadcast()
	l.armClock()
	return nil
}

// comeBack gives a player who connects their seat back from the bot that
// stands in for them: here if this node runs the game, else by passing the
// write to the node that does, without holding up the connection.
func (l *loop) comeBack(seat int, hash []byte) {
	if seat < 0 || !l.timing.standingIn(seat) {
		return
	}
	if l.owns() {
		if err := l.takeBack(seat); err != nil {
			l.h.log.Error("cannot give the seat back", "game", l.id, "seat", seat, "err", err)
		}
		return
	}
	h, r := l.h, request{Op: opTakeBack, Game: l.id, Hash: hash}
	h.background(func() {
		ctx, cancel := context.WithTimeout(h.ctx, commitTimeout)
		defer cancel()
		if _, err := h.write(ctx, r, overForSeat(hash)); err != nil {
			h.log.Warn("cannot give the seat back", "game", r.Game, "err", err)
		}
	})
}

// clockView is the table's clocks as the state messages show them at now;
// nil for an untimed table.
func (l *loop) clockView(now time.Time) *protocol.ClockView {
	c := l.timing.Clock
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
	return v
}

// decorate adds the table's pace and stand-ins to a description of it.
func (l *loop) decorate(in *protocol.GameInfo) {
	in.Pace = PaceInfo(l.timing.Clock.Pace())
	for i := range in.Seats {
		if l.timing.standingIn(i) {
			in.Seats[i].StandIn = StandInLevel
		}
	}
}

// addClock fills in the clock, take-overs and the seat's own pre-move of
// an update, the clock view shared by the updates of one change.
func (l *loop) addClock(u *Update, c *change) {
	if c.clock == nil && l.game != nil {
		c.clock = l.clockView(l.h.opts.Now())
	}
	u.Clock = c.clock
	u.TakeOvers = l.timing.TakeOvers
	u.PreMove, u.PreMoveDropped = l.preMoveOf(u.Seat)
}

// afterMove is what the clock does once a move is committed and sent:
// the next alarm, and the pre-move of the seat to move, if one is due.
func (l *loop) afterMove() {
	l.armClock()
	l.playPreMove()
}

// A TableSetup is what a new table is created with.
type TableSetup struct {
	// Seats has an entry per seat: "" for an open seat, or the name of a
	// bot level (see bot.Levels).
	Seats []string
	// Pace is the id of a pace preset (pace.Presets); "" for the default
	// (pace.Default): untimed at a casual table, standard at a rated one.
	Pace string
	// Rated makes a rated table (see CreateRated).
	Rated bool
}

// newTiming returns the stored timing of a new table at pace p.
func newTiming(p pace.Pace, players int) ([]byte, error) {
	c, err := pace.New(p, players)
	if err != nil {
		return nil, err
	}
	return timing{Clock: c}.encode(), nil
}

// checkTime times the running decision out if its deadline has passed:
// a move that arrives at or after it is too late, however it raced the
// timer.
func (l *loop) checkTime() error {
	at, ok := l.timing.Clock.Deadline()
	if !ok || !l.timing.Clock.Expired(l.h.opts.Now()) {
		return nil
	}
	l.timeout()
	return reject(ErrTimedOut, "your time ran out at %s: a bot plays for you until you take your seat back",
		at.UTC().Format("15:04:05 MST"))
}

// TakeBack gives the person whose token is given their seat back from the
// bot that played for them since their time ran out or they left. It does
// nothing when no bot stands in for them; watching the game with the
// seat's token, playing a move or entering a pre-move takes the seat back
// too.
func (h *Hub) TakeBack(ctx context.Context, id, token string) error {
	hash := hashToken(token)
	_, err := h.write(ctx, request{Op: opTakeBack, Game: id, Hash: hash}, overForSeat(hash))
	return err
}

// PreMove enters, for the person whose token is given, a choice for the
// running auction to be played when their turn comes: "pass" or "bid N"
// (a record token); the empty move withdraws it. It replaces the seat's
// last pre-move and is shown to its owner only.
func (h *Hub) PreMove(ctx context.Context, id, token, move string) error {
	hash := hashToken(token)
	_, err := h.write(ctx, request{Op: opPreMove, Game: id, Hash: hash, Move: move}, overForSeat(hash))
	return err
}

// Cancel closes a table that waits for players, for its creator
// (creatorToken, returned by Create): it is stored as cancelled, every
// watcher is told, and it can no longer be joined. It returns the table
// as it is then.
func (h *Hub) Cancel(ctx context.Context, id, creatorToken string) (protocol.GameInfo, error) {
	hash := hashToken(creatorToken)
	_, err := h.write(ctx, request{Op: opCancel, Game: id, Hash: hash}, func(g *store.Game) error {
		if !sameHash(g.CreatorHash, hash) {
			return notCreator()
		}
		return reject(ErrAlreadyStarted, "the game has started: it cannot be cancelled")
	})
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

// cancel closes the open table for its creator; see Hub.Cancel.
func (l *loop) cancel(creator []byte) error {
	switch {
	case !sameHash(l.creator, creator):
		return notCreator()
	case l.status != store.StatusOpen:
		return reject(ErrAlreadyStarted, "the game has started: it cannot be cancelled")
	}
	ctx, cancel := context.WithTimeout(l.h.ctx, commitTimeout)
	defer cancel()
	if err := l.h.store.CloseTable(ctx, l.id, l.lease.Fence, store.StatusCancelled); err != nil {
		return l.refusedOpen("cancel table", err)
	}
	l.status, l.updated = store.StatusCancelled, l.h.opts.Now()
	l.h.log.Info("table cancelled", "game", l.id)
	l.broadcast()
	return nil
}

// refusedOpen answers a write of an open table the store refused (what
// names it): another node runs the game, or the table changed meanwhile.
func (l *loop) refusedOpen(what string, err error) error {
	switch {
	case errors.Is(err, store.ErrLeaseLost):
		return l.lostLease(err)
	case errors.Is(err, store.ErrConflict):
		l.reload()
		return reject(ErrAlreadyStarted, "the table changed meanwhile: look again")
	}
	return l.h.failed(what, l.id, err)
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
	t, err := decodeTiming(g.Clock, len(g.Seats))
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
	_, err := h.write(ctx, request{Op: opLeave, Game: id, Hash: hash}, overForSeat(hash))
	return err
}

// The writes of clock.go and premove.go, passed to the game's owner as
// the others are (request).
const (
	opPreMove  = "premove"  // Hash, Move
	opTakeBack = "takeback" // Hash
	opLeave    = "leave"    // Hash
	opCancel   = "cancel"   // Hash: the creator's
)

// applyClock makes a write of clock.go in the owner's goroutine.
func (l *loop) applyClock(r request) error {
	switch r.Op {
	case opPreMove:
		return l.enterPreMove(r.Hash, r.Move)
	case opTakeBack:
		seat := seatOf(l.seats, r.Hash)
		if seat < 0 {
			return reject(ErrNotYourSeat, "you have no seat at this table")
		}
		return l.takeBack(seat)
	case opLeave:
		return l.leave(seatOf(l.seats, r.Hash))
	}
	return l.cancel(r.Hash)
}

// leave lets a bot stand in for the seat; see Hub.Leave.
func (l *loop) leave(seat int) error {
	if err := l.seatPlaying(seat); err != nil || l.timing.standingIn(seat) {
		return err
	}
	now := l.h.opts.Now()
	next := l.timing.clone()
	if running, _, ok := next.Clock.Running(); ok && running == seat {
		next.Clock.Stop(now)
	}
	next.TakeOvers = append(next.TakeOvers, protocol.TakeOver{Seat: seat, Bot: StandInLevel,
		Reason: protocol.ReasonLeft, Move: l.game.Len(), At: now.UTC()})
	next.PreMoves = slices.DeleteFunc(next.PreMoves, func(p storedPreMove) bool { return p.Seat == seat })
	if err := l.saveTiming(next); err != nil {
		return reject(ErrInternal, "could not hand your seat to a bot: please try again")
	}
	l.h.log.Info("player left; a bot plays for the seat", "game", l.id, "seat", seat, "bot", StandInLevel)
	l.standIn(seat)
	l.broadcast()
	l.armClock()
	l.schedule(l.h.opts.BotDelay)
	return nil
}

// seatPlaying checks that seat is a seat of a game being played, for a
// request only a player may make.
func (l *loop) seatPlaying(seat int) error {
	switch {
	case seat < 0:
		return reject(ErrNotYourSeat, "you have no seat at this table")
	case l.game == nil:
		return reject(ErrNotStarted, "the game has not started: seats are still open")
	case l.game.Over():
		return reject(ErrGameOver, "the game is over")
	}
	return nil
}

// overForSeat answers a player's request about a game that is over, as
// stored: the game is over, or the token holds no seat at it.
func overForSeat(hash []byte) func(*store.Game) error {
	return func(g *store.Game) error {
		if seatOf(g.Seats, hash) < 0 {
			return reject(ErrNotYourSeat, "you have no seat at this table")
		}
		return reject(ErrGameOver, "the game is over")
	}
}
