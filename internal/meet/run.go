package meet

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// OnlineGrace is how long a new request stays open whether or not its
// person is online: their page is counted online within 5 seconds of
// connecting, on every node.
const OnlineGrace = 10 * time.Second

// purgeEvery is how often a node removes the requests and challenges
// ended over a day ago.
const purgeEvery = time.Hour

// run sweeps every Tick until ctx is done.
func (s *Service) run(ctx context.Context) {
	tick := time.NewTicker(s.opts.Tick)
	defer tick.Stop()
	lastPurge := time.Time{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			s.Sweep(ctx)
			if time.Since(lastPurge) > purgeEvery {
				lastPurge = time.Now()
				if err := s.st.PurgePairing(ctx, lastPurge.Add(-24*time.Hour)); err != nil {
					s.log.Warn("meet: purging", "err", err)
				}
			}
		}
	}
}

// Sweep lapses the challenges not answered in time and the requests of
// people gone offline, seats the accepted challenges left without a
// table, and pairs: what every node does every Tick.
func (s *Service) Sweep(ctx context.Context) {
	lapsed, err := s.st.LapseChallenges(ctx, s.opts.Now())
	if err != nil {
		s.log.Warn("meet: lapsing challenges", "err", err)
	}
	for _, c := range lapsed {
		s.tellChallenge(ctx, c)
	}
	s.reseat(ctx)
	// One read of the requests serves the lapses and the pairing.
	s.pairing.Lock()
	defer s.pairing.Unlock()
	open, err := s.st.OpenSeeks(ctx)
	if err != nil {
		s.log.Warn("meet: reading the requests", "err", err)
		return
	}
	if open, err = s.lapse(ctx, open); err != nil {
		s.log.Warn("meet: lapsing the requests of people offline", "err", err)
		return
	}
	s.pair(ctx, open)
}

// reseat seats the challenges accepted Reseat ago or more and still
// without a table, those of the last Kept: a later failure is the
// operator's to look at in the log. Another node may seat one at once;
// the store records one table, and the other is cancelled.
func (s *Service) reseat(ctx context.Context) {
	// The store's clock, not the service's: it marks when they changed.
	now := time.Now()
	unseated, err := s.st.UnseatedChallenges(ctx, now.Add(-s.opts.Reseat))
	if err != nil {
		s.log.Warn("meet: reading the challenges without a table", "err", err)
		return
	}
	for _, c := range unseated {
		if now.Sub(c.Updated) > s.opts.Kept {
			continue
		}
		game, err := s.seatChallenge(ctx, c)
		if err != nil {
			s.log.Warn("meet: seating a challenge again", "challenge", c.ID, "err", err)
			continue
		}
		c.Game = game
		s.tellChallenge(ctx, c)
	}
}

// lapse ends the open requests that waited MaxWait, and those of the
// people who are offline (past OnlineGrace); it returns the others.
func (s *Service) lapse(ctx context.Context, open []store.Seek) ([]store.Seek, error) {
	now := s.opts.Now()
	ended := map[string]bool{}
	for _, k := range open {
		if now.Sub(k.Created) < s.opts.MaxWait {
			continue
		}
		switch err := s.st.EndSeek(ctx, k.ID, "", store.SeekLapsed); {
		case err == nil:
			s.tellSeek(ctx, k.ID)
			ended[k.ID] = true
		case !errors.Is(err, store.ErrConflict): // paired meanwhile
			return nil, err
		}
	}
	rest := func() []store.Seek {
		return slices.DeleteFunc(slices.Clone(open), func(k store.Seek) bool { return ended[k.ID] })
	}
	if s.opts.Online == nil {
		return rest(), nil
	}
	asked := map[string]bool{}
	for _, k := range open {
		// A request just made waits for its person's live page to count
		// them online (presence takes a few seconds on another node).
		if asked[k.Person] || now.Sub(k.Created) < OnlineGrace {
			continue
		}
		asked[k.Person] = true
		online, err := s.opts.Online(ctx, k.Person)
		if err != nil || online {
			continue // in doubt, the request stays
		}
		ids, err := s.st.EndSeeksOf(ctx, k.Person, store.SeekLapsed)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			s.tellSeek(ctx, id)
			ended[id] = true
		}
	}
	return rest(), nil
}
