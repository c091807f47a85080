package arena

import (
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/razziagame/razzia"
)

// Result is the outcome of a run.
type Result struct {
	Games   int      `json:"games"`
	Players int      `json:"players"`
	Seed    uint64   `json:"seed"`
	Seats   []string `json:"seats"` // the lineup of the first game
	// Balanced reports whether every bot sat in every position equally
	// often: the number of games is a multiple of the number of players.
	Balanced   bool       `json:"balanced"`
	Bots       []BotStats `json:"bots"` // by distinct spec, in order of first seat
	HeadToHead []Pairing  `json:"head_to_head"`
	// Elapsed is the wall time of the run; it and the decision times vary
	// from run to run, everything else is fixed by the configuration.
	Elapsed time.Duration `json:"elapsed_ns"`
	// Resumed is the number of games read from their records instead of
	// played (Config.Resume): the decision times are of the others.
	Resumed int `json:"resumed,omitempty"`
	// Outcomes holds every game's outcome, in game order.
	Outcomes []Outcome `json:"-"`

	times []histogram // by bot, for merging runs
}

// GamesPerSecond returns the rate the run played at.
func (r *Result) GamesPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Games) / r.Elapsed.Seconds()
}

// BotStats is how one bot spec did over all the seats it held.
type BotStats struct {
	Spec string `json:"spec"`
	// Seats is the number of seats the spec holds in every game.
	Seats int `json:"seats"`
	// Games counts seat-games: games times Seats.
	Games int `json:"games"`
	// Wins counts the games won; a win shared by k seats counts 1/k (R18).
	Wins float64 `json:"wins"`
	// WinRate is Wins/Games, with the 95% Wilson score interval
	// [WinLow, WinHigh]. A bot as strong as the others wins 1/Players.
	WinRate float64 `json:"win_rate"`
	WinLow  float64 `json:"win_low"`
	WinHigh float64 `json:"win_high"`
	// MeanScore is the mean final total; MeanByCategory splits it by
	// scoring category, summed over the three rounds.
	MeanScore      float64    `json:"mean_score"`
	MeanByCategory Categories `json:"mean_by_category"`
	// Decisions is the distribution of the time Choose took.
	Decisions Timing `json:"decisions"`
	// Faults counts the decisions an external bot lost (it crashed, hung
	// or answered an illegal move) and a default move was played for.
	Faults int `json:"faults"`
}

// Categories holds one number per scoring category. It encodes to JSON as
// an object keyed by the category names of the replay output, in order.
type Categories [razzia.NumCategories]float64

// MarshalJSON encodes c as {"thieves": ..., ..., "cheques": ...}.
func (c Categories) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, v := range c {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, "%q:", razzia.Category(i).String())
		enc, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		b = append(b, enc...)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON decodes the form MarshalJSON writes.
func (c *Categories) UnmarshalJSON(b []byte) error {
	var m map[string]float64
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	for i := range c {
		c[i] = m[razzia.Category(i).String()]
	}
	return nil
}

// Pairing compares two bots over every pair of seats they held in the same
// game: A finished ahead of B (higher total), behind, or level.
type Pairing struct {
	A        string `json:"a"`
	B        string `json:"b"`
	Meetings int    `json:"meetings"`
	AheadA   int    `json:"ahead_a"`
	AheadB   int    `json:"ahead_b"`
	Level    int    `json:"level"`
}

// Rate returns the share of meetings A finished ahead of B, a level finish
// counting one half.
func (p Pairing) Rate() float64 {
	if p.Meetings == 0 {
		return 0
	}
	return (float64(p.AheadA) + float64(p.Level)/2) / float64(p.Meetings)
}

// Wilson returns the 95% Wilson score interval for a proportion of wins
// out of n trials.
//
// Why Wilson rather than the textbook p ± 1.96·sqrt(p(1-p)/n) (Wald): bot
// win rates are often near 0 or 1 (a strong bot against a random one), and
// runs are often short, which is where Wald fails: it shrinks to a zero
// width at 0 or 1 wins and spills outside [0, 1]. Wilson keeps close to
// the nominal 95% coverage there and stays inside [0, 1]. Shared wins make
// wins fractional, which the formula takes as it is. It treats seat-games
// as independent, which they are not quite when a spec holds several
// seats of one game (only one of them can win alone); the interval is then
// a little wide, never narrow.
func Wilson(wins float64, n int) (low, high float64) {
	if n <= 0 {
		return 0, 1
	}
	const z = 1.959963984540054 // the 97.5% quantile of the normal distribution
	nf := float64(n)
	p := wins / nf
	z2n := z * z / nf
	centre := (p + z2n/2) / (1 + z2n)
	half := z / (1 + z2n) * math.Sqrt(p*(1-p)/nf+z2n/(4*nf))
	return max(0, centre-half), min(1, centre+half)
}

// unitsPerWin is the least common multiple of 1..MaxPlayers: counting wins
// in these units keeps a win shared by any number of seats exact, and
// integer sums do not depend on the order the games finish in, so the
// statistics are the same bit for bit however the games were scheduled.
const unitsPerWin = 60

// tally accumulates outcomes.
type tally struct {
	specs     []string
	index     map[string]int
	seats     []int // seats per game, by bot
	players   int
	games     int
	resumed   int
	seatGames []int64
	winUnits  []int64
	scoreSum  []int64
	faults    []int
	catSum    [][razzia.NumCategories]int64
	pairs     [][]pairCount // [a][b] for a < b

	mu    sync.Mutex
	times [][]*histogram // by worker, then bot
}

type pairCount struct{ meetings, aheadA, aheadB, level int }

func newTally(seats []string) *tally {
	t := &tally{index: map[string]int{}, players: len(seats)}
	for _, spec := range seats {
		i, ok := t.index[spec]
		if !ok {
			i = len(t.specs)
			t.index[spec] = i
			t.specs = append(t.specs, spec)
			t.seats = append(t.seats, 0)
		}
		t.seats[i]++
	}
	k := len(t.specs)
	t.seatGames = make([]int64, k)
	t.winUnits = make([]int64, k)
	t.scoreSum = make([]int64, k)
	t.faults = make([]int, k)
	t.catSum = make([][razzia.NumCategories]int64, k)
	t.pairs = make([][]pairCount, k)
	for a := range t.pairs {
		t.pairs[a] = make([]pairCount, k)
	}
	return t
}

func (t *tally) add(o *outcome) {
	t.games++
	if o.resumed {
		t.resumed++
	}
	totals := make([]int, len(o.bots))
	for s, b := range o.bots {
		t.seatGames[b]++
		for c, v := range o.scores[s] {
			t.catSum[b][c] += int64(v)
		}
		totals[s] = o.scores[s].Total()
		t.scoreSum[b] += int64(totals[s])
		if s < len(o.faults) {
			t.faults[b] += len(o.faults[s])
		}
	}
	for _, s := range o.winners {
		t.winUnits[o.bots[s]] += int64(unitsPerWin / len(o.winners))
	}
	for s := range o.bots {
		for u := s + 1; u < len(o.bots); u++ {
			a, b, ta, tb := o.bots[s], o.bots[u], totals[s], totals[u]
			if a == b {
				continue
			}
			if a > b {
				a, b, ta, tb = b, a, tb, ta
			}
			p := &t.pairs[a][b]
			p.meetings++
			switch {
			case ta > tb:
				p.aheadA++
			case ta < tb:
				p.aheadB++
			default:
				p.level++
			}
		}
	}
}

func (t *tally) result(c *Config, elapsed time.Duration) *Result {
	r := &Result{
		Games:    t.games,
		Players:  t.players,
		Seed:     c.Seed,
		Seats:    append([]string(nil), c.Seats...),
		Balanced: t.games%t.players == 0,
		Resumed:  t.resumed,
		Elapsed:  elapsed,
		// Empty rather than null in JSON with a single bot.
		HeadToHead: []Pairing{},
	}
	for b, spec := range t.specs {
		st := BotStats{Spec: spec, Seats: t.seats[b], Games: int(t.seatGames[b]), Faults: t.faults[b]}
		st.Wins = float64(t.winUnits[b]) / unitsPerWin
		if st.Games > 0 {
			n := float64(st.Games)
			st.WinRate = st.Wins / n
			st.MeanScore = float64(t.scoreSum[b]) / n
			for cat, v := range t.catSum[b] {
				st.MeanByCategory[cat] = float64(v) / n
			}
		}
		st.WinLow, st.WinHigh = Wilson(st.Wins, st.Games)
		var h histogram
		for _, w := range t.times {
			h.merge(w[b])
		}
		st.Decisions = h.timing()
		r.Bots = append(r.Bots, st)
		r.times = append(r.times, h)
	}
	for a := range t.specs {
		for b := a + 1; b < len(t.specs); b++ {
			p := t.pairs[a][b]
			r.HeadToHead = append(r.HeadToHead, Pairing{
				A: t.specs[a], B: t.specs[b],
				Meetings: p.meetings, AheadA: p.aheadA, AheadB: p.aheadB, Level: p.level,
			})
		}
	}
	return r
}
