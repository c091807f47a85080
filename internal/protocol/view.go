package protocol

import (
	"slices"

	"github.com/razziagame/razzia"
)

// A View is what one seat (or a spectator) sees of the table, in plain,
// JSON-ready form: the "view" of a state message, each step of a replay,
// and the question an external bot is asked. Cards are record tokens
// ("car"), cheques thousands, moves record tokens with a typed form beside.
type View struct {
	Players     []string       `json:"players"`
	Seat        int            `json:"seat"` // the seat it is for; -1 for a spectator
	Moves       int            `json:"moves"`
	Round       int            `json:"round"`
	Phase       string         `json:"phase"`  // "turn", "auction" or "over"
	ToMove      int            `json:"toMove"` // -1 once the game is over
	Police      int            `json:"police"`
	PoliceLimit int            `json:"policeLimit"`
	Centre      int            `json:"centre"`
	Row         []string       `json:"row"`
	DeckLeft    int            `json:"deckLeft"`
	Remaining   map[string]int `json:"remaining"` // undrawn cards by kind (public composition)
	Auction     *AuctionView   `json:"auction"`   // nil when none is running
	// Raid is how close the raid is: police on the track, the limit, and
	// police cards among the undrawn ones (State.RaidRisk).
	Raid razzia.RaidRisk `json:"raid"`
	// Stakes is what the lot (the row and the centre cheque) would be
	// worth to each seat, by category, if it won it now at its lowest bid
	// and the round ended (State.Stakes); empty once the game is over.
	Stakes     []razzia.Stake `json:"stakes"`
	Seats      []SeatView     `json:"seats"`
	Winners    []int          `json:"winners"` // empty until the game is over
	Legal      []string       `json:"legal"`   // the seat's legal moves when it is to move, as tokens
	LegalMoves []Move         `json:"legalMoves"`
}

// An AuctionView is the running auction.
type AuctionView struct {
	Kind       string `json:"kind"` // "police", "seventh" or "forced"
	Initiator  int    `json:"initiator"`
	HighBid    int    `json:"highBid"`    // 0 while nobody has bid
	HighBidder int    `json:"highBidder"` // -1 while nobody has bid
	MustBid    bool   `json:"mustBid"`    // the caller must bid (R9)
	// Bids is each seat's part: "undecided", "pass", "passed over" or
	// "bid N"; Bidding is the same in typed form.
	Bids    []string `json:"bids"`
	Bidding []Bid    `json:"bidding"`
}

// A Bid is one seat's part in an auction, typed.
type Bid struct {
	State  string `json:"state"`            // "undecided", "pass", "passedOver" or "bid"
	Cheque int    `json:"cheque,omitempty"` // the cheque bid
}

// A SeatView is one player's side of the table.
type SeatView struct {
	Name     string         `json:"name"`
	FaceUp   []int          `json:"faceUp"`
	FaceDown []int          `json:"faceDown"`
	Holdings map[string]int `json:"holdings"` // cards held by kind, only kinds held
	Scores   []razzia.Score `json:"scores"`   // one per scored round
	Total    int            `json:"total"`
}

// A Move is a move in both forms: its record token and its parts.
type Move struct {
	Token  string   `json:"token"`            // "bid 9", as in view.legal and records
	Action string   `json:"action"`           // "draw", "thieves", "call", "bid" or "pass"
	Card   string   `json:"card,omitempty"`   // draw: the card drawn, when named (records only)
	Cheque int      `json:"cheque,omitempty"` // bid: the cheque
	Cards  []string `json:"cards,omitempty"`  // thieves: the row cards taken, one thief each
	// Gain is, for a bid in a view's legal moves, what winning with it
	// would add to the seat's points by category if the round ended now
	// (State.Stake): in round 3 it depends on the cheque (R17).
	Gain *razzia.Score `json:"gain,omitempty"`
}

// actions names the engine's actions in typed moves.
var actions = map[razzia.Action]string{
	razzia.ActionDraw: "draw", razzia.ActionThieves: "thieves", razzia.ActionCall: "call",
	razzia.ActionBid: "bid", razzia.ActionPass: "pass",
}

// MoveOf returns the engine's move in both forms.
func MoveOf(m razzia.Move) Move {
	mv := Move{Token: m.String(), Action: actions[m.Action]}
	switch m.Action {
	case razzia.ActionDraw:
		if m.Card != razzia.NoKind {
			mv.Card = m.Card.String()
		}
	case razzia.ActionBid:
		mv.Cheque = int(m.Cheque)
	case razzia.ActionThieves:
		for _, k := range m.Take[:m.Taken()] {
			mv.Cards = append(mv.Cards, k.String())
		}
	}
	return mv
}

// NewView returns the engine's view in plain form.
func NewView(v razzia.View) View { return NewViewAfter(v, nil) }

// NewViewAfter is NewView sharing with prev, a view made before (or nil),
// what did not change: the players, the undrawn cards, and each seat's
// side. A server makes a table's view at every move, and most of it is
// as it was. Modify neither view after.
func NewViewAfter(v razzia.View, prev *View) View {
	s := &v.State
	a := newViewAlloc(s)
	out := View{
		Seat:        v.Seat,
		Moves:       v.Moves,
		Round:       s.Round(),
		Phase:       s.Phase().String(),
		ToMove:      s.ToMove(),
		Police:      s.Police(),
		PoliceLimit: s.PoliceLimit(),
		Centre:      s.Centre(),
		Row:         a.row,
		DeckLeft:    s.DeckLeft(),
		Raid:        s.RaidRisk(),
		Stakes:      s.Stakes(a.stakes),
		Winners:     append([]int{}, s.Winners()...),
	}
	if prev != nil && slices.Equal(prev.Players, v.Players) {
		out.Players = prev.Players
	} else {
		out.Players = append([]string{}, v.Players...)
	}
	for i := range s.RowLen() {
		out.Row = append(out.Row, s.RowCard(i).String())
	}
	if prev != nil && sameCounts(prev.Remaining, s.Remaining) {
		out.Remaining = prev.Remaining
	} else {
		out.Remaining = counts(s.Remaining)
	}
	if s.Auction() != razzia.AuctionNone {
		au := newAuction(s)
		for seat := range s.Players() {
			b := s.Bidding(seat)
			au.Bids = append(au.Bids, b.String())
			au.Bidding = append(au.Bidding, bidOf(b))
		}
		out.Auction = au
	}
	out.Seats = seatViews(v, prev)
	out.Legal, out.LegalMoves = legalOf(v)
	return out
}

// A viewAlloc holds a view's row and stakes, made in one allocation
// where a table's fit (a server makes a view at every move), and an
// auctionAlloc a running auction's parts: each list is a part of its
// own, full at its length, so that an append to one never writes
// another's.
type viewAlloc struct {
	row       []string
	stakes    []razzia.Stake
	rowBuf    [razzia.RowSize]string
	stakesBuf [razzia.MaxPlayers]razzia.Stake
}

type auctionAlloc struct {
	auction    AuctionView
	bidsBuf    [razzia.MaxPlayers]string
	biddingBuf [razzia.MaxPlayers]Bid
}

// newViewAlloc returns the room for a view of s, each list empty.
func newViewAlloc(s *razzia.State) *viewAlloc {
	a := new(viewAlloc)
	if n := s.RowLen(); n <= len(a.rowBuf) {
		a.row = a.rowBuf[:0:n]
	} else {
		a.row = make([]string, 0, n)
	}
	if n := s.Players(); n <= len(a.stakesBuf) {
		a.stakes = a.stakesBuf[:0:n]
	} else {
		a.stakes = make([]razzia.Stake, 0, n)
	}
	return a
}

// newAuction returns s's running auction with room for its lists.
func newAuction(s *razzia.State) *AuctionView {
	a := new(auctionAlloc)
	bid, bidder := s.HighBid()
	a.auction = AuctionView{Kind: s.Auction().String(), Initiator: s.Initiator(),
		HighBid: bid, HighBidder: bidder, MustBid: s.MustBid()}
	if n := s.Players(); n <= razzia.MaxPlayers {
		a.auction.Bids, a.auction.Bidding = a.bidsBuf[:0:n], a.biddingBuf[:0:n]
	} else {
		a.auction.Bids, a.auction.Bidding = make([]string, 0, n), make([]Bid, 0, n)
	}
	return &a.auction
}

// seatViews returns the seats' sides of v, prev's where they did not
// change (prev's list itself when none did).
func seatViews(v razzia.View, prev *View) []SeatView {
	s := &v.State
	totals := s.Totals()
	// The seats as prev shows them, up to the first that changed: most
	// moves change none.
	same := 0
	if prev != nil && len(prev.Seats) == s.Players() {
		for same < s.Players() && sameSeat(&prev.Seats[same], s, same, nameOf(v.Players, same), totals[same]) {
			same++
		}
		if same == s.Players() {
			return prev.Seats
		}
	}
	out := make([]SeatView, 0, s.Players())
	if same > 0 {
		out = append(out, prev.Seats[:same]...)
	}
	for seat := same; seat < s.Players(); seat++ {
		name := nameOf(v.Players, seat)
		if prev != nil && seat < len(prev.Seats) && sameSeat(&prev.Seats[seat], s, seat, name, totals[seat]) {
			out = append(out, prev.Seats[seat])
			continue
		}
		sv := SeatView{
			Name:     name,
			FaceUp:   s.FaceUp(seat).Values(),
			FaceDown: s.FaceDown(seat).Values(),
			Holdings: counts(func(k razzia.Kind) int { return int(s.Holdings(seat)[k]) }),
			Scores:   make([]razzia.Score, 0, s.ScoredRounds()),
			Total:    totals[seat],
		}
		for r := range s.ScoredRounds() {
			sv.Scores = append(sv.Scores, s.RoundScore(r+1, seat))
		}
		out = append(out, sv)
	}
	return out
}

// nameOf returns the seat's name among players, "" for none.
func nameOf(players []string, seat int) string {
	if seat < len(players) {
		return players[seat]
	}
	return ""
}

// sameSeat reports whether sv shows the seat of s as it is.
func sameSeat(sv *SeatView, s *razzia.State, seat int, name string, total int) bool {
	if sv.Name != name || sv.Total != total || len(sv.Scores) != s.ScoredRounds() ||
		!sameCheques(sv.FaceUp, s.FaceUp(seat)) || !sameCheques(sv.FaceDown, s.FaceDown(seat)) {
		return false
	}
	for r, score := range sv.Scores {
		if score != s.RoundScore(r+1, seat) {
			return false
		}
	}
	h := s.Holdings(seat)
	return sameCounts(sv.Holdings, func(k razzia.Kind) int { return int(h[k]) })
}

// sameCheques reports whether vs lists the cheques of c (Cheques.Values).
func sameCheques(vs []int, c razzia.Cheques) bool {
	if len(vs) != c.Len() {
		return false
	}
	for _, v := range vs {
		if !c.Has(v) {
			return false
		}
	}
	return true
}

// counts returns the kinds whose count n gives is positive, by name.
func counts(n func(razzia.Kind) int) map[string]int {
	kinds := 0
	for _, k := range razzia.Kinds {
		if n(k) > 0 {
			kinds++
		}
	}
	out := make(map[string]int, kinds)
	for _, k := range razzia.Kinds {
		if c := n(k); c > 0 {
			out[k.String()] = c
		}
	}
	return out
}

// sameCounts reports whether m is counts(n).
func sameCounts(m map[string]int, n func(razzia.Kind) int) bool {
	kinds := 0
	for _, k := range razzia.Kinds {
		if c := n(k); c > 0 {
			kinds++
			if m[k.String()] != c {
				return false
			}
		}
	}
	return kinds == len(m)
}

// legalOf returns the legal moves as tokens and typed; empty, not nil,
// for none.
func legalOf(v razzia.View) ([]string, []Move) {
	n := len(v.Legal)
	if n == 0 {
		return []string{}, []Move{}
	}
	var tokens []string
	var typed []Move
	var gains []razzia.Score // the bids'
	switch {
	case n <= 2:
		a := new(legalAlloc2)
		tokens, typed, gains = a.tokens[:0:n], a.typed[:0:n], a.gains[:0:n]
	case n <= maxLegal:
		a := new(legalAlloc)
		tokens, typed, gains = a.tokens[:0:n], a.typed[:0:n], a.gains[:0:n]
	default:
		tokens, typed, gains = make([]string, 0, n), make([]Move, 0, n), make([]razzia.Score, 0, n)
	}
	s := &v.State
	for _, m := range v.Legal {
		mv := MoveOf(m)
		tokens = append(tokens, mv.Token)
		if m.Action == razzia.ActionBid {
			gains = append(gains, s.Stake(s.ToMove(), int(m.Cheque)))
			mv.Gain = &gains[len(gains)-1]
		}
		typed = append(typed, mv)
	}
	return tokens, typed
}

// maxLegal is the most legal moves whose lists legalOf makes in one
// allocation (a legalAlloc, or a legalAlloc2 for 2, as most have): a
// seat to move has at most 5 but for rare choices of thieves (1 move in
// 7,700 of random games of four).
const maxLegal = 5

type legalAlloc struct {
	tokens [maxLegal]string
	typed  [maxLegal]Move
	gains  [maxLegal]razzia.Score
}

type legalAlloc2 struct {
	tokens [2]string
	typed  [2]Move
	gains  [2]razzia.Score
}

// ForSeat returns the public view (a spectator's, seat -1) as the seat
// sees it, given the engine's view for the seat: the engine's views of one
// moment differ only in the seat and its legal moves (a test checks it),
// so a server builds the public view once per change and derives each
// seat's from it. The result shares everything else with v: modify
// neither.
func (v *View) ForSeat(seat razzia.View) *View {
	out := *v
	out.Seat = seat.Seat
	out.Legal, out.LegalMoves = legalOf(seat)
	return &out
}

func bidOf(b razzia.Bidding) Bid {
	switch {
	case b > 0:
		return Bid{State: "bid", Cheque: int(b)}
	case b == razzia.BiddingPassed:
		return Bid{State: "pass"}
	case b == razzia.BiddingPassedOver:
		return Bid{State: "passedOver"}
	}
	return Bid{State: "undecided"}
}

// MyTurn reports whether the view's seat is to move: then Legal lists its
// moves.
func (v *View) MyTurn() bool {
	return v != nil && v.Seat >= 0 && v.ToMove == v.Seat && len(v.Legal) > 0
}
