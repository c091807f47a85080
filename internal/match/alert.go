package match

// The alerts of a table: whom the host tells, through its hook, of a
// turn or of the game's end while they are away. The host adds who
// watches at the table; the rules of who is told are here.

// Alerted reports whether the player at seat hears of the table while
// away: a signed-in person, not a bot.
func (m *Match) Alerted(seat int) bool {
	return seat >= 0 && seat < len(m.Seats) && m.Seats[seat].Account != "" && m.Seats[seat].Bot == ""
}

// TurnAlert returns the seat to tell that it is their turn after t (a
// result's Turn, applied): the seat to move, unless a move was made since
// (a pre-move played at once), the same seat moved last (its player is at
// the table), or a bot plays for it.
func (m *Match) TurnAlert(t Turn) (int, bool) {
	if m.Game == nil || m.Game.Over() || m.Game.Len() != t.Moves {
		return -1, false
	}
	seat := m.Game.ToMove()
	return seat, seat != t.Mover && m.PersonPlays(seat)
}
