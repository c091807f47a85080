package protocol

import (
	"errors"
	"strconv"
)

// A server encodes the spectators' state of every change and then needs
// its members (NewState) to patch it and to make the seats' states from
// it. EncodeState logs where each member goes while AppendState writes
// it, so that the document is not read again.

// A memberLog records where the members of a state and of its view are
// while appendState writes them; a nil log records nothing. Its lists
// are arrays, so that a log lives on its writer's stack; a state with
// more members than they hold is read again (overflow).
type memberLog struct {
	top         [12]loggedMember
	view        [24]loggedMember
	ntop, nview int
	overflow    bool
}

// A loggedMember is a member's key's length and its value's bounds in
// the document: its key is just before start ("key":).
type loggedMember struct {
	keyLen, start, end int
}

// member appends a member's key after sep ('{' for the first, ','), the
// view's or the top's, and logs where its value starts and the previous
// member's ends.
func (l *memberLog) member(b []byte, sep byte, key string, view bool) []byte {
	if l != nil {
		l.close(len(b), view)
	}
	b = append(b, sep, '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	if l != nil {
		list, n := l.list(view)
		if *n == len(list) {
			l.overflow = true
			return b
		}
		list[*n] = loggedMember{keyLen: len(key), start: len(b), end: -1}
		*n++
	}
	return b
}

// field appends a view's member of an integer value.
func (l *memberLog) field(b []byte, key string, n int) []byte {
	return strconv.AppendInt(l.member(b, ',', key, true), int64(n), 10)
}

// close ends the last member logged (the view's or the top's) at end,
// where the next member's comma or the object's brace goes.
func (l *memberLog) close(end int, view bool) {
	if l == nil {
		return
	}
	if list, n := l.list(view); *n > 0 && list[*n-1].end < 0 {
		list[*n-1].end = end
	}
}

// list returns the view's list or the top's, and its length.
func (l *memberLog) list(view bool) ([]loggedMember, *int) {
	if view {
		return l.view[:], &l.nview
	}
	return l.top[:], &l.ntop
}

// errUnlogged is EncodeState's error for a member logged without its end:
// only a bug gets there.
var errUnlogged = errors.New("protocol: a state's member logged without its end")

// EncodeState returns m's state as AppendState encodes it, with the
// members NewState would find in it, found as they were written; scratch
// is a buffer it writes in first (kept grown for the next), the state's
// own bytes copied from it at their size.
func EncodeState(m *StateMessage, scratch *[]byte) (*State, error) {
	var l memberLog
	b, err := m.appendState((*scratch)[:0], &l)
	if err != nil {
		return nil, err
	}
	*scratch = b
	doc := append([]byte(nil), b...)
	if l.overflow {
		return NewState(doc)
	}
	a := new(stateAlloc)
	top, err := loggedMembers(a.members[:0:10], doc, l.top[:l.ntop])
	if err != nil {
		return nil, err
	}
	a.st = State{Doc: doc, top: top}
	if l.nview > 0 {
		if a.st.view, err = loggedMembers(a.members[10:10], doc, l.view[:l.nview]); err != nil {
			return nil, err
		}
	}
	return &a.st, nil
}

// loggedMembers appends the members logged in doc to buf.
func loggedMembers(buf []jsonMember, doc []byte, logged []loggedMember) ([]jsonMember, error) {
	for _, m := range logged {
		if m.end < m.start {
			return nil, errUnlogged
		}
		key := doc[m.start-2-m.keyLen : m.start-2]
		buf = append(buf, jsonMember{key: key[:len(key):len(key)], value: doc[m.start:m.end:m.end]})
	}
	return buf, nil
}
