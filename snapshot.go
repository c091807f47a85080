package razzia

// A Snapshot is a View in plain, JSON-ready form: what the server sends to a
// browser, a terminal client or an external bot. Cards are record tokens
// ("car"), cheques thousands, moves record tokens.
type Snapshot struct {
	Players     []string         `json:"players"`
	Seat        int              `json:"seat"` // the seat it is for; -1 for a spectator
	Moves       int              `json:"moves"`
	Round       int              `json:"round"`
	Phase       string           `json:"phase"`  // "turn", "auction" or "over"
	ToMove      int              `json:"toMove"` // -1 once the game is over
	Police      int              `json:"police"`
	PoliceLimit int              `json:"policeLimit"`
	Centre      int              `json:"centre"`
	Row         []string         `json:"row"`
	DeckLeft    int              `json:"deckLeft"`
	Remaining   map[string]int   `json:"remaining"` // undrawn cards by kind (public composition)
	Auction     *AuctionSnapshot `json:"auction"`   // nil when none is running
	Seats       []SeatSnapshot   `json:"seats"`
	Winners     []int            `json:"winners"` // empty until the game is over
	Legal       []string         `json:"legal"`   // the seat's legal moves when it is to move
}

// An AuctionSnapshot is the running auction.
type AuctionSnapshot struct {
	Kind       string `json:"kind"` // "police", "seventh" or "forced"
	Initiator  int    `json:"initiator"`
	HighBid    int    `json:"highBid"`    // 0 while nobody has bid
	HighBidder int    `json:"highBidder"` // -1 while nobody has bid
	MustBid    bool   `json:"mustBid"`    // the caller must bid (R9)
	// Bids is each seat's part: "undecided", "pass", "passed over" or "bid N".
	Bids []string `json:"bids"`
}

// A SeatSnapshot is one player's side of the table.
type SeatSnapshot struct {
	Name     string         `json:"name"`
	FaceUp   []int          `json:"faceUp"`
	FaceDown []int          `json:"faceDown"`
	Holdings map[string]int `json:"holdings"` // cards held by kind, only kinds held
	Scores   []Score        `json:"scores"`   // one per scored round
	Total    int            `json:"total"`
}

// Snapshot returns the view in plain form.
func (v View) Snapshot() Snapshot {
	s := &v.State
	snap := Snapshot{
		Players:     append([]string{}, v.Players...),
		Seat:        v.Seat,
		Moves:       v.Moves,
		Round:       s.Round(),
		Phase:       s.Phase().String(),
		ToMove:      s.ToMove(),
		Police:      s.Police(),
		PoliceLimit: s.PoliceLimit(),
		Centre:      s.Centre(),
		Row:         []string{},
		DeckLeft:    s.DeckLeft(),
		Remaining:   map[string]int{},
		Winners:     append([]int{}, s.Winners()...),
		Legal:       []string{},
	}
	for _, k := range s.Row() {
		snap.Row = append(snap.Row, k.String())
	}
	for _, k := range Kinds {
		if n := s.Remaining(k); n > 0 {
			snap.Remaining[k.String()] = n
		}
	}
	if s.Auction() != AuctionNone {
		bid, bidder := s.HighBid()
		a := &AuctionSnapshot{Kind: s.Auction().String(), Initiator: s.Initiator(),
			HighBid: bid, HighBidder: bidder, MustBid: s.MustBid()}
		for seat := range s.Players() {
			a.Bids = append(a.Bids, s.Bidding(seat).String())
		}
		snap.Auction = a
	}
	totals := s.Totals()
	for seat := range s.Players() {
		h := s.Holdings(seat)
		ss := SeatSnapshot{
			FaceUp:   s.FaceUp(seat).Values(),
			FaceDown: s.FaceDown(seat).Values(),
			Holdings: map[string]int{},
			Scores:   []Score{},
			Total:    totals[seat],
		}
		if seat < len(v.Players) {
			ss.Name = v.Players[seat]
		}
		for _, k := range Kinds {
			if h[k] > 0 {
				ss.Holdings[k.String()] = int(h[k])
			}
		}
		for r := 1; r <= s.ScoredRounds(); r++ {
			ss.Scores = append(ss.Scores, s.Scores(r)[seat])
		}
		snap.Seats = append(snap.Seats, ss)
	}
	for _, m := range v.Legal {
		snap.Legal = append(snap.Legal, m.String())
	}
	return snap
}

// String returns "undecided", "pass", "passed over" or "bid N".
func (b Bidding) String() string {
	switch {
	case b > 0:
		return Bid(int(b)).String()
	case b == BiddingPassed:
		return "pass"
	case b == BiddingPassedOver:
		return "passed over"
	}
	return "undecided"
}
