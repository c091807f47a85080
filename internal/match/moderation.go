package match

import (
	"slices"
	"time"

	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// An operator's commands at a table. Who may send them (an operator) is
// the server's check before the command is made; the match decides what
// they do to the table: an account suspended or banned leaves its seat
// (an open table frees it, a game being played hands it to a bot for
// good, as a leave does but without a way back), and a chat line is
// removed for everyone.

// expel removes the account's person from the table at now: an open
// table's seat is freed, a game's seat is played by a bot to the end. The
// result is empty when the account holds no seat, or a bot holds it for
// good already.
func (m *Match) expel(account string, now time.Time) (Result, error) {
	seat := slices.IndexFunc(m.Seats, func(s store.Seat) bool { return account != "" && s.Account == account })
	switch {
	case seat < 0 || m.Timing.Removed(seat):
		return Result{}, nil
	case m.Status == store.StatusOpen:
		r := m.freeSeat(seat)
		r.note("an operator removed the player", "seat", seat)
		return r, nil
	case !m.playing():
		return Result{}, GameOverRefusal()
	}
	next := m.Timing.clone()
	if m.Timing.StandingIn(seat) {
		// A bot stands in already (the player left or timed out): it
		// stays, now for good.
		last := len(next.TakeOvers) - 1
		for next.TakeOvers[last].Seat != seat {
			last--
		}
		back, at := m.Game.Len(), now.UTC()
		next.TakeOvers[last].BackMove, next.TakeOvers[last].BackAt = &back, &at
	}
	r := m.handOver(next, seat, protocol.ReasonRemoved, now)
	r.note("an operator removed the player; a bot plays for the seat", "seat", seat, "bot", StandInLevel)
	return r, nil
}

// strike removes chat line seq of the live game for everyone: every
// watcher is sent it again, marked removed. The result is empty when it
// is removed already.
func (m *Match) strike(seq int) (Result, error) {
	switch {
	case seq < 0 || seq >= len(m.Chat):
		return Result{}, refuse(ErrBadRequest, "there is no chat line %d at this table", seq)
	case m.Chat[seq].Removed:
		return Result{}, nil
	}
	r := Result{Write: Write{Kind: StrikeChat, Index: seq}, next: &change{struck: &seq}}
	r.Struck = []int{seq}
	r.note("an operator removed a chat line", "line", seq)
	return r, nil
}

// StrikeAfter decides the removal of chat line seq of game g, which is
// over (no goroutine runs it): the write to make without a fence. An
// uploaded record has no chat.
func StrikeAfter(g *store.Game, lines int, seq int) (Write, error) {
	switch {
	case g.Status != store.StatusFinished:
		return Write{}, chatRefusal(chat.ErrClosed, "an uploaded record has no table chat")
	case seq < 0 || seq >= lines:
		return Write{}, refuse(ErrBadRequest, "there is no chat line %d at this table", seq)
	}
	return Write{Kind: StrikeChat, Index: seq}, nil
}
