package razzia

import (
	"fmt"
	"slices"
)

// LegalMoves appends the moves the player to move may make to dst and
// returns it; it allocates nothing when dst has room (a turn offers at most
// 65 moves, an auction at most 17). The draw is offered once, as Draw(NoKind):
// which card comes is chance, resolved before Apply (RandomCard, or a Game).
//
// In a turn the order is: draw, call, then every choice of thieves (R7-R9).
// In an auction: pass (unless the caller must bid, R9), then the face-up
// cheques above the highest bid, lowest first (R10).
func (s *State) LegalMoves(dst []Move) []Move {
	switch s.phase {
	case PhaseTurn:
		if s.deckLeft > 0 {
			dst = append(dst, Move{Action: ActionDraw})
		}
		dst = append(dst, Move{Action: ActionCall})
		if s.seats[s.toMove].holdings[Thief] == 0 || s.rowLen == 0 {
			return dst
		}
		return s.appendThiefMoves(dst)
	case PhaseAuction:
		if !s.MustBid() {
			dst = append(dst, Move{Action: ActionPass})
		}
		bids := s.seats[s.toMove].faceUp.Above(int(s.highBid))
		n := len(dst)
		dst = slices.Grow(dst, bids.Len())[:n+bids.Len()]
		for i := n; bids != 0; i, bids = i+1, bids&(bids-1) {
			dst[i] = Move{Action: ActionBid, Cheque: uint8(bids.Min())}
		}
	}
	return dst
}

// appendThiefMoves appends every distinct choice of 1..t row cards, t being
// the smaller of the thieves held and the row's length (R8).
func (s *State) appendThiefMoves(dst []Move) []Move {
	t := min(int(s.seats[s.toMove].holdings[Thief]), int(s.rowLen))
	if t == 0 {
		return dst
	}
	var inRow Holdings
	for _, k := range s.row[:s.rowLen] {
		inRow[k]++
	}
	// An odometer over how many of each distinct row kind to take.
	var kinds [RowSize]Kind
	var most, take [RowSize]uint8
	n := 0
	for k := Police + 1; k < numKinds; k++ {
		if inRow[k] > 0 {
			kinds[n], most[n] = k, inRow[k]
			n++
		}
	}
	for {
		j := 0
		for ; j < n; j++ {
			if take[j] < most[j] {
				take[j]++
				break
			}
			take[j] = 0
		}
		if j == n {
			return dst
		}
		sum := 0
		for _, c := range take[:n] {
			sum += int(c)
		}
		if sum > t {
			continue
		}
		m := Move{Action: ActionThieves}
		used := 0
		for i, c := range take[:n] {
			for range c {
				m.Take[used] = kinds[i]
				used++
			}
		}
		dst = append(dst, m)
	}
}

// Check reports whether m is legal for the player to move, and if not, why,
// as a *MoveError. A draw is legal as Draw(NoKind) (the decision) or with a
// card that has not all been drawn (R5).
func (s *State) Check(m Move) error {
	if err := s.check(m); err != nil {
		return err
	}
	return nil
}

// check is Check with a concrete type, so Game can name the player.
func (s *State) check(m Move) *MoveError {
	fail := func(err error, format string, args ...any) *MoveError {
		return &MoveError{Move: m, Seat: s.ToMove(), Err: err, detail: fmt.Sprintf(format, args...)}
	}
	if s.phase == PhaseOver {
		return fail(ErrGameOver, "the game is over")
	}
	seat := &s.seats[s.toMove]
	switch m.Action {
	case ActionDraw, ActionThieves, ActionCall:
		if s.phase == PhaseAuction {
			return fail(ErrInAuction, "an auction is running; bid or pass")
		}
	case ActionBid, ActionPass:
		if s.phase != PhaseAuction {
			return fail(ErrNoAuction, "no auction is running; draw, use thieves or call")
		}
	default:
		return fail(ErrSyntax, "it is not a move")
	}
	if m != m.canonical() {
		return fail(ErrSyntax, "the move is not in the form ParseMove gives it (stray fields, or thief cards out of order)")
	}
	switch m.Action {
	case ActionDraw:
		switch {
		case s.deckLeft == 0:
			return fail(ErrDeckEmpty, "every card has been drawn")
		case m.Card >= numKinds:
			return fail(ErrUnknownCard, "there is no such card")
		case m.Card != NoKind && s.deck[m.Card] == 0:
			return fail(ErrUsedUp, "all %s have been drawn", m.Card.Plural(m.Card.Count()))
		}
	case ActionThieves:
		return s.checkThieves(m, seat, fail)
	case ActionPass:
		if s.MustBid() {
			return fail(ErrMustBid, "nobody has bid in the forced auction they called, so they must bid")
		}
	case ActionBid:
		v := int(m.Cheque)
		switch {
		case !seat.faceUp.Has(v) && seat.faceUp == 0:
			return fail(ErrNotHeld, "they have no face-up cheque")
		case !seat.faceUp.Has(v):
			return fail(ErrNotHeld, "their face-up cheques are %s", seat.faceUp.phrase())
		case v <= int(s.highBid):
			return fail(ErrBidTooLow, "the highest bid is %d", s.highBid)
		}
	}
	return nil
}

func (s *State) checkThieves(m Move, seat *seatState, fail func(error, string, ...any) *MoveError) *MoveError {
	n := m.Taken()
	if n == 0 {
		return fail(ErrSyntax, "no row card is named")
	}
	for _, k := range m.Take[:n] {
		if !k.IsLoot() {
			return fail(ErrUnknownCard, "a thief takes loot from the row")
		}
	}
	if held := int(seat.holdings[Thief]); held < n {
		if held == 0 {
			return fail(ErrNoThief, "they hold no thief")
		}
		return fail(ErrNoThief, "they hold only %s", Thief.Plural(held))
	}
	var inRow, want Holdings
	for _, k := range s.row[:s.rowLen] {
		inRow[k]++
	}
	for _, k := range m.Take[:n] {
		want[k]++
	}
	for _, k := range m.Take[:n] {
		if want[k] > inRow[k] {
			if inRow[k] == 0 {
				return fail(ErrNotInRow, "the row holds no %s", k.Name())
			}
			return fail(ErrNotInRow, "the row holds only %s", k.Plural(int(inRow[k])))
		}
	}
	return nil
}
