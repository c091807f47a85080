package match

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/tutorial"
)

// RematchWait is how long a rematch offer at a live or untimed table
// waits for answers; at a correspondence table it waits the pace's
// decision time.
const RematchWait = 2 * time.Minute

// RematchWaitOf returns how long an offer at a table of pace p waits.
func RematchWaitOf(p pace.Pace) time.Duration {
	if p.Kind == pace.Correspondence {
		return p.Decision
	}
	return RematchWait
}

// CheckRematch refuses a rematch of g when it cannot have one: a game
// not over, a table that expired (after openTTL) or was cancelled, an
// uploaded record (nobody here played it), a tutorial (started anew).
func CheckRematch(g *store.Game, openTTL time.Duration) error {
	switch {
	case g.Status.Live():
		return refuse(ErrNotOver, "the game is not over: a rematch is offered at its end")
	case g.Status == store.StatusExpired:
		return ExpiredRefusal(openTTL, g)
	case g.Status == store.StatusCancelled:
		return CancelledRefusal()
	case g.Status == store.StatusArchived:
		return refuse(ErrBadRequest, "an uploaded record has no players here to play it again: create a table")
	case IsTutorial(g.Seats):
		return refuse(ErrBadRequest, "a tutorial is not played again by rematch: start it anew")
	}
	return nil
}

// IsTutorial reports whether seats are a tutorial's: its bots play.
func IsTutorial(seats []store.Seat) bool {
	for _, s := range seats {
		if s.Bot == tutorial.Bot {
			return true
		}
	}
	return false
}

// DecodeOffer reads the stored rematch offer of g: nil for none.
func DecodeOffer(g *store.Game) (*protocol.RematchOffer, error) {
	if g.Rematch == nil {
		return nil, nil
	}
	var o protocol.RematchOffer
	if err := json.Unmarshal(g.Rematch, &o); err != nil {
		return nil, fmt.Errorf("the stored rematch offer: %w", err)
	}
	if len(o.Answers) != len(g.Seats) || o.By < 0 || o.By >= len(g.Seats) {
		return nil, fmt.Errorf("the stored rematch offer has %d answers and offerer %d for %d seats", len(o.Answers), o.By, len(g.Seats))
	}
	return &o, nil
}

// A NewOffer names the game a first acceptance offers and how long the
// offer waits; the caller makes it only when an offer is made.
type NewOffer func() (game string, wait time.Duration, err error)

// AnswerRematch decides the answer of seat (accept or decline) at now to
// the rematch of a finished game of seats, whose offer is offer (nil for
// none): a first acceptance makes the offer (newOffer). A tournament's
// table (Timing.Tournament) has none. It returns the
// offer as it is to be stored, settled if every seat answered; or lapsed
// when the open offer's time ran out, to be settled first (Settle); or a
// *Refusal.
func AnswerRematch(seats []store.Seat, tournament bool, offer *protocol.RematchOffer, seat int, accept bool, now time.Time, newOffer NewOffer) (next protocol.RematchOffer, lapsed bool, err error) {
	switch {
	case seat < 0 || seat >= len(seats):
		return next, false, refuse(ErrNotYourSeat, "only the players of the game may offer or answer its rematch")
	case tournament:
		return next, false, refuse(ErrTournamentRematch, "a tournament's game has no rematch: the tournament seats your next game")
	case offer != nil && offer.State == protocol.RematchOpen && !now.Before(offer.Expires):
		return next, true, nil
	case offer == nil && !accept:
		return next, false, refuse(ErrRematch, "nobody offered a rematch of this game: there is nothing to decline")
	case offer == nil:
		game, wait, err := newOffer()
		if err != nil {
			return next, false, &Refusal{Kind: ErrInternal, Msg: "internal error: please try again", Err: err}
		}
		next = protocol.RematchOffer{By: seat, State: protocol.RematchOpen, Answers: make([]string, len(seats)),
			Expires: now.Add(wait).UTC(), Game: game}
		for i, s := range seats {
			if s.Bot != "" || i == seat {
				next.Answers[i] = protocol.RematchYes // the offerer and the bots accept
			}
		}
	case offer.State != protocol.RematchOpen:
		return next, false, refuse(ErrRematch, "this game's rematch was offered already and has %s: one offer per game", offer.State)
	case offer.Answers[seat] != "":
		return next, false, refuse(ErrRematch, "you answered this rematch already")
	default:
		next = *offer
		next.Answers = slices.Clone(offer.Answers)
		next.Answers[seat] = protocol.RematchNo
		if accept {
			next.Answers[seat] = protocol.RematchYes
		}
	}
	if !slices.Contains(next.Answers, "") {
		next = Settle(next)
	}
	return next, false, nil
}

// Settle ends an open offer whose answers are in or whose time ran out
// (no answer counts as no): it starts if enough seats accepted, else it
// lapses.
func Settle(o protocol.RematchOffer) protocol.RematchOffer {
	o.State = protocol.RematchStarted
	if Accepted(o) < razzia.MinPlayers {
		o.State = protocol.RematchLapsed
	}
	return o
}

// Accepted counts the seats that accepted o.
func Accepted(o protocol.RematchOffer) int {
	n := 0
	for _, a := range o.Answers {
		if a == protocol.RematchYes {
			n++
		}
	}
	return n
}
