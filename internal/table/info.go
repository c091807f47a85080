package table

import (
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// newInfo describes a game in protocol terms: never its seed or seat
// tokens. An open table says when it expires.
func (h *Hub) newInfo(id string, status store.Status, seats []store.Seat, rated bool, moves int, created, updated time.Time, winners []int) protocol.GameInfo {
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
		in.Seats[i] = protocol.SeatInfo{Name: s.Name, Bot: s.Bot, Open: s.Name == "", Account: s.Account != ""}
	}
	if in.Status.Over() {
		in.Winners = winners
	}
	if status == store.StatusOpen {
		exp := updated.Add(h.opts.Limits.OpenTTL).UTC()
		in.Expires = &exp
	}
	return in
}

// playerNames returns the seats' names, for the engine.
func playerNames(seats []store.Seat) []string {
	n := make([]string, len(seats))
	for i, s := range seats {
		n[i] = s.Name
	}
	return n
}

// replay rebuilds a started game from its stored form: its stored cheques,
// never dealt again from the seed, which an older server dealt another way.
func replay(g *store.Game) (*razzia.Game, error) {
	game, err := razzia.NewGame(razzia.Setup{Players: playerNames(g.Seats), Cheques: g.Cheques, Seed: g.Seed})
	if err != nil {
		return nil, err
	}
	for i, tok := range g.Moves {
		if err := game.PlayToken(tok); err != nil {
			return nil, &razzia.RecordError{Move: i + 1, Token: tok, Err: err}
		}
	}
	return game, nil
}
