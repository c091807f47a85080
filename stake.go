package razzia

import "encoding/json"

// What is at stake: what the lot on the table, the row's loot and the centre
// cheque, would be worth to each seat if the round ended now, and how close
// the raid is. Tables show both beside the row; bots may use them as a quick
// valuation. Both are exact under the rules and allocate nothing.

// A Stake is what winning the lot would change for one seat if the round
// were scored right after (see State.Stake).
type Stake struct {
	Seat int `json:"seat"`
	// Bid is the cheque the seat pays: its lowest bid now (State.LowestBid),
	// or 0 when it has no cheque high enough, and then Gain is what the lot
	// alone would be worth to it.
	Bid int `json:"bid"`
	// Gain is the seat's points by category after winning minus its points
	// without; Gain.Total() is the sum.
	Gain Score `json:"gain"`
}

// Stake returns what the seat would gain, by category, if it won the lot now
// by paying the face-up cheque bid and the round were then scored: its score
// after taking every loot card of the row into its holdings, the centre
// cheque face down and giving up the bid (R11), minus its score now, both as
// the round's end would score them (R14: the rest of the row is not scored;
// R16, and in round 3 R17). It is exact where the majorities make it
// subtle: a bodyguard can lift a seat off the fewest or break a tie for the
// most (R16), and in round 3 the seat's cheque sum moves by the centre
// cheque minus the bid, which can win or lose +5 or −5 (R17); the other
// seats' holdings and cheques count as they are.
//
// A bid the seat does not hold face up is not paid: Stake(seat, 0) is what
// the lot alone is worth. A seat the game does not have, or a game that is
// over, gains nothing. Stake allocates nothing.
func (s *State) Stake(seat, bid int) Score {
	if seat < 0 || seat >= int(s.players) || s.phase == PhaseOver {
		return Score{}
	}
	h, c := s.table()
	return s.stake(seat, bid, h, c, scoreRound(int(s.players), &h, &c, s.round == Rounds)[seat])
}

// stake is Stake given the table as it is (h, c: table) and the seat's
// score of it, before, which Stakes finds once for every seat.
func (s *State) stake(seat, bid int, h [MaxPlayers]Holdings, c [MaxPlayers]Cheques, before tally) Score {
	for _, k := range s.row[:s.rowLen] {
		h[seat][k]++
	}
	c[seat] |= ChequesOf(int(s.centre))
	if s.seats[seat].faceUp.Has(bid) {
		c[seat] &^= ChequesOf(bid)
	}
	after := scoreRound(int(s.players), &h, &c, s.round == Rounds)[seat]
	var gain Score
	for i := range gain {
		gain[i] = int(after[i]) - int(before[i])
	}
	return gain
}

// LowestBid returns the lowest cheque the seat could bid now: its lowest
// face-up cheque above the highest bid of the running auction (outside an
// auction, its lowest face-up cheque), or 0 when it has none, for a seat the
// game does not have, and once the game is over.
func (s *State) LowestBid(seat int) int {
	if seat < 0 || seat >= int(s.players) || s.phase == PhaseOver {
		return 0
	}
	high := 0
	if s.phase == PhaseAuction {
		// Outside an auction highBid still holds the last one's winning bid.
		high = int(s.highBid)
	}
	return s.seats[seat].faceUp.Above(high).Min()
}

// Stakes appends each seat's stake at its lowest bid to dst, in seat order,
// and returns it: what the lot is worth to every player if the round ended
// now. It allocates nothing when dst has room for Players() stakes. Once the
// game is over nothing is at stake, and dst is returned as it is.
func (s *State) Stakes(dst []Stake) []Stake {
	if s.phase == PhaseOver {
		return dst
	}
	// The table's scores as they are, once for every seat.
	h, c := s.table()
	before := scoreRound(int(s.players), &h, &c, s.round == Rounds)
	for seat := range int(s.players) {
		bid := s.LowestBid(seat)
		dst = append(dst, Stake{Seat: seat, Bid: bid, Gain: s.stake(seat, bid, h, c, before[seat])})
	}
	return dst
}

// table returns every seat's holdings and cheques, face up and face down, as
// the round's scoring reads them.
func (s *State) table() (h [MaxPlayers]Holdings, c [MaxPlayers]Cheques) {
	for i := range s.players {
		h[i] = s.seats[i].holdings
		c[i] = s.seats[i].faceUp | s.seats[i].faceDown
	}
	return h, c
}

// A RaidRisk says how close the raid is, the police card that ends the round
// at once (R7, R14), from what the table shows: the police track and the
// composition of the undrawn cards. Its methods derive the rest, so a client
// that has only these four numbers reads the same risk as the engine.
type RaidRisk struct {
	Police     int `json:"police"`     // police cards on the track this round
	Limit      int `json:"limit"`      // the police card that ends the round: 7, or 5 with two players (R7)
	PoliceLeft int `json:"policeLeft"` // undrawn police cards
	CardsLeft  int `json:"cardsLeft"`  // undrawn cards
}

// RaidRisk returns the risk of a raid now.
func (s *State) RaidRisk() RaidRisk {
	return RaidRisk{
		Police:     int(s.police),
		Limit:      s.PoliceLimit(),
		PoliceLeft: int(s.deck[Police]),
		CardsLeft:  int(s.deckLeft),
	}
}

// ToRaid returns how many more police cards end the round. At 1 the next
// police card is the raid: the round ends at once, without an auction (R7).
// Above 1 the next one starts a police auction and brings the raid a step
// closer. The deck always holds enough police cards for it: 21 in all
// (R1), and a round ends at its 7th at the latest.
func (r RaidRisk) ToRaid() int { return max(r.Limit-r.Police, 0) }

// Chance returns the probability that the next card drawn is a police
// card: PoliceLeft out of CardsLeft, each undrawn card being equally likely
// (R5); 0 when no card is left.
func (r RaidRisk) Chance() float64 {
	if r.CardsLeft <= 0 {
		return 0
	}
	return float64(r.PoliceLeft) / float64(r.CardsLeft)
}

// MarshalJSON encodes the risk with what its methods derive: "toRaid" and
// "chance" beside the four numbers.
func (r RaidRisk) MarshalJSON() ([]byte, error) {
	type fields RaidRisk // without the method, so that Marshal does not recurse
	return json.Marshal(struct {
		fields
		ToRaid int     `json:"toRaid"`
		Chance float64 `json:"chance"`
	}{fields(r), r.ToRaid(), r.Chance()})
}
