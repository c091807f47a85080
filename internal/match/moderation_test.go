package match_test

import (
	"slices"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// withAccounts returns m with Ann's and Bob's seats on the accounts
// "acct-ann" and "acct-bob".
func withAccounts(m *match.Match) *match.Match {
	for i, s := range m.Seats {
		if s.Name != "" && s.Bot == "" {
			m.Seats[i].Account = "acct-" + map[string]string{"Ann": "ann", "Bob": "bob"}[s.Name]
		}
	}
	return m
}

// TestExpelPlaying: an operator's removal of a player hands the seat to
// a bot for good: the player cannot take it back by a take-back, a move
// or a pre-move, a leave changes nothing, and a second removal neither.
func TestExpelPlaying(t *testing.T) {
	for _, paceID := range []string{"blitz", "untimed"} {
		t.Run(paceID, func(t *testing.T) {
			m := withAccounts(started(t, paceID))
			seat := m.Game.ToMove()
			name := m.Seats[seat].Name
			expel := match.Command{Kind: match.Expel, Account: m.Seats[seat].Account}
			r := must(t, m, expel, t0.Add(time.Second))
			if !slices.Equal(r.StandIn, []int{seat}) || r.Write.Kind != match.SetClock || !r.Broadcast || !r.Bots {
				t.Fatalf("%+v, want a bot for seat %d", r, seat)
			}
			if to := m.Timing.TakeOvers[len(m.Timing.TakeOvers)-1]; to.Reason != protocol.ReasonRemoved || to.Seat != seat {
				t.Errorf("take-over %+v, want one for good", to)
			}
			if !m.Timing.Removed(seat) || m.PersonPlays(seat) {
				t.Errorf("seat %d: removed %v, a person plays it %v", seat, m.Timing.Removed(seat), m.PersonPlays(seat))
			}
			if _, _, running := m.Timing.Clock.Running(); running {
				t.Error("the clock of a removed seat runs on")
			}
			for _, c := range []match.Command{
				{Kind: match.TakeBack, Hash: hash(name)},
				play(m, "draw"),
				{Kind: match.EnterPreMove, Hash: hash(name), Move: "pass"},
			} {
				outcome(t, m, c, t0.Add(2*time.Second), match.ErrSeatRemoved)
			}
			for _, c := range []match.Command{expel, {Kind: match.Leave, Hash: hash(name)}} {
				if r, _ := outcome(t, m, c, t0.Add(3*time.Second), nil); r.Write.Kind != match.NoWrite {
					t.Errorf("%s after the removal: %+v, want nothing", c.Kind, r)
				}
			}
		})
	}
}

// TestExpelStandingIn: a player who left, whose seat a bot plays already,
// loses it for good when removed.
func TestExpelStandingIn(t *testing.T) {
	m := withAccounts(started(t, "blitz"))
	must(t, m, match.Command{Kind: match.Leave, Hash: hash("Bob")}, t0)
	must(t, m, match.Command{Kind: match.Expel, Account: "acct-bob"}, t0.Add(time.Second))
	outcome(t, m, match.Command{Kind: match.TakeBack, Hash: hash("Bob")}, t0.Add(2*time.Second), match.ErrSeatRemoved)
	n := 0
	for _, to := range m.Timing.TakeOvers {
		if to.Seat == 1 && to.BackMove == nil {
			n++
		}
	}
	if n != 1 {
		t.Errorf("take-overs %+v: want one bot at seat 1 at a time", m.Timing.TakeOvers)
	}
}

// TestExpelOpen: at an open table the seat is freed, as the creator's
// removal frees it; an account without a seat changes nothing.
func TestExpelOpen(t *testing.T) {
	m := newMatch(t, "blitz", false, "", "", "easy")
	c := join("Ann", 0)
	c.Account = "acct-ann"
	must(t, m, c, t0)
	outcome(t, m, match.Command{Kind: match.Expel, Account: "acct-nobody"}, t0, nil)
	r := must(t, m, match.Command{Kind: match.Expel, Account: "acct-ann"}, t0.Add(time.Second))
	if r.Write.Kind != match.FreeSeat || r.Write.Seat != 0 || !slices.Equal(r.Spectate, []int{0}) || m.Seats[0].Name != "" {
		t.Errorf("%+v, seats %+v: want seat 0 freed", r, m.Seats)
	}
	if r, _ := outcome(t, m, match.Command{Kind: match.Expel, Account: ""}, t0, nil); r.Write.Kind != match.NoWrite {
		t.Errorf("a removal of no account: %+v, want nothing", r)
	}
}

// TestStrike: an operator removes a chat line of a live game for
// everyone; a line that is not there is refused, one removed already
// changes nothing.
func TestStrike(t *testing.T) {
	m := started(t, "untimed")
	for _, text := range []string{"hello", "something rude"} {
		r := must(t, m, match.Command{Kind: match.Chat, Hash: hash("Ann"), Account: "acct-ann", Text: text}, t0)
		if got := r.Said[0].Seq; got != len(m.Chat)-1 {
			t.Errorf("line %q numbered %d, want %d", text, got, len(m.Chat)-1)
		}
	}
	r := must(t, m, match.Command{Kind: match.Strike, Seat: 1}, t0)
	if r.Write.Kind != match.StrikeChat || r.Write.Index != 1 || !slices.Equal(r.Struck, []int{1}) {
		t.Errorf("%+v, want line 1 removed and sent again", r)
	}
	if !m.Chat[1].Removed || m.Chat[0].Removed {
		t.Errorf("chat %+v, want line 1 removed only", m.Chat)
	}
	if r, _ := outcome(t, m, match.Command{Kind: match.Strike, Seat: 1}, t0, nil); r.Write.Kind != match.NoWrite {
		t.Errorf("removing twice: %+v, want nothing", r)
	}
	for _, seq := range []int{-1, 2} {
		outcome(t, m, match.Command{Kind: match.Strike, Seat: seq}, t0, match.ErrBadRequest)
	}
}

// TestStrikeAfter: a finished game's line is removed without a fence; an
// uploaded record has no chat.
func TestStrikeAfter(t *testing.T) {
	g := &store.Game{Status: store.StatusFinished}
	if w, err := match.StrikeAfter(g, 3, 2); err != nil || w.Kind != match.StrikeChat || w.Index != 2 {
		t.Errorf("StrikeAfter = %+v, %v; want line 2", w, err)
	}
	if _, err := match.StrikeAfter(g, 3, 3); reason(t, err) != match.ErrBadRequest {
		t.Errorf("a line that is not there: %v", err)
	}
	if _, err := match.StrikeAfter(&store.Game{Status: store.StatusArchived}, 3, 0); err == nil {
		t.Error("a line of an uploaded record removed")
	}
}

// TestExpelClosed: a removal at a game that is over is refused.
func TestExpelClosed(t *testing.T) {
	g := &store.Game{Status: store.StatusFinished, Seats: []store.Seat{{Name: "Ann", TokenHash: hash("Ann"), Account: "acct-ann"}}}
	if got := reason(t, match.Closed(match.Command{Kind: match.Expel, Account: "acct-ann"}, g)); got != match.ErrGameOver {
		t.Errorf("refused as %v, want the game over", got)
	}
}
