package table

import (
	"context"
	"time"

	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/store"
)

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

// catchUp applies what the store holds beyond the replica's game: the
// moves after move number from and the clock as it is with them, announced
// at at, and broadcasts them; heard is the count of clocks heard when the
// read began. Only the new moves are read and played.
func (l *loop) catchUp(from int, d store.Delta, at time.Time, heard uint64) {
	if l.owns() {
		return
	}
	if l.m.Game == nil || from > l.m.Game.Len() {
		// The game started, or notices were lost: read it whole.
		l.reload()
		return
	}
	if from+len(d.Moves) < l.m.Game.Len() {
		// Read before moves that notices carried since: its clock is older.
		return
	}
	if from+len(d.Moves) == l.m.Game.Len() && l.heard.clocks.Load() != heard {
		// A clock heard since the read began may be newer than the one
		// read; one stored later than the read comes with its own notice.
		d.Clock = nil
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
	l.retry.stop()
	l.expiry.stop()
	l.stopClock()
	if l.writeCancel != nil {
		l.writeCancel()
	}
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
	l.bots.closeAll()
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

// watch adds a subscription for the seat whose token hashes to hash; a
// spectator only while the game has room for one more.
func (l *loop) watch(hash []byte, account string, direct func(Update) bool) (*Subscription, error) {
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
	s.account, s.direct = account, direct
	s.resync = func() {
		select {
		case l.reqs <- func(l *loop) { l.resend(s) }:
		case <-l.done:
		}
	}
	l.subs[s] = struct{}{}
	l.showing().send(s)
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
