package director

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/table"
	"github.com/razziagame/razzia/internal/tournament"
)

// Get returns tournament id as its page shows it to the account viewer
// ("" for a guest). The description of a tournament is built once per
// change on each node, whoever watches it (see described); only the
// viewer's own part is theirs.
func (s *Service) Get(ctx context.Context, id, viewer string) (protocol.Tournament, error) {
	if !protocol.ValidID(id) {
		return protocol.Tournament{}, ErrNotFound
	}
	d, err := s.described(ctx, id)
	if err != nil {
		return protocol.Tournament{}, err
	}
	v := d.view // shared slices, read only
	v.You, v.Organising = d.tour.yours(viewer), viewer != "" && viewer == d.tour.rec.Organiser
	return v, nil
}

// A description is a tournament as read and described, for every viewer.
type description struct {
	tour *tour
	view protocol.Tournament
	at   time.Time
}

// describedFor bounds how long a description is kept without news of a
// change: the notices keep it fresh, and this makes up for one lost.
const describedFor = 10 * time.Second

// read reads tournament id as stored: ErrNotFound if there is none.
func (s *Service) read(ctx context.Context, id string) (*tour, error) {
	rec, err := s.st.Tournament(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return load(rec)
}

// described returns tournament id described, from the node's cache while
// no change was announced, else read anew.
func (s *Service) described(ctx context.Context, id string) (*description, error) {
	s.mu.Lock()
	d, gen := s.descs[id], s.gens[id]
	s.mu.Unlock()
	if d != nil && time.Since(d.at) < describedFor {
		return d, nil
	}
	t, err := s.read(ctx, id)
	if err != nil {
		return nil, err
	}
	d = &description{tour: t, view: s.view(ctx, t, ""), at: time.Now()}
	s.mu.Lock()
	if len(s.descs) >= maxCachedGames {
		clear(s.descs)
	}
	// Kept only if no change was announced while it was read: else it
	// may be older than the change.
	if s.gens[id] == gen {
		s.descs[id] = d
	}
	s.mu.Unlock()
	return d, nil
}

// forget drops the description of tournament id: it changed.
func (s *Service) forget(id string) {
	s.mu.Lock()
	s.forgetLocked(id)
	s.mu.Unlock()
}

func (s *Service) forgetLocked(id string) {
	delete(s.descs, id)
	if len(s.gens) >= maxCachedGames {
		clear(s.gens) // a read under way keeps its description: at worst describedFor
	}
	s.gens[id]++
}

// List returns the tournaments coming and running, and the latest
// finished (at most limit of each).
func (s *Service) List(ctx context.Context, limit int) (protocol.TournamentList, error) {
	out := protocol.TournamentList{Coming: []protocol.TournamentSummary{}, Running: []protocol.TournamentSummary{}, Finished: []protocol.TournamentSummary{}}
	for _, part := range []struct {
		status store.TournamentStatus
		into   *[]protocol.TournamentSummary
	}{{store.TournamentWaiting, &out.Coming}, {store.TournamentRunning, &out.Running}, {store.TournamentFinished, &out.Finished}} {
		recs, err := s.st.ListTournaments(ctx, []store.TournamentStatus{part.status}, limit)
		if err != nil {
			return out, err
		}
		for i := range recs {
			t, err := load(&recs[i])
			if err != nil {
				continue
			}
			*part.into = append(*part.into, t.summary(s.nameOf(ctx, t.rec.Organiser)))
		}
	}
	slices.Reverse(out.Coming) // the soonest first
	return out, nil
}

// Entries returns the tournaments of the account, newest first.
func (s *Service) Entries(ctx context.Context, account string, limit int) ([]protocol.TournamentEntry, error) {
	es, err := s.st.AccountTournaments(ctx, account, limit)
	if err != nil {
		return nil, err
	}
	out := make([]protocol.TournamentEntry, 0, len(es))
	for _, e := range es {
		out = append(out, protocol.TournamentEntry{ID: e.Tournament, Name: e.Name, Format: e.Format, Status: string(e.Status),
			Start: e.Starts.UTC(), Rank: e.Rank, Points: float64(e.Points) / 100, Players: e.People})
	}
	return out, nil
}

// EntriesOf returns the tournaments of the player called name, newest
// first; ErrNotFound when nobody is.
func (s *Service) EntriesOf(ctx context.Context, name string, limit int) ([]protocol.TournamentEntry, error) {
	a, err := s.st.AccountByKey(ctx, playername.Key(name))
	if errors.Is(err, store.ErrNoAccount) {
		return nil, refuse(ErrNotFound, "there is no player %q", name)
	}
	if err != nil {
		return nil, err
	}
	return s.Entries(ctx, a.ID, limit)
}

// nameOf returns the name of the account, "" when it is gone.
func (s *Service) nameOf(ctx context.Context, account string) string {
	a, err := s.st.Account(ctx, account)
	if err != nil {
		return ""
	}
	return a.Name
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

func (t *tour) summary(organiser string) protocol.TournamentSummary {
	players := t.entered()
	if t.rec.Players == nil { // a list's summary: counted by the store
		players = t.rec.People
	}
	start := t.rec.Starts
	if !t.st.Started.IsZero() {
		start = t.st.Started
	}
	return protocol.TournamentSummary{ID: t.rec.ID, Name: t.rec.Name, Format: t.set.Format, Status: string(t.rec.Status),
		Organiser: organiser, Start: timePtr(start), TableSize: t.set.TableSize, Pace: t.set.Pace, Rated: t.set.Rated,
		Private: t.rec.Private != nil, Rounds: t.set.Rounds, Minutes: t.set.Minutes, Round: t.st.Round,
		Players: players, Max: t.set.MaxPlayers}
}

// view builds what the page shows of t to viewer.
func (s *Service) view(ctx context.Context, t *tour, viewer string) protocol.Tournament {
	names := map[string]string{}
	for _, p := range t.rec.Players {
		names[p.Account] = p.Name
	}
	v := protocol.Tournament{TournamentSummary: t.summary(s.nameOf(ctx, t.rec.Organiser)), Version: t.rec.Version, Settings: t.set,
		Started: timePtr(t.st.Started), Ends: timePtr(t.st.Ends), Next: timePtr(t.st.Next), Paused: t.st.Paused,
		People: []protocol.TournamentPerson{}, Ranking: []protocol.TournamentLine{}, RoundsPlayed: []protocol.TournamentRound{},
		Organising: viewer != "" && viewer == t.rec.Organiser}
	v.Settings.Password = ""
	status := map[string]string{}
	for _, p := range t.rec.Players {
		status[p.Account] = p.Status
		if p.Status != protocol.PlayerRemoved {
			v.People = append(v.People, protocol.TournamentPerson{Name: p.Name, Rating: p.Rating, Status: p.Status})
		}
	}
	st := t.standings()
	points := t.tablePoints()
	for _, x := range st {
		line := protocol.TournamentLine{Rank: x.Rank, Name: names[x.ID], Points: t.shown(x), Games: x.Games, Wins: x.Wins,
			Score: x.Score, Fire: x.Fire, Sheet: make([]float64, len(x.Sheet)), Status: status[x.ID]}
		if t.format() == tournament.Duplicate {
			line.Points, line.Percent = math.Round(x.Points.Float()*100)/100, t.shown(x)
		}
		if t.format() == tournament.Swiss {
			line.Buchholz = x.Buchholz.Float()
		}
		for i, p := range x.Sheet {
			line.Sheet[i] = math.Round(p.Float()*100) / 100
		}
		if t.format() == tournament.Duplicate {
			line.Sheet = t.dealSheet(x.ID, points)
		}
		v.Ranking = append(v.Ranking, line)
	}
	v.RoundsPlayed = s.rounds(ctx, t, names, points)
	v.You = t.yours(viewer)
	return v
}

// yours is viewer's part in t: nil for a guest.
func (t *tour) yours(viewer string) *protocol.TournamentYou {
	if viewer == "" {
		return nil
	}
	i := t.player(viewer)
	if i < 0 {
		return &protocol.TournamentYou{}
	}
	you := &protocol.TournamentYou{Name: t.rec.Players[i].Name, Joined: true, Status: t.rec.Players[i].Status}
	if tb, ok := t.busy()[viewer]; ok && !tb.Created.IsZero() {
		you.Game = tb.Game
	}
	return you
}

// rounds describes the tables of every round, and the deals of the
// duplicate rounds that are over.
func (s *Service) rounds(ctx context.Context, t *tour, names map[string]string, points map[seatKey]float64) []protocol.TournamentRound {
	out := []protocol.TournamentRound{}
	for _, tb := range t.rec.Tables {
		if len(out) == 0 || out[len(out)-1].Number != tb.Round {
			out = append(out, protocol.TournamentRound{Number: tb.Round, Tables: []protocol.TournamentTable{}})
		}
		r := &out[len(out)-1]
		pt := protocol.TournamentTable{Index: tb.Index, Game: tb.Game, Deal: tb.Deal, Ready: !tb.Created.IsZero(), Over: tb.Result != nil}
		var res result
		if tb.Result != nil {
			json.Unmarshal(tb.Result, &res)
		}
		for seat, a := range tb.Seats {
			ts := protocol.TournamentSeat{Name: names[a], Bot: a == ""}
			if ts.Bot {
				ts.Name = "Bot"
			}
			if seat < len(res.Totals) {
				total := res.Totals[seat]
				ts.Total = &total
				ts.Forfeited = seat < len(res.Forfeited) && res.Forfeited[seat]
				if p, ok := points[seatKey{tb.Game, seat}]; ok {
					ts.Points = &p
				}
			}
			pt.Seats = append(pt.Seats, ts)
		}
		r.Tables = append(r.Tables, pt)
	}
	if t.format() == tournament.Duplicate {
		for i := range out {
			if t.roundOver(out[i].Number) {
				out[i].Deals = s.revealDeals(ctx, t, out[i].Number)
			}
		}
	}
	return out
}

// dealSheet is a duplicate player's matchpoints on each deal, in the
// order of the rounds.
func (t *tour) dealSheet(account string, points map[seatKey]float64) []float64 {
	out := []float64{}
	for _, tb := range t.rec.Tables {
		for seat, a := range tb.Seats {
			if p, ok := points[seatKey{tb.Game, seat}]; ok && a == account {
				out = append(out, p)
			}
		}
	}
	return out
}

type seatKey struct {
	game string
	seat int
}

// tablePoints returns what each person's seat of each finished table
// earned: its share (an arena's doubled, and doubled again on fire), or
// in a duplicate tournament its matchpoints.
func (t *tour) tablePoints() map[seatKey]float64 {
	out := map[seatKey]float64{}
	games := t.games()
	byGame := map[int]map[int]string{} // by round and table, the game
	for _, tb := range t.rec.Tables {
		if byGame[tb.Round] == nil {
			byGame[tb.Round] = map[int]string{}
		}
		byGame[tb.Round][tb.Index] = tb.Game
	}
	if t.format() == tournament.Duplicate {
		mp := tournament.DealMatchpoints(games)
		for _, g := range games {
			for seat, id := range g.Seats {
				if m, ok := mp[tournament.DealSeat{Deal: g.Deal, Seat: seat}][id]; ok {
					out[seatKey{byGame[g.Round][g.Table], seat}] = math.Round(m*100) / 100
				}
			}
		}
		return out
	}
	for _, e := range tournament.Sheets(t.format(), games) {
		out[seatKey{byGame[e.Round][e.Table], e.Seat}] = math.Round(e.Points.Float()*100) / 100
	}
	return out
}

type dealKey struct {
	tournament string
	deal       int
}

// revealDeals returns the deals of duplicate round r, which is over: the
// cheques and the cards in the order they came, from the table that drew
// the most.
func (s *Service) revealDeals(ctx context.Context, t *tour, r int) []protocol.TournamentDeal {
	var out []protocol.TournamentDeal
	seen := map[int]bool{}
	for _, tb := range t.rec.Tables {
		if tb.Round != r || seen[tb.Deal] {
			continue
		}
		seen[tb.Deal] = true
		k := dealKey{t.rec.ID, tb.Deal}
		s.mu.Lock()
		d, ok := s.deals[k]
		s.mu.Unlock()
		if !ok {
			var err error
			if d, err = s.readDeal(ctx, t, tb.Deal); err != nil {
				s.log.Warn("revealing a deal failed", "tournament", t.rec.ID, "deal", tb.Deal, "err", err)
				continue
			}
			s.mu.Lock()
			s.deals[k] = d
			s.mu.Unlock()
		}
		out = append(out, d)
	}
	return out
}

// readDeal reads a deal from the games of its tables.
func (s *Service) readDeal(ctx context.Context, t *tour, deal int) (protocol.TournamentDeal, error) {
	d := protocol.TournamentDeal{Deal: deal, Cards: []string{}}
	for _, tb := range t.rec.Tables {
		if tb.Deal != deal {
			continue
		}
		g, err := s.st.Game(ctx, tb.Game)
		if err != nil {
			return d, err
		}
		rec := &razzia.Record{Format: razzia.RecordFormat, Players: match.PlayerNames(g.Seats), Cheques: g.Cheques, Moves: g.Moves}
		game, err := rec.Game()
		if err != nil {
			return d, err
		}
		var cards []string
		for _, e := range game.Events() {
			if e.Kind == razzia.EventDraw {
				cards = append(cards, e.Card.String())
			}
		}
		if len(cards) >= len(d.Cards) {
			d.Cards = cards
		}
		d.Players, d.Cheques = len(g.Seats), g.Cheques
	}
	return d, nil
}

// gameCache remembers which tournament a game is a table of ("" for
// none): a game's answer never changes once the game exists, since a
// tournament stores its tables before it creates their games.
type gameCache struct {
	mu sync.Mutex
	m  map[string]string
}

const maxCachedGames = 1 << 14

func (c *gameCache) get(game string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	id, ok := c.m[game]
	return id, ok
}

func (c *gameCache) put(game, id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCachedGames {
		c.m = map[string]string{}
	}
	c.m[game] = id
}

// tournamentOf returns the tournament that game (which exists) is a
// table of, "" for none.
func (s *Service) tournamentOf(ctx context.Context, game string) (string, error) {
	if id, ok := s.games.get(game); ok {
		return id, nil
	}
	id, err := s.st.TournamentOfGame(ctx, game)
	if errors.Is(err, store.ErrNotFound) {
		id, err = "", nil
	}
	if err != nil {
		return "", err
	}
	s.games.put(game, id)
	return id, nil
}

// OfGame returns the tournament that game is a table of, as lists show
// it; nil when it is none's.
func (s *Service) OfGame(ctx context.Context, game string) (*protocol.TournamentSummary, error) {
	id, err := s.tournamentOf(ctx, game)
	if err != nil || id == "" {
		return nil, err
	}
	d, err := s.described(ctx, id)
	if err != nil {
		return nil, err
	}
	sum := d.view.TournamentSummary
	return &sum, nil
}

// Hidden reports whether game is a table of a duplicate round still
// played: nobody but its players may see it, since the other tables of
// the round hold the same deal.
func (s *Service) Hidden(ctx context.Context, game string) (bool, error) {
	id, err := s.tournamentOf(ctx, game)
	if err != nil || id == "" {
		return false, err
	}
	for try := 0; try < 2; try++ {
		d, err := s.described(ctx, id)
		if err != nil {
			return false, err
		}
		t := d.tour
		if t.format() != tournament.Duplicate {
			return false, nil
		}
		for _, tb := range t.rec.Tables {
			if tb.Game == game {
				return !t.roundOver(tb.Round), nil
			}
		}
		// A table newer than the description: read it anew.
		s.forget(id)
	}
	return true, nil // a table of the tournament it does not list: kept hidden
}

// GameOver is the Hub's OnFinish hook: it wakes the director of the
// tournament the game is a table of, wherever it runs.
func (s *Service) GameOver(ctx context.Context, f table.Finished) {
	id, err := s.tournamentOf(ctx, f.Game)
	if err != nil {
		s.log.Warn("finding a finished game's tournament failed", "game", f.Game, "err", err)
		return
	}
	if id != "" {
		s.announce(ctx, id)
	}
}
