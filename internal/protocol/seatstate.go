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
// view's Seat, Legal and LegalMoves. It shares public's bytes and keeps
// only the seat's own values and where they go among public's members:
// its Doc is nil (encoded writes it out), its lists of members are made
// when it is diffed (lists), and its view is known by its members alone.
func SeatState(public *State, m *StateMessage) (*State, error) {
	if public.public != nil {
		return nil, errNotPublic
	}
	// The state and its own values in one allocation, where those of any
	// table fit.
	a := new(seatAlloc)
	own, fix := a.own[:0], a.fix[:0] // grow elsewhere if they must
	mine := func(at int, view bool, start int) {
		fix = append(fix, ownFix{at: int32(at), view: view, start: int32(start), end: int32(len(own))})
	}
	split := public.view != nil && m.View != nil
	for i, mb := range public.top {
		switch string(mb.key) {
		case "seat":
			start := len(own)
			own = strconv.AppendInt(own, int64(m.Seat), 10)
			mine(i, false, start)
		case "preMove", "preMoveDropped":
			return nil, errNotPublic
		}
	}
	if m.PreMove != "" {
		start := len(own)
		own = appendString(own, m.PreMove)
		mine(addPreMove, false, start)
	}
	if m.PreMoveDropped != "" {
		start := len(own)
		own = appendString(own, m.PreMoveDropped)
		mine(addPreMoveDropped, false, start)
	}
	if split {
		v := m.View
		for i, vm := range public.view {
			start := len(own)
			switch string(vm.key) {
			case "seat":
				own = strconv.AppendInt(own, int64(v.Seat), 10)
			case "legal":
				own = appendStrings(own, v.Legal)
			case "gains":
				own = v.appendGains(own)
			default:
				continue
			}
			mine(i, true, start)
		}
	}
	a.st = State{split: split, public: public, own: own, fix: fix}
	return &a.st, nil
}

// A seatAlloc is SeatState's state with room for its own values: a
// seat's state is made at every change, for every seat.
type seatAlloc struct {
	st  State
	fix [6]ownFix
	own [128]byte // a seat's who is not to move: the mover's legal moves take more
}

// An ownFix is where one of a seat's own values (own[start:end]) goes:
// it replaces public's member at of the top's or the view's (view), or
// is added to the top's (at addPreMove, addPreMoveDropped).
type ownFix struct {
	at         int32
	start, end int32
	view       bool
}

const (
	addPreMove        = -1
	addPreMoveDropped = -2
)

var (
	keyPreMove        = []byte("preMove")
	keyPreMoveDropped = []byte("preMoveDropped")
)

// lists returns the state's members, its top's and its view's (nil when
// it is not known by its members): a seat's made in s from public's and
// its own values, valid until s is given back.
func (st *State) lists(s *diffScratch) (top, view []jsonMember) {
	p := st.public
	if p == nil {
		return st.top, st.view
	}
	start := len(s.members)
	all := append(s.members, p.top...)
	for _, f := range st.fix {
		if f.view {
			continue
		}
		v := st.own[f.start:f.end:f.end]
		switch f.at {
		case addPreMove:
			all = append(all, jsonMember{keyPreMove, v})
		case addPreMoveDropped:
			all = append(all, jsonMember{keyPreMoveDropped, v})
		default:
			all[start+int(f.at)].value = v
		}
	}
	mid := len(all)
	if st.split {
		all = append(all, p.view...)
		for _, f := range st.fix {
			if f.view {
				all[mid+int(f.at)].value = st.own[f.start:f.end:f.end]
			}
		}
	}
	s.members = all
	if st.split {
		view = all[mid:len(all):len(all)]
	}
	return all[start:mid:mid], view
}

// encoded returns the state's bytes: Doc, or its members written out.
func (st *State) encoded() []byte {
	if st.Doc != nil {
		return st.Doc
	}
	s := getScratch()
	defer putScratch(s)
	top, view := st.lists(s)
	return appendMembers(nil, top, view)
}

// appendMembers appends the object of members ms, the view's written
// from view's members when set (a seat's state known by its members).
func appendMembers(b []byte, ms, view []jsonMember) []byte {
	b = append(b, '{')
	for i, m := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(append(b, m.key...), '"', ':')
		if view != nil && string(m.key) == "view" {
			b = appendMembers(b, view, nil)
			continue
		}
		b = append(b, m.value...)
	}
	return append(b, '}')
}
