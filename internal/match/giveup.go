package match

import "github.com/razziagame/razzia/internal/store"

// giveUp frees seat, held by the person whose token hashes to hash, at a
// table that has not started: the seat is open for someone else and the
// token stops working. Once the game has started a seat is no longer
// given up: leaving hands it to a bot (leave) until its player comes back.
func (m *Match) giveUp(hash []byte, seat int) (Result, error) {
	mine := SeatOf(m.Seats, hash)
	switch {
	case mine < 0:
		return Result{}, NoSeatRefusal()
	case seat != mine:
		return Result{}, refuse(ErrNotYourSeat, "seat %d is not yours: yours is seat %d", seat, mine)
	case m.Status != store.StatusOpen:
		return Result{}, StartedRefusal("your seat is yours to the end; if you leave, a bot plays for you until you come back")
	}
	r := m.freeSeat(seat)
	r.note("player gave up the seat", "seat", seat, "name", m.Seats[seat].Name)
	return r, nil
}
