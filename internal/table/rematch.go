package table

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// Rematches. At a finished game any player may offer a
// rematch; every seat that accepts is seated at a new table with the same
// pace, rating and bot levels (bots accept at once). The offer is kept
// with the finished game (store.Game.Rematch) and changed only by
// compare-and-set (store.Store.SetRematch), so any node may take an
// answer, two nodes never store two offers, and one of them settles it:
// once every person answered, or at its expiry, the new game starts with
// those who accepted if they are enough for a game, else the offer lapses.
// The node that settles it creates the new game, whose id the offer
// names; a node that finds an offer started and its game missing (the
// settler failed between the two writes) creates it. Every change is
// announced by the store (store.ChangeRematch); each node tells the
// watchers of the finished game it serves (WatchRematch), and arms a timer
// for the expiry of an offer they wait on. An offer whose expiry passed
// while no node watched it is settled by the next request about it.

// RematchWait is how long a rematch offer at a live or untimed table
// waits for answers; at a correspondence table it waits the pace's
// decision time.
const RematchWait = match.RematchWait

// Rematch offers a rematch of finished game id, for the person whose
// token is given, when accept is true and nobody offered one yet;
// otherwise it answers the offer made (accept or decline). It returns the
// offer as it is then. A game that is not over is ErrNotOver; a token
// without a seat ErrNotYourSeat; a second offer, a second answer or an
// answer to no offer ErrRematch.
func (h *Hub) Rematch(ctx context.Context, id, token string, accept bool) (protocol.RematchOffer, error) {
	return h.rematches.answer(ctx, id, token, accept)
}

// answer is Rematch.
func (r *rematches) answer(ctx context.Context, id, token string, accept bool) (protocol.RematchOffer, error) {
	if !protocol.ValidID(id) {
		return protocol.RematchOffer{}, notFound(id)
	}
	hash := hashToken(token)
	// Every try either stores the answer or finds that another node
	// changed the offer meanwhile.
	for try := 0; try < 8; try++ {
		g, offer, err := r.of(ctx, id)
		if err != nil {
			return protocol.RematchOffer{}, err
		}
		seat := match.SeatOf(g.Seats, hash)
		t, err := match.DecodeTiming(g.Clock, len(g.Seats))
		if err != nil {
			return protocol.RematchOffer{}, r.failed("read the clock", id, err)
		}
		next, lapsed, err := match.AnswerRematch(g.Seats, t.Tournament, offer, seat, accept, r.now(), func() (string, time.Duration, error) {
			game, err := newID(r.rand)
			return game, match.RematchWaitOf(t.Clock.Pace()), err
		})
		switch {
		case err != nil:
			return protocol.RematchOffer{}, refused(err)
		case lapsed:
			// Its time ran out while no node watched: settle it first.
			if err := r.settleExpired(ctx, g, offer); err != nil && !errors.Is(err, store.ErrConflict) {
				return protocol.RematchOffer{}, err
			}
			continue
		}
		err = r.storeOffer(ctx, g, next)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			return protocol.RematchOffer{}, err
		}
		r.log.Info("rematch answered", "game", id, "seat", seat, "accept", accept, "state", next.State)
		return next, nil
	}
	return protocol.RematchOffer{}, unavailable()
}

// of reads finished game id and its offer (nil for none), refusing
// a game that cannot have a rematch.
func (r *rematches) of(ctx context.Context, id string) (*store.Game, *protocol.RematchOffer, error) {
	g, err := r.store.Game(ctx, id)
	if err != nil {
		return nil, nil, r.storeError("read game", id, err)
	}
	if err := match.CheckRematch(g, r.openTTL); err != nil {
		return nil, nil, refused(err)
	}
	offer, err := match.DecodeOffer(g)
	if err != nil {
		return nil, nil, r.failed("read the rematch offer", id, err)
	}
	return g, offer, nil
}

// settleExpired settles offer, open at g, whose time has come; store's
// ErrConflict means another node changed it first.
func (r *rematches) settleExpired(ctx context.Context, g *store.Game, offer *protocol.RematchOffer) error {
	next := match.Settle(*offer)
	if err := r.storeOffer(ctx, g, next); err != nil {
		return err
	}
	r.log.Info("rematch offer expired", "game", g.ID, "state", next.State, "accepted", match.Accepted(next))
	return nil
}

// storeOffer replaces g's stored offer with next, and starts the new game
// if next started, or arms the expiry of an open offer.
func (r *rematches) storeOffer(ctx context.Context, g *store.Game, next protocol.RematchOffer) error {
	b, err := json.Marshal(next)
	if err != nil {
		return internal(err)
	}
	if err := r.store.SetRematch(ctx, g.ID, g.Rematch, b); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return err
		}
		return r.storeError("store the rematch offer of", g.ID, err)
	}
	switch next.State {
	case protocol.RematchOpen:
		r.arm(g.ID, next.Expires)
	case protocol.RematchStarted:
		return r.start(ctx, g, next)
	}
	return nil
}

// start creates the game of started offer o, made at old, unless
// it exists: the seats that accepted, in their order, the same pace and
// rating, each person with their token and account.
func (r *rematches) start(ctx context.Context, old *store.Game, o protocol.RematchOffer) error {
	if _, err := r.store.Game(ctx, o.Game); err == nil {
		return nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return r.storeError("read game", o.Game, err)
	}
	t, err := match.DecodeTiming(old.Clock, len(old.Seats))
	if err != nil {
		return r.failed("read the clock", old.ID, err)
	}
	g := &store.Game{ID: o.Game, Status: store.StatusPlaying, Rated: old.Rated, RematchOf: old.ID, Moves: []string{}}
	for i, s := range old.Seats {
		if o.Answers[i] != protocol.RematchYes {
			continue
		}
		switch {
		case s.Bot != "":
			s = store.Seat{Name: playername.Bot(len(g.Seats), s.Bot), Bot: s.Bot}
		case s.Account != "" && r.seatToken != nil:
			token, err := r.seatToken(ctx, s.Account, g.ID)
			if err != nil {
				return r.failed("seat an account at the rematch of", old.ID, err)
			}
			s.TokenHash = hashToken(token)
		}
		g.Seats = append(g.Seats, s)
	}
	// Secret as the old seed is, and the same whichever node creates it.
	seed := sha256.Sum256(append([]byte("razzia rematch "+o.Game+" "), old.Seed...))
	g.Seed = seed[:]
	g.Cheques = razzia.NewSetup(match.PlayerNames(g.Seats), g.Seed).Cheques
	g.Created = r.now()
	g.Updated = g.Created
	if g.Clock, err = match.NewTiming(t.Clock.Pace(), len(g.Seats)); err != nil {
		return r.failed("start the rematch of", old.ID, err)
	}
	if err := r.create(ctx, g); errors.Is(err, store.ErrConflict) {
		return nil // started by another caller meanwhile
	} else if err != nil {
		return err
	}
	r.log.Info("rematch started", "game", g.ID, "of", old.ID, "players", len(g.Seats))
	return nil
}

// expire settles the offer of game id if it is open and its time
// has come; the timer armRematch set calls it.
func (r *rematches) expire(id string) {
	ctx, cancel := context.WithTimeout(r.ctx, commitTimeout)
	defer cancel()
	for try := 0; try < 8; try++ {
		g, offer, err := r.of(ctx, id)
		if err != nil || offer == nil {
			return
		}
		switch {
		case offer.State == protocol.RematchStarted:
			r.start(ctx, g, *offer) // in case its settler failed
			return
		case offer.State != protocol.RematchOpen:
			return
		case r.now().Before(offer.Expires):
			r.arm(id, offer.Expires) // the timer fired early
			return
		}
		err = r.settleExpired(ctx, g, offer)
		if !errors.Is(err, store.ErrConflict) {
			if err != nil {
				r.log.Error("cannot settle the rematch offer; it is settled at the next request", "game", id, "err", err)
			}
			return
		}
	}
}

// arm sets the timer that settles game id's offer at expires,
// unless it is set.
func (r *rematches) arm(id string, expires time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.timers[id] != nil || r.ctx.Err() != nil {
		return
	}
	r.timers[id] = r.afterFunc(max(expires.Sub(r.now()), 0), func() {
		r.mu.Lock()
		delete(r.timers, id)
		r.mu.Unlock()
		if r.ctx.Err() == nil {
			r.expire(id)
		}
	})
}

// stop stops the timers of the offers (Close).
func (r *rematches) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, stop := range r.timers {
		stop()
		delete(r.timers, id)
	}
}

// WatchRematch subscribes to the rematch offer of finished game id: the
// offer made so far, if any, comes at once, then every change, whichever
// node makes it. Close the feed when done.
func (h *Hub) WatchRematch(ctx context.Context, id string) (*RematchFeed, error) {
	return h.rematches.watch(ctx, id)
}

// watch is WatchRematch.
func (r *rematches) watch(ctx context.Context, id string) (*RematchFeed, error) {
	if !protocol.ValidID(id) {
		return nil, notFound(id)
	}
	f := &RematchFeed{r: r, id: id, c: make(chan protocol.RematchOffer, 1)}
	// Known or read after the feed is there, so that no change is
	// missed; a known offer is given with the feed, so that a change
	// told meanwhile comes after it. A game that has no rematch (a
	// tutorial) is watched all the same: nothing comes.
	r.mu.Lock()
	if r.feeds[id] == nil {
		r.feeds[id] = map[*RematchFeed]struct{}{}
	}
	r.feeds[id][f] = struct{}{}
	offer, known := r.known.get(id)
	if offer != nil {
		f.c <- *offer
	}
	r.mu.Unlock()
	if known {
		if offer != nil && offer.State == protocol.RematchOpen {
			r.arm(id, offer.Expires)
		}
		return f, nil
	}
	if err := r.tell(ctx, id); err != nil && !errors.Is(err, ErrBadRequest) {
		f.Close()
		return nil, err
	}
	return f, nil
}

// tell reads game id's offer and gives it to the game's feeds on
// this node; it arms the expiry of an open offer, and starts the game of
// a started one if it is missing.
func (r *rematches) tell(ctx context.Context, id string) error {
	r.mu.Lock()
	r.reads++
	read := r.reads
	r.mu.Unlock()
	known := r.known.begin(id)
	g, offer, err := r.of(ctx, id)
	if err != nil {
		return err
	}
	if offer == nil || offer.State != protocol.RematchStarted {
		// A started offer is read each time: its reader starts its game
		// if it is missing.
		r.known.fill(id, known, offer)
	}
	if offer == nil {
		return nil
	}
	switch offer.State {
	case protocol.RematchOpen:
		r.arm(id, offer.Expires)
	case protocol.RematchStarted:
		if err := r.start(ctx, g, *offer); err != nil {
			r.log.Error("cannot start the rematch", "game", id, "err", err)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if read < r.told[id] {
		// Two notices read at once: the later read told the feeds what
		// this one read or newer (an open offer after its start would
		// replace the start in a feed not read meanwhile).
		return nil
	}
	if len(r.feeds[id]) > 0 { // forgotten with the game's last feed (Close)
		if r.told == nil {
			r.told = map[string]uint64{}
		}
		r.told[id] = read
	}
	for f := range r.feeds[id] {
		select {
		case <-f.c: // replaced by the newer offer
		default:
		}
		f.c <- *offer
	}
	return nil
}

// changed tells this node's watchers of game id's offer that it
// changed, without waiting (a store notice).
func (r *rematches) changed(id string) {
	r.known.drop(id) // before the feeds are looked at: a feed that found it knows of this change
	r.mu.Lock()
	watched := len(r.feeds[id]) > 0
	r.mu.Unlock()
	if !watched {
		return
	}
	r.background(func() {
		ctx, cancel := context.WithTimeout(r.ctx, commitTimeout)
		defer cancel()
		if err := r.tell(ctx, id); err != nil && r.ctx.Err() == nil {
			r.log.Warn("cannot read the rematch offer", "game", id, "err", err)
		}
	})
}

// all re-reads the offers watched here: notices may have been lost.
func (r *rematches) all() {
	r.known.clear()
	r.mu.Lock()
	ids := make([]string, 0, len(r.feeds))
	for id := range r.feeds {
		ids = append(ids, id)
	}
	r.mu.Unlock()
	for _, id := range ids {
		r.changed(id)
	}
}

// describeRematch adds g's rematch links and offer to its description.
func describeRematch(in *protocol.GameInfo, g *store.Game) {
	in.RematchOf = g.RematchOf
	if o, err := match.DecodeOffer(g); err == nil && o != nil {
		in.RematchOffer = o
		if o.State == protocol.RematchStarted {
			in.Rematch = o.Game
		}
	}
}
