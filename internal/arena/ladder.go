package arena

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/rating"
)

// DefaultDeals is the number of deals per table a LadderConfig with Deals
// 0 plays.
const DefaultDeals = 10

// LadderConfig describes a ladder: every table of Players bots drawn from
// Bots plays Deals duplicate deals (Config.Duplicate), each with the seats
// rotated through all positions, and the bots are rated from every game's
// finishing order.
type LadderConfig struct {
	Bots    []string // distinct bot specs, at least Players of them
	Players int      // seats per table, 2 to 5
	Deals   int      // deals per table; 0 means DefaultDeals
	// Span, when above 0, plays only the tables whose bots lie within
	// Span places of each other in Bots, listed weakest first: at Span 1
	// and 2 players, each bot meets its neighbours only. Games between
	// bots far apart, whose outcome is all but certain, teach the ratings
	// little, and a search's take hours.
	Span int
	// Cheap, when above 0, is how many of Bots, from the first, cost
	// little a game; the tables of those bots alone play CheapDeals
	// deals, the others Deals. A search's games can take hours a table,
	// while bots that never look ahead play thousands a second and need
	// many deals before their intervals part.
	Cheap      int
	CheapDeals int     // deals at a table of cheap bots alone, with Cheap
	Seed       uint64  // makes the ladder reproducible
	Workers    int     // games played at once; 0 means GOMAXPROCS
	New        Factory // makes the bots; nil means bot.New
	// Records, when set, is a directory to write every game's record to:
	// table i's in its subdirectory TableDir(i, tables), as Config.Records
	// writes them.
	Records string
	// Resume, with Records, reads a game whose record is there already
	// instead of playing it, as Config.Resume does: a ladder of hours,
	// stopped or killed, plays only the games it lacks when started again
	// with the same configuration, and rates as if it had never stopped.
	Resume bool
	// Progress, when set, is called after each finished game with the
	// games finished so far and the games in all; calls are never
	// concurrent.
	Progress func(done, total int)
}

// A Rung is one bot's place on the ladder.
type Rung struct {
	Spec   string        `json:"spec"`
	Rating rating.Rating `json:"rating"`
	// Ordinal is Rating.Ordinal(), the conservative skill the ladder is
	// sorted by; Low and High bound the 95% interval of the skill.
	Ordinal float64 `json:"ordinal"`
	Low     float64 `json:"low"`
	High    float64 `json:"high"`
	Games   int     `json:"games"`
	// Wins counts shared wins as fractions (R18); WinRate is Wins/Games,
	// whose fair value depends on the table size.
	Wins    float64 `json:"wins"`
	WinRate float64 `json:"win_rate"`
	// MeanScore is the bot's mean final total.
	MeanScore float64 `json:"mean_score"`
}

// LadderResult is the outcome of a ladder.
type LadderResult struct {
	Players int `json:"players"`
	Deals   int `json:"deals"`
	// Span, Cheap and CheapDeals are the configuration's: CheapTables
	// tables, of the first Cheap bots alone, played CheapDeals deals,
	// the others Deals.
	Span        int        `json:"span,omitempty"`
	Cheap       int        `json:"cheap,omitempty"`
	CheapDeals  int        `json:"cheap_deals,omitempty"`
	CheapTables int        `json:"cheap_tables,omitempty"`
	Tables      [][]string `json:"tables"` // the tables played, in the order of Tables
	Games       int        `json:"games"`
	// Resumed is the number of games read from their records (Resume)
	// instead of played; the decision times are of the others.
	Resumed int           `json:"resumed,omitempty"`
	Seed    uint64        `json:"seed"`
	Rungs   []Rung        `json:"rungs"` // the best first
	Elapsed time.Duration `json:"elapsed_ns"`
	// Runs holds each table's arena statistics (win rates, decision times),
	// in the order of Tables.
	Runs []*Result `json:"runs"`
}

// LadderModel is the rating model of the ladder: the OpenSkill defaults,
// without Tau, since a bot's skill does not change.
func LadderModel() rating.Model {
	m := rating.Default()
	m.Tau = 0
	return m
}

// Check validates the ladder's configuration, making every bot once.
func (c *LadderConfig) Check() error {
	if c.Players < razzia.MinPlayers || c.Players > razzia.MaxPlayers {
		return fmt.Errorf("a table of %d: Razzia is for %d to %d players", c.Players, razzia.MinPlayers, razzia.MaxPlayers)
	}
	if len(c.Bots) < c.Players {
		return fmt.Errorf("%d bots cannot fill a table of %d: a ladder needs at least as many bots as seats", len(c.Bots), c.Players)
	}
	for i, spec := range c.Bots {
		if slices.Contains(c.Bots[:i], spec) {
			return fmt.Errorf("bot %q is listed twice", spec)
		}
	}
	if c.Deals < 0 {
		return fmt.Errorf("%d deals: the number of deals cannot be negative", c.Deals)
	}
	if c.Span < 0 || c.Span > 0 && c.Span < c.Players-1 {
		return fmt.Errorf("a span of %d cannot seat %d players: the bots of a table lie at least %d places apart in the list", c.Span, c.Players, c.Players-1)
	}
	if err := c.checkCheap(); err != nil {
		return err
	}
	if c.Resume && c.Records == "" {
		return errors.New("resuming needs the directory of the records")
	}
	for _, t := range c.plan() {
		rc := Config{Seats: t.seats, New: c.New, Workers: c.Workers}
		if err := rc.Check(); err != nil {
			return err
		}
		c.New = rc.New
	}
	return nil
}

// checkCheap validates Cheap and CheapDeals.
func (c *LadderConfig) checkCheap() error {
	switch deals := cmp.Or(c.Deals, DefaultDeals); {
	case c.Cheap < 0 || c.Cheap > len(c.Bots):
		return fmt.Errorf("%d cheap bots: want 0 to the %d bots", c.Cheap, len(c.Bots))
	case c.Cheap > 0 && c.Cheap < c.Players:
		return fmt.Errorf("%d cheap bots cannot fill a table of %d: no table would play the cheap deals", c.Cheap, c.Players)
	case c.CheapDeals < 0:
		return fmt.Errorf("%d cheap deals: the number of deals cannot be negative", c.CheapDeals)
	case c.Cheap > 0 && c.CheapDeals == 0:
		return fmt.Errorf("%d cheap bots but no cheap deals: say how many deals their tables play", c.Cheap)
	case c.CheapDeals > 0 && c.Cheap == 0:
		return fmt.Errorf("%d cheap deals but no cheap bots: say how many of the bots, from the first, are cheap", c.CheapDeals)
	case c.CheapDeals > 0 && c.CheapDeals < deals:
		return fmt.Errorf("%d cheap deals, fewer than the %d of the other tables: cheap bots' tables play more deals, not fewer", c.CheapDeals, deals)
	}
	return nil
}

// A ladderTable is a table a ladder plays.
type ladderTable struct {
	index int // among every table of the bots (Tables): keys its deals and names its records' directory
	seats []string
	deals int
	cheap bool // its bots are all among the first Cheap
}

// plan returns the tables c plays, in the order of Tables: those within
// Span, each with its deals.
func (c *LadderConfig) plan() []ladderTable {
	var out []ladderTable
	for i, idx := range tableIndices(len(c.Bots), c.Players) {
		if c.Span > 0 && idx[len(idx)-1]-idx[0] > c.Span {
			continue
		}
		t := ladderTable{index: i, deals: cmp.Or(c.Deals, DefaultDeals), cheap: idx[len(idx)-1] < c.Cheap}
		if t.cheap {
			t.deals = c.CheapDeals
		}
		for _, j := range idx {
			t.seats = append(t.seats, c.Bots[j])
		}
		out = append(out, t)
	}
	return out
}

// Games returns the games the ladder plays in all.
func (c *LadderConfig) Games() int {
	n := 0
	for _, t := range c.plan() {
		n += t.deals * c.Players
	}
	return n
}

// Tables returns the tables of a ladder without Span: every choice of
// players bots from bots, in lexicographic order of their indices.
func Tables(bots []string, players int) [][]string {
	var out [][]string
	for _, idx := range tableIndices(len(bots), players) {
		t := make([]string, players)
		for i, j := range idx {
			t[i] = bots[j]
		}
		out = append(out, t)
	}
	return out
}

// tableIndices returns every choice of players indices below n, each
// ascending, in lexicographic order.
func tableIndices(n, players int) [][]int {
	var out [][]int
	idx := make([]int, players)
	for i := range idx {
		idx[i] = i
	}
	for {
		out = append(out, slices.Clone(idx))
		i := players - 1
		for i >= 0 && idx[i] == n-players+i {
			i--
		}
		if i < 0 {
			return out
		}
		idx[i]++
		for j := i + 1; j < players; j++ {
			idx[j] = idx[j-1] + 1
		}
	}
}

// RunLadder plays the ladder and rates the bots. The ratings depend on the
// configuration alone (bots limited by time excepted): the games are rated
// deal by deal, each deal's tables in order and each table's rotations in
// order, whatever order they finished in.
func RunLadder(ctx context.Context, c LadderConfig) (*LadderResult, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	if c.Deals == 0 {
		c.Deals = DefaultDeals
	}
	start := time.Now()
	res := &LadderResult{Players: c.Players, Deals: c.Deals, Span: c.Span, Cheap: c.Cheap, CheapDeals: c.CheapDeals, Seed: c.Seed}
	total, all := c.Games(), len(tableIndices(len(c.Bots), c.Players))
	for _, t := range c.plan() {
		table := t.seats
		res.Tables = append(res.Tables, table)
		if t.cheap {
			res.CheapTables++
		}
		rc := Config{
			Seats: table, Games: t.deals * c.Players, Seed: tableSeed(c.Seed, t.index),
			Workers: c.Workers, New: c.New, Duplicate: true, Resume: c.Resume,
		}
		if c.Records != "" {
			rc.Records = filepath.Join(c.Records, TableDir(t.index, all))
		}
		if c.Progress != nil {
			done := res.Games
			rc.Progress = func(n int) { c.Progress(done+n, total) }
		}
		r, err := Run(ctx, rc)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", table, err)
		}
		res.Games += r.Games
		res.Resumed += r.Resumed
		res.Runs = append(res.Runs, r)
	}
	rungs, err := rate(c, res.Runs)
	if err != nil {
		return nil, err
	}
	res.Rungs = rungs
	res.Elapsed = time.Since(start)
	return res, nil
}

// rate rates c's bots over the games of runs, deal by deal, each deal's
// tables in order and each table's rotations in order, and returns their
// rungs, the best first. Past the deals of the other tables, the tables
// of cheap bots go on alone.
func rate(c LadderConfig, runs []*Result) ([]Rung, error) {
	m := LadderModel()
	ratings := map[string]rating.Rating{}
	rungs := map[string]*Rung{}
	for _, spec := range c.Bots {
		ratings[spec] = m.New()
		rungs[spec] = &Rung{Spec: spec}
	}
	most := 0
	for _, r := range runs {
		most = max(most, len(r.Outcomes))
	}
	for g := range most {
		for _, r := range runs {
			if g >= len(r.Outcomes) {
				continue
			}
			if err := rateGame(m, r.Outcomes[g], ratings, rungs); err != nil {
				return nil, err
			}
		}
	}
	var out []Rung
	for _, spec := range c.Bots {
		rg := rungs[spec]
		rg.Rating = ratings[spec]
		rg.Ordinal = rg.Rating.Ordinal()
		rg.Low, rg.High = rg.Rating.Interval()
		if rg.Games > 0 {
			rg.WinRate = rg.Wins / float64(rg.Games)
			rg.MeanScore /= float64(rg.Games)
		}
		out = append(out, *rg)
	}
	slices.SortStableFunc(out, func(a, b Rung) int {
		switch {
		case a.Ordinal > b.Ordinal:
			return -1
		case a.Ordinal < b.Ordinal:
			return 1
		}
		return 0
	})
	return out, nil
}

// rateGame rates the bots of one game by model m, and adds the game to
// their rungs: a win shared among those ranked first.
func rateGame(m rating.Model, o Outcome, ratings map[string]rating.Rating, rungs map[string]*Rung) error {
	before := make([]rating.Rating, len(o.Seats))
	for s, spec := range o.Seats {
		before[s] = ratings[spec]
	}
	ranks := o.Ranks()
	after, err := m.Rate(before, ranks)
	if err != nil {
		return err
	}
	winners := 0
	for _, rk := range ranks {
		if rk == 1 {
			winners++
		}
	}
	for s, spec := range o.Seats {
		ratings[spec] = after[s]
		rg := rungs[spec]
		rg.Games++
		rg.MeanScore += float64(o.Totals[s])
		if ranks[s] == 1 {
			rg.Wins += 1 / float64(winners)
		}
	}
	return nil
}

// Timing returns the distribution of the time the bot took to decide,
// over all its tables.
func (r *LadderResult) Timing(spec string) Timing {
	var h histogram
	for _, run := range r.Runs {
		for i, b := range run.Bots {
			if b.Spec == spec {
				h.merge(&run.times[i])
			}
		}
	}
	return h.timing()
}

// TableDir returns the name of the subdirectory of a ladder's Records
// that holds the records of table i, from 0, of n: table-01 and so on, in
// the order of Tables.
func TableDir(i, n int) string {
	width := max(2, len(strconv.Itoa(max(n, 1))))
	return fmt.Sprintf("table-%0*d", width, i+1)
}

// tableSeed returns the run seed of table i of a ladder, keyed with the
// ladder's seed so that the tables' deals are unrelated.
func tableSeed(ladder uint64, i int) uint64 {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], ladder)
	return razzia.SeededRand(b[:], "ladder table "+strconv.Itoa(i)).Uint64()
}
