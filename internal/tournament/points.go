package tournament

import (
	"strconv"
)

// Points are tournament points counted in 24ths of a point, so that the
// share of every place at a table of 2 to 5, halves included, is exact.
type Points int64

// Point is one point.
const Point Points = 24

// Float returns p in points.
func (p Points) Float() float64 { return float64(p) / float64(Point) }

// String returns p in points with at most two decimals: "3", "2.5",
// "1.33".
func (p Points) String() string {
	return strconv.FormatFloat(float64(int64(p)*100/int64(Point))/100, 'f', -1, 64)
}

// MarshalJSON writes p as a number of points, as String does.
func (p Points) MarshalJSON() ([]byte, error) { return []byte(p.String()), nil }

// Shares returns each seat's share of a finished table (see the package
// comment): from the final totals by seat and, by seat, whether a bot
// stood in for the person.
func Shares(totals []int, forfeited []bool) []Points {
	m := len(totals)
	out := make([]Points, m)
	if m < 2 {
		return out
	}
	for i := range totals {
		beaten, tied := 0, 0
		for j := range totals {
			if i == j {
				continue
			}
			switch c := compareSeat(totals, forfeited, i, j); {
			case c > 0:
				beaten++
			case c == 0:
				tied++
			}
		}
		out[i] = Points(12 * (2*beaten + tied) / (m - 1))
	}
	return out
}

// compareSeat compares seats i and j of a finished table: positive when i
// finished ahead of j.
func compareSeat(totals []int, forfeited []bool, i, j int) int {
	fi, fj := at(forfeited, i), at(forfeited, j)
	switch {
	case fi && fj:
		return 0
	case fi:
		return -1
	case fj:
		return 1
	}
	return totals[i] - totals[j]
}

func at(b []bool, i int) bool { return i < len(b) && b[i] }

// Won reports whether seat i finished ahead of every other seat.
func Won(totals []int, forfeited []bool, i int) bool {
	for j := range totals {
		if j != i && compareSeat(totals, forfeited, i, j) <= 0 {
			return false
		}
	}
	return len(totals) > 1
}
