// Package premove decides conditional bids: a choice entered ahead by a
// player who is not yet to decide in an auction, as play-by-mail Ra
// players finish games in weeks.
//
// A player still to decide in the running auction (R10) may enter "pass"
// or "bid N" ahead. Enter refuses at once a pre-move that can never be
// played: outside an auction, a turn's action, a cheque the player does
// not hold face up, a bid not above the highest bid, or a seat that has
// decided already or will be passed over (R10, R13). When the seat comes
// to decide, Resolve plays the pre-move if it is still legal, and drops it
// otherwise, so the player is asked: a bid is dropped when the highest bid
// has reached it, a pass by the caller of a forced auction nobody bid in,
// who must bid (R9). A pre-move is for one auction only: once that auction
// is over it expires unplayed.
//
// Functions here are pure: they read a razzia.State and change nothing.
// The table keeps at most one PreMove per seat (a new one replaces it),
// shows it to its owner only, and calls Resolve after every move.
package premove

import (
	"errors"
	"fmt"

	"github.com/razziagame/razzia"
)

// Errors of Enter and reasons of a dropped pre-move, besides the engine's
// sentinels it also wraps (razzia.ErrGameOver, razzia.ErrNoAuction,
// razzia.ErrInAuction, razzia.ErrNotHeld, razzia.ErrBidTooLow,
// razzia.ErrMustBid, razzia.ErrSyntax).
var (
	ErrNoSeat     = errors.New("no such seat")
	ErrYourTurn   = errors.New("it is their decision now")
	ErrDecided    = errors.New("already decided in this auction")
	ErrPassedOver = errors.New("will be passed over")
	ErrOutbid     = errors.New("the highest bid reached the pre-entered bid")
)

// An Error reports a pre-move refused at entry or dropped when due.
type Error struct {
	Seat   int
	Move   razzia.Move
	Err    error // a sentinel of this package or of the engine
	detail string
}

func (e *Error) Error() string {
	return fmt.Sprintf("seat %d: %s ahead: %s", e.Seat+1, e.Move, e.detail)
}

func (e *Error) Unwrap() error { return e.Err }

// An Auction identifies one auction of a game: no two auctions of a game
// have the same Auction. Within a round every auction starts with a card
// drawn (fewer cards left) or is forced, and a forced auction always has a
// winner whose cheque goes to the centre, so the next one by the same caller
// starts with a new centre cheque (R9, R11).
type Auction struct {
	Round     int
	Kind      razzia.AuctionKind
	Initiator int
	DeckLeft  int
	Centre    int
}

// AuctionOf returns the running auction of s, or the zero Auction when
// none runs.
func AuctionOf(s *razzia.State) Auction {
	if s.Phase() != razzia.PhaseAuction {
		return Auction{}
	}
	return Auction{Round: s.Round(), Kind: s.Auction(), Initiator: s.Initiator(), DeckLeft: s.DeckLeft(), Centre: s.Centre()}
}

// A PreMove is a choice a seat entered ahead for one auction. It is a
// small comparable value the store can keep; build it with Enter.
type PreMove struct {
	Seat    int
	Move    razzia.Move // razzia.Pass() or razzia.Bid(n)
	Auction Auction
}

// Enter checks a pre-move the seat enters in state s and returns it, or an
// *Error saying why it can never be played.
func Enter(s *razzia.State, seat int, m razzia.Move) (PreMove, error) {
	fail := func(err error, format string, args ...any) (PreMove, error) {
		return PreMove{}, &Error{Seat: seat, Move: m, Err: err, detail: fmt.Sprintf(format, args...)}
	}
	high, _ := s.HighBid()
	switch {
	case seat < 0 || seat >= s.Players():
		return fail(ErrNoSeat, "there are %d seats", s.Players())
	case m != razzia.Pass() && (m.Action != razzia.ActionBid || m != razzia.Bid(int(m.Cheque)) || m.Cheque == 0):
		if m.Action >= razzia.ActionDraw && m.Action <= razzia.ActionCall {
			return fail(razzia.ErrInAuction, "only a pass or a bid can be entered ahead, for an auction")
		}
		return fail(razzia.ErrSyntax, "it is not a pass or a bid")
	case s.Over():
		return fail(razzia.ErrGameOver, "the game is over")
	case s.Phase() != razzia.PhaseAuction:
		return fail(razzia.ErrNoAuction, "no auction is running, and a pre-move is for the running one (R10)")
	case seat == s.ToMove():
		return fail(ErrYourTurn, "it is their decision now: play it")
	case s.Bidding(seat) != razzia.BiddingUndecided:
		return fail(ErrDecided, "they have had their chance in this auction (%s)", s.Bidding(seat))
	case s.FaceUp(seat).Above(high) == 0:
		return fail(ErrPassedOver, "they hold no face-up cheque above the highest bid, so they will be passed over (R10)")
	}
	if m.Action == razzia.ActionBid {
		v := int(m.Cheque)
		switch {
		case !s.FaceUp(seat).Has(v):
			return fail(razzia.ErrNotHeld, "their face-up cheques are %s", s.FaceUp(seat))
		case v <= high:
			return fail(razzia.ErrBidTooLow, "the highest bid is already %d, and bids only rise (R10)", high)
		}
	}
	return PreMove{Seat: seat, Move: m, Auction: AuctionOf(s)}, nil
}

// A Verdict is what to do with a pre-move in the current state.
type Verdict uint8

// The verdicts of Resolve.
const (
	Wait   Verdict = iota // not due yet: keep it
	Play                  // due and legal: play Move for the seat now
	Drop                  // due but no longer legal: discard it and ask the player
	Expire                // its auction is over or the seat will not be asked: discard it
)

func (v Verdict) String() string {
	switch v {
	case Wait:
		return "wait"
	case Play:
		return "play"
	case Drop:
		return "drop"
	case Expire:
		return "expire"
	}
	return fmt.Sprintf("Verdict(%d)", uint8(v))
}

// Resolve says what to do with p in state s. A Drop comes with an *Error
// telling the player why (ErrOutbid, or razzia.ErrMustBid for the caller of
// a forced auction nobody bid in); the other verdicts with nil. A pre-move
// resolved to Play is legal in s.
func (p PreMove) Resolve(s *razzia.State) (Verdict, error) {
	if p.Auction == (Auction{}) || AuctionOf(s) != p.Auction || p.Seat < 0 || p.Seat >= s.Players() ||
		s.Bidding(p.Seat) != razzia.BiddingUndecided {
		return Expire, nil
	}
	if s.ToMove() != p.Seat {
		return Wait, nil
	}
	err := s.Check(p.Move)
	if err == nil {
		return Play, nil
	}
	drop := &Error{Seat: p.Seat, Move: p.Move, Err: err, detail: err.Error()}
	if high, _ := s.HighBid(); errors.Is(err, razzia.ErrBidTooLow) {
		drop.Err, drop.detail = ErrOutbid, fmt.Sprintf("the highest bid is now %d; it is their decision", high)
	} else if errors.Is(err, razzia.ErrMustBid) {
		drop.Err, drop.detail = razzia.ErrMustBid, "nobody bid in the forced auction they called, so they must bid (R9)"
	}
	return Drop, drop
}
