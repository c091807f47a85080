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

// key writes a member's key (after a comma unless first) and returns its
// span, whose value end closes.
func (w *stateWriter) key(first bool, key []byte) span {
	if !first {
		w.b = append(w.b, ',')
	}
	w.b = append(w.b, '"')
	k := len(w.b)
	w.b = append(append(w.b, key...), '"', ':')
	return span{key: k, start: len(w.b)}
}

// end returns the span with its value ended where the buffer is.
func (w *stateWriter) end(s span) span {
	s.end = len(w.b)
	return s
}

// members returns the spans as members, in one slice with room for more.
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
	var topBuf [16]span
	var viewBuf [32]span
	top, view := topBuf[:0], viewBuf[:0]
	w.b = append(w.b, '{')
	for i, mb := range public.top {
		sp := w.key(i == 0, mb.key)
		switch string(mb.key) {
		case "seat":
			w.b = strconv.AppendInt(w.b, int64(m.Seat), 10)
		case "preMove", "preMoveDropped":
			return nil, errNotPublic
		case "view":
			if public.view != nil && m.View != nil {
				view = w.view(view, public.view, m.View)
			} else {
				w.b = append(w.b, mb.value...)
			}
		default:
			w.b = append(w.b, mb.value...)
		}
		top = append(top, w.end(sp))
	}
	if m.PreMove != "" {
		sp := w.key(false, []byte("preMove"))
		w.b = appendString(w.b, m.PreMove)
		top = append(top, w.end(sp))
	}
	if m.PreMoveDropped != "" {
		sp := w.key(false, []byte("preMoveDropped"))
		w.b = appendString(w.b, m.PreMoveDropped)
		top = append(top, w.end(sp))
	}
	w.b = append(w.b, '}')
	out := &State{Doc: w.b, top: w.members(top)}
	if len(view) > 0 {
		out.view = w.members(view)
	}
	return out, nil
}

// view writes the public view's members with the seat's own in place,
// their spans appended to spans.
func (w *stateWriter) view(spans []span, public []jsonMember, v *View) []span {
	w.b = append(w.b, '{')
	for j, vm := range public {
		sp := w.key(j == 0, vm.key)
		switch string(vm.key) {
		case "seat":
			w.b = strconv.AppendInt(w.b, int64(v.Seat), 10)
		case "legal":
			w.b = appendStrings(w.b, v.Legal)
		case "gains":
			w.b = v.appendGains(w.b)
		default:
			w.b = append(w.b, vm.value...)
		}
		spans = append(spans, w.end(sp))
	}
	w.b = append(w.b, '}')
	return spans
}
