package razzia

// Apply plays a legal move for the player to move. It allocates nothing.
// A draw must name its card (see RandomCard); Apply panics on one that
// does not, since the state cannot say which card came. Apply does not check the move:
// an illegal one leaves the state undefined, so callers that did not take
// the move from LegalMoves use Check first, or a Game.
func (s *State) Apply(m Move) {
	switch m.Action {
	case ActionDraw:
		if m.Card == NoKind || m.Card >= numKinds {
			panic("razzia: Apply of a draw that names no card: resolve chance first (RandomCard)")
		}
		s.draw(m.Card)
	case ActionThieves:
		s.useThieves(&m)
	case ActionCall:
		s.startAuction(AuctionForced)
	case ActionBid:
		s.highBid, s.highBidder = m.Cheque, s.toMove
		s.bids[s.toMove] = Bidding(m.Cheque)
		s.nextBidder()
	case ActionPass:
		s.bids[s.toMove] = BiddingPassed
		s.nextBidder()
	}
}

// draw reveals a card of kind k (R7).
func (s *State) draw(k Kind) {
	s.deck[k]--
	s.deckLeft--
	if k == Police {
		s.police++
		if int(s.police) == s.PoliceLimit() {
			s.endRound()
			return
		}
		s.startAuction(AuctionPolice)
		return
	}
	s.row[s.rowLen] = k
	s.rowLen++
	if s.rowLen == RowSize {
		s.startAuction(AuctionSeventh)
		return
	}
	s.toMove = s.nextActive(s.toMove)
}

// useThieves takes the move's cards from the row, one thief each (R8).
func (s *State) useThieves(m *Move) {
	h := &s.seats[s.toMove].holdings
	n := m.Taken()
	h[Thief] -= uint8(n)
	s.out[Thief] += uint8(n)
	for _, k := range m.Take[:n] {
		s.takeFromRow(k)
		h[k]++
	}
	s.toMove = s.nextActive(s.toMove)
}

// takeFromRow removes one card of kind k from the row, closing the gap.
func (s *State) takeFromRow(k Kind) {
	for i := int(s.rowLen) - 1; i >= 0; i-- {
		if s.row[i] == k {
			copy(s.row[i:s.rowLen], s.row[i+1:s.rowLen])
			s.rowLen--
			s.row[s.rowLen] = NoKind
			return
		}
	}
}

// startAuction opens an auction initiated by the player to move (R10).
func (s *State) startAuction(kind AuctionKind) {
	s.phase = PhaseAuction
	s.auction = kind
	s.initiator = s.toMove
	s.asked = 0
	s.highBid = 0
	s.bids = [MaxPlayers]Bidding{}
	s.nextBidder()
}

// nextBidder gives the next seat clockwise its chance, the initiator last,
// passing over seats with no cheque high enough (R10, R13); after the
// initiator the auction is decided.
func (s *State) nextBidder() {
	seat := s.initiator + s.asked
	low := Cheques(1<<s.highBid - 1) // the cheques too low to bid
	for s.asked < s.players {
		s.asked++
		if seat++; seat >= s.players {
			seat -= s.players
		}
		if s.seats[seat].faceUp&^low != 0 {
			s.toMove = seat
			return
		}
		s.bids[seat] = BiddingPassedOver
	}
	s.settleAuction()
}

// settleAuction gives the lot to the highest bidder (R11) and play resumes
// with the initiator's left neighbour (R12), unless the round is over (R14).
func (s *State) settleAuction() {
	if s.highBid > 0 {
		w := &s.seats[s.highBidder]
		for _, k := range s.row[:s.rowLen] {
			w.holdings[k]++
		}
		s.clearRow()
		w.faceDown |= 1 << (s.centre - 1)
		w.faceUp &^= 1 << (s.highBid - 1)
		s.centre = s.highBid
	} else if s.auction == AuctionSeventh {
		s.discardRow()
	}
	s.phase = PhaseTurn
	s.auction = AuctionNone
	for i := range s.players {
		if s.seats[i].faceUp != 0 {
			s.toMove = s.nextActive(s.initiator)
			return
		}
	}
	s.endRound()
}

func (s *State) clearRow() {
	s.row = [RowSize]Kind{}
	s.rowLen = 0
}

func (s *State) discardRow() {
	for _, k := range s.row[:s.rowLen] {
		s.out[k]++
	}
	s.clearRow()
}

// endRound ends the round at once (R14): row and police leave the game,
// the round is scored, crossed cards leave the holdings and every cheque
// is turned face up (R15); after round 3 the game is over (R18).
func (s *State) endRound() {
	s.discardRow()
	s.out[Police] += s.police
	s.police = 0
	s.phase = PhaseTurn
	s.auction = AuctionNone
	s.bids = [MaxPlayers]Bidding{}
	s.highBid = 0

	s.scores[s.round-1] = s.roundTallies(s.round == Rounds)
	for i := range s.players {
		seat := &s.seats[i]
		for _, k := range crossedKinds {
			s.out[k] += seat.holdings[k]
			seat.holdings[k] = 0
		}
		seat.faceUp |= seat.faceDown
		seat.faceDown = 0
	}
	if s.round == Rounds {
		s.phase = PhaseOver
		return
	}
	s.round++
	s.toMove = s.highestCheque()
}
