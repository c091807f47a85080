package razzia

import (
	"encoding/json"
	"slices"
	"strconv"
)

// A Category is one line of the score table (R16, R17).
type Category uint8

// The scoring categories, in the order of the score table.
const (
	CategoryThieves Category = iota
	CategoryBodyguards
	CategoryCars
	CategoryJewels
	CategoryGold
	CategoryBusinesses
	CategoryCheques
	NumCategories = iota
)

var categoryNames = [NumCategories]string{"thieves", "bodyguards", "cars", "jewels", "gold", "businesses", "cheques"}

// String returns the category's name in the record's replay output, such as "cars".
func (c Category) String() string {
	if c < NumCategories {
		return categoryNames[c]
	}
	return "?"
}

// tally is a round's points by category; int8 keeps State small.
type tally [NumCategories]int8

// A Score is what one seat scored at the end of one round, by category.
// Businesses and cheques score in round 3 only (R17).
type Score [NumCategories]int

// Total returns the sum of the categories.
func (s Score) Total() int {
	t := 0
	for _, v := range s {
		t += v
	}
	return t
}

// MarshalJSON encodes the score as the replay output does: one field per
// category and the total.
func (s Score) MarshalJSON() ([]byte, error) {
	// Appended by hand: it is encoded in every state sent to a player.
	b := make([]byte, 0, 128)
	b = append(b, '{')
	for c := range NumCategories {
		b = append(b, '"')
		b = append(b, categoryNames[c]...)
		b = append(b, `":`...)
		b = strconv.AppendInt(b, int64(s[c]), 10)
		b = append(b, ',')
	}
	b = append(b, `"total":`...)
	b = strconv.AppendInt(b, int64(s.Total()), 10)
	return append(b, '}'), nil
}

// UnmarshalJSON decodes the replay output's form of a score.
func (s *Score) UnmarshalJSON(b []byte) error {
	var m map[string]int
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	for c := range NumCategories {
		s[c] = m[categoryNames[c]]
	}
	return nil
}

func (t tally) score() Score {
	var s Score
	for i, v := range t {
		s[i] = int(v)
	}
	return s
}

// ScoredRounds returns how many rounds have been scored.
func (s *State) ScoredRounds() int {
	if s.phase == PhaseOver {
		return Rounds
	}
	return int(s.round) - 1
}

// Scores returns what each seat scored at the end of round r (1..3), one
// Score per player, or nil for a round not scored yet.
func (s *State) Scores(r int) []Score {
	if r < 1 || r > s.ScoredRounds() {
		return nil
	}
	out := make([]Score, s.players)
	for i := range out {
		out[i] = s.scores[r-1][i].score()
	}
	return out
}

// RoundScore is Scores(r)[seat] without the list, which a server would
// make at every change: the zero Score for a round not scored yet or a
// seat the game does not have.
func (s *State) RoundScore(r, seat int) Score {
	if r < 1 || r > s.ScoredRounds() || seat < 0 || seat >= int(s.players) {
		return Score{}
	}
	return s.scores[r-1][seat].score()
}

// Totals returns each seat's points summed over the rounds scored so far,
// one total per player.
func (s *State) Totals() []int {
	t := make([]int, s.players)
	for i := range t {
		t[i] = s.Total(i)
	}
	return t
}

// Total returns the seat's points summed over the rounds scored so far, or
// 0 for a seat the game does not have. Unlike Totals it allocates nothing,
// for bots that score many finished games.
func (s *State) Total(seat int) int {
	if seat < 0 || seat >= int(s.players) {
		return 0
	}
	t := 0
	for r := range Rounds {
		for _, v := range s.scores[r][seat] {
			t += int(v)
		}
	}
	return t
}

// Winners returns the seats with the highest total once the game is over,
// several on a tie (R18), and nil before.
func (s *State) Winners() []int {
	if s.phase != PhaseOver {
		return nil
	}
	t := s.Totals()
	best := slices.Max(t)
	var w []int
	for i, v := range t {
		if v == best {
			w = append(w, i)
		}
	}
	return w
}

// Projected returns what each seat would score if the round ended now, one
// Score per player: the round's end as R16 (and in round 3 R17) would score it.
func (s *State) Projected() []Score {
	t := s.roundTallies(s.round == Rounds)
	out := make([]Score, s.players)
	for i := range out {
		out[i] = t[i].score()
	}
	return out
}

func (s *State) roundTallies(final bool) [MaxPlayers]tally {
	h, c := s.table()
	return scoreRound(int(s.players), &h, &c, final)
}

// ScoreRound scores a round's end for the players' holdings and cheques,
// one Score per seat of holdings (R16; with final, the round-3 categories
// of R17 too, which need each seat's cheques: a missing seat in cheques
// holds none). Bots use it to value holdings that might be. It returns nil
// for fewer than MinPlayers or more than MaxPlayers seats.
func ScoreRound(holdings []Holdings, cheques []Cheques, final bool) []Score {
	n := len(holdings)
	if n < MinPlayers || n > MaxPlayers {
		return nil
	}
	var h [MaxPlayers]Holdings
	var c [MaxPlayers]Cheques
	copy(h[:], holdings)
	copy(c[:n], cheques)
	t := scoreRound(n, &h, &c, final)
	out := make([]Score, n)
	for i := range out {
		out[i] = t[i].score()
	}
	return out
}

var jewelPoints = [...]int8{-5, 0, 0, 5, 10, 15}

func scoreRound(players int, holdings *[MaxPlayers]Holdings, cheques *[MaxPlayers]Cheques, final bool) [MaxPlayers]tally {
	var t [MaxPlayers]tally
	var guards, sums [MaxPlayers]int
	for i := range players {
		h := &holdings[i]
		t[i][CategoryThieves] = int8(2 * h[Thief])
		if h[Driver] > 0 {
			t[i][CategoryCars] = int8(h[Car] + h[Driver])
		}
		kinds := 0
		for _, k := range Jewels {
			if h[k] > 0 {
				kinds++
			}
		}
		t[i][CategoryJewels] = jewelPoints[kinds]
		t[i][CategoryGold] = int8(3 * h[Gold])
		guards[i] = int(h[Bodyguard])
		if final {
			t[i][CategoryBusinesses] = int8(h.BusinessPoints())
			sums[i] = cheques[i].Sum()
		}
	}
	majority(t[:players], guards[:players], CategoryBodyguards, 5, -2)
	if final {
		majority(t[:players], sums[:players], CategoryCheques, 5, -5)
	}
	return t
}

// majority scores most and fewest (R16 bodyguards, R17 cheques): ties all
// score, and when everybody is equal nobody does.
func majority(t []tally, counts []int, c Category, most, fewest int8) {
	hi, lo := slices.Max(counts), slices.Min(counts)
	if hi == lo {
		return
	}
	for i, n := range counts {
		switch n {
		case hi:
			t[i][c] = most
		case lo:
			t[i][c] = fewest
		}
	}
}

// BusinessPoints scores the holdings' businesses as round 3 does (R17):
// distinct kinds 1..6 score 1..6 and all 7 score 10; each kind held 3 times
// scores 5 more, 4 times 10 more.
func (h *Holdings) BusinessPoints() int {
	kinds, pts := 0, 0
	for _, k := range Businesses {
		switch n := h[k]; {
		case n >= 4:
			pts += 10
		case n == 3:
			pts += 5
		}
		if h[k] > 0 {
			kinds++
		}
	}
	if kinds == len(Businesses) {
		return pts + 10
	}
	return pts + kinds
}
