package protocol

import (
	"bytes"
	"errors"
	"strconv"
	"sync"
)

// AppendDiff and AppendPatched are Patch's rules on encoded JSON: a
// server makes a patch for each seat at each change from the two states
// it encoded anyway, and a client applies it to the bytes of its state,
// without decoding either into maps (which would cost more than the
// whole state's encoding).

// ErrNotPatchable is the error of AppendDiff for two documents whose
// change Patch's rules cannot say: an array that becomes an object, or
// an object an array (the protocol's types never change so).
var ErrNotPatchable = errors.New("protocol: the change cannot be written as a patch")

// AppendDiff appends to dst the patch that turns the JSON document a into
// b (see Patch), and reports whether they are the same (then it appends
// nothing). Both must be valid JSON, as this package encodes it (no
// spaces, keys without escapes): a document it cannot read is an error.
// A member b has as null and a lacks (or the reverse) is the same: a
// member a patch removed reads as null.
func AppendDiff(dst, a, b []byte) ([]byte, bool, error) {
	s := getScratch()
	defer putScratch(s)
	return s.diff(dst, a, b)
}

// A diffScratch holds the members and elements a diff's nested objects
// and arrays are split into, each level's after its parent's and cut
// off when it returns: lists kept on the stack would make each level's
// frame kilobytes, and a server's sockets diff states on goroutines
// whose stacks then grow (and, shrunk by the garbage collector while
// idle, grow again at the next move).
type diffScratch struct {
	members []jsonMember
	elems   [][]byte
}

var diffScratches = sync.Pool{New: func() any {
	return &diffScratch{members: make([]jsonMember, 0, 128), elems: make([][]byte, 0, 64)}
}}

func getScratch() *diffScratch { return diffScratches.Get().(*diffScratch) }

// putScratch gives s back, emptied, unless a rare document made it
// large.
func putScratch(s *diffScratch) {
	if cap(s.members) <= 1024 && cap(s.elems) <= 1024 {
		s.members, s.elems = s.members[:0], s.elems[:0]
		diffScratches.Put(s)
	}
}

// diff is AppendDiff.
func (s *diffScratch) diff(dst, a, b []byte) ([]byte, bool, error) {
	if bytes.Equal(a, b) {
		return dst, true, nil
	}
	switch {
	case isObject(a) && isObject(b):
		return s.objects(dst, a, b)
	case isArray(a) && isArray(b):
		return s.arrays(dst, a, b)
	case isArray(a) && isObject(b), isObject(a) && isArray(b):
		return dst, false, ErrNotPatchable
	}
	return append(dst, b...), false, nil
}

func isObject(v []byte) bool { return len(v) > 0 && v[0] == '{' }
func isArray(v []byte) bool  { return len(v) > 0 && v[0] == '[' }
func isNull(v []byte) bool   { return len(v) == 0 || string(v) == "null" }

// A member is a key and its value, both as encoded (the key without its
// quotes).
type jsonMember struct{ key, value []byte }

// objectMembers returns the members of the object v, appended to buf.
// It trusts v to be JSON as this package encodes it (the server's own
// states) and only finds the members' bounds, several times faster than
// checking it: what it cannot read is an error, and a client decodes the
// state it patched, which checks it.
func objectMembers(buf []jsonMember, v []byte) ([]jsonMember, error) {
	ms, _, err := objectMembersAt(buf, v, 0, nil)
	return ms, err
}

// objectMembersAt is objectMembers of the object at v[i], and returns
// the index just past it too. With view set, the first member named
// "view", when its value is an object, has its members found into *view
// in the same pass, not skipped first and read again (NewState).
func objectMembersAt(buf []jsonMember, v []byte, i int, view *[]jsonMember) ([]jsonMember, int, error) {
	bad := errNotObject
	if i >= len(v) || v[i] != '{' {
		return nil, 0, bad
	}
	i = skipSpace(v, i+1)
	if i < len(v) && v[i] == '}' {
		return buf, i + 1, nil
	}
	for {
		kend := skipString(v, i)
		if kend < 0 {
			return nil, 0, bad
		}
		key := v[i+1 : kend-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return nil, 0, bad
		}
		i = skipSpace(v, kend)
		if i >= len(v) || v[i] != ':' {
			return nil, 0, bad
		}
		start := skipSpace(v, i+1)
		var end int
		if view != nil && string(key) == "view" {
			if start < len(v) && v[start] == '{' {
				var err error
				if *view, end, err = objectMembersAt(*view, v, start, nil); err != nil {
					return nil, 0, err
				}
			} else {
				end = skipValue(v, start)
			}
			view = nil // the first only
		} else {
			end = skipValue(v, start)
		}
		if end < 0 {
			return nil, 0, bad
		}
		buf = append(buf, jsonMember{key, v[start:end]})
		if i = skipSpace(v, end); i >= len(v) {
			return nil, 0, bad
		}
		switch v[i] {
		case '}':
			return buf, i + 1, nil
		case ',':
			i = skipSpace(v, i+1)
		default:
			return nil, 0, bad
		}
	}
}

var (
	errNotObject = errors.New("protocol: not a JSON object without escaped keys")
	errNotArray  = errors.New("protocol: not a JSON array")
)

// skipValue returns the index just past the value at i, or -1 where it
// cannot find its end; it only finds the bounds (see objectMembers).
func skipValue(v []byte, i int) int {
	if i >= len(v) {
		return -1
	}
	switch v[i] {
	case '"':
		return skipString(v, i)
	case '{', '[':
		depth := 0
		for ; i < len(v); i++ {
			switch v[i] {
			case '"':
				if i = skipString(v, i); i < 0 {
					return -1
				}
				i--
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	start := i
	for i < len(v) && v[i] != ',' && v[i] != '}' && v[i] != ']' && v[i] != ' ' && v[i] != '\n' && v[i] != '\t' && v[i] != '\r' {
		i++
	}
	if i == start {
		return -1
	}
	return i
}

// skipString returns the index just past the string at i, or -1.
func skipString(v []byte, i int) int {
	if i >= len(v) || v[i] != '"' {
		return -1
	}
	for i++; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// objects appends the patch of object a into object b.
func (s *diffScratch) objects(dst, a, b []byte) ([]byte, bool, error) {
	start := len(s.members)
	defer func() { s.members = s.members[:start] }()
	all, err := objectMembers(s.members, a)
	if err != nil {
		return dst, false, err
	}
	mid := len(all)
	if all, err = objectMembers(all, b); err != nil {
		return dst, false, err
	}
	// Members a deeper level appends may move s.members: these stay.
	s.members = all
	return diffMembers(dst, all[start:mid], all[mid:], &differ{s: s})
}

// diffMembers appends the patch of the object of members am into that of
// bm, f diffing the members' values (a State's knows its view's members:
// statediff.go).
func diffMembers(dst []byte, am, bm []jsonMember, f *differ) ([]byte, bool, error) {
	var err error
	start := len(dst)
	dst = append(dst, '{')
	n := 0
	add := func(key []byte) {
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = append(dst, '"')
		dst = append(dst, key...)
		dst = append(dst, '"', ':')
	}
	next := 0 // where the search in a starts: both usually list the keys in one order
	// found marks the members of a (the first 64) found in b: those are
	// not searched for again to tell what b removed.
	var found uint64
	for _, m := range bm {
		var av []byte
		if i := findIndex(am, m.key, &next); i >= 0 {
			av = am[i].value
			found |= 1 << i // 0 past 64
		}
		switch {
		case isNull(av) && isNull(m.value):
		case isNull(m.value):
			add(m.key)
			dst = append(dst, "null"...)
		default:
			mark := len(dst)
			add(m.key)
			var same bool
			if dst, same, err = f.value(dst, m.key, av, m.value); err != nil {
				return dst[:start], false, err
			}
			if same {
				dst, n = dst[:mark], n-1
			}
		}
	}
	for i, m := range am {
		if found&(1<<i) == 0 && !isNull(m.value) && find(bm, m.key, new(int)) == nil {
			add(m.key)
			dst = append(dst, "null"...)
		}
	}
	if n == 0 {
		return dst[:start], true, nil
	}
	return append(dst, '}'), false, nil
}

// find returns the value of key among ms, nil when it is not there,
// starting its search at *next and moving *next past what it found.
func find(ms []jsonMember, key []byte, next *int) []byte {
	if i := findIndex(ms, key, next); i >= 0 {
		return ms[i].value
	}
	return nil
}

// findIndex is find returning the member's index, -1 for none.
func findIndex(ms []jsonMember, key []byte, next *int) int {
	for j := range ms {
		i := (*next + j) % len(ms)
		if bytes.Equal(ms[i].key, key) {
			*next = i + 1
			return i
		}
	}
	return -1
}

// arrays appends the patch of array a into array b: element by
// element when they have the same length and few elements change (or
// the elements are objects or arrays), else b itself.
func (s *diffScratch) arrays(dst, a, b []byte) ([]byte, bool, error) {
	first := len(s.elems)
	defer func() { s.elems = s.elems[:first] }()
	all, err := arrayElements(s.elems, a)
	if err != nil {
		return dst, false, err
	}
	mid := len(all)
	if all, err = arrayElements(all, b); err != nil {
		return dst, false, err
	}
	s.elems = all
	ae, be := all[first:mid], all[mid:]
	if len(ae) != len(be) || len(be) == 0 {
		return append(dst, b...), false, nil
	}
	start := len(dst)
	dst = append(dst, '{')
	n := 0
	for i := range be {
		mark := len(dst)
		if n > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = strconv.AppendInt(dst, int64(i), 10)
		dst = append(dst, '"', ':')
		var same bool
		if dst, same, err = s.diff(dst, ae[i], be[i]); err != nil {
			return dst[:start], false, err
		}
		if same {
			dst = dst[:mark]
		} else {
			n++
		}
	}
	if n == 0 {
		return dst[:start], true, nil
	}
	if 2*n > len(be) && !isObject(be[0]) && !isArray(be[0]) {
		return append(dst[:start], b...), false, nil
	}
	return append(dst, '}'), false, nil
}

// arrayElements returns the elements of the array v, appended to buf.
func arrayElements(buf [][]byte, v []byte) ([][]byte, error) {
	bad := errNotArray
	if !isArray(v) {
		return nil, bad
	}
	i := skipSpace(v, 1)
	if i < len(v) && v[i] == ']' {
		return buf, nil
	}
	for {
		end := skipValue(v, i)
		if end < 0 {
			return nil, bad
		}
		buf = append(buf, v[i:end])
		if i = skipSpace(v, end); i >= len(v) {
			return nil, bad
		}
		switch v[i] {
		case ']':
			return buf, nil
		case ',':
			i = skipSpace(v, i+1)
		default:
			return nil, bad
		}
	}
}

// AppendPatched appends to dst the JSON document doc with patch applied
// by Patch's rules; doc and patch must be valid JSON (a patch's keys
// without escapes): a patch that is not is an error. Members keep doc's
// order, and those the patch adds follow in the patch's.
func AppendPatched(dst, doc, patch []byte) ([]byte, error) {
	patch = bytes.TrimSpace(patch)
	if valueEnd(patch, 0, 0) != len(patch) {
		return dst, errors.New("protocol: a patch that is not JSON")
	}
	return appendPatched(dst, bytes.TrimSpace(doc), patch)
}

// appendPatched is AppendPatched for a patch known to be JSON.
func appendPatched(dst, doc, patch []byte) ([]byte, error) {
	if !isObject(patch) {
		return append(dst, patch...), nil
	}
	var pbuf [24]jsonMember
	pm, err := objectMembers(pbuf[:0], patch)
	if err != nil {
		return dst, err
	}
	if isArray(doc) {
		return patchArray(dst, doc, pm)
	}
	var dm []jsonMember
	if isObject(doc) {
		var dbuf [24]jsonMember
		if dm, err = objectMembers(dbuf[:0], doc); err != nil {
			return dst, err
		}
	}
	dst = append(dst, '{')
	n := 0
	key := func(k []byte) {
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = append(dst, '"')
		dst = append(dst, k...)
		dst = append(dst, '"', ':')
	}
	next := 0
	for _, m := range dm {
		pv := find(pm, m.key, &next)
		switch {
		case pv == nil:
			key(m.key)
			dst = append(dst, m.value...)
		case isNull(pv):
		default:
			key(m.key)
			if dst, err = appendPatched(dst, m.value, pv); err != nil {
				return dst, err
			}
		}
	}
	for _, m := range pm {
		if !isNull(m.value) && find(dm, m.key, new(int)) == nil {
			key(m.key)
			// Patched from nothing: an object's null members go.
			if dst, err = appendPatched(dst, nil, m.value); err != nil {
				return dst, err
			}
		}
	}
	return append(dst, '}'), nil
}

// patchArray appends the array doc with the patch's members (their
// names indices) applied to its elements; it keeps its length.
func patchArray(dst, doc []byte, pm []jsonMember) ([]byte, error) {
	var ebuf [16][]byte
	elems, err := arrayElements(ebuf[:0], doc)
	if err != nil {
		return dst, err
	}
	dst = append(dst, '[')
	var num [8]byte
	for i, e := range elems {
		if i > 0 {
			dst = append(dst, ',')
		}
		pv := find(pm, strconv.AppendInt(num[:0], int64(i), 10), new(int))
		if pv == nil {
			dst = append(dst, e...)
			continue
		}
		if dst, err = appendPatched(dst, e, pv); err != nil {
			return dst, err
		}
	}
	return append(dst, ']'), nil
}

// A State is an encoded state (StateMessage.AppendState) with the bounds
// of its members and of its view's, found once: a server diffs each state
// it sends from the one before and into the one after.
type State struct {
	Doc []byte // nil for a seat's state made by SeatState
	// top and view are the members, nil for a seat's state made by
	// SeatState: see lists.
	top, view []jsonMember
	// split marks a seat's state whose view is known by its members
	// alone: the view's member in top holds the spectators' view.
	split bool
	// public is the spectators' state a seat's was made from; own the
	// seat's own values, and fix where they go among public's members.
	public *State
	own    []byte
	fix    []ownFix
}

// Public returns the spectators' state s was made from (SeatState), or
// s itself: the states DiffStates is given, for the seats' patches.
func (s *State) Public() *State {
	if s.public != nil {
		return s.public
	}
	return s
}

// NewState finds the members of an encoded state.
func NewState(doc []byte) (*State, error) {
	// The state and the lists of its members in one allocation, where
	// those of a table's state fit.
	a := new(stateAlloc)
	view := a.members[10:10]
	top, _, err := objectMembersAt(a.members[:0:10], doc, 0, &view)
	if err != nil {
		return nil, err
	}
	a.st = State{Doc: doc, top: top}
	if v := find(top, []byte("view"), new(int)); isObject(v) {
		a.st.view = view
	}
	return &a.st, nil
}

// A stateAlloc is NewState's state with room for its members: a state
// has at most 10, its view 19 (more grow elsewhere); sized to fit one
// of the allocator's classes (1,536 bytes), as the server makes one at
// every change.
type stateAlloc struct {
	st      State
	members [29]jsonMember
}
