package table

import (
	"time"

	"github.com/razziagame/razzia"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// newInfo describes a game in protocol terms: never its seed or seat
// tokens. An open table says when it expires.
func newInfo(openTTL time.Duration, id string, status store.Status, seats []store.Seat, rated bool, moves int, created, updated time.Time, winners []int) protocol.GameInfo {
	in := infoCore(openTTL, id, status, rated, moves, created, updated, winners)
	in.Players = len(seats)
	in.Seats = make([]protocol.SeatInfo, len(seats))
	for i, s := range seats {
		in.Seats[i] = s.Info()
	}
	in.Invite = protocol.InvitePath(id)
	return in
}

// infoCore is newInfo without the seats and the invitation.
func infoCore(openTTL time.Duration, id string, status store.Status, rated bool, moves int, created, updated time.Time, winners []int) protocol.GameInfo {
	in := protocol.GameInfo{
		ID:      id,
		Status:  protocol.Status(status),
		Rated:   rated,
		Moves:   moves,
		Created: created.UTC(),
		Updated: updated.UTC(),
	}
	if in.Status.Over() {
		in.Winners = winners
	}
	if status == store.StatusOpen {
		exp := updated.Add(openTTL).UTC()
		in.Expires = &exp
	}
	return in
}

// describeAfter describes match m, game id, in protocol terms: with
// whose turn it is, its pace and stand-ins, and the game it is a rematch
// of. It shares with prev, the table's last description (zero for
// none), what did not change: the seats, the pace and the invitation,
// made again at every move otherwise. Modify neither after.
func describeAfter(m *match.Match, id string, openTTL time.Duration, prev *protocol.GameInfo) protocol.GameInfo {
	moves := 0
	var winners []int
	if m.Game != nil {
		moves = m.Game.Len()
		winners = m.Game.Winners()
	}
	in := infoCore(openTTL, id, m.Status, m.Rated, moves, m.Created, m.Updated, winners)
	in.Players = len(m.Seats)
	if in.Seats = prev.Seats; !sameSeats(m, prev.Seats) {
		in.Seats = make([]protocol.SeatInfo, len(m.Seats))
		for i, s := range m.Seats {
			in.Seats[i] = seatInfo(m, i, s)
		}
	}
	if in.Invite = prev.Invite; prev.ID != id {
		in.Invite = protocol.InvitePath(id)
	}
	if m.Game != nil && !m.Game.Over() {
		in.ToMove = &seatNumbers[m.Game.ToMove()]
	}
	if p := m.Timing.Clock.Pace(); prev.Pace != nil && *prev.Pace == paceInfo(p) {
		in.Pace = prev.Pace
	} else {
		in.Pace = PaceInfo(p)
	}
	in.RematchOf = m.RematchOf
	return in
}

// seatNumbers are what GameInfo.ToMove points to, never written: a
// number of its own would cost an allocation a move.
var seatNumbers = [razzia.MaxPlayers]int{0, 1, 2, 3, 4}

// sameSeats reports whether seats describe m's seats.
func sameSeats(m *match.Match, seats []protocol.SeatInfo) bool {
	if seats == nil || len(seats) != len(m.Seats) {
		return false
	}
	for i, s := range m.Seats {
		if seatInfo(m, i, s) != seats[i] {
			return false
		}
	}
	return true
}

// seatInfo describes m's seat i, s, with its stand-in.
func seatInfo(m *match.Match, i int, s store.Seat) protocol.SeatInfo {
	in := s.Info()
	if m.Timing.StandingIn(i) {
		in.StandIn = StandInLevel
	}
	return in
}

// StandInLevel is the bot level that plays for a person whose time ran out.
const StandInLevel = match.StandInLevel

// PaceInfo describes a pace in protocol terms.
func PaceInfo(p pace.Pace) *protocol.PaceInfo {
	in := paceInfo(p)
	return &in
}

func paceInfo(p pace.Pace) protocol.PaceInfo {
	return protocol.PaceInfo{ID: p.ID, Kind: p.Kind.String(),
		DecisionMs: p.Decision.Milliseconds(), ReserveMs: p.Reserve.Milliseconds(), GraceMs: p.Grace.Milliseconds()}
}
