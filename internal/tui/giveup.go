package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"
)

// A person who quits the waiting room of another's table chooses: keep
// the seat (the game can start without them, and razzia play with the
// link brings them back), give it up for someone else, or stay.

// A GiveUpFunc frees seat, held by token, at game before it starts.
type GiveUpFunc func(ctx context.Context, game, token string, seat int) error

// offersGiveUp reports whether quitting asks whether to keep the seat or
// give it up: a seat at a table that waits for players, not the
// person's own table (its creator is asked whether to close it).
func (m *Model) offersGiveUp() bool {
	r := m.remote
	return r != nil && r.seat >= 0 && r.open && r.opts.GiveUp != nil && r.ended == nil && !m.closingTable()
}

// giveUpKey answers the question: k (or y, enter, q) keeps the seat and
// quits, g gives it up, n or esc stays. Nothing is taken while the seat
// is being given up.
func (m *Model) giveUpKey(s string) tea.Cmd {
	r := m.remote
	if r.givingUp {
		return nil
	}
	switch s {
	case "esc", "n", "N":
		m.confirm = false
	case "k", "K", "y", "Y", "enter", "q":
		m.quit = true
		return tea.Quit
	case "g", "G":
		r.givingUp = true
		giveUp, ctx, game, token, seat := r.opts.GiveUp, r.ctx, m.ServerGame(), m.SeatToken(), r.seat
		return func() tea.Msg { return seatGivenUp{token, giveUp(ctx, game, token, seat)} }
	}
	return nil
}

// seatGivenUp is what giving up the seat returned.
type seatGivenUp struct {
	token string
	err   error
}

// seatGivenUp quits once the seat is free, or says why it is not (the
// game started meanwhile: the seat is the person's to play).
func (m *Model) seatGivenUp(msg seatGivenUp) tea.Cmd {
	m.remote.givingUp = false
	if msg.err != nil {
		m.confirm = false
		m.requestFailed(msg.err)
		return nil
	}
	m.remote.givenUp, m.quit = msg.token, true
	return tea.Quit
}

// GivenUp returns the token of the seat the person gave up before the
// game started, "" if they did not: the seat is no longer theirs to keep.
func (m *Model) GivenUp() string {
	if m.remote == nil {
		return ""
	}
	return m.remote.givenUp
}
