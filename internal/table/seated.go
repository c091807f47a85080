package table

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/razziagame/razzia/internal/match"
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
	if len(t.Seed) != 32 {
		return false, reject(ErrBadRequest, "a deal's seed is 32 bytes, not %d", len(t.Seed))
	}
	levels := make([]string, len(t.Seats)) // as a creator asks: "" for a person
	for i, s := range t.Seats {
		levels[i] = s.Bot
	}
	p, err := match.CheckTable(levels, t.Pace, t.Rated)
	if err != nil {
		return false, refused(err)
	}
	if _, err := h.store.Game(ctx, t.ID); err == nil {
		return false, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return false, h.storeError("read game", t.ID, err)
	}
	g, err := match.NewTable(match.Setup{Seats: levels, Pace: p, Rated: t.Rated, ID: t.ID, Seed: append([]byte(nil), t.Seed...), At: h.opts.Now()})
	if err != nil {
		return false, internal(err)
	}
	// Every person seated now, by their account's token: it starts at once.
	for i, s := range t.Seats {
		if s.Bot != "" {
			continue
		}
		if s.Account == "" || h.opts.SeatToken == nil {
			return false, internal(fmt.Errorf("seat %d of %s: a person without an account, or a Hub without Options.SeatToken", i+1, t.ID))
		}
		token, err := h.opts.SeatToken(ctx, s.Account, t.ID)
		if err != nil {
			return false, h.failed("seat an account at", t.ID, err)
		}
		g.Seats[i] = store.Seat{Name: s.Name, Account: s.Account, TokenHash: hashToken(token)}
	}
	g.Status = store.StatusPlaying
	if _, err := h.createGame(ctx, g, "", holdNone); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return false, nil
		}
		return false, err
	}
	h.log.Info("seated table created", "game", g.ID, "players", len(g.Seats), "rated", t.Rated)
	return true, nil
}
