package table

import (
	"context"

	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/tutorial"
)

// CreateTutorial starts the guided first game for a person called name:
// the prepared deal of package tutorial, the person at seat
// tutorial.Learner and the tutorial's bots at the others. The game starts
// at once; it is stored and replayed like any game, but List leaves it
// out, since nobody else can take part. It returns the game, the
// person's seat and its secret token.
func (h *Hub) CreateTutorial(ctx context.Context, name, client string) (protocol.GameInfo, int, string, error) {
	if err := playername.Check(name); err != nil {
		return protocol.GameInfo{}, 0, "", &Error{Kind: ErrBadName, Msg: err.Error(), Err: err}
	}
	for _, bot := range tutorial.Names {
		if bot != "" && playername.Key(bot) == playername.Key(name) {
			return protocol.GameInfo{}, 0, "", reject(ErrNameTaken, "%s is already at this table: choose another name", bot)
		}
	}
	token, err := h.newToken()
	if err != nil {
		return protocol.GameInfo{}, 0, "", internal(err)
	}
	id, err := h.newID()
	if err != nil {
		return protocol.GameInfo{}, 0, "", internal(err)
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
		return protocol.GameInfo{}, 0, "", err
	}
	h.log.Info("tutorial created", "game", id)
	var in protocol.GameInfo
	if err := h.send(ctx, l, func(l *loop) error { in = l.info(); return nil }); err != nil {
		in = h.newInfo(g.ID, g.Status, g.Seats, false, 0, g.Created, g.Updated, nil)
	}
	return in, tutorial.Learner, token, nil
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
