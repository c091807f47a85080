package tournament

import (
	"errors"
	"fmt"
)

// The bounds of a table, as the rules have them.
const (
	MinTable = 2
	MaxTable = 5
)

// ErrTooFew is a number of people that cannot make a single table.
var ErrTooFew = errors.New("too few people for a table")

// ErrSize is a table size outside MinTable..MaxTable.
var ErrSize = fmt.Errorf("a table seats %d to %d players", MinTable, MaxTable)

// Sizes returns the sizes of the tables that seat n people when the
// tables are meant to seat size each, largest first.
//
// The rule: as few tables as can seat everyone (n/size, rounded up), and
// the people spread over them as evenly as possible, so that sizes differ
// by one at most and every table has at most size seats: 7 people at
// tables of 4 sit 4 and 3, 29 sit 4, 4, 4, 4, 4, 3, 3, 3, and 12 at
// tables of 5 sit 4, 4, 4. The one case that rule cannot seat is an odd
// number at tables of 2 (a table of 1 is no game): there the last three
// sit together at a table of 3.
func Sizes(n, size int) ([]int, error) {
	if size < MinTable || size > MaxTable {
		return nil, fmt.Errorf("%w, not %d", ErrSize, size)
	}
	if n < MinTable {
		return nil, fmt.Errorf("%w: %d, and a table needs %d", ErrTooFew, n, MinTable)
	}
	t := (n + size - 1) / size
	q, r := n/t, n%t
	out := make([]int, t)
	for i := range out {
		out[i] = q
		if i < r {
			out[i]++
		}
	}
	if out[t-1] < MinTable {
		// Only at tables of 2 with an odd n: 2, ..., 2, 1 becomes 2, ..., 3.
		out = out[:t-1]
		out[t-2]++
		out[0], out[t-2] = out[t-2], out[0]
	}
	return out, nil
}

// Filled returns how many tables of size seat n people when bots fill
// the seats the people leave, every table full: n/size rounded up, and
// the number of seats bots take (fewer than size, so never a whole
// table).
func Filled(n, size int) (tables, bots int, err error) {
	if _, err := Sizes(n, size); err != nil {
		return 0, 0, err
	}
	t := (n + size - 1) / size
	return t, t*size - n, nil
}
