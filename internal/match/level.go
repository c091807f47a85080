package match

import (
	"slices"
	"strings"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/store"
)

// setLevel gives the bot of seat another level, for the creator of a
// table that has not started. The seat's name follows its level, as
// at creation.
func (m *Match) setLevel(creator []byte, seat int, level string) (Result, error) {
	if err := m.creatorSeat(creator, seat); err != nil {
		return Result{}, err
	}
	switch {
	case m.Seats[seat].Bot == "":
		return Result{}, refuse(ErrBadRequest, "seat %d is not a bot's: only a bot has a level", seat)
	case !IsLevel(level):
		return Result{}, refuse(ErrBadRequest, "unknown bot level %q (want %s)", level, strings.Join(bot.LevelNames(), ", "))
	}
	taken := store.Seat{Name: playername.Bot(seat, level), Bot: level}
	seats := slices.Clone(m.Seats)
	seats[seat] = taken
	r := Result{Write: Write{Kind: SetBot, Seat: seat, Taken: taken, Conflict: changed()}, next: &change{seats: seats}}
	// A change restarts the wait for players, as a join or a removal does.
	r.Expiry, r.Broadcast = true, true
	r.note("bot level changed", "seat", seat, "from", m.Seats[seat].Bot, "to", level)
	return r, nil
}
