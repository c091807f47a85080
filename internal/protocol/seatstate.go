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

// A span is a member written into a stateWriter's buffer, by offsets
// (the buffer may move as it grows).
type span struct{ key, start, end int }

// A stateWriter writes an object member by member, keeping their bounds.
type stateWriter struct {
	b []byte
}

// member writes a member (after a comma unless first) whose value value
// appends, and returns its span.
func (w *stateWriter) member(first bool, key []byte, value func()) span {
	if !first {
		w.b = append(w.b, ',')
	}
	w.b = append(w.b, '"')
	k := len(w.b)
	w.b = append(append(w.b, key...), '"', ':')
	start := len(w.b)
	value()
	return span{k, start, len(w.b)}
}

func (w *stateWriter) members(spans []span) []jsonMember {
	out := make([]jsonMember, len(spans))
	for i, s := range spans {
		out[i] = jsonMember{w.b[s.key : s.start-2], w.b[s.start:s.end]}
	}
	return out
}

// SeatState returns the state of m (AppendState's bytes, and their
// members) from public, the state of the same moment for spectators
// (seat -1): m must differ from public's message only in its Seat,
// PreMove, PreMoveDropped and its view's Seat, Legal and LegalMoves.
func SeatState(public *State, m *StateMessage) (*State, error) {
	w := &stateWriter{b: make([]byte, 0, len(public.Doc)+512)}
	var top, view []span
	w.b = append(w.b, '{')
	for i, mb := range public.top {
		var value func()
		switch string(mb.key) {
		case "seat":
			value = func() { w.b = strconv.AppendInt(w.b, int64(m.Seat), 10) }
		case "preMove", "preMoveDropped":
			return nil, errNotPublic
		case "view":
			if public.view != nil && m.View != nil {
				value = func() { view = w.view(public.view, m.View) }
			}
		}
		if value == nil {
			value = func() { w.b = append(w.b, mb.value...) }
		}
		top = append(top, w.member(i == 0, mb.key, value))
	}
	if m.PreMove != "" {
		top = append(top, w.member(false, []byte("preMove"), func() { w.b = appendString(w.b, m.PreMove) }))
	}
	if m.PreMoveDropped != "" {
		top = append(top, w.member(false, []byte("preMoveDropped"), func() { w.b = appendString(w.b, m.PreMoveDropped) }))
	}
	w.b = append(w.b, '}')
	out := &State{Doc: w.b, top: w.members(top)}
	if view != nil {
		out.view = w.members(view)
	}
	return out, nil
}

// view writes the public view's members with the seat's own in place.
func (w *stateWriter) view(public []jsonMember, v *View) []span {
	spans := make([]span, 0, len(public))
	w.b = append(w.b, '{')
	for j, vm := range public {
		var value func()
		switch string(vm.key) {
		case "seat":
			value = func() { w.b = strconv.AppendInt(w.b, int64(v.Seat), 10) }
		case "legal":
			value = func() { w.b = appendStrings(w.b, v.Legal) }
		case "legalMoves":
			value = func() { w.b = appendList(w.b, v.LegalMoves, appendMove) }
		default:
			value = func() { w.b = append(w.b, vm.value...) }
		}
		spans = append(spans, w.member(j == 0, vm.key, value))
	}
	w.b = append(w.b, '}')
	return spans
}
