package client

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
)

// A SeatRequest is the seat TakeSeat is asked for.
type SeatRequest struct {
	// Game is the table to sit at; "" creates one with Seats (see
	// CreateTable), at Pace, rated or not.
	Game  string
	Seats []string
	Pace  string
	Rated bool
	// Name is the person's name at the table. A seat kept for the game
	// is taken back only if it is under that name (as the server compares
	// names), unless AnyName: the person named none, and any seat kept
	// there is theirs, the newest first.
	Name    string
	AnyName bool
}

// TakeSeat checks first that the store can keep a seat (SeatStore.Check),
// then returns the person's seat: the one the store keeps for the
// game under the name, if the server still knows its token (Saved is then
// when it was kept); else a seat joined now, at the game or at a table
// created for it, and kept in the store (Saved is zero). A table created
// for a join that fails is cancelled, so that nothing is left waiting on
// the server.
func (c *Client) TakeSeat(ctx context.Context, store *SeatStore, req SeatRequest) (SavedSeat, error) {
	if err := store.Check(); err != nil {
		return SavedSeat{}, err
	}
	id := req.Game
	if id != "" {
		kept, err := store.GameSeats(c.URL(), id)
		if err != nil {
			return SavedSeat{}, err
		}
		for _, saved := range kept {
			if !req.AnyName && playername.Key(saved.Name) != playername.Key(req.Name) {
				continue // another person's seat at the same table
			}
			_, you, err := c.Game(ctx, id, saved.Token)
			var refused *Error
			switch {
			case err == nil && you >= 0:
				saved.Seat = you
				return saved, nil
			case errors.As(err, &refused) && refused.Code == protocol.NotFound:
				_ = store.Forget(c.URL(), id)
				return SavedSeat{}, fmt.Errorf("game %s on %s: %w", id, c.URL(), err)
			case err != nil:
				return SavedSeat{}, fmt.Errorf("game %s on %s: %w", id, c.URL(), err)
			}
			_ = store.Drop(saved) // the token holds no seat any more
		}
	}
	creator := ""
	if id == "" {
		// The name goes too: one the server would refuse at the join
		// makes no table.
		info, ct, err := c.CreateTable(ctx, Table{Seats: req.Seats, Pace: req.Pace, Rated: req.Rated, Name: req.Name})
		if err != nil {
			return SavedSeat{}, fmt.Errorf("creating a game on %s: %w", c.URL(), err)
		}
		id, creator = info.ID, ct
	}
	seat, token, err := c.Join(ctx, id, req.Name, -1)
	if err != nil {
		if creator != "" {
			_, _ = c.Cancel(context.WithoutCancel(ctx), id, creator)
		}
		return SavedSeat{}, fmt.Errorf("joining game %s on %s: %w", id, c.URL(), err)
	}
	saved := SavedSeat{Server: c.URL(), Game: id, Seat: seat, Name: req.Name, Token: token, Creator: creator, Saved: time.Now()}
	if err := store.Save(saved); err != nil {
		// Check passed, and yet: leave no table of ours waiting.
		if creator != "" {
			_, _ = c.Cancel(context.WithoutCancel(ctx), id, creator)
		}
		return SavedSeat{}, err
	}
	saved.Saved = time.Time{} // joined now, not taken back
	return saved, nil
}

// A HeldGame is a game the person holds a seat in, as the server has it.
type HeldGame struct {
	Seat    SavedSeat
	Info    protocol.GameInfo
	ToMove  bool // the person is to move
	StandIn bool // a server bot plays for the person
}

// HeldGames returns the games on the server whose seats the store keeps
// and that are not over, the person's turn first, then the most recently
// changed; it forgets the seats of games over, gone or lost.
func (c *Client) HeldGames(ctx context.Context, store *SeatStore) ([]HeldGame, error) {
	saved, err := store.Seats(c.URL())
	if err != nil {
		return nil, err
	}
	var games []HeldGame
	for _, x := range saved {
		info, you, err := c.Game(ctx, x.Game, x.Token)
		var refused *Error
		switch {
		case errors.As(err, &refused) && refused.Code == protocol.NotFound:
			_ = store.Forget(c.URL(), x.Game)
			continue
		case err != nil:
			return nil, err
		case you < 0 || info.Status.Over() || info.Status == protocol.StatusExpired || info.Status == protocol.StatusCancelled:
			_ = store.Forget(c.URL(), x.Game)
			continue
		}
		standIn := you < len(info.Seats) && info.Seats[you].StandIn != ""
		games = append(games, HeldGame{x, info, info.ToMove != nil && *info.ToMove == you && !standIn, standIn})
	}
	slices.SortStableFunc(games, func(a, b HeldGame) int {
		switch {
		case a.ToMove && !b.ToMove:
			return -1
		case b.ToMove && !a.ToMove:
			return 1
		}
		return b.Info.Updated.Compare(a.Info.Updated)
	})
	return games, nil
}
