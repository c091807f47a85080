package table

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync/atomic"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/tutorial"
)

// A loop is the goroutine of one live game on this node: only it touches
// the fields below; everything else sends it functions over reqs. It runs
// the game as its owner while lease is held: it alone writes the game,
// with the lease's fence, and runs its bots and timers. Otherwise it is a
// replica: it never writes, and brings the game up to date from the store
// (catchUp, reload) for the watchers on this node; it ends when the last
// of them leaves.
type loop struct {
	env *env // what the loop asks of the node
	id  string

	lease  store.Lease           // held while the loop owns the game; zero for a replica
	holder string                // a replica's owner as last heard: where writes go; "" unknown
	keep   bool                  // a new replica stays until it served its first request
	shown  atomic.Pointer[shown] // what other goroutines may read

	m    *match.Match // the table's rules and state: changed by make, load, catchUp and syncChat only
	bots []bot.Bot    // by seat; nil for people

	client  string              // who created the table in this process, or ""
	held    hold                // what the game holds of the Hub's limits
	counted bool                // held is counted in the Hub's holds
	expiry  *time.Timer         // closes the table when it waited too long
	limits  map[int]seatLimiter // the move rate limit of each seat that moved
	watched int                 // subscriptions without a seat

	subs      map[*Subscription]struct{}
	thinking  bool    // a bot goroutine is choosing the next move
	thinkSeat int     // the seat whose bot it asks
	orphan    bot.Bot // that bot, when a reload replaced the bots meanwhile

	reqs  chan func(*loop)
	botc  chan botMove
	retry *time.Timer // pending retry of a bot move the store refused
	done  chan struct{}

	alarm func() bool // stops the timer of the clock's alarm, if set
}

// A botMove is a bot's choice for the position after moves moves.
type botMove struct {
	moves int
	move  razzia.Move
	at    time.Time // when the bot chose it
}

// shown is what the loop tells other goroutines of itself.
type shown struct {
	status store.Status
	owner  bool
	moves  int
}

// newLoop builds the loop of a stored game, replaying its moves: its
// owner's with a lease held, a replica's with the zero lease.
func newLoop(e *env, g *store.Game, lease store.Lease) (*loop, error) {
	l := &loop{
		env:   e,
		id:    g.ID,
		lease: lease,
		keep:  lease.Node == "",
		held:  holdOf(g.Status == store.StatusOpen, match.BotsOnly(g.Seats)),
		subs:  map[*Subscription]struct{}{},
		reqs:  make(chan func(*loop)),
		botc:  make(chan botMove),
		done:  make(chan struct{}),
	}
	if err := l.load(g); err != nil {
		return nil, err
	}
	return l, nil
}

// owns reports whether the loop runs the game: it holds the lease.
func (l *loop) owns() bool { return l.lease.Node != "" }

// show publishes the loop's status, role and moves to other goroutines.
func (l *loop) show() {
	moves := 0
	if l.m.Game != nil {
		moves = l.m.Game.Len()
	}
	l.shown.Store(&shown{status: l.m.Status, owner: l.owns(), moves: moves})
}

// snapshot returns the status and role the loop last showed.
func (l *loop) snapshot() (store.Status, bool) {
	s := l.shown.Load()
	return s.status, s.owner
}

// moves returns the moves of the game the loop last showed.
func (l *loop) moves() int { return l.shown.Load().moves }

// post runs f in the loop's goroutine later, without waiting for it; it
// is dropped if the loop ends first.
func (l *loop) post(f func(*loop)) {
	go func() {
		select {
		case l.reqs <- f:
		case <-l.done:
		}
	}()
}

// call runs f in the loop's goroutine and returns its result: errEnded
// if the loop ended first.
func (l *loop) call(ctx context.Context, f func(*loop) error) error {
	reply := make(chan error, 1)
	select {
	case l.reqs <- func(l *loop) { reply <- f(l) }:
		return <-reply
	case <-l.done:
		return errEnded
	case <-ctx.Done():
		return ctx.Err()
	case <-l.env.ctx.Done():
		return reject(ErrClosed, "the server is shutting down")
	}
}

// load sets the loop's game from its stored form. On error nothing changes.
func (l *loop) load(g *store.Game) error {
	m, err := match.Load(g)
	if err != nil {
		return err
	}
	l.closeBots()
	if l.thinking && l.orphan == nil && l.bots != nil {
		l.orphan = l.bots[l.thinkSeat]
	}
	if l.m != nil {
		m.Room, m.Chat = l.m.Room, l.m.Chat // the chat is read apart (syncChat)
	}
	l.m, l.bots = m, nil
	if m.Game != nil && l.owns() {
		l.startBots()
	}
	l.show()
	return nil
}

// run serves requests and bot moves until the game is over, the table
// expired, the Hub closes, or, for a replica, nobody watches any more.
func (l *loop) run() {
	defer l.env.wg.Done()
	defer l.exit()
	l.syncChat()
	if l.owns() {
		l.takeCharge()
	} else {
		// Moves committed since the game was read were announced before
		// the loop could hear of them.
		l.env.replicas.mark(l.id, time.Time{})
	}
	for l.m.Status.Live() && (l.owns() || l.keep || len(l.subs) > 0) {
		select {
		case f := <-l.reqs:
			l.keep = false
			f(l)
		case m := <-l.botc:
			l.botMove(m)
		case <-l.env.ctx.Done():
			return
		}
	}
}

// takeCharge starts what the owner runs: the open table's clock, the bot
// to move. A node that is handing its games over gives this one up at once.
func (l *loop) takeCharge() {
	if l.env.leases.isDraining() {
		l.handOver()
		return
	}
	l.armExpiry()
	l.schedule(l.env.botDelay)
	l.armClock()
}

// promote makes the loop the game's owner with lease, from g, the game as
// read once the lease was taken. It returns errOwned if the loop runs the
// game with that lease already.
func (l *loop) promote(lease store.Lease, g *store.Game) error {
	if l.owns() && l.lease.Fence == lease.Fence {
		return errOwned
	}
	prev := l.lease
	l.lease = lease
	if err := l.update(g); err != nil {
		l.lease = prev
		l.show()
		return err
	}
	l.held = holdOf(l.m.Status == store.StatusOpen, match.BotsOnly(l.m.Seats))
	if !l.counted {
		l.env.holds.add(l.client, l.held, 1)
		l.counted = true
	}
	l.takeCharge()
	return nil
}

// errOwned is a promotion of a loop that runs the game already.
var errOwned = errors.New("the loop runs the game already")

// stopOwning makes the owner a replica: its lease with fence is lost. It
// commits nothing more; its bots and timers stop, and it reads the game
// from the store, where another node may have moved on.
func (l *loop) stopOwning(fence store.Fence) {
	if !l.owns() || l.lease.Fence != fence {
		return
	}
	l.disown()
	l.reload()
}

// disown stops what the owner runs and forgets its lease.
func (l *loop) disown() {
	l.env.leases.unhold(l.id, l.lease.Fence)
	l.lease, l.holder = store.Lease{}, ""
	if l.retry != nil {
		l.retry.Stop()
	}
	if l.expiry != nil {
		l.expiry.Stop()
	}
	l.stopClock()
	if l.thinking && l.orphan == nil && l.bots != nil {
		l.orphan = l.bots[l.thinkSeat]
	}
	l.closeBots()
	l.bots, l.limits = nil, nil
	if l.counted {
		l.env.holds.add(l.client, l.held, -1)
		l.counted = false
	}
	l.show()
}

// handOver gives the game up for another node to take at once: the
// writes before it are done; it releases the lease and serves the game
// on as a replica.
func (l *loop) handOver() {
	if !l.owns() {
		return
	}
	lease := l.lease
	l.disown()
	ctx, cancel := context.WithTimeout(context.Background(), commitTimeout)
	defer cancel()
	if err := l.env.store.ReleaseLease(ctx, lease); err != nil {
		l.env.log.Warn("cannot release the lease; it lapses by itself", "game", l.id, "err", err)
		return
	}
	l.env.log.Info("game handed over", "game", l.id)
}

// lostLease handles a write the store refused for the lease: another
// node runs the game now.
func (l *loop) lostLease(err error) error {
	l.env.leases.forget(l.lease, err.Error())
	l.stopOwning(l.lease.Fence)
	return errNotOwner
}

// catchUp applies what the store holds beyond the replica's game: the
// moves after move number from and the clock as it is with them, announced
// at at, and broadcasts them. Only the new moves are read and played.
func (l *loop) catchUp(from int, d store.Delta, at time.Time) {
	if l.owns() {
		return
	}
	if l.m.Game == nil || from > l.m.Game.Len() {
		// The game started, or notices were lost: read it whole.
		l.reload()
		return
	}
	changed, tell, err := l.m.Follow(from, d.Moves, d.Clock, l.env.now())
	if err != nil {
		l.env.log.Error("the stored game does not replay; reading it again", "game", l.id, "err", err)
		l.reload()
		return
	}
	for _, seat := range tell {
		l.tellSeat(seat)
	}
	if !changed {
		return
	}
	l.broadcast()
	since(l.env.metrics.broadcast.WithLabelValues("replica"), at)
}

// exit takes the game out of the Hub, so that later requests find it in
// the store, and ends the subscriptions.
func (l *loop) exit() {
	if l.retry != nil {
		l.retry.Stop()
	}
	if l.expiry != nil {
		l.expiry.Stop()
	}
	l.stopClock()
	l.setHold(holdNone)
	if l.owns() {
		l.env.leases.unhold(l.id, l.lease.Fence) // the game is over: its lease matters no more
	}
	h := l.env
	var winners []int
	if l.m.Status == store.StatusFinished {
		winners = l.m.Game.Winners()
	}
	h.live.remove(l.id, l, l.m.Status == store.StatusFinished, winners)
	l.closeBots()
	finished := l.m.Status == store.StatusFinished && h.ctx.Err() == nil
	for s := range l.subs {
		if !finished {
			s.end()
			continue
		}
		// The game is over: its players read the spectators' channel now,
		// and everyone follows the chat after the game. Before l.done
		// closes, so that a Close waiting for it finds s followed.
		if !s.reader().Spectator {
			var theirs []store.ChatLine
			for _, m := range l.m.Chat {
				if m.Channel == chat.Spectators.String() {
					theirs = append(theirs, m)
				}
			}
			l.chatTo(s, theirs)
		}
		close(s.c)
		h.after.follow(s, l.id, len(l.m.Chat))
	}
	l.subs = nil
	close(l.done)
	if finished {
		// A message said after the end before the watchers followed the
		// chat was announced to nobody here.
		h.after.changed(l.id)
	}
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

// setHold changes what the game holds of the Hub's limits.
func (l *loop) setHold(k hold) {
	if l.counted {
		l.env.holds.move(l.client, l.held, k)
	}
	l.held = k
}

// armExpiry (re)starts the clock of an open table: it closes OpenTTL
// after its last change.
func (l *loop) armExpiry() {
	if l.expiry != nil {
		l.expiry.Stop()
	}
	if l.m.Status != store.StatusOpen {
		return
	}
	wait := l.m.Updated.Add(l.env.limits.OpenTTL).Sub(l.env.now())
	l.expiry = time.AfterFunc(max(wait, 0), func() {
		select {
		case l.reqs <- func(l *loop) { l.expire() }:
		case <-l.done:
		}
	})
}

// reload reads the game from the store again, after the store said it
// changed under us: the store is the truth.
func (l *loop) reload() {
	ctx, cancel := context.WithTimeout(l.env.ctx, commitTimeout)
	defer cancel()
	g, err := l.env.store.Game(ctx, l.id)
	if err != nil {
		l.env.log.Error("cannot reload game", "game", l.id, "err", err)
		return
	}
	l.update(g)
	l.schedule(l.env.botDelay)
	l.armClock()
	if !l.owns() {
		l.syncChat() // notices of the chat may have been missed too
	}
}

// update loads g, the game as stored, and broadcasts it if it differs
// from what the watchers saw: a state sent twice would look like a new
// turn to a client.
func (l *loop) update(g *store.Game) error {
	moves := 0
	if l.m.Game != nil {
		moves = l.m.Game.Len()
	}
	same := g.Status == l.m.Status && len(g.Moves) == moves &&
		slices.EqualFunc(g.Seats, l.m.Seats, func(a, b store.Seat) bool { return a.Name == b.Name && a.Bot == b.Bot })
	if err := l.load(g); err != nil {
		l.env.log.Error("cannot load game", "game", l.id, "err", err)
		return err
	}
	if !same {
		l.broadcast()
	}
	return nil
}

// watch adds a subscription for the seat whose token hashes to hash; a
// spectator only while the game has room for one more.
func (l *loop) watch(hash []byte, account string) (*Subscription, error) {
	seat := match.SeatOf(l.m.Seats, hash)
	if seat < 0 && hash != nil && !l.owns() {
		// A seat taken a moment ago through another node: the notice
		// may not have come yet.
		l.reload()
		seat = match.SeatOf(l.m.Seats, hash)
	}
	if seat < 0 {
		if max := l.env.limits.MaxSpectators; l.watched >= max {
			return nil, reject(ErrTooManyConnections, "this game has %d spectators, the most it takes: try again later", max)
		}
		l.watched++
	}
	l.comeBack(seat, hash)
	after := l.env.after
	s := newSubscription(seat, func(s *Subscription) {
		select {
		case l.reqs <- func(l *loop) { l.unwatch(s) }:
		case <-l.done: // it ended the subscription, or handed it to the chat after the game
		}
		after.unfollow(s)
	})
	s.account = account
	l.subs[s] = struct{}{}
	l.send(s, l.info(), map[int][]razzia.Event{}, &change{}, map[int]*protocol.View{})
	l.chatTo(s, l.m.Chat)
	return s, nil
}

// unwatch removes a subscription.
func (l *loop) unwatch(s *Subscription) {
	if _, ok := l.subs[s]; ok {
		delete(l.subs, s)
		if s.seat < 0 {
			l.watched--
		}
		s.end()
		if s.seat >= 0 && l.m.Timing.Hold != nil {
			// A person who left does not hold the clock.
			l.armClock()
		}
	}
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

// startBots builds the bots of a game that has started, from the levels
// load checked. Each bot is seeded from the game's seed and its seat.
func (l *loop) startBots() {
	l.bots = make([]bot.Bot, len(l.m.Seats))
	for i, s := range l.m.Seats {
		if s.Bot == "" {
			continue
		}
		newBot := l.env.newBot
		if s.Bot == tutorial.Bot {
			// The prepared deal needs its own bots, whatever the options.
			newBot = func(_ string, seed uint64) (bot.Bot, error) { return tutorial.NewBot(seed) }
		}
		b, err := newBot(s.Bot, razzia.SeededRand(l.m.Seed, fmt.Sprintf("bot %d", i)).Uint64())
		if err != nil {
			l.env.log.Error("cannot build bot; it will play the default move", "game", l.id, "seat", i, "bot", s.Bot, "err", err)
			b = bot.Fallback{}
		}
		l.bots[i] = b
	}
	l.standIns()
}

// closeBots releases the bots but the one a bot goroutine is asking: the
// one that takes its answer closes it, botMove if it was replaced meanwhile
// (see orphan), the goroutine itself if the loop has ended.
func (l *loop) closeBots() {
	for i, b := range l.bots {
		if b != nil && !(l.thinking && l.orphan == nil && i == l.thinkSeat) {
			b.Close()
		}
	}
}

// schedule starts the bot to move, if a bot is to move, after delay.
func (l *loop) schedule(delay time.Duration) {
	if !l.owns() || l.m.Game == nil || l.thinking || l.m.Status != store.StatusPlaying {
		return
	}
	seat := l.m.Game.ToMove()
	if seat < 0 || l.bots[seat] == nil {
		return
	}
	l.thinking = true
	l.thinkSeat = seat
	b, v := l.bots[seat], l.m.Game.View(seat)
	prio := 0 // a game with people: its bots go first
	if match.BotsOnly(l.m.Seats) {
		prio = 1
	}
	h := l.env
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		if delay > 0 {
			t := time.NewTimer(delay)
			select {
			case <-t.C:
			case <-h.ctx.Done():
				t.Stop()
				b.Close() // the loop ends too, without it
				return
			}
		}
		if !h.workers.acquire(prio, h.ctx.Done(), l.done) {
			b.Close()
			return
		}
		start := time.Now()
		m := choose(b, v, h.log, l.id)
		h.workers.release()
		h.metrics.botDecision.Observe(time.Since(start).Seconds())
		select {
		case l.botc <- botMove{moves: v.Moves, move: m, at: time.Now()}:
		case <-h.ctx.Done():
			b.Close()
		case <-l.done:
			b.Close()
		}
	}()
}

// choose asks the bot, falling back to bot.Default if it panics, so that a
// bot's bug cannot stall a game.
func choose(b bot.Bot, v razzia.View, log *slog.Logger, id string) (m razzia.Move) {
	defer func() {
		if r := recover(); r != nil {
			m = bot.Default(v.Legal)
			log.Error("bot panicked; playing the default move", "game", id, "seat", v.Seat, "panic", r, "move", m)
		}
	}()
	return b.Choose(v)
}

// botMove plays a bot's choice, if the game is still where the bot saw it.
func (l *loop) botMove(bm botMove) {
	l.thinking = false
	if l.orphan != nil {
		l.orphan.Close()
		l.orphan = nil
	}
	if !l.owns() {
		return // the game is run elsewhere now
	}
	if l.m.Game == nil || bm.moves != l.m.Game.Len() {
		l.schedule(l.env.botDelay)
		return
	}
	if seat := l.m.Game.ToMove(); seat < 0 || l.bots[seat] == nil {
		return // the player took the seat back
	}
	err := l.play(bm.move, bm.at)
	var e *Error
	switch {
	case err == nil:
	case errors.As(err, &e) && e.Kind == ErrIllegalMove:
		// A bot's bug: play the default rather than stall.
		seat := l.m.Game.ToMove()
		m := bot.Default(l.m.Game.LegalMoves())
		l.env.log.Error("bot chose an illegal move; playing the default move", "game", l.id, "seat", seat, "move", bm.move, "err", err, "default", m)
		if err := l.play(m, bm.at); err != nil {
			l.retryLater()
		}
	case errors.Is(err, errNotOwner):
	default:
		l.retryLater()
	}
}

// retryLater moves the bot again after RetryDelay: the store failed.
func (l *loop) retryLater() {
	if l.retry != nil {
		l.retry.Stop()
	}
	l.retry = time.AfterFunc(l.env.retryDelay, func() {
		select {
		case l.reqs <- func(l *loop) { l.schedule(0) }:
		case <-l.done:
		}
	})
}
