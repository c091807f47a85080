package protocol

import (
	"errors"
	"strconv"
)

// A server sends each seat at a table a state of its own, and the seats'
// states differ from the spectators' only in a few members: the seat, the
// seat's pre-move, and the view's seat and legal moves (View.ForSeat).
// SeatState makes a seat's state from the spectators' by replacing those,
// so that a change is encoded once, however many seats see it.

// errNotPublic is SeatState's error for a state that is not a
// spectator's as AppendState encodes it.
var errNotPublic = errors.New("protocol: not a spectator's encoded state")

// SeatState returns the state of m (AppendState's members) from public,
// the state of the same moment for spectators (seat -1): m must differ
// from public's message only in its Seat, PreMove, PreMoveDropped and its
// view's Seat, Legal and LegalMoves. It shares public's bytes and writes
// only the seat's own members: its Doc is nil (encoded writes it out),
// and its view is known by its members alone.
func SeatState(public *State, m *StateMessage) (*State, error) {
	// The state, its members and its own values in one allocation, where
	// those of any table fit.
	a := new(seatAlloc)
	out := a.members[:0]
	if n := len(public.top) + 2 + len(public.view); n > len(a.members) {
		out = make([]jsonMember, 0, n)
	}
	own := a.own[:0] // grows elsewhere if it must
	// The members whose values are the seat's own, in own: set once own
	// stops growing.
	var fixBuf [8]struct{ i, start, end int }
	fix := fixBuf[:0]
	mine := func(key []byte, start int) {
		fix = append(fix, struct{ i, start, end int }{len(out), start, len(own)})
		out = append(out, jsonMember{key: key})
	}
	split := public.view != nil && m.View != nil
	for _, mb := range public.top {
		switch string(mb.key) {
		case "seat":
			start := len(own)
			own = strconv.AppendInt(own, int64(m.Seat), 10)
			mine(mb.key, start)
		case "preMove", "preMoveDropped":
			return nil, errNotPublic
		default:
			out = append(out, mb) // the view's too: a seat's is known by its members
		}
	}
	if m.PreMove != "" {
		start := len(own)
		own = appendString(own, m.PreMove)
		mine(keyPreMove, start)
	}
	if m.PreMoveDropped != "" {
		start := len(own)
		own = appendString(own, m.PreMoveDropped)
		mine(keyPreMoveDropped, start)
	}
	top := len(out)
	if split {
		v := m.View
		for _, vm := range public.view {
			start := len(own)
			switch string(vm.key) {
			case "seat":
				own = strconv.AppendInt(own, int64(v.Seat), 10)
			case "legal":
				own = appendStrings(own, v.Legal)
			case "gains":
				own = v.appendGains(own)
			default:
				out = append(out, vm)
				continue
			}
			mine(vm.key, start)
		}
	}
	for _, f := range fix {
		out[f.i].value = own[f.start:f.end:f.end]
	}
	a.st = State{top: out[:top:top], split: split, public: public}
	st := &a.st
	if split {
		st.view = out[top:]
	}
	return st, nil
}

// A seatAlloc is SeatState's state with room for its members (a state
// of five seats has 24) and its own values, sized so that it takes no
// more bytes than the three allocations it replaces.
type seatAlloc struct {
	st      State
	members [24]jsonMember
	own     [128]byte // a seat's who is not to move: the mover's legal moves take more
}

var (
	keyPreMove        = []byte("preMove")
	keyPreMoveDropped = []byte("preMoveDropped")
)

// encoded returns the state's bytes: Doc, or its members written out.
func (s *State) encoded() []byte {
	if s.Doc != nil {
		return s.Doc
	}
	return s.appendObject(nil, s.top, true)
}

// appendObject appends the object of members ms (top: the state's own),
// the view written from its members when they are the state's own.
func (s *State) appendObject(b []byte, ms []jsonMember, top bool) []byte {
	b = append(b, '{')
	for i, m := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(append(b, m.key...), '"', ':')
		if s.split && top && string(m.key) == "view" {
			b = s.appendObject(b, s.view, false)
			continue
		}
		b = append(b, m.value...)
	}
	return append(b, '}')
}
