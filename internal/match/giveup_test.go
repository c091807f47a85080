package match_test

import (
	"slices"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/store"
)

// TestGiveUp: a seated person frees their own seat before the start, and
// someone else may take it; another's seat, no seat and a started game
// are refused, and nothing changes.
func TestGiveUp(t *testing.T) {
	giveUp := func(name string, seat int) match.Command {
		return match.Command{Kind: match.GiveUp, Hash: hash(name), Seat: seat}
	}
	tests := []struct {
		name   string
		before []match.Command
		c      match.Command
		want   error
	}{
		{name: "own seat", before: []match.Command{join("Ann", 0)}, c: giveUp("Ann", 0)},
		{name: "own seat beside another", before: []match.Command{join("Ann", 0), join("Bob", 2)}, c: giveUp("Bob", 2)},
		{name: "another's seat", before: []match.Command{join("Ann", 0), join("Bob", 1)}, c: giveUp("Ann", 1), want: match.ErrNotYourSeat},
		{name: "an open seat", before: []match.Command{join("Ann", 0)}, c: giveUp("Ann", 2), want: match.ErrNotYourSeat},
		{name: "no seat", before: []match.Command{join("Ann", 0)}, c: giveUp("Eve", 0), want: match.ErrNotYourSeat},
		{name: "the creator's token", before: []match.Command{join("Ann", 0)}, c: giveUp("creator", 0), want: match.ErrNotYourSeat},
		{name: "after the start", before: []match.Command{join("Ann", 0), join("Bob", 1), join("Cy", 2)},
			c: giveUp("Bob", 1), want: match.ErrAlreadyStarted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMatch(t, "untimed", false, "", "", "")
			for _, c := range tt.before {
				must(t, m, c, t0)
			}
			seats := slices.Clone(m.Seats)
			r, made := outcome(t, m, tt.c, t0, tt.want)
			if !made {
				if !slices.EqualFunc(seats, m.Seats, sameSeat) {
					t.Errorf("seats %+v after the refusal, want %+v", m.Seats, seats)
				}
				return
			}
			if r.Write.Kind != match.FreeSeat || r.Write.Seat != tt.c.Seat || r.Write.Conflict == nil || !r.Broadcast || !r.Expiry ||
				!slices.Equal(r.Spectate, []int{tt.c.Seat}) {
				t.Fatalf("result %+v, want seat %d freed, a conflict refused, watchers told", r, tt.c.Seat)
			}
			m.Apply(r, later)
			if s := m.Seats[tt.c.Seat]; s.Name != "" || s.TokenHash != nil || m.Status != store.StatusOpen || !m.Updated.Equal(later) {
				t.Fatalf("seat %d after giving it up: %+v, status %s, updated %v", tt.c.Seat, s, m.Status, m.Updated)
			}
			// The seat is someone else's to take, and the token no
			// longer holds it.
			if _, err := m.Decide(tt.c, later); reason(t, err) != match.ErrNotYourSeat {
				t.Errorf("giving up again: %v, want not your seat", err)
			}
			if r := must(t, m, join("Dee", tt.c.Seat), later); r.Seat != tt.c.Seat {
				t.Errorf("Dee took seat %d, want %d", r.Seat, tt.c.Seat)
			}
		})
	}
}

var later = t0.Add(time.Minute)

func sameSeat(a, b store.Seat) bool {
	return a.Name == b.Name && a.Bot == b.Bot && a.Account == b.Account && string(a.TokenHash) == string(b.TokenHash)
}
