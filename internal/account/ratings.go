package account

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/rating"
	"github.com/razziagame/razzia/internal/store"
)

// ProvisionalGames is how many rated games a rating takes to stop being
// provisional, and the fewest a player on the leaderboard has played. A
// new player's Sigma is 25/3; after ten games of three or four players
// against opponents of known strength it is about 3 (see
// TestProvisionalSigma), under the gap between two bot levels, so that
// the conservative rating has started to order players like the bots.
const ProvisionalGames = 10

// A GameEnd is a finished game as the table Hub reports it.
type GameEnd struct {
	Game   string
	Rated  bool
	Seats  []store.Seat   // names, bots, accounts
	Scores []razzia.Score // the final points of each seat by category
	At     time.Time      // when it ended
	// Forfeited is, by seat, whether the person timed out or left the
	// game (nil: nobody did): a rated game counts as a loss for them,
	// whatever the bot that played for them scored (rating.Forfeit).
	Forfeited []bool
}

// rateable reports whether the seats of a rated table can change
// ratings: every person is an account, and at least one is.
func rateable(seats []store.Seat) bool {
	n := 0
	for _, s := range seats {
		switch {
		case s.Bot != "":
		case s.Account == "":
			return false
		default:
			n++
		}
	}
	return n > 0
}

// Calibrated returns the bot levels that have a fixed rating, sorted:
// the only bots a rated table may seat, since a level rated as a new
// player would make a win against it worth what it is not.
func (s *Service) Calibrated() []string {
	levels := make([]string, 0, len(s.opts.Bots))
	for l := range s.opts.Bots {
		levels = append(levels, l)
	}
	slices.Sort(levels)
	return levels
}

// BotRating returns the fixed rating of a bot level: the calibrated one,
// or a new player's for a level not calibrated.
func (s *Service) BotRating(level string) rating.Rating {
	if r, ok := s.opts.Bots[level]; ok {
		return r
	}
	return s.opts.Model.New()
}

// Finished stores the result of a finished game that has at least one
// account at it and, when the table was rated, every account's new
// rating: the Weng–Lin update of all seats (bots at their fixed
// ratings, which never change) from the places their totals give. A
// casual game, or a rated one a guest somehow sat at, changes no rating.
// A game whose result is stored already is left alone, so that the hook
// may run twice.
func (s *Service) Finished(ctx context.Context, g GameEnd) error {
	if !slices.ContainsFunc(g.Seats, func(st store.Seat) bool { return st.Account != "" }) {
		return nil
	}
	if len(g.Scores) != len(g.Seats) {
		return s.internal("rate game "+g.Game, errors.New("scores and seats differ in number"))
	}
	totals := make([]int, len(g.Seats))
	for i, sc := range g.Scores {
		totals[i] = sc.Total()
	}
	ranks := rating.Ranks(totals)
	rated := g.Rated && rateable(g.Seats)
	rateBy := ranks
	if rated && slices.Contains(g.Forfeited, true) {
		var err error
		if rateBy, err = rating.Forfeit(ranks, g.Forfeited); err != nil {
			return s.internal("rate game "+g.Game, err)
		}
	}
	if g.Rated && !rated {
		s.log.Warn("a rated game with a guest is not rated", "game", g.Game)
	}
	const tries = 5
	for try := 0; ; try++ {
		r := store.Result{Game: g.Game, Players: len(g.Seats), Rated: rated, Finished: g.At.UTC().Round(0)}
		for i, st := range g.Seats {
			r.Seats = append(r.Seats, store.SeatResult{Seat: i, Account: st.Account, Bot: st.Bot, Name: st.Name,
				Rank: ranks[i], Score: totals[i], Scores: g.Scores[i][:]})
		}
		if rated {
			if err := s.rate(ctx, &r, rateBy); err != nil {
				return err
			}
		}
		err := s.st.AddResult(ctx, r)
		switch {
		case err == nil:
			s.log.Info("game result stored", "game", g.Game, "rated", rated)
			return nil
		case errors.Is(err, store.ErrRated):
			return nil
		case errors.Is(err, store.ErrConflict) && try < tries:
			continue // another game changed a rating meanwhile: rate from the new one
		default:
			return s.internal("store result of "+g.Game, err)
		}
	}
}

// rate fills in the Before and After of every account of r.
func (s *Service) rate(ctx context.Context, r *store.Result, ranks []int) error {
	before := make([]rating.Rating, len(r.Seats))
	stored := make([]store.Rating, len(r.Seats))
	for i, st := range r.Seats {
		if st.Account == "" {
			before[i] = s.BotRating(st.Bot)
			continue
		}
		a, err := s.st.Account(ctx, st.Account)
		if errors.Is(err, store.ErrNoAccount) {
			// Deleted meanwhile: it plays on as its seat, unrated.
			r.Seats[i].Account = ""
			before[i] = s.opts.Model.New()
			continue
		}
		if err != nil {
			return s.internal("read rating", err)
		}
		stored[i] = a.Rating
		before[i] = rating.Rating{Mu: a.Rating.Mu, Sigma: a.Rating.Sigma}
	}
	after, err := s.opts.Model.Rate(before, ranks)
	if err != nil {
		return s.internal("rate game "+r.Game, err)
	}
	for i, st := range r.Seats {
		if st.Account == "" {
			continue
		}
		b, a := stored[i], store.Rating{Mu: after[i].Mu, Sigma: after[i].Sigma, Games: stored[i].Games + 1}
		r.Seats[i].Before, r.Seats[i].After = &b, &a
	}
	if !slices.ContainsFunc(r.Seats, func(st store.SeatResult) bool { return st.After != nil }) {
		r.Rated = false
	}
	return nil
}
