package match

import (
	"slices"

	"github.com/razziagame/razzia/internal/store"
)

// freeSeat is the result of opening seat of a table that has not
// started: its person's connections watch on as spectators, and the
// table's wait for players starts afresh.
func (m *Match) freeSeat(seat int) Result {
	seats := slices.Clone(m.Seats)
	seats[seat] = store.Seat{}
	r := Result{Write: Write{Kind: FreeSeat, Seat: seat, Conflict: changed()}, next: &change{seats: seats}}
	r.Spectate = []int{seat}
	r.Expiry, r.Broadcast = true, true
	return r
}
