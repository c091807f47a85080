package table

import (
	"context"

	"github.com/razziagame/razzia/internal/match"
)

// An operator's commands at a table (match/moderation.go): the server
// checked the role before it asks. They take a table's ordinary path, so
// that a game run by another node is changed by its owner, as a move is.

// Expel takes the account's seat at game id from its person: at an open
// table the seat is open again, in a game being played a bot plays it to
// the end of the game (match.ReasonRemoved), and the person cannot take
// it back. A game where the account holds no seat is left as it is; a
// game that is over is refused (ErrGameOver).
func (h *Hub) Expel(ctx context.Context, id, account string) error {
	_, err := h.write(ctx, match.Command{Kind: match.Expel, Game: id, Account: account})
	return err
}

// Strike removes chat line seq (its place in the game's chat, as the
// chat messages number it) of game id for everyone: every watcher, on
// every node, is sent it again without its words, marked removed. The
// chat after the game is struck too, and a finished game's at any time.
func (h *Hub) Strike(ctx context.Context, id string, seq int) error {
	_, err := h.write(ctx, match.Command{Kind: match.Strike, Game: id, Seat: seq})
	return err
}
