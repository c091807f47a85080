package table

import (
	"context"

	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/tutorial"
)

// createTutorial starts the guided first game for a person called name
// (TableSetup.Tutorial). It is stored and replayed like any game, but List
// leaves it out, since nobody else can take part.
func (h *Hub) createTutorial(ctx context.Context, name, client string) (Table, error) {
	if err := playername.Check(name); err != nil {
		return Table{}, &Error{Kind: ErrBadName, Msg: err.Error(), Err: err}
	}
	for _, bot := range tutorial.Names {
		if bot != "" && playername.Key(bot) == playername.Key(name) {
			return Table{}, reject(ErrNameTaken, "%s is already at this table: choose another name", bot)
		}
	}
	token, err := h.newToken()
	if err != nil {
		return Table{}, internal(err)
	}
	id, err := h.newID()
	if err != nil {
		return Table{}, internal(err)
	}
	setup := tutorial.Setup(name)
	g := &store.Game{ID: id, Status: store.StatusPlaying, Seats: make([]store.Seat, len(setup.Players)),
		Cheques: setup.Cheques, Seed: setup.Seed, Moves: []string{}, Created: h.opts.Now()}
	g.Updated = g.Created
	for i, p := range setup.Players {
		g.Seats[i] = store.Seat{Name: p, Bot: tutorial.Bot}
	}
	g.Seats[tutorial.Learner] = store.Seat{Name: name, TokenHash: hashToken(token)}
	// A game with a person holds nothing of the limits (see holds).
	l, err := h.createGame(ctx, g, client, holdNone)
	if err != nil {
		return Table{}, err
	}
	h.log.Info("tutorial created", "game", id)
	var in protocol.GameInfo
	if err := l.call(ctx, func(l *loop) error { in = l.info(); return nil }); err != nil {
		in = newInfo(h.opts.Limits.OpenTTL, g.ID, g.Status, g.Seats, false, 0, g.Created, g.Updated, nil)
	}
	return Table{Info: in, Seat: tutorial.Learner, Token: token}, nil
}

// isTutorial reports whether the seats are a tutorial's.
func isTutorial(seats []store.Seat) bool {
	for _, s := range seats {
		if s.Bot == tutorial.Bot {
			return true
		}
	}
	return false
}
