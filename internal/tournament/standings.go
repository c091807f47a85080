package tournament

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// Format is a kind of tournament.
type Format string

// The formats.
const (
	Swiss     Format = "swiss"
	Arena     Format = "arena"
	Duplicate Format = "duplicate"
)

// Formats lists the formats in the order they are offered.
var Formats = []Format{Swiss, Arena, Duplicate}

// Valid reports whether f is a known format.
func (f Format) Valid() bool { return slices.Contains(Formats, f) }

// A Game is a finished table of a tournament.
type Game struct {
	Round int // from 1; an arena's games have none
	Table int // from 1 within the round
	Deal  int // the deal of a duplicate table (Table.Deal)
	// Seats are the people by seat, "" for a bot's seat.
	Seats []string
	// Totals are the final totals by seat.
	Totals []int
	// Forfeited is, by seat, whether a bot stood in for the person.
	Forfeited []bool
	// Finished is when the game ended: an arena's streaks follow it.
	Finished time.Time
}

// A Standing is one person's line of the standings.
type Standing struct {
	ID   string
	Rank int // from 1; equal for people tied on every tie-break
	// Points are a Swiss tournament's sum of shares, or an arena's points
	// with its doubled games; a duplicate tournament's sum of
	// matchpoints.
	Points Points
	// Percent is, in a duplicate tournament, the average of the
	// matchpoints of the person's deals, as a percentage.
	Percent float64
	// Buchholz is, in a Swiss tournament, the sum of the points of every
	// opponent of every game (a bot counts none).
	Buchholz Points
	Games    int // games finished
	Wins     int // games won alone
	Score    int // the sum of the final totals of their games
	// Fire is, in an arena, whether the person won their last two games:
	// their next game scores double.
	Fire bool
	// Sheet is the points of each game in the order played (an arena's
	// doubled games doubled).
	Sheet []Points
	// Order is the person's place in the list the standings were made
	// from (who joined first): the last tie-break.
	Order int

	lastWon bool
	share   Points // the sum of shares
	deals   int
}

// A SheetEntry is what one seat of one finished game earned its person.
type SheetEntry struct {
	Round, Table, Seat int
	ID                 string
	Points             Points // the share; an arena's doubled, and doubled again on fire
	Won                bool
	Fire               bool // the person was on fire when the game began
}

// Sheets returns what every person's seat of every game earned, in the
// order the games finished (by round and table when at one time). Bots'
// seats are left out.
func Sheets(f Format, games []Game) []SheetEntry {
	sorted := slices.Clone(games)
	slices.SortStableFunc(sorted, func(a, b Game) int {
		return cmp.Or(a.Finished.Compare(b.Finished), a.Round-b.Round, a.Table-b.Table)
	})
	won := map[string][]bool{} // each person's games won, in order
	var out []SheetEntry
	for _, g := range sorted {
		shares := Shares(g.Totals, g.Forfeited)
		for seat, id := range g.Seats {
			if id == "" {
				continue
			}
			e := SheetEntry{Round: g.Round, Table: g.Table, Seat: seat, ID: id, Points: shares[seat], Won: Won(g.Totals, g.Forfeited, seat)}
			if f == Arena {
				w := won[id]
				e.Fire = len(w) >= 2 && w[len(w)-1] && w[len(w)-2]
				e.Points *= 2
				if e.Fire {
					e.Points *= 2
				}
			}
			won[id] = append(won[id], e.Won)
			out = append(out, e)
		}
	}
	return out
}

// Standings returns the standings of the people ids (bots are never
// ranked) after the finished games, best first. The tie-breaks, in
// order:
//
//   - Swiss: points, Buchholz, games won, the sum of final totals.
//   - Arena: points, the average share (performance), games won.
//   - Duplicate: the average matchpoints, the number of deals played,
//     the sum of final totals.
//
// People still equal share a rank, and are listed in the order of ids.
func Standings(f Format, ids []string, games []Game) []Standing {
	by := make(map[string]*Standing, len(ids))
	out := make([]Standing, len(ids))
	for i, id := range ids {
		out[i] = Standing{ID: id, Order: i}
		by[id] = &out[i]
	}
	totals := map[[2]int][]int{} // by round and table
	for _, g := range games {
		totals[[2]int{g.Round, g.Table}] = g.Totals
	}
	for _, e := range Sheets(f, games) {
		s := by[e.ID]
		if s == nil {
			continue
		}
		s.Games++
		s.Score += totals[[2]int{e.Round, e.Table}][e.Seat]
		if e.Won {
			s.Wins++
		}
		s.Sheet = append(s.Sheet, e.Points)
		share := e.Points
		if f == Arena {
			share /= 2
			if e.Fire {
				share /= 2
			}
		}
		s.share += share
		s.Fire = f == Arena && e.Won && s.lastWon
		s.lastWon = e.Won
		if f != Duplicate {
			s.Points += e.Points
		}
	}
	switch f {
	case Swiss:
		for _, g := range games {
			for seat, id := range g.Seats {
				s := by[id]
				if s == nil {
					continue
				}
				for o, other := range g.Seats {
					if o != seat && by[other] != nil {
						s.Buchholz += by[other].Points
					}
				}
			}
		}
	case Duplicate:
		mp := Matchpoints(games)
		for id, m := range mp {
			if s := by[id]; s != nil && m.Deals > 0 {
				s.Points = Points(math.Round(m.Sum * float64(Point)))
				s.Percent = 100 * m.Sum / float64(m.Deals)
				s.deals = m.Deals
			}
		}
	}
	key := func(a, b *Standing) int {
		switch f {
		case Swiss:
			return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(b.Buchholz, a.Buchholz),
				cmp.Compare(b.Wins, a.Wins), cmp.Compare(b.Score, a.Score))
		case Arena:
			return cmp.Or(cmp.Compare(b.Points, a.Points), compareRatio(b.share, b.Games, a.share, a.Games),
				cmp.Compare(b.Wins, a.Wins))
		default:
			return cmp.Or(cmp.Compare(round9(b.Percent), round9(a.Percent)), cmp.Compare(b.deals, a.deals),
				cmp.Compare(b.Score, a.Score))
		}
	}
	slices.SortStableFunc(out, func(a, b Standing) int { return cmp.Or(key(&a, &b), a.Order-b.Order) })
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && key(&out[i-1], &out[i]) == 0 {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}

// compareRatio compares a/an with b/bn exactly (an empty record as 0).
func compareRatio(a Points, an int, b Points, bn int) int {
	if an == 0 || bn == 0 {
		return cmp.Compare(min(an, 1)*int(a), min(bn, 1)*int(b))
	}
	return cmp.Compare(int64(a)*int64(bn), int64(b)*int64(an))
}

func round9(x float64) float64 { return math.Round(x*1e9) / 1e9 }

// A Matchpoint is one person's matchpoints in a duplicate tournament:
// their sum and the number of deals that count.
type Matchpoint struct {
	Sum   float64
	Deals int
}

// A DealSeat names one seat of one deal.
type DealSeat struct {
	Deal, Seat int
}

// Matchpoints returns each person's matchpoints over the duplicate games:
// on a deal, a person's result is compared with every other result at the
// same seat of the same deal, bots' included, and scores the share of
// them it beat, ties counting half (1 for the best result alone, 0 for
// the worst alone). A result beats another by a greater final total; the
// result of a person a bot stood in for loses to every other and ties
// with those of the others a bot stood in for. A deal nobody else held
// the seat of counts for nothing.
func Matchpoints(games []Game) map[string]Matchpoint {
	out := map[string]Matchpoint{}
	for _, by := range DealMatchpoints(games) {
		for id, mp := range by {
			m := out[id]
			m.Sum += mp
			m.Deals++
			out[id] = m
		}
	}
	return out
}

// DealMatchpoints returns, for each seat of each deal, each person's
// matchpoints there (see Matchpoints), 0 to 1.
func DealMatchpoints(games []Game) map[DealSeat]map[string]float64 {
	type result struct {
		id        string
		total     int
		forfeited bool
	}
	pools := map[DealSeat][]result{}
	for _, g := range games {
		for seat, id := range g.Seats {
			k := DealSeat{g.Deal, seat}
			pools[k] = append(pools[k], result{id, g.Totals[seat], at(g.Forfeited, seat)})
		}
	}
	out := map[DealSeat]map[string]float64{}
	for k, pool := range pools {
		if len(pool) < 2 {
			continue
		}
		for i, r := range pool {
			if r.id == "" {
				continue
			}
			var score float64
			for j, o := range pool {
				if i == j {
					continue
				}
				switch c := compareResult(r.total, r.forfeited, o.total, o.forfeited); {
				case c > 0:
					score++
				case c == 0:
					score += 0.5
				}
			}
			if out[k] == nil {
				out[k] = map[string]float64{}
			}
			out[k][r.id] = score / float64(len(pool)-1)
		}
	}
	return out
}

func compareResult(a int, af bool, b int, bf bool) int {
	switch {
	case af && bf:
		return 0
	case af:
		return -1
	case bf:
		return 1
	}
	return cmp.Compare(a, b)
}
