package pace

import (
	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/jsonscan"
)

// ReadJSON decodes the clock that AppendJSON wrote at the start of b, as
// UnmarshalJSON would, without reflection and mostly without allocating:
// every node that follows a game decodes the clock of each of its moves.
// It returns the clock and its length in b; ok is false for anything
// AppendJSON does not write (another order of the keys, white space, an
// escape, ...) or a clock UnmarshalJSON refuses: decode those with
// UnmarshalJSON, which ReadJSON never contradicts (FuzzReadJSON).
func ReadJSON(b []byte) (c Clock, n int, ok bool) {
	r := reader{b: b, ok: true}
	// Locals, not a paceJSON and a clockJSON: escape analysis would move
	// what their fields point to to the heap.
	var (
		kind              Kind
		grace             int64
		graceMs           *int64
		seat              *int
		reserves          [razzia.MaxPlayers]int64
		players           int
		decision, reserve int64
		seated            int
		started           int64
	)
	r.lit(`{"pace":{"id":`)
	id := r.id()
	r.lit(`,"kind":`)
	r.kind(&kind)
	r.lit(`,"decisionMs":`)
	decision = r.int()
	r.lit(`,"reserveMs":`)
	reserve = r.int()
	if r.maybe(`,"graceMs":`) {
		grace = r.int()
		graceMs = &grace
	}
	r.lit(`},"reserveMs":[`)
	for r.ok && players < len(reserves) {
		reserves[players] = r.int()
		players++
		if !r.maybe(",") {
			break
		}
	}
	r.lit("]")
	if r.maybe(`,"seat":`) {
		seated = int(r.int()) // at most 18 digits
		seat = &seated
		if r.maybe(`,"startedMs":`) {
			started = r.int()
		}
	}
	reminded := r.maybe(`,"reminded":true`)
	r.lit("}")
	if !r.ok {
		return Clock{}, 0, false
	}
	p, err := paceOf(id, kind, decision, reserve, graceMs)
	if err != nil {
		return Clock{}, 0, false
	}
	if c, err = clockOf(p, reserves[:players], seat, started, reminded); err != nil {
		return Clock{}, 0, false
	}
	return c, r.i, true
}

// A reader reads b from i on until something is not as expected (ok
// false).
type reader struct {
	b  []byte
	i  int
	ok bool
}

// lit reads s.
func (r *reader) lit(s string) {
	if !r.maybe(s) {
		r.ok = false
	}
}

// maybe reads s if it comes next, and reports whether it did.
func (r *reader) maybe(s string) bool {
	if r.ok && len(r.b)-r.i >= len(s) && string(r.b[r.i:r.i+len(s)]) == s {
		r.i += len(s)
		return true
	}
	return false
}

// int reads an integer as encoding/json writes it.
func (r *reader) int() int64 {
	if !r.ok {
		return 0
	}
	x, n, ok := jsonscan.Int(r.b[r.i:], true)
	r.i += n
	r.ok = ok
	return x
}

// text reads a string without escapes of printable ASCII, and returns
// its bytes.
func (r *reader) text() []byte {
	if !r.maybe(`"`) {
		r.ok = false
		return nil
	}
	start := r.i
	for ; r.i < len(r.b); r.i++ {
		switch c := r.b[r.i]; {
		case c == '"':
			r.i++
			return r.b[start : r.i-1]
		case c < 0x20 || c >= 0x7f || c == '\\':
			r.ok = false
			return nil
		}
	}
	r.ok = false
	return nil
}

// id reads a pace's id, a preset's without a copy.
func (r *reader) id() string {
	t := r.text()
	for _, p := range presets {
		if p.ID == string(t) {
			return p.ID
		}
	}
	return string(t)
}

// kind reads a pace's kind into k.
func (r *reader) kind(k *Kind) {
	if t := r.text(); r.ok && k.UnmarshalText(t) != nil {
		r.ok = false
	}
}
