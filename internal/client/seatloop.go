package client

import "time"

// A SeatLoop is the seat loop of the protocol without the loop: what a
// seat sends, given the states and refusals it receives. Every Go client
// that plays a seat follows it: Player runs one in a goroutine, the
// terminal from its update loop. The page's js/seat.js follows the same
// rule (AfterRefusal).
//
// A move is sent with the seq of the position it was chosen on, so the
// server never plays it twice; a position gets one move, unless the
// server refuses it: a move refused for a while (rate limited, a store
// hiccup) is sent again after Retry, a move given up (illegal) is
// replaced by Fallback's, once per position, or else the seat chooses
// again, and after a refusal the game moved past the next state decides.
// A position seen again in the first state after a reconnection gets its
// move sent again: it may have been lost with the connection.
//
// The zero SeatLoop is ready: the seat chooses again after a move given
// up, as a person does.
type SeatLoop struct {
	// Retry is the wait before a move refused for a while is sent again;
	// DefaultRetry when 0.
	Retry time.Duration
	// Fallback, when set, returns the move sent in place of one given up:
	// a bot's safe move. Without it the seat chooses again.
	Fallback func(st *State) string

	sent     Send   // the move sent last and its position; Seq -1 before
	fallback bool   // sent is Fallback's
	last     *State // the last state of the game (not of the chat)
	started  bool
}

// A Send is a move to send with the seq of the position it was chosen
// on, after waiting Wait.
type Send struct {
	Move string
	Seq  int
	Wait time.Duration
}

// DefaultRetry is the wait before a temporary refusal's move is sent
// again: the server's message rate refills a message every 100 ms.
const DefaultRetry = 250 * time.Millisecond

// Seen takes a state the seat received. It returns the move to send
// again, if any: the state is the first of a new connection, at the
// position of a move sent and not answered.
func (l *SeatLoop) Seen(st *State) (Send, bool) {
	l.init()
	if st.Chat != nil {
		return Send{}, false // a chat message carries no position
	}
	l.last = st
	if st.First && l.Pending() {
		return Send{Move: l.sent.Move, Seq: l.sent.Seq}, true
	}
	return Send{}, false
}

// Choosing reports whether the seat is to choose a move at the last
// state: it is its turn, at a position it has no move on its way for.
func (l *SeatLoop) Choosing() bool {
	l.init()
	return l.last != nil && l.last.MyTurn() && !l.last.Over() && l.last.View.Moves != l.sent.Seq
}

// Pending reports whether a move sent at the last state's position waits
// for its answer: the seat has nothing to choose meanwhile.
func (l *SeatLoop) Pending() bool {
	l.init()
	return l.last != nil && l.last.MyTurn() && l.last.View.Moves == l.sent.Seq && l.sent.Move != ""
}

// Chose records the move chosen at the last state's position and returns
// it to send; "" sends nothing for this position.
func (l *SeatLoop) Chose(move string) (Send, bool) {
	l.init()
	if l.last == nil || l.last.View == nil {
		return Send{}, false
	}
	l.sent, l.fallback = Send{Move: move, Seq: l.last.View.Moves}, false
	return l.sent, move != ""
}

// Refused takes the server's refusal of the move sent and returns what to
// send, if anything (AfterRefusal): the same move after Retry, or
// Fallback's in place of a move given up; nothing when the game moved
// past it. Without Fallback, a move given up is forgotten: the seat
// chooses again (Choosing).
func (l *SeatLoop) Refused(e *Error) (Send, bool) {
	l.init()
	if !l.Pending() {
		return Send{}, false // not a move's refusal, or the game moved on
	}
	switch AfterRefusal(e.Code) {
	case Resync:
		return Send{}, false
	case Resend:
		s := l.sent
		s.Wait = l.Retry
		if s.Wait == 0 {
			s.Wait = DefaultRetry
		}
		return s, true
	}
	switch {
	case l.Fallback == nil:
		l.sent = Send{Seq: -1}
		return Send{}, false
	case l.fallback:
		return Send{}, false // the safe move refused too: the clock decides
	}
	l.sent, l.fallback = Send{Move: l.Fallback(l.last), Seq: l.sent.Seq}, true
	return l.sent, l.sent.Move != ""
}

// Due reports whether s, a move to send again after a wait, is still the
// move that waits for its answer: no state moved the game on meanwhile.
func (l *SeatLoop) Due(s Send) bool {
	return l.Pending() && l.sent.Move == s.Move && l.sent.Seq == s.Seq
}

// init makes the zero SeatLoop one that has sent nothing.
func (l *SeatLoop) init() {
	if !l.started {
		l.sent, l.started = Send{Seq: -1}, true
	}
}
