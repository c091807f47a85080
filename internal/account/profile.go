package account

import (
	"context"
	"encoding/base64"
	"errors"
	"slices"
	"sort"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/rating"
	"github.com/razziagame/razzia/internal/store"
)

// Bounds of what a profile reads and shows.
const (
	// MaxResults is the most games a profile's figures are made of.
	MaxResults = 2000
	// RecentGames is how many games a profile lists.
	RecentGames = 20
	// LeaderboardSize is how many players the leaderboard shows.
	LeaderboardSize = 100
)

// ratingInfo describes a stored rating for players.
func ratingInfo(r store.Rating) protocol.RatingInfo {
	rt := rating.Rating{Mu: r.Mu, Sigma: r.Sigma}
	return protocol.RatingInfo{
		Display: rt.Display(), Ordinal: rt.Ordinal(), Mu: r.Mu, Sigma: r.Sigma,
		Games: r.Games, Provisional: r.Games < ProvisionalGames,
	}
}

// Info describes the session's account for its owner.
func (s *Service) Info(ctx context.Context, se Session) (protocol.AccountInfo, error) {
	a := se.Account.rec
	keys, err := s.passkeys(ctx, se)
	if err != nil {
		return protocol.AccountInfo{}, err
	}
	in := protocol.AccountInfo{Name: a.Name, Created: a.Created.UTC(), Rating: ratingInfo(a.Rating), Password: a.Password != "",
		Passkeys: []protocol.PasskeyInfo{}, Profile: protocol.ProfilePath(a.Name)}
	for _, k := range keys {
		p := protocol.PasskeyInfo{ID: base64.RawURLEncoding.EncodeToString(k.ID), Name: k.Name, Created: k.Created.UTC()}
		if !k.Used.IsZero() {
			u := k.Used.UTC()
			p.Used = &u
		}
		in.Passkeys = append(in.Passkeys, p)
	}
	return in, nil
}

// byName returns the account called name (by its key), or ErrNotFound.
func (s *Service) byName(ctx context.Context, name string) (*store.Account, error) {
	a, err := s.st.AccountByKey(ctx, playername.Key(name))
	switch {
	case errors.Is(err, store.ErrNoAccount):
		return nil, reject(ErrNotFound, "there is no player %q", name)
	case err != nil:
		return nil, s.internal("read account", err)
	}
	return a, nil
}

// Profile returns the public profile of the player called name.
func (s *Service) Profile(ctx context.Context, name string) (protocol.Profile, error) {
	return s.ProfileOf(ctx, name, "")
}

// ProfileOf is Profile with its figures and recent games made of one kind
// of games only: "rated" or "casual" ("" for all); Games counts both.
func (s *Service) ProfileOf(ctx context.Context, name, only string) (protocol.Profile, error) {
	if only != "" && only != "rated" && only != "casual" {
		return protocol.Profile{}, reject(ErrBadRequest, "games=%q: want rated or casual, or nothing for all games", only)
	}
	a, err := s.byName(ctx, name)
	if err != nil {
		return protocol.Profile{}, err
	}
	results, err := s.st.Results(ctx, a.ID, MaxResults)
	if err != nil {
		return protocol.Profile{}, s.internal("read results", err)
	}
	var games protocol.GameCounts
	kept := results[:0:0]
	for _, r := range results {
		if seatOf(r, a.ID) == nil {
			continue
		}
		if r.Rated {
			games.Rated++
		} else {
			games.Casual++
		}
		if only == "" || r.Rated == (only == "rated") {
			kept = append(kept, r)
		}
	}
	p := s.profile(a, kept)
	if only == "casual" {
		// The rating's history is the rating's, whatever the figures are of.
		p.History = s.profile(a, results).History
	}
	p.Games, p.Only = games, only
	return p, nil
}

// PlayerGames returns the finished games of the player called name, newest
// first, at most limit.
func (s *Service) PlayerGames(ctx context.Context, name string, limit int) ([]protocol.PlayedGame, error) {
	a, err := s.byName(ctx, name)
	if err != nil {
		return nil, err
	}
	results, err := s.st.Results(ctx, a.ID, limit)
	if err != nil {
		return nil, s.internal("read results", err)
	}
	games := make([]protocol.PlayedGame, 0, len(results))
	for _, r := range results {
		games = append(games, played(a.ID, r))
	}
	return games, nil
}

// seatOf returns the result's seat of the account, or nil.
func seatOf(r store.Result, account string) *store.SeatResult {
	for i := range r.Seats {
		if r.Seats[i].Account == account {
			return &r.Seats[i]
		}
	}
	return nil
}

// played describes one result from the account's seat.
func played(account string, r store.Result) protocol.PlayedGame {
	me := seatOf(r, account)
	g := protocol.PlayedGame{Game: r.Game, At: r.Finished.UTC(), Rated: r.Rated, Players: r.Players,
		Rank: me.Rank, Score: me.Score, Seat: me.Seat, Replay: protocol.ReplayPath(r.Game)}
	for _, st := range r.Seats {
		g.Seats = append(g.Seats, protocol.ResultSeat{Name: st.Name, Bot: st.Bot, Rank: st.Rank, Score: st.Score})
	}
	if me.After != nil {
		before, after := rating.Rating{Mu: me.Before.Mu, Sigma: me.Before.Sigma}, rating.Rating{Mu: me.After.Mu, Sigma: me.After.Sigma}
		d := after.Ordinal() - before.Ordinal()
		g.Change = &d
		shown := rating.DisplayChange(before, after)
		g.DisplayChange = &shown
	}
	return g
}

// profile makes a's profile from its results, newest first.
func (s *Service) profile(a *store.Account, results []store.Result) protocol.Profile {
	p := protocol.Profile{Name: a.Name, Created: a.Created.UTC(), Rating: ratingInfo(a.Rating), ProvisionalGames: ProvisionalGames,
		History: []protocol.RatingPoint{}, ByPlayers: []protocol.PlayerCount{}, Categories: []protocol.CategoryMean{},
		Bots: []protocol.BotRecord{}, Recent: []protocol.PlayedGame{}}
	var (
		counts  = map[int]*protocol.PlayerCount{}
		mine    [razzia.NumCategories]float64
		theirs  [razzia.NumCategories]float64
		nMine   int
		nTheirs int
		vsBot   = map[string]*protocol.BotRecord{}
	)
	for i := len(results) - 1; i >= 0; i-- { // oldest first
		r := results[i]
		me := seatOf(r, a.ID)
		if me == nil {
			continue
		}
		if me.After != nil {
			rt := rating.Rating{Mu: me.After.Mu, Sigma: me.After.Sigma}
			p.History = append(p.History, protocol.RatingPoint{Game: r.Game, At: r.Finished.UTC(), Ordinal: rt.Ordinal(), Mu: rt.Mu, Sigma: rt.Sigma})
		}
		c := counts[r.Players]
		if c == nil {
			c = &protocol.PlayerCount{Players: r.Players}
			counts[r.Players] = c
		}
		c.Played++
		if me.Rank == 1 {
			c.Won++
		}
		for _, st := range r.Seats {
			if len(st.Scores) != int(razzia.NumCategories) {
				continue
			}
			for k, v := range st.Scores {
				if st.Seat == me.Seat {
					mine[k] += float64(v)
				} else {
					theirs[k] += float64(v)
				}
			}
			if st.Seat == me.Seat {
				nMine++
			} else {
				nTheirs++
			}
			if st.Bot != "" {
				b := vsBot[st.Bot]
				if b == nil {
					b = &protocol.BotRecord{Level: st.Bot}
					vsBot[st.Bot] = b
				}
				b.Games++
				switch {
				case me.Rank < st.Rank:
					b.Wins++
				case me.Rank == st.Rank:
					b.Draws++
				default:
					b.Losses++
				}
			}
		}
	}
	for _, c := range counts {
		p.ByPlayers = append(p.ByPlayers, *c)
	}
	sort.Slice(p.ByPlayers, func(i, j int) bool { return p.ByPlayers[i].Players < p.ByPlayers[j].Players })
	if nMine > 0 {
		for k := range razzia.NumCategories {
			m := protocol.CategoryMean{Category: razzia.Category(k).String(), Mine: mine[k] / float64(nMine)}
			if nTheirs > 0 {
				m.Opponents = theirs[k] / float64(nTheirs)
			}
			p.Categories = append(p.Categories, m)
		}
	}
	for _, level := range levelOrder(vsBot) {
		b := vsBot[level]
		b.Rating = s.botInfo(level)
		p.Bots = append(p.Bots, *b)
	}
	for _, r := range results[:min(len(results), RecentGames)] {
		if seatOf(r, a.ID) != nil {
			p.Recent = append(p.Recent, played(a.ID, r))
		}
	}
	return p
}

// levelOrder returns the levels of m, the server's levels in their order
// first, then any other (a level since renamed) by name.
func levelOrder[V any](m map[string]V) []string {
	var out []string
	for _, l := range bot.LevelNames() {
		if _, ok := m[l]; ok {
			out = append(out, l)
		}
	}
	var rest []string
	for l := range m {
		if !slices.Contains(out, l) {
			rest = append(rest, l)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// botInfo describes a bot level's fixed rating.
func (s *Service) botInfo(level string) protocol.RatingInfo {
	r := s.BotRating(level)
	return protocol.RatingInfo{Display: r.Display(), Ordinal: r.Ordinal(), Mu: r.Mu, Sigma: r.Sigma}
}

// Leaderboard returns the best players with at least ProvisionalGames
// rated games, and the bots' ratings for scale.
func (s *Service) Leaderboard(ctx context.Context) (protocol.LeaderboardAnswer, error) {
	accts, err := s.st.Leaderboard(ctx, ProvisionalGames, LeaderboardSize)
	if err != nil {
		return protocol.LeaderboardAnswer{}, s.internal("read leaderboard", err)
	}
	out := protocol.LeaderboardAnswer{MinGames: ProvisionalGames, Players: []protocol.LeaderEntry{}, Bots: []protocol.BotRecord{}}
	for i, a := range accts {
		out.Players = append(out.Players, protocol.LeaderEntry{Rank: i + 1, Name: a.Name, Rating: ratingInfo(a.Rating), Profile: protocol.ProfilePath(a.Name)})
	}
	for _, l := range bot.LevelNames() {
		out.Bots = append(out.Bots, protocol.BotRecord{Level: l, Rating: s.botInfo(l)})
	}
	return out, nil
}

// An Export is everything the server keeps of an account, for its owner
// (GET /api/account/export).
type Export struct {
	Exported time.Time             `json:"exported"`
	Account  protocol.AccountInfo  `json:"account"`
	Profile  protocol.Profile      `json:"profile"`
	Games    []protocol.PlayedGame `json:"games"` // every finished game
	Seats    []Game                `json:"seats"` // every game it holds a seat in
}

// A Game is a game an account holds a seat in, as its owner sees it.
type Game struct {
	ID      string    `json:"game"`
	Status  string    `json:"status"`
	Seat    int       `json:"seat"`
	Players []string  `json:"players"`
	Rated   bool      `json:"rated"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
}

// Export returns everything kept of the session's account.
func (s *Service) Export(ctx context.Context, se Session) (Export, error) {
	a := se.Account.rec
	info, err := s.Info(ctx, se)
	if err != nil {
		return Export{}, err
	}
	results, err := s.st.Results(ctx, a.ID, 0)
	if err != nil {
		return Export{}, s.internal("read results", err)
	}
	sums, err := s.st.AccountGames(ctx, a.ID, 0)
	if err != nil {
		return Export{}, s.internal("read games", err)
	}
	e := Export{Exported: s.opts.Now().UTC(), Account: info, Profile: s.profile(a, results), Games: []protocol.PlayedGame{}, Seats: gamesOf(a.ID, sums)}
	for _, r := range results {
		e.Games = append(e.Games, played(a.ID, r))
	}
	return e, nil
}

// gamesOf returns the stored summaries of the account's games as its
// owner sees them: the one place a stored summary becomes a Game.
func gamesOf(account string, sums []store.Summary) []Game {
	games := make([]Game, 0, len(sums))
	for _, g := range sums {
		game := Game{ID: g.ID, Status: string(g.Status), Rated: g.Rated, Created: g.Created.UTC(), Updated: g.Updated.UTC()}
		for i, st := range g.Seats {
			game.Players = append(game.Players, st.Name)
			if st.Account == account {
				game.Seat = i
			}
		}
		games = append(games, game)
	}
	return games
}

// Games returns the games the session's account holds a seat in, most
// recently updated first, at most limit.
func (s *Service) Games(ctx context.Context, se Session, limit int) ([]Game, error) {
	sums, err := s.st.AccountGames(ctx, se.Account.rec.ID, limit)
	if err != nil {
		return nil, s.internal("read games", err)
	}
	return gamesOf(se.Account.rec.ID, sums), nil
}
