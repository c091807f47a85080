package client_test

import (
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
)

// turn is the state of seat 0 at its turn after moves moves.
func turn(moves int, first bool) *client.State {
	return &client.State{Seat: 0, First: first, View: &protocol.View{Moves: moves, ToMove: 0, Legal: []string{"draw", "bid 5"}}}
}

// TestSeatLoop: what a seat sends after each state and refusal, for a
// bot (a Fallback) and a person (none).
func TestSeatLoop(t *testing.T) {
	safe := func(st *client.State) string { return st.View.Legal[0] }
	type step struct {
		state   *client.State // or
		refusal protocol.Code // or
		chose   string
		// what follows
		send     string
		wait     bool // send after a wait
		choosing bool
	}
	for _, tc := range []struct {
		name     string
		fallback func(*client.State) string
		steps    []step
	}{
		{"a position gets one move", nil, []step{
			{state: turn(3, true), choosing: true},
			{chose: "bid 5", send: "bid 5"},
			{state: turn(3, false)}, // the clock, a presence: the move is still on its way
		}},
		{"a temporary refusal sends the move again after a wait", nil, []step{
			{state: turn(3, true), choosing: true},
			{chose: "bid 5", send: "bid 5"},
			{refusal: protocol.RateLimited, send: "bid 5", wait: true},
			{refusal: protocol.Unavailable, send: "bid 5", wait: true},
		}},
		{"the move goes again on a new connection", nil, []step{
			{state: turn(3, true), choosing: true},
			{chose: "bid 5", send: "bid 5"},
			{state: turn(3, true), send: "bid 5"},
		}},
		{"a new connection at a new position asks again", nil, []step{
			{state: turn(3, false), choosing: true},
			{chose: "bid 5", send: "bid 5"},
			{state: turn(5, true), choosing: true},
		}},
		{"a person chooses again after an illegal move", nil, []step{
			{state: turn(3, true), choosing: true},
			{chose: "bid 5", send: "bid 5"},
			{refusal: protocol.IllegalMove, choosing: true},
			{chose: "draw", send: "draw"},
		}},
		{"a bot plays the safe move once after an illegal one", safe, []step{
			{state: turn(3, true), choosing: true},
			{chose: "bid 99", send: "bid 99"},
			{refusal: protocol.IllegalMove, send: "draw"},
			{refusal: protocol.IllegalMove},
			{state: turn(4, false), choosing: true},
		}},
		{"nothing after the game moved past the move", safe, []step{
			{state: turn(3, true), choosing: true},
			{chose: "bid 5", send: "bid 5"},
			{refusal: protocol.Stale},
		}},
		{"a refusal with no move on its way is not a move's", safe, []step{
			{state: turn(3, true), choosing: true},
			{refusal: protocol.RateLimited, choosing: true}, // a chat message's
		}},
		{"a chat message keeps the position", safe, []step{
			{state: turn(3, true), choosing: true},
			{chose: "bid 99", send: "bid 99"},
			{state: &client.State{Chat: &protocol.ChatMessage{}}},
			{refusal: protocol.IllegalMove, send: "draw"},
		}},
		{"nothing chosen, nothing sent nor asked again", nil, []step{
			{state: turn(3, true), choosing: true},
			{chose: ""},
			{state: turn(3, false)},
		}},
		{"not the seat's turn", nil, []step{
			{state: &client.State{Seat: 1, View: &protocol.View{Moves: 3, ToMove: 0, Legal: []string{"draw"}}}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := client.SeatLoop{Fallback: tc.fallback, Retry: time.Second}
			for i, st := range tc.steps {
				var s client.Send
				var ok bool
				switch {
				case st.state != nil:
					s, ok = l.Seen(st.state)
				case st.refusal != "":
					s, ok = l.Refused(&client.Error{Code: st.refusal})
				default:
					s, ok = l.Chose(st.chose)
				}
				if got := map[bool]string{true: s.Move}[ok]; got != st.send || (s.Wait > 0) != st.wait {
					t.Errorf("step %d: send %q after %v, want %q (after a wait: %v)", i, got, s.Wait, st.send, st.wait)
				}
				if ok && !l.Due(s) {
					t.Errorf("step %d: %q is not due", i, s.Move)
				}
				if got := l.Choosing(); got != st.choosing {
					t.Errorf("step %d: choosing %v, want %v", i, got, st.choosing)
				}
			}
		})
	}
}

// TestSeatLoopDue: a move to send again after a wait is not sent once a
// state moved the game on meanwhile.
func TestSeatLoopDue(t *testing.T) {
	var l client.SeatLoop
	l.Seen(turn(3, true))
	l.Chose("bid 5")
	s, ok := l.Refused(&client.Error{Code: protocol.RateLimited})
	if !ok || s.Wait != client.DefaultRetry || !l.Due(s) {
		t.Fatalf("Refused = %+v, %v; due %v", s, ok, l.Due(s))
	}
	l.Seen(turn(4, false))
	if l.Due(s) {
		t.Error("the move of a position gone is due")
	}
}
