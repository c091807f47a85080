package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// A SeatedTable is a table whose every seat is given before it exists,
// such as a tournament's: it starts at once, with the id and the deal
// its creator chose.
type SeatedTable struct {
	// ID is the game's id: protocol.IDLen lower-case letters and digits
	// 2 to 7, chosen so that creating it twice creates it once.
	ID string
	// Seed deals the game (razzia.NewSetup): tables given one seed play
	// one deal. 32 bytes.
	Seed []byte
	// Seats are the players in seat order: an account's person (Name and
	// Account) or a bot (Bot, a level).
	Seats []SeatedPlayer
	// Pace is a pace preset's id; Rated makes a rated game.
	Pace  string
	Rated bool
}

// A SeatedPlayer is one seat of a SeatedTable.
type SeatedPlayer struct {
	Name    string
	Account string
	Bot     string
}

// CreateSeated stores and starts the table t describes, each person's
// seat held by their account (Options.SeatToken), and reports whether
// it created it: a game with t's id already is left as it is (created
// false), so that whoever creates a table again after a crash creates it
// once.
func (h *Hub) CreateSeated(ctx context.Context, t SeatedTable) (created bool, err error) {
	if len(t.ID) != protocol.IDLen || strings.Trim(t.ID, "abcdefghijklmnopqrstuvwxyz234567") != "" {
		return false, reject(ErrBadRequest, "a table id is %d lower-case letters and digits 2 to 7, not %q", protocol.IDLen, t.ID)
	}
	if n := len(t.Seats); n < razzia.MinPlayers || n > razzia.MaxPlayers {
		return false, reject(ErrBadRequest, "a table has %d to %d seats, not %d", razzia.MinPlayers, razzia.MaxPlayers, n)
	}
	if len(t.Seed) != 32 {
		return false, reject(ErrBadRequest, "a deal's seed is 32 bytes, not %d", len(t.Seed))
	}
	p, err := ChoosePace(t.Pace, t.Rated)
	if err != nil {
		return false, err
	}
	if _, err := h.store.Game(ctx, t.ID); err == nil {
		return false, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return false, h.storeError("read game", t.ID, err)
	}
	g := &store.Game{ID: t.ID, Status: store.StatusPlaying, Rated: t.Rated, Moves: []string{}, Seed: append([]byte(nil), t.Seed...)}
	for i, s := range t.Seats {
		switch {
		case s.Bot != "":
			if !match.IsLevel(s.Bot) {
				return false, reject(ErrBadRequest, "seat %d: unknown bot level %q", i+1, s.Bot)
			}
			g.Seats = append(g.Seats, store.Seat{Name: playername.Bot(i, s.Bot), Bot: s.Bot})
		case s.Account != "" && h.opts.SeatToken != nil:
			token, err := h.opts.SeatToken(ctx, s.Account, t.ID)
			if err != nil {
				return false, h.failed("seat an account at", t.ID, err)
			}
			g.Seats = append(g.Seats, store.Seat{Name: s.Name, Account: s.Account, TokenHash: hashToken(token)})
		default:
			return false, internal(fmt.Errorf("seat %d of %s: a person without an account, or a Hub without Options.SeatToken", i+1, t.ID))
		}
	}
	if t.Rated && !slices.ContainsFunc(g.Seats, store.Seat.Person) {
		return false, reject(ErrBadRequest, "a rated table needs a person: bots alone are never rated")
	}
	g.Cheques = razzia.NewSetup(match.PlayerNames(g.Seats), g.Seed).Cheques
	g.Created = h.opts.Now()
	g.Updated = g.Created
	if g.Clock, err = match.NewTiming(p, len(g.Seats)); err != nil {
		return false, internal(err)
	}
	if _, err := h.createGame(ctx, g, "", holdNone); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return false, nil
		}
		return false, err
	}
	h.log.Info("seated table created", "game", g.ID, "players", len(g.Seats), "rated", t.Rated)
	return true, nil
}
