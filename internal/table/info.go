package table

import (
	"time"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// newInfo describes a game in protocol terms: never its seed or seat
// tokens. An open table says when it expires.
func newInfo(openTTL time.Duration, id string, status store.Status, seats []store.Seat, rated bool, moves int, created, updated time.Time, winners []int) protocol.GameInfo {
	in := protocol.GameInfo{
		ID:      id,
		Status:  protocol.Status(status),
		Rated:   rated,
		Players: len(seats),
		Seats:   make([]protocol.SeatInfo, len(seats)),
		Moves:   moves,
		Created: created.UTC(),
		Updated: updated.UTC(),
		Invite:  protocol.InvitePath(id),
	}
	for i, s := range seats {
		in.Seats[i] = s.Info()
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

// StandInLevel is the bot level that plays for a person whose time ran out.
const StandInLevel = match.StandInLevel

// PaceInfo describes a pace in protocol terms.
func PaceInfo(p pace.Pace) *protocol.PaceInfo {
	return &protocol.PaceInfo{ID: p.ID, Kind: p.Kind.String(),
		DecisionMs: p.Decision.Milliseconds(), ReserveMs: p.Reserve.Milliseconds(), GraceMs: p.Grace.Milliseconds()}
}
