package table

import (
	"context"
	"crypto/rand"
	"io"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/tutorial"
)

// A Person is who takes a seat: the name shown, the secret token that
// will hold the seat ("": Join makes one), and the account the seat
// belongs to ("" for a guest). A signed-in player's token is derived from the account, so
// that the seat opens wherever the account signs in.
type Person struct {
	Name    string
	Token   string
	Account string
}

// Join seats p at the table: at seat, or at the first open seat when
// seat is negative, and returns the seat and its secret token. The game
// starts when every seat is filled. A rated table takes signed-in players
// only; an account takes one seat of a table.
func (h *Hub) Join(ctx context.Context, id string, seat int, p Person) (int, string, error) {
	if err := playername.Check(p.Name); err != nil {
		return 0, "", &Error{Kind: ErrBadName, Msg: err.Error(), Err: err}
	}
	if p.Token == "" {
		token, err := newToken(h.opts.Rand)
		if err != nil {
			return 0, "", internal(err)
		}
		p.Token = token
	}
	// A write, passed to the node that runs the game: the token's hash
	// travels, never the token.
	c := match.Command{Kind: match.Join, Game: id, Name: p.Name, Account: p.Account, Seat: seat, Hash: hashToken(p.Token)}
	seat, err := h.write(ctx, c)
	if err != nil {
		return 0, "", err
	}
	return seat, p.Token, nil
}

// Reload makes a live game read its seats from the store again, after
// something other than the Hub changed them (an account claimed a guest
// seat or was deleted). A game that is not live needs nothing.
func (h *Hub) Reload(ctx context.Context, id string) error {
	l, _ := h.live.get(id)
	if l == nil {
		return nil
	}
	err := l.call(ctx, func(l *loop) error { l.reload(); return nil })
	if err == errEnded {
		return nil
	}
	return err
}

// A TableSetup is what a new table is created with.
type TableSetup struct {
	// Seats has an entry per seat: "" for an open seat, or the name of a
	// bot level (see bot.Levels).
	Seats []string
	// Pace is the id of a pace preset (pace.Presets); "" for the default
	// (pace.Default): untimed at a casual table, standard at a rated one.
	Pace string
	// Rated makes a rated table: only signed-in players (and the bots)
	// sit at it, each account at one seat, and its result changes their
	// ratings.
	Rated bool
	// Client names who asks (such as the client's address), for the limit
	// on the tables one client holds; "" counts for nobody.
	Client string
	// Tutorial makes the guided first game for a person called Learner
	// instead (Seats, Pace and Rated are the tutorial's): the prepared
	// deal of package tutorial, the person at seat tutorial.Learner and
	// the tutorial's bots at the others.
	Tutorial bool
	Learner  string
}

// A Table is a table just created and the tokens it gives out.
type Table struct {
	Info protocol.GameInfo
	// Creator is the creator's secret token, which Remove and Cancel ask
	// for; "" for a tutorial.
	Creator string
	// Seat and Token are a tutorial's person's seat and secret token.
	Seat  int
	Token string
}

// Cancel closes a table that waits for players, for its creator
// (creatorToken, returned by Create): it is stored as cancelled, every
// watcher is told, and it can no longer be joined. It returns the table
// as it is then.
func (h *Hub) Cancel(ctx context.Context, id, creatorToken string) (protocol.GameInfo, error) {
	hash := hashToken(creatorToken)
	_, err := h.write(ctx, match.Command{Kind: match.Cancel, Game: id, Hash: hash})
	if err != nil {
		return protocol.GameInfo{}, err
	}
	g, err := h.store.Game(ctx, id)
	if err != nil {
		return protocol.GameInfo{}, h.storeError("read game", id, err)
	}
	in := newInfo(h.opts.Limits.OpenTTL, g.ID, g.Status, g.Seats, g.Rated, len(g.Moves), g.Created, g.Updated, nil)
	return in, nil
}

// Create stores a new table as t describes it. A table of bots starts at
// once, and so does a tutorial. It returns the table and the tokens it
// gives out.
func (h *Hub) Create(ctx context.Context, t TableSetup) (Table, error) {
	if t.Tutorial {
		return h.createTutorial(ctx, t.Learner, t.Client)
	}
	in, creator, err := h.createTable(ctx, t)
	return Table{Info: in, Creator: creator}, err
}

// createTable stores a table that waits for people, or a game of bots.
func (h *Hub) createTable(ctx context.Context, t TableSetup) (protocol.GameInfo, string, error) {
	g, creator, err := h.newTable(t)
	if err != nil {
		return protocol.GameInfo{}, "", err
	}
	client, id, seats := t.Client, g.ID, t.Seats
	held := holdOf(g.Status == store.StatusOpen, true)
	if err := h.holds.reserve(h.opts.Limits, client, held); err != nil {
		return protocol.GameInfo{}, "", err
	}
	l, err := h.createGame(ctx, g, client, held)
	if err != nil || l == nil {
		h.holds.add(client, held, -1)
	}
	if err != nil {
		return protocol.GameInfo{}, "", err
	}
	h.log.Info("game created", "game", id, "seats", seats)
	var in protocol.GameInfo
	err = errEnded
	if l != nil {
		err = l.call(ctx, func(l *loop) error { in = l.info(); return nil })
	}
	if err != nil {
		// The game was committed; describe it as stored.
		in = newInfo(h.opts.Limits.OpenTTL, g.ID, g.Status, g.Seats, g.Rated, 0, g.Created, g.Updated, nil)
	}
	return in, creator, nil
}

// Remove frees seat, taken by a person, at a table that has not started:
// the person's token stops working, the seat is open again, and every
// watcher is told. Only the table's creator may (creatorToken, returned by
// Create).
func (h *Hub) Remove(ctx context.Context, id, creatorToken string, seat int) error {
	hash := hashToken(creatorToken)
	_, err := h.write(ctx, match.Command{Kind: match.Remove, Game: id, Hash: hash, Seat: seat})
	return err
}

// GiveUp frees seat for the person whose token holds it, at a table that
// has not started: the token stops working, the seat is open for someone
// else, and every watcher is told. Once the game has started it is
// refused: Leave hands the seat to a bot instead.
func (h *Hub) GiveUp(ctx context.Context, id, token string, seat int) error {
	hash := hashToken(token)
	_, err := h.write(ctx, match.Command{Kind: match.GiveUp, Game: id, Hash: hash, Seat: seat})
	return err
}

// SetLevel gives the bot of seat another level (one of bot.Levels) at a
// table that has not started, and every watcher is told. Only the
// table's creator may (creatorToken, returned by Create).
func (h *Hub) SetLevel(ctx context.Context, id, creatorToken string, seat int, level string) error {
	hash := hashToken(creatorToken)
	_, err := h.write(ctx, match.Command{Kind: match.SetLevel, Game: id, Hash: hash, Seat: seat, Level: level})
	return err
}

// Creator reports whether creatorToken is the creator's of game id.
func (h *Hub) Creator(ctx context.Context, id, creatorToken string) (bool, error) {
	hash := hashToken(creatorToken)
	var is bool
	err := h.with(ctx, id, func(l *loop) error {
		is = match.SameHash(l.m.Creator, hash)
		return nil
	}, func(g *store.Game) error {
		is = match.SameHash(g.CreatorHash, hash)
		return nil
	})
	return is, err
}

// newTable returns the stored form of the table t describes, and its
// creator's token; nothing is stored yet.
func (h *Hub) newTable(t TableSetup) (*store.Game, string, error) {
	p, err := match.CheckTable(t.Seats, t.Pace, t.Rated)
	if err != nil {
		return nil, "", refused(err)
	}
	id, err := newID(h.opts.Rand)
	if err != nil {
		return nil, "", internal(err)
	}
	seed := make([]byte, 32)
	if _, err := io.ReadFull(h.opts.Rand, seed); err != nil {
		return nil, "", internal(err)
	}
	// From crypto/rand, not Options.Rand: a secret that tests need not
	// foresee, and that leaves their ids, seeds and seat tokens as they were.
	creator := rand.Text()
	g, err := match.NewTable(match.Setup{Seats: t.Seats, Pace: p, Rated: t.Rated, ID: id, Seed: seed,
		CreatorHash: hashToken(creator), At: h.opts.Now()})
	if err != nil {
		return nil, "", internal(err)
	}
	return g, creator, nil
}

// createTutorial starts the guided first game for a person called name
// (TableSetup.Tutorial). It is stored and replayed like any game, but List
// leaves it out, since nobody else can take part.
func (h *Hub) createTutorial(ctx context.Context, name, client string) (Table, error) {
	if err := match.CheckLearner(name); err != nil {
		return Table{}, refused(err)
	}
	token, err := newToken(h.opts.Rand)
	if err != nil {
		return Table{}, internal(err)
	}
	id, err := newID(h.opts.Rand)
	if err != nil {
		return Table{}, internal(err)
	}
	g := match.NewTutorial(id, name, hashToken(token), h.opts.Now())
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
