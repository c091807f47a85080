package director

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/table"
)

// A run is the director of one tournament on this node, while it holds
// the tournament's lease.
type run struct {
	s     *Service
	id    string
	lease store.Lease
	wake  chan struct{}
}

// kick asks the run to look at its tournament again.
func (r *run) kick() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// stepTimeout bounds one step of a director.
const stepTimeout = 30 * time.Second

// loop directs the tournament until it is over, the lease is lost or the
// Service closes.
func (r *run) loop() {
	s := r.s
	renew := time.NewTicker(s.opts.LeaseTTL / 3)
	defer renew.Stop()
	var stopTimer func() bool
	defer func() {
		if stopTimer != nil {
			stopTimer()
		}
	}()
	r.kick()
	for {
		select {
		case <-s.ctx.Done():
			s.handOverLease(r.id, r.lease)
			return
		case <-renew.C:
			ctx, cancel := context.WithTimeout(s.ctx, s.opts.LeaseTTL/3)
			l, err := s.st.RenewTournamentLease(ctx, r.lease, s.opts.LeaseTTL)
			cancel()
			if err != nil {
				if s.ctx.Err() != nil {
					// Closed while renewing (select picks either case when
					// both are ready): the lease is still ours to hand over.
					s.handOverLease(r.id, r.lease)
				} else if !errors.Is(err, store.ErrConflict) {
					s.log.Warn("a tournament's lease is lost", "tournament", r.id, "err", err)
				}
				return
			}
			r.lease = l
		case <-r.wake:
			wake, done := r.step()
			if done {
				ctx, cancel := context.WithTimeout(s.ctx, time.Second)
				s.st.ReleaseTournamentLease(ctx, r.lease) // a finished tournament's: refused as over, nothing to keep
				cancel()
				return
			}
			if stopTimer != nil {
				stopTimer()
			}
			d := s.opts.Tick
			if !wake.IsZero() {
				d = min(d, max(wake.Sub(s.opts.Now()), 0))
			}
			stopTimer = s.opts.AfterFunc(d, r.kick)
		}
	}
}

// handOverLease releases lease l of tournament id when the Service closes
// to hand its tournaments over, so that another node takes it at once
// rather than once it lapses.
func (s *Service) handOverLease(id string, l store.Lease) {
	if !s.handOver.Load() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := s.st.ReleaseTournamentLease(ctx, l); err != nil && !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrLeaseLost) {
		s.log.Warn("releasing a tournament's lease failed", "tournament", id, "err", err)
	}
}

// step reads the tournament, records the results of its games that
// ended, advances it, stores what changed and creates the games of the
// tables it seated. It returns when to look again, and whether the
// tournament is over.
func (r *run) step() (time.Time, bool) {
	s := r.s
	ctx, cancel := context.WithTimeout(s.ctx, stepTimeout)
	defer cancel()
	for try := 0; try < 8; try++ {
		rec, err := s.st.Tournament(ctx, r.id)
		if err != nil {
			if s.ctx.Err() == nil { // closing cancels the step: no news
				s.log.Warn("reading a tournament failed", "tournament", r.id, "err", err)
			}
			return time.Time{}, errors.Is(err, store.ErrNotFound)
		}
		t, err := load(rec)
		if err != nil {
			s.log.Error("a tournament cannot be read", "tournament", r.id, "err", err)
			return time.Time{}, true
		}
		finished := r.collect(ctx, t)
		changed, added, wake := t.advance(s.opts.Now())
		if changed || len(finished) > 0 {
			if err := t.encode(); err != nil {
				s.log.Error("encoding a tournament failed", "tournament", r.id, "err", err)
				return time.Time{}, false
			}
			err := s.st.UpdateTournament(ctx, t.rec, t.rec.Players, append(finished, added...))
			if errors.Is(err, store.ErrConflict) {
				continue // someone joined meanwhile: again, from what is stored
			}
			if err != nil {
				s.log.Warn("storing a tournament failed", "tournament", r.id, "err", err)
				return time.Time{}, false
			}
			s.announce(ctx, r.id)
			if len(added) > 0 {
				s.log.Info("tournament tables seated", "tournament", r.id, "round", t.st.Round, "tables", len(added))
			}
			if !t.rec.Status.Live() {
				s.log.Info("tournament over", "tournament", r.id, "status", t.rec.Status)
			}
		}
		if made := r.createGames(ctx, t); len(made) > 0 {
			r.markCreated(ctx, made)
		}
		return wake, !t.rec.Status.Live()
	}
	return time.Time{}, false
}

// createGames makes sure the game of every table not over exists, and
// returns the tables whose games it made sure of that were not yet
// marked created.
func (r *run) createGames(ctx context.Context, t *tour) []string {
	names := map[string]string{}
	for _, p := range t.rec.Players {
		names[p.Account] = p.Name
	}
	var made []string
	for _, tb := range t.open() {
		if !tb.Created.IsZero() {
			continue
		}
		st := table.SeatedTable{ID: tb.Game, Seed: t.tableSeed(tb), Pace: t.set.Pace, Rated: t.set.Rated, Tournament: true}
		for _, a := range tb.Seats {
			if a == "" {
				st.Seats = append(st.Seats, table.SeatedPlayer{Bot: FillLevel})
			} else {
				st.Seats = append(st.Seats, table.SeatedPlayer{Name: names[a], Account: a})
			}
		}
		if _, err := r.s.hub.CreateSeated(ctx, st); err != nil {
			r.s.log.Warn("creating a tournament table failed", "tournament", r.id, "game", tb.Game, "err", err)
			continue
		}
		made = append(made, tb.Game)
	}
	return made
}

// markCreated stores that the games exist, so that the page links them.
func (r *run) markCreated(ctx context.Context, games []string) {
	now := r.s.opts.Now()
	_, err := r.s.update(ctx, r.id, func(t *tour) ([]store.TournamentPlayer, []store.TournamentTable, error) {
		var out []store.TournamentTable
		for i, tb := range t.rec.Tables {
			if tb.Created.IsZero() && slices.Contains(games, tb.Game) {
				t.rec.Tables[i].Created = now
				out = append(out, t.rec.Tables[i])
			}
		}
		if len(out) == 0 {
			return nil, nil, errNothing
		}
		return nil, out, nil
	})
	if err != nil {
		r.s.log.Warn("marking a tournament's games created failed", "tournament", r.id, "err", err)
	}
}

// collect records in t the results of its games that ended, and pauses
// whom the absent rule pauses; it returns the tables it finished.
func (r *run) collect(ctx context.Context, t *tour) []store.TournamentTable {
	var done []store.TournamentTable
	for i, tb := range t.rec.Tables {
		if tb.Result != nil {
			continue
		}
		g, err := r.s.st.Game(ctx, tb.Game)
		if err != nil {
			if !errors.Is(err, store.ErrNotFound) {
				r.s.log.Warn("reading a tournament game failed", "game", tb.Game, "err", err)
			}
			continue
		}
		res, err := resultOf(g)
		if err != nil {
			r.s.log.Error("a tournament game's result cannot be read", "game", tb.Game, "err", err)
			continue
		}
		if res == nil {
			continue
		}
		if tb.Result, err = json.Marshal(res); err != nil {
			continue
		}
		tb.Finished = g.Updated
		t.rec.Tables[i] = tb
		done = append(done, tb)
		t.absent(tb, res)
	}
	return done
}

// absent pauses the people a bot stood in for at a finished table when
// the rules say so: always in an arena (else bots would play for them
// until its end), by the organiser's choice (AbsentWithdraw) otherwise.
func (t *tour) absent(tb store.TournamentTable, res *result) {
	if t.set.Absent != protocol.AbsentWithdraw && t.format() != "arena" {
		return
	}
	for seat, a := range tb.Seats {
		if a == "" || seat >= len(res.Forfeited) || !res.Forfeited[seat] {
			continue
		}
		if i := t.player(a); i >= 0 && t.rec.Players[i].Status == protocol.PlayerIn {
			t.rec.Players[i].Status = protocol.PlayerPaused
		}
	}
}

// resultOf returns the result of a game that is over, replayed from its
// moves, or nil while it is played.
func resultOf(g *store.Game) (*result, error) {
	if g.Status != store.StatusFinished && g.Status != store.StatusArchived {
		return nil, nil
	}
	rec := &razzia.Record{Format: razzia.RecordFormat, Players: match.PlayerNames(g.Seats), Cheques: g.Cheques, Moves: g.Moves}
	game, err := rec.Game()
	if err != nil {
		return nil, err
	}
	st := game.State()
	res := &result{Totals: st.Totals()}
	if g.Clock != nil {
		tm, err := match.DecodeTiming(g.Clock, len(g.Seats))
		if err != nil {
			return nil, err
		}
		res.Forfeited = protocol.RecordMeta{TakeOvers: tm.TakeOvers}.Forfeited(len(g.Seats))
		if !containsTrue(res.Forfeited) {
			res.Forfeited = nil
		}
	}
	return res, nil
}

func containsTrue(b []bool) bool {
	for _, x := range b {
		if x {
			return true
		}
	}
	return false
}
