package table

import (
	"slices"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/premove"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// Pre-moves (issue 12): a player not yet to decide in the running auction
// enters "pass" or "bid N" ahead (internal/premove judges them). The table
// keeps at most one per seat, stored with its timing, shows it to its
// owner only, and plays it when the seat comes to decide, unless it is no
// longer legal: then it is dropped, with the reason, and the player is
// asked as usual.

// A storedPreMove is a pre-move as the table stores it.
type storedPreMove struct {
	Seat    int             `json:"seat"`
	Move    string          `json:"move"` // a record token: "pass" or "bid N"
	Auction premove.Auction `json:"auction"`
	// Dropped is why it was not played when due; it is kept, to tell its
	// owner, until the seat decides.
	Dropped string `json:"dropped,omitempty"`
}

// preMove returns the stored pre-move as internal/premove takes it.
func (p storedPreMove) preMove() (premove.PreMove, error) {
	m, err := razzia.ParseMove(p.Move)
	return premove.PreMove{Seat: p.Seat, Move: m, Auction: p.Auction}, err
}

// livePreMoves returns the pre-moves that may still be played or told
// in state s: those of auctions that are over, or of seats that will not
// be asked, expire.
func livePreMoves(list []storedPreMove, s *razzia.State) []storedPreMove {
	return slices.DeleteFunc(list, func(p storedPreMove) bool {
		if p.Dropped != "" {
			return false
		}
		pm, err := p.preMove()
		if err != nil {
			return true
		}
		v, err := pm.Resolve(s)
		return err == nil && v == premove.Expire
	})
}

// preMoveOf returns the seat's pre-move for its own state messages: the
// token, and why it was dropped if it was.
func (l *loop) preMoveOf(seat int) (move, dropped string) {
	p := preMoveOf(l.timing, seat)
	return p.Move, p.Dropped
}

// preMoveOf returns the seat's stored pre-move in t, or the zero one.
func preMoveOf(t timing, seat int) storedPreMove {
	for _, p := range t.PreMoves {
		if p.Seat == seat {
			return p
		}
	}
	return storedPreMove{}
}

// enterPreMove stores the seat's pre-move (tok), replacing its last one;
// an empty tok withdraws it. Only the owner's watchers are told.
func (l *loop) enterPreMove(hash []byte, tok string) error {
	seat := seatOf(l.seats, hash)
	if err := l.seatPlaying(seat); err != nil {
		return err
	}
	if tok != "" {
		if err := l.takeBack(seat); err != nil { // deciding is coming back
			return err
		}
	}
	next := l.timing.clone()
	next.PreMoves = slices.DeleteFunc(next.PreMoves, func(p storedPreMove) bool { return p.Seat == seat })
	if tok != "" {
		m, err := razzia.ParseMove(tok)
		if err != nil {
			return &Error{Kind: ErrIllegalMove, Msg: "a pre-move is \"pass\" or \"bid N\": " + err.Error(), Err: err}
		}
		s := l.game.State()
		pm, err := premove.Enter(&s, seat, m)
		if err != nil {
			return &Error{Kind: ErrIllegalMove, Msg: "this pre-move cannot be entered: " + err.Error(), Err: err}
		}
		next.PreMoves = append(next.PreMoves, storedPreMove{Seat: seat, Move: pm.Move.String(), Auction: pm.Auction})
	}
	if err := l.saveTiming(next); err != nil {
		return reject(ErrInternal, "could not store your pre-move: please try again")
	}
	l.tellSeat(seat)
	return nil
}

// tellSeat sends the seat's watchers the state: a change only they see.
func (l *loop) tellSeat(seat int) {
	info := l.info()
	c := &change{}
	for s := range l.subs {
		if s.seat == seat {
			l.send(s, info, map[int][]razzia.Event{}, c, map[int]*protocol.View{})
		}
	}
}

// playPreMove plays the pre-move of the seat to move, if it has one and
// it is still legal, or drops it and tells its owner why.
func (l *loop) playPreMove() {
	if l.game == nil || l.status != store.StatusPlaying {
		return
	}
	seat := l.game.ToMove()
	i := slices.IndexFunc(l.timing.PreMoves, func(p storedPreMove) bool { return p.Seat == seat && p.Dropped == "" })
	if i < 0 || !l.personPlays(seat) {
		return
	}
	pm, err := l.timing.PreMoves[i].preMove()
	s := l.game.State()
	var v premove.Verdict
	if err == nil {
		v, err = pm.Resolve(&s)
	}
	if v == premove.Play && err == nil {
		if l.play(pm.Move, time.Now()) == nil {
			l.h.log.Info("pre-move played", "game", l.id, "seat", seat)
			return
		}
	}
	next := l.timing.clone()
	if err != nil {
		next.PreMoves[i].Dropped = err.Error()
	} else {
		next.PreMoves = slices.Delete(next.PreMoves, i, i+1)
	}
	if l.saveTiming(next) == nil {
		l.tellSeat(seat)
	}
}
