package protocol

import "bytes"

// The seats' states of a change share the spectators' members (SeatState),
// and so do the states they are patched from: the patch of each member
// the seats share is the same for every seat. DiffStates makes the
// spectators' patch once per change, keeping each member's, and
// StateDiff.AppendDiff makes a seat's from it, diffing only the values
// that are not the spectators' (the seat's own).

// AppendStateDiff is AppendDiff of a's and b's documents, which it
// diffs without finding their members or their views' again.
func AppendStateDiff(dst []byte, a, b *State) ([]byte, bool, error) {
	return appendStateDiff(dst, a, b, nil)
}

// A StateDiff is the patch of one state into another (AppendStateDiff),
// kept member by member, its top's and its view's. Once made it is only
// read: the connections of a change share it.
type StateDiff struct {
	// Patch is the patch of the states DiffStates was given; nil when
	// they are the same.
	Patch    []byte
	from, to *State // the states it was made of
	// top and view are the members that changed, in buf: one that did
	// not costs a seat no more to compare again than to look up.
	top, view []memberDiff
	buf       [12]memberDiff
	recording bool // while DiffStates makes it
	// patchBuf holds Patch where it fits: a change's patch, with the
	// StateDiff in one allocation.
	patchBuf [256]byte
}

// A memberDiff is the patch of a member's value a into b (their first
// bytes and lengths: sameSlice): Patch[start:end].
type memberDiff struct {
	key                    []byte
	a, b                   *byte
	alen, blen, start, end int32
}

// DiffStates returns the patch of state a into b, kept member by member
// for the patches between states made from a and b (SeatState).
func DiffStates(a, b *State) (*StateDiff, error) {
	d := &StateDiff{from: a, to: b, recording: true}
	d.top, d.view = d.buf[:0:4], d.buf[4:4]
	patch, same, err := appendStateDiff(d.patchBuf[:0], a, b, d)
	if err != nil {
		return nil, err
	}
	d.recording = false
	if !same {
		d.Patch = patch
	}
	return d, nil
}

// AppendDiff is AppendStateDiff(dst, a, b): the patch of each member
// whose values in a and b are those of the states d was made of is d's,
// so that only the others are diffed. A nil d diffs every member.
func (d *StateDiff) AppendDiff(dst []byte, a, b *State) ([]byte, bool, error) {
	if d != nil && (a == d.from && b == d.to || a.public == d.from && b.public == d.to && sameOwn(a, b)) {
		return append(dst, d.Patch...), d.Patch == nil, nil
	}
	return appendStateDiff(dst, a, b, d)
}

// sameOwn reports whether seats' states a and b (SeatState's) have the
// same own values in the same members: then the patch of a into b is
// their spectators' states', as the seats' own members are constant in
// the spectators' (no seat, no pre-move, no legal moves or gains). Most
// seats at a change are neither the mover before it nor after.
func sameOwn(a, b *State) bool {
	if a.public == nil || b.public == nil || a.split != b.split || len(a.fix) != len(b.fix) {
		return false
	}
	for i, fa := range a.fix {
		fb := b.fix[i]
		if fa.view != fb.view || !bytes.Equal(a.ownKey(fa), b.ownKey(fb)) ||
			!bytes.Equal(a.own[fa.start:fa.end], b.own[fb.start:fb.end]) {
			return false
		}
	}
	return true
}

// ownKey returns the key of the member an own value f of st goes to.
func (st *State) ownKey(f ownFix) []byte {
	switch {
	case f.at == addPreMove:
		return keyPreMove
	case f.at == addPreMoveDropped:
		return keyPreMoveDropped
	case f.view:
		return st.public.view[f.at].key
	}
	return st.public.top[f.at].key
}

func appendStateDiff(dst []byte, a, b *State, memo *StateDiff) ([]byte, bool, error) {
	if a.Doc != nil && b.Doc != nil && bytes.Equal(a.Doc, b.Doc) {
		return dst, true, nil
	}
	s := getScratch()
	defer putScratch(s)
	f := differ{a: a, b: b, memo: memo, s: s}
	at, av := a.lists(s)
	bt, bv := b.lists(s)
	f.av, f.bv = av, bv
	return diffMembers(dst, at, bt, &f)
}

// A differ diffs the values of two objects' members for diffMembers:
// any two objects' (a and b nil), two states' tops (a and b set), or
// their views' (view); with a memo it takes the patch of a member the
// memo has with the same values from it, or records every member's in
// it while DiffStates makes it.
type differ struct {
	a, b   *State
	av, bv []jsonMember // a's and b's views' members (lists)
	memo   *StateDiff
	view   bool
	next   int          // where the search in the memo's members starts
	s      *diffScratch // the nested values' lists
}

// value appends the patch of a member's value av into bv (AppendDiff).
func (f *differ) value(dst, key, av, bv []byte) ([]byte, bool, error) {
	if f.a != nil && !f.view && string(key) == "view" {
		return f.views(dst, av, bv)
	}
	if f.memo == nil {
		return f.s.diff(dst, av, bv)
	}
	list := &f.memo.top
	if f.view {
		list = &f.memo.view
	}
	if f.memo.recording {
		start := len(dst)
		dst, same, err := f.s.diff(dst, av, bv)
		if !same {
			*list = append(*list, memberDiff{key: key, a: first(av), b: first(bv),
				alen: int32(len(av)), blen: int32(len(bv)), start: int32(start), end: int32(len(dst))})
		}
		return dst, same, err
	}
	if m := f.find(*list, key); m != nil && sameSlice(m.a, m.alen, av) && sameSlice(m.b, m.blen, bv) {
		return append(dst, f.memo.Patch[m.start:m.end]...), false, nil
	}
	return f.s.diff(dst, av, bv)
}

// views appends the patch of the states' views, av into bv, from their
// members when the states know them.
func (f *differ) views(dst, av, bv []byte) ([]byte, bool, error) {
	a, b := f.a, f.b
	switch {
	case f.av != nil && f.bv != nil:
		// The shortcut leaves the members unrecorded: a memo records them
		// for the seats' views, which differ.
		if !a.split && !b.split && bytes.Equal(av, bv) && (f.memo == nil || !f.memo.recording) {
			return dst, true, nil
		}
		inner := differ{memo: f.memo, view: true, s: f.s}
		return diffMembers(dst, f.av, f.bv, &inner)
	case b.split:
		return appendMembers(dst, f.bv, nil), false, nil
	}
	if a.split {
		av = appendMembers(nil, f.av, nil)
	}
	return f.s.diff(dst, av, bv)
}

// find returns the memo's member of key, nil when it has none; both list
// the members in the order of the states', the search starting where the
// last one ended.
func (f *differ) find(ms []memberDiff, key []byte) *memberDiff {
	for j := range ms {
		i := (f.next + j) % len(ms)
		if bytes.Equal(ms[i].key, key) {
			f.next = i + 1
			return &ms[i]
		}
	}
	return nil
}

// sameSlice reports whether b is the n bytes at a in memory (both empty
// included): a member's value in a state made from the memo's
// (SeatState) is the memo's own slice, and states are never modified.
func sameSlice(a *byte, n int32, b []byte) bool {
	return int(n) == len(b) && first(b) == a
}

// first returns the address of v's first byte, nil for none.
func first(v []byte) *byte {
	if len(v) == 0 {
		return nil
	}
	return &v[0]
}
