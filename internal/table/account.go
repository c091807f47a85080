package table

import (
	"context"
	"slices"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
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
		token, err := h.newToken()
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

// Finished is a game that is over, as OnFinish reports it.
type Finished struct {
	Game   string
	Rated  bool
	Seats  []store.Seat // names, bots and accounts; no tokens
	Scores []razzia.Score
	At     time.Time
	// Forfeited is, by seat, whether the person timed out or left (a bot
	// took their seat at least once): a rated game is a loss for them.
	Forfeited []bool
}

// finishTimeout bounds the OnFinish hook of one game.
const finishTimeout = 30 * time.Second

// finished hands the game that just ended to the OnFinish hook.
func (l *loop) finished() {
	hook := l.env.onFinish
	if hook == nil {
		return
	}
	f := Finished{Game: l.id, Rated: l.m.Rated, Seats: slices.Clone(l.m.Seats), At: l.m.Updated,
		Forfeited: protocol.RecordMeta{TakeOvers: l.m.Timing.TakeOvers}.Forfeited(len(l.m.Seats))}
	for i := range f.Seats {
		f.Seats[i].TokenHash = nil
	}
	st := l.m.Game.State()
	for r := 1; r <= razzia.Rounds; r++ {
		for i, sc := range st.Scores(r) {
			if f.Scores == nil {
				f.Scores = make([]razzia.Score, len(f.Seats))
			}
			for c := range sc {
				f.Scores[i][c] += sc[c]
			}
		}
	}
	// Before the last state is broadcast, so that whoever sees the game
	// over sees its result stored; not cancelled by Close, which waits.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(l.env.ctx), finishTimeout)
	defer cancel()
	hook(ctx, f)
}
