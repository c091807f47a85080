package server

import (
	"context"
	"math"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/meet"
)

// startMeet builds Play now and challenges on the store and the Hub, and
// runs it until the server stops.
func (s *Server) startMeet(ctx context.Context) error {
	s.Meet = meet.New(s.Store, s.Hub, s.meetOptions())
	stop, err := s.Meet.Start(ctx)
	if err != nil {
		return err
	}
	s.stops = append(s.stops, stop)
	return nil
}

// meetOptions are the options of Play now joined to the accounts, Web
// Push, presence (who is online; the live pages, which hear of the
// requests and challenges), social (blocks, finish rates) and the
// moderation (who may not play).
func (s *Server) meetOptions() meet.Options {
	o := s.opts.Meet
	if o.Logger == nil {
		o.Logger = s.log
	}
	if o.Online == nil {
		o.Online = func(_ context.Context, person string) (bool, error) { return s.Presence.Online(person), nil }
	}
	if o.Tell == nil {
		o.Tell, o.TellLobbies = s.Presence.Tell, s.Presence.TellLobbies
	}
	if o.Blocked == nil {
		o.Blocked = s.Social.Blocks
	}
	if o.Barred == nil {
		o.Barred = s.Moderation.Barred
	}
	if o.FinishRate == nil {
		o.FinishRate = func(ctx context.Context, account string) (int, bool, error) {
			r, err := s.Social.FinishRate(ctx, account)
			return r.Percent(), r.Games > 0, err
		}
	}
	if o.SeatToken == nil {
		o.SeatToken = s.Accounts.SeatTokenOf
	}
	if o.Account == nil {
		o.Account = func(ctx context.Context, name string) (meet.Person, error) {
			a, err := s.Accounts.Find(ctx, name)
			if err != nil {
				return meet.Person{}, err
			}
			return meet.AccountPerson(a.ID, a.Name, a.Rating()), nil
		}
	}
	if o.Notify == nil && s.Push != nil {
		o.Notify = s.Push.Challenge
	}
	if o.BotLevel == nil {
		o.BotLevel = s.botLevel
	}
	return o
}

// botLevel is the level that fills a Play-now table's seat: at a rated
// table the calibrated level whose rating is nearest the people's, else
// the default level.
func (s *Server) botLevel(rated bool, rating int) string {
	if !rated {
		return bot.DefaultLevel
	}
	best, gap := "", math.Inf(1)
	for _, level := range s.Accounts.Calibrated() {
		if d := math.Abs(float64(s.Accounts.BotRating(level).Display() - rating)); d < gap {
			best, gap = level, d
		}
	}
	if best == "" {
		return bot.DefaultLevel
	}
	return best
}
