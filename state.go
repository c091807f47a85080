package razzia

import (
	"fmt"
	"math/rand/v2"
)

// Rounds is the number of rounds in a game (R6).
const Rounds = 3

// RowSize is the number of loot cards that fills the auction row (R7).
const RowSize = 7

// A Phase says what kind of decision the player to move makes.
type Phase uint8

// The phases.
const (
	PhaseTurn    Phase = iota // choose an action: draw, thieves or call
	PhaseAuction              // bid a face-up cheque or pass
	PhaseOver                 // the game is over
)

func (p Phase) String() string {
	switch p {
	case PhaseTurn:
		return "turn"
	case PhaseAuction:
		return "auction"
	case PhaseOver:
		return "over"
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// An AuctionKind says why an auction is held.
type AuctionKind uint8

// The kinds of auction.
const (
	AuctionNone    AuctionKind = iota
	AuctionPolice              // a police card was drawn (R7)
	AuctionSeventh             // the seventh loot card filled the row (R7)
	AuctionForced              // the initiator called it (R9)
)

func (a AuctionKind) String() string {
	switch a {
	case AuctionNone:
		return "none"
	case AuctionPolice:
		return "police"
	case AuctionSeventh:
		return "seventh"
	case AuctionForced:
		return "forced"
	}
	return fmt.Sprintf("AuctionKind(%d)", uint8(a))
}

// UnmarshalText decodes an auction kind's name ("police", "seventh", "forced").
func (a *AuctionKind) UnmarshalText(b []byte) error {
	for k := AuctionPolice; k <= AuctionForced; k++ {
		if k.String() == string(b) {
			*a = k
			return nil
		}
	}
	return fmt.Errorf("razzia: unknown auction kind %q", b)
}

// A Bidding is a seat's part in the running auction: BiddingUndecided,
// BiddingPassed, BiddingPassedOver, or, when positive, the cheque it bid.
type Bidding int8

// The choices in an auction other than a bid.
const (
	BiddingUndecided  Bidding = 0  // the seat has not had its chance yet
	BiddingPassed     Bidding = -1 // the seat passed
	BiddingPassedOver Bidding = -2 // the seat had no cheque high enough (R10, R13)
)

// Holdings counts a seat's family holdings by kind; index it with a Kind.
type Holdings [numKinds]uint8

type seatState struct {
	faceUp   Cheques
	faceDown Cheques
	holdings Holdings
}

// State is the complete public state of a game: everything the players see
// on the table, and the composition (not the order) of the undrawn cards.
// It is a plain value: assigning it clones it, and Apply allocates nothing,
// which makes it the fast path for bots. Its methods that change it expect
// legal moves; Check tells whether a move is legal, and Game is the checked
// API for callers that want errors.
type State struct {
	players  uint8
	round    uint8 // 1..Rounds
	phase    Phase
	toMove   uint8
	police   uint8 // police cards on the track this round
	centre   uint8 // the cheque in the centre
	deckLeft uint8
	rowLen   uint8
	row      [RowSize]Kind
	deck     [numKinds]uint8 // undrawn cards by kind
	out      [numKinds]uint8 // cards that have left the game by kind

	auction    AuctionKind
	initiator  uint8
	asked      uint8 // offset from the initiator of the seat deciding (1..players)
	highBid    uint8
	highBidder uint8
	bids       [MaxPlayers]Bidding

	seats  [MaxPlayers]seatState
	scores [Rounds][MaxPlayers]tally
}

// NewState returns the state at the start of a game for the number of
// players, with the given cheque sets in seat order (nil: the rulebook sets
// A, B, ... in seat order; otherwise a permutation of them, R4).
func NewState(players int, cheques [][]int) (State, error) {
	deal, err := dealFromSets(players, cheques)
	if err != nil {
		return State{}, err
	}
	s := State{
		players:  uint8(players),
		round:    1,
		centre:   1,
		deckLeft: DeckSize,
		deck:     composition,
	}
	for i := range players {
		s.seats[i].faceUp = deal[i]
	}
	s.toMove = s.highestCheque()
	return s, nil
}

// Players returns the number of players.
func (s *State) Players() int { return int(s.players) }

// Round returns the current round, 1 to 3; 3 once the game is over.
func (s *State) Round() int { return int(s.round) }

// Phase returns what kind of decision is next.
func (s *State) Phase() Phase { return s.phase }

// Over reports whether the game is over.
func (s *State) Over() bool { return s.phase == PhaseOver }

// ToMove returns the seat that makes the next decision, or -1 once the game is over.
func (s *State) ToMove() int {
	if s.phase == PhaseOver {
		return -1
	}
	return int(s.toMove)
}

// Police returns the number of police cards on the track this round.
func (s *State) Police() int { return int(s.police) }

// PoliceLimit returns the police card that ends a round: 7, or 5 with two players (R7).
func (s *State) PoliceLimit() int {
	if s.players == 2 {
		return 5
	}
	return 7
}

// Centre returns the cheque in the centre of the table.
func (s *State) Centre() int { return int(s.centre) }

// Row returns the loot cards in the auction row, in the order they came.
func (s *State) Row() []Kind { return append([]Kind(nil), s.row[:s.rowLen]...) }

// A Position is a comparable key of a state, for the transposition
// tables of a search: two states with the same Position are alike for
// every rule. The order in which the row's cards came is left out, since
// no rule reads it (R8 takes cards by kind, R11 the whole row), so the
// same cards drawn in another order give the same Position. States alike
// for the rules may still have different Positions.
type Position struct{ s State }

// Position returns s's Position.
func (s *State) Position() Position {
	p := Position{*s}
	row := p.s.row[:p.s.rowLen]
	for i := 1; i < len(row); i++ { // insertion sort: RowSize cards at most, no allocation
		for j := i; j > 0 && row[j] < row[j-1]; j-- {
			row[j], row[j-1] = row[j-1], row[j]
		}
	}
	return p
}

// RowLen returns the number of loot cards in the auction row.
func (s *State) RowLen() int { return int(s.rowLen) }

// RowCard returns the i-th card of the auction row.
func (s *State) RowCard(i int) Kind { return s.row[i] }

// Remaining returns how many cards of kind k have not been drawn (public, R5).
func (s *State) Remaining(k Kind) int {
	if k >= numKinds {
		return 0
	}
	return int(s.deck[k])
}

// DeckLeft returns the number of undrawn cards.
func (s *State) DeckLeft() int { return int(s.deckLeft) }

// Discarded returns how many cards of kind k have left the game.
func (s *State) Discarded(k Kind) int {
	if k >= numKinds {
		return 0
	}
	return int(s.out[k])
}

// FaceUp returns the seat's face-up cheques: those it can bid this round.
func (s *State) FaceUp(seat int) Cheques { return s.seats[seat].faceUp }

// FaceDown returns the seat's face-down cheques: won this round, usable from the next.
func (s *State) FaceDown(seat int) Cheques { return s.seats[seat].faceDown }

// Holdings returns the seat's family holdings.
func (s *State) Holdings(seat int) Holdings { return s.seats[seat].holdings }

// Auction returns the kind of the running auction, or AuctionNone.
func (s *State) Auction() AuctionKind { return s.auction }

// Initiator returns the seat that started the running auction: the drawer or the caller.
func (s *State) Initiator() int { return int(s.initiator) }

// HighBid returns the highest bid of the running auction and its bidder,
// or 0 and -1 when nobody has bid. Between auctions it returns the last
// auction's winning bid and its winner, until the next auction or the
// round's end: a caller that means the running auction checks Phase.
func (s *State) HighBid() (cheque, seat int) {
	if s.highBid == 0 {
		return 0, -1
	}
	return int(s.highBid), int(s.highBidder)
}

// Bidding returns the seat's part in the running auction.
func (s *State) Bidding(seat int) Bidding { return s.bids[seat] }

// MustBid reports whether the player to move is the caller of a forced
// auction nobody has bid in, who must bid (R9).
func (s *State) MustBid() bool {
	return s.phase == PhaseAuction && s.auction == AuctionForced && s.highBid == 0 && s.toMove == s.initiator
}

// RandomCard returns a kind drawn uniformly from the undrawn cards using r,
// or NoKind when none are left. It reads only the public composition.
func (s *State) RandomCard(r *rand.Rand) Kind {
	if s.deckLeft == 0 {
		return NoKind
	}
	return s.CardAt(r.IntN(int(s.deckLeft)))
}

// CardAt returns the kind of the i-th undrawn card (0 <= i < DeckLeft),
// counting kinds in order, or NoKind for an i out of range: a uniform i
// draws a card uniformly, for callers with their own source of chance.
func (s *State) CardAt(i int) Kind {
	if i < 0 {
		return NoKind
	}
	for k := Police; k < numKinds; k++ {
		i -= int(s.deck[k])
		if i < 0 {
			return k
		}
	}
	return NoKind
}

// highestCheque returns the seat holding the highest face-up cheque, who
// starts a round (R6).
func (s *State) highestCheque() uint8 {
	best, seat := 0, uint8(0)
	for i := range s.players {
		if m := s.seats[i].faceUp.Max(); m > best {
			best, seat = m, i
		}
	}
	return seat
}

// nextActive returns the first seat after from, clockwise, that holds a
// face-up cheque; from itself if it is the only one (R13).
func (s *State) nextActive(from uint8) uint8 {
	seat := from
	for range s.players {
		if seat++; seat == s.players {
			seat = 0
		}
		if s.seats[seat].faceUp != 0 {
			return seat
		}
	}
	return from
}
