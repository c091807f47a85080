package rating

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

// TestRateOpenSkill checks Rate against values published by openskill.js
// (src/models/__tests__/plackett-luce.test.ts without Tau, and
// src/__tests__/rate.test.ts, whose rate adds the default Tau of 25/300).
func TestRateOpenSkill(t *testing.T) {
	noTau := Default()
	noTau.Tau = 0
	fresh := Default().New()
	r := func(mu, sigma float64) Rating { return Rating{mu, sigma} }
	w, x, y, z := r(15, 25.0/3), r(20, 25.0/3), r(25, 25.0/3), r(30, 25.0/3)
	a, b, c := r(29.182, 4.782), r(27.174, 4.922), r(16.672, 6.217)
	tests := []struct {
		name    string
		model   Model
		ratings []Rating
		ranks   []int
		want    []Rating
	}{
		{"2p FFA", noTau, []Rating{fresh, fresh}, []int{1, 2},
			[]Rating{{27.63523138347365, 8.065506316323548}, {22.36476861652635, 8.065506316323548}}},
		{"3p FFA", noTau, []Rating{fresh, fresh, fresh}, []int{1, 2, 3},
			[]Rating{{27.868876552746237, 8.204837030780652}, {25.717219138186557, 8.057829747583874}, {21.413904309067206, 8.057829747583874}}},
		{"4p FFA", noTau, []Rating{fresh, fresh, fresh, fresh}, []int{1, 2, 3, 4},
			[]Rating{{27.795084971874736, 8.263160757613477}, {26.552824984374855, 8.179213704945203},
				{24.68943500312503, 8.083731307186588}, {20.96265504062538, 8.083731307186588}}},
		{"5p FFA", noTau, []Rating{fresh, fresh, fresh, fresh, fresh}, []int{1, 2, 3, 4, 5},
			[]Rating{{27.666666666666668, 8.290556877154474}, {26.833333333333332, 8.240145629781066},
				{25.72222222222222, 8.179996679645559}, {24.055555555555557, 8.111796013701358}, {20.72222222222222, 8.111796013701358}}},
		{"4p with tau", Default(), []Rating{a, b, c, fresh}, []int{1, 2, 3, 4},
			[]Rating{{30.210227447000438, 4.765617924939384}, {27.644725221915632, 4.883479590134575},
				{17.4036218889969, 6.101259408259549}, {19.21460876538932, 7.854669920480409}}},
		{"4p with tau 0.01", Model{25, 25.0 / 3, 25.0 / 6, 0.0001, 0.01}, []Rating{a, b, c, fresh}, []int{1, 2, 3, 4},
			[]Rating{{30.20997558824299, 4.764909330988368}, {27.64461002009721, 4.882799245921361},
				{17.403587237635527, 6.100731158882956}, {19.21478808745494, 7.854267281042293}}},
		{"reversed ranks", Default(), []Rating{fresh, fresh}, []int{2, 1},
			[]Rating{{22.364610506859503, 8.06590141354368}, {27.635389493140497, 8.06590141354368}}},
		{"misordered ranks", Default(), []Rating{fresh, fresh, fresh, fresh}, []int{2, 1, 4, 3},
			[]Rating{{26.55291815138952, 8.17961798837266}, {27.795252672501135, 8.263571791259416},
				{20.962412806387245, 8.084127880168786}, {24.689416369722096, 8.084127880168786}}},
		{"rank ordering", Default(), []Rating{w, x, y, z}, []int{1, 3, 4, 2},
			[]Rating{{18.131120980297805, 8.283536573151807}, {20.405169039419135, 8.107860440531121},
				{20.65583040714804, 8.082574596348321}, {30.80787957313502, 8.155100416275928}}},
		{"tie for second", Default(), []Rating{{10, 8}, {5, 10}, {0, 12}}, []int{1, 2, 2},
			[]Rating{{11.942996666741225, 7.926888197620324}, {2.9381178546315034, 9.653804487570165}, {-1.4024317012198733, 11.323641575516767}}},
		{"tie for second, reordered", Default(), []Rating{{5, 10}, {0, 12}, {10, 8}}, []int{2, 2, 1},
			[]Rating{{2.9381178546315034, 9.653804487570165}, {-1.4024317012198733, 11.323641575516767}, {11.942996666741225, 7.926888197620324}}},
		{"four-way tie", Default(), []Rating{fresh, fresh, fresh, fresh}, []int{1, 1, 1, 1},
			[]Rating{{25, 8.263571791259416}, {25, 8.263571791259416}, {25, 8.263571791259416}, {25, 8.263571791259416}}},
		{"three-way tie", Default(), []Rating{fresh, fresh, fresh}, []int{3, 3, 3},
			[]Rating{{25, 8.205243377397993}, {25, 8.205243377397993}, {25, 8.205243377397993}}},
		{"ties out of order", Default(), []Rating{w, x, y, z}, []int{2, 4, 2, 1},
			[]Rating{{15.340043358359136, 8.213141619804967}, {18.007678675484204, 8.189033933813437},
				{24.25801928251219, 8.166918055585525}, {32.39425868364447, 8.247687230833794}}},
		{"tau 0.3", Model{25, 25.0 / 3, 25.0 / 6, 0.0001, 0.3}, []Rating{{25, 3}, {25, 3}}, []int{1, 2},
			[]Rating{{25.624880438870754, 2.9879993738476953}, {24.375119561129246, 2.9879993738476953}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.model.Rate(tt.ratings, tt.ranks)
			if err != nil {
				t.Fatal(err)
			}
			for i := range tt.want {
				if !close(got[i].Mu, tt.want[i].Mu) || !close(got[i].Sigma, tt.want[i].Sigma) {
					t.Errorf("player %d: got %+v, want %+v", i+1, got[i], tt.want[i])
				}
			}
		})
	}
}

// close reports whether a and b agree to 1e-12 relative: the published
// values come from another language's floating point.
func close(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

func TestRateErrors(t *testing.T) {
	m := Default()
	fresh := m.New()
	tests := []struct {
		name    string
		ratings []Rating
		ranks   []int
	}{
		{"one player", []Rating{fresh}, []int{1}},
		{"no players", nil, nil},
		{"ranks missing", []Rating{fresh, fresh}, []int{1}},
		{"NaN mu", []Rating{{math.NaN(), 8}, fresh}, []int{1, 2}},
		{"infinite mu", []Rating{{math.Inf(1), 8}, fresh}, []int{1, 2}},
		{"zero sigma", []Rating{{25, 0}, fresh}, []int{1, 2}},
		{"negative sigma", []Rating{{25, -1}, fresh}, []int{1, 2}},
		{"NaN sigma", []Rating{{25, math.NaN()}, fresh}, []int{1, 2}},
		{"too many", make([]Rating, MaxPlayers+1), make([]int, MaxPlayers+1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := fmt.Sprint(tt.ratings)
			got, err := m.Rate(tt.ratings, tt.ranks)
			if !errors.Is(err, ErrGame) || got != nil {
				t.Errorf("got %v, %v; want an error wrapping ErrGame", got, err)
			}
			if fmt.Sprint(tt.ratings) != before {
				t.Error("the ratings were changed")
			}
		})
	}
}

// TestRateProperties checks what any game must do: a winner's Mu rises and
// a loser's falls, Sigmas shrink without Tau, ranks only count by order,
// and the same game gives the same ratings bit for bit.
func TestRateProperties(t *testing.T) {
	m := Default()
	m.Tau = 0
	for n := 2; n <= 5; n++ {
		ratings := make([]Rating, n)
		ranks := make([]int, n)
		scaled := make([]int, n)
		for i := range ratings {
			ratings[i] = Rating{20 + 3*float64(i), 5 + float64(i)}
			ranks[i] = i + 1
			scaled[i] = 10 * (i + 1)
		}
		got, err := m.Rate(ratings, ranks)
		if err != nil {
			t.Fatal(err)
		}
		if got[0].Mu <= ratings[0].Mu || got[n-1].Mu >= ratings[n-1].Mu {
			t.Errorf("%d players: first %v -> %v, last %v -> %v", n, ratings[0], got[0], ratings[n-1], got[n-1])
		}
		for i := range got {
			if got[i].Sigma >= ratings[i].Sigma {
				t.Errorf("%d players: player %d's sigma grew: %v -> %v", n, i+1, ratings[i].Sigma, got[i].Sigma)
			}
		}
		again, _ := m.Rate(ratings, scaled)
		for i := range got {
			if again[i] != got[i] {
				t.Errorf("%d players: ranks 10, 20, ... gave %v, ranks 1, 2, ... %v", n, again[i], got[i])
			}
		}
	}
}

func ExampleModel_Rate() {
	m := Default()
	ann, bob, cy := m.New(), m.New(), m.New()
	// Ann won; Bob and Cy tied for second.
	after, err := m.Rate([]Rating{ann, bob, cy}, []int{1, 2, 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, name := range []string{"Ann", "Bob", "Cy"} {
		fmt.Printf("%s: mu %.2f sigma %.2f ordinal %.2f\n", name, after[i].Mu, after[i].Sigma, after[i].Ordinal())
	}
	// Output:
	// Ann: mu 27.87 sigma 8.21 ordinal 3.25
	// Bob: mu 23.57 sigma 8.06 ordinal -0.61
	// Cy: mu 23.57 sigma 8.06 ordinal -0.61
}

func TestDisplay(t *testing.T) {
	m := Default()
	for _, c := range []struct {
		name string
		r    Rating
		want int
	}{
		{"a new player", m.New(), 1500},
		{"one point of ordinal", Rating{Mu: 25, Sigma: 8}, 1550},
		{"rounded", Rating{Mu: 10.01, Sigma: 0}, 2001},
		{"below the new", Rating{Mu: 20, Sigma: 25.0 / 3}, 1250},
		{"far below: never negative", Rating{Mu: -40, Sigma: 8}, 0},
		{"not a number", Rating{Mu: math.NaN(), Sigma: 1}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.r.Display(); got != c.want {
				t.Errorf("Display(%+v) = %d, want %d", c.r, got, c.want)
			}
		})
	}
	// It orders players as Ordinal does.
	a, b := Rating{Mu: 30, Sigma: 2}, Rating{Mu: 31, Sigma: 2.5}
	if (a.Ordinal() < b.Ordinal()) != (a.Display() < b.Display()) {
		t.Errorf("Display orders %+v and %+v unlike Ordinal", a, b)
	}
	// A loss of a new player against another shows as a fall.
	after, err := m.Rate([]Rating{m.New(), m.New()}, []int{2, 1})
	if err != nil {
		t.Fatal(err)
	}
	if d := DisplayChange(m.New(), after[0]); d >= 0 {
		t.Errorf("a loss changes the display by %+d, want a fall", d)
	}
}

func ExampleRating_Display() {
	m := Default()
	after, _ := m.Rate([]Rating{m.New(), m.New()}, []int{1, 2})
	fmt.Println(m.New().Display(), after[0].Display(), DisplayChange(m.New(), after[0]))
	// Output: 1500 1672 172
}
