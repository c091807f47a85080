package social

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// The finish rate: the share of an account's recent games that it
// finished rather than left or timed out of, the recent ones weighing
// more. Of the account's last RateWindow games (newest first, i = 0, 1,
// ...), game i weighs 2^(−i/RateHalfLife):
//
//	rate = Σ wᵢ·finishedᵢ / Σ wᵢ
//
// so a game left 20 games ago counts half as much as one left today, and
// a player who left games long ago and finishes now climbs back. An
// account with no game counted has the rate 1 (nobody is presumed to
// leave) and Games 0, which pages show as "new".
const (
	RateWindow   = 100
	RateHalfLife = 20
)

// A Rate is an account's finish rate.
type Rate struct {
	Rate  float64 // from 0 to 1
	Games int     // the games it is made of, at most RateWindow
	Left  int     // of them, those left or timed out of
}

// Percent is the rate in whole percent, rounded down: 99.6 % is 99,
// so that 100 means every game finished.
func (r Rate) Percent() int { return int(math.Floor(r.Rate*100 + 1e-9)) }

// RateOf computes the finish rate of marks, newest first (as
// store.Social.Finishes returns them); only the first RateWindow count.
func RateOf(marks []store.Finish) Rate {
	if len(marks) > RateWindow {
		marks = marks[:RateWindow]
	}
	if len(marks) == 0 {
		return Rate{Rate: 1}
	}
	var done, all float64
	r := Rate{Games: len(marks)}
	for i, m := range marks {
		w := math.Exp2(-float64(i) / RateHalfLife)
		all += w
		if m.Left {
			r.Left++
		} else {
			done += w
		}
	}
	r.Rate = done / all
	return r
}

// FinishRate returns the account's finish rate (Rate{Rate: 1} for a
// guest, ""), read at most rateTTL ago.
func (s *Service) FinishRate(ctx context.Context, account string) (Rate, error) {
	if account == "" {
		return Rate{Rate: 1}, nil
	}
	now := s.now()
	s.mu.Lock()
	c, ok := s.rate[account]
	s.mu.Unlock()
	if ok && now.Sub(c.at) < rateTTL {
		return c.r, nil
	}
	marks, err := s.st.Finishes(ctx, account, RateWindow)
	if err != nil {
		return Rate{}, s.internal("read finish marks", err)
	}
	r := RateOf(marks)
	s.mu.Lock()
	if len(s.rate) >= maxCached {
		clear(s.rate)
	}
	s.rate[account] = cachedRate{r: r, at: now}
	s.mu.Unlock()
	return r, nil
}

// A Seat is how a finished game ended for one account at it.
type Seat struct {
	Account string
	Left    bool // left or timed out: a bot took the seat at least once
}

// Finished records how a finished game ended for each account at it
// (guests and bots are left out by their empty Account): the marks the
// finish rates are made of.
func (s *Service) Finished(ctx context.Context, game string, at time.Time, seats []Seat) error {
	var marks []store.Finish
	for _, st := range seats {
		if st.Account != "" {
			marks = append(marks, store.Finish{Account: st.Account, Game: game, At: at, Left: st.Left})
		}
	}
	if len(marks) == 0 {
		return nil
	}
	if err := s.st.AddFinishes(ctx, marks); err != nil {
		return s.internal("store finish marks", err)
	}
	s.mu.Lock()
	for _, m := range marks {
		delete(s.rate, m.Account)
		delete(s.card, m.Account)
	}
	s.mu.Unlock()
	return nil
}

// A Card is what the online list shows of an account: its name, rating
// and finish rate.
type Card struct {
	Name   string
	Rating protocol.RatingInfo
	Rate   Rate
}

// Card returns the account's card, read at most rateTTL ago.
func (s *Service) Card(ctx context.Context, id string) (Card, error) {
	now := s.now()
	s.mu.Lock()
	c, ok := s.card[id]
	s.mu.Unlock()
	if ok && now.Sub(c.at) < rateTTL {
		return c.c, nil
	}
	a, err := s.st.Account(ctx, id)
	if err != nil {
		return Card{}, s.internal("read account", err)
	}
	rate, err := s.FinishRate(ctx, id)
	if err != nil {
		return Card{}, err
	}
	card := Card{Name: a.Name, Rating: account.RatingInfo(a.Rating), Rate: rate}
	s.mu.Lock()
	if len(s.card) >= maxCached {
		clear(s.card)
	}
	s.card[id] = cachedCard{c: card, at: now}
	s.mu.Unlock()
	return card, nil
}

type cachedCard struct {
	c  Card
	at time.Time
}

// NameTaken reports whether an account is called name (by its key): a
// guest may not go by it.
func (s *Service) NameTaken(ctx context.Context, name string) (bool, error) {
	_, err := s.st.AccountByKey(ctx, playername.Key(name))
	switch {
	case errors.Is(err, store.ErrNoAccount):
		return false, nil
	case err != nil:
		return false, s.internal("read account", err)
	}
	return true, nil
}
