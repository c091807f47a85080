package table

import (
	"context"
	"errors"
	"slices"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// An operator's commands at a table (match/moderation.go): the server
// checked the role before it asks. They take a table's ordinary path, so
// that a game run by another node is changed by its owner, as a move is.

// moderationWrites is what the operators' commands write.
type moderationWrites interface {
	StrikeChat(ctx context.Context, id string, fence store.Fence, seq int) error
}

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

// strikeAfter removes a chat line of game g, which is over: no goroutine
// runs it, so this node writes it without a fence, as the chat after the
// game (chatAfter).
func (h *Hub) strikeAfter(ctx context.Context, g *store.Game, r match.Command) error {
	c, err := h.store.Chat(ctx, g.ID)
	if err != nil {
		return h.storeError("read the chat of", g.ID, err)
	}
	w, err := match.StrikeAfter(g, len(c.Lines), r.Seat)
	if err != nil {
		return refused(err)
	}
	if err := h.store.StrikeChat(ctx, g.ID, store.NoFence, w.Index); err != nil {
		return h.storeError("remove a chat line of", g.ID, err)
	}
	h.after.read(ctx, g.ID)
	return nil
}

// afterGame reports whether a command of kind k is answered, once the
// game is over, by the chat after the game rather than the match.
func afterGame(k match.Kind) bool {
	return k == match.Chat || k == match.Mute || k == match.Strike
}

// silenced reports why the person who sends c, a chat message at a table
// of seats, may not chat: the account of their seat, or the one they
// watch with, is muted, suspended or banned (Options.Silenced).
func silenced(f func(account string) error, seats []store.Seat, c match.Command) error {
	if f == nil || c.Kind != match.Chat {
		return nil
	}
	accounts := []string{c.Account}
	if seat := match.SeatOf(seats, c.Hash); seat >= 0 {
		accounts = append(accounts, seats[seat].Account)
	}
	for _, a := range slices.Compact(accounts) {
		if a == "" {
			continue
		}
		if err := f(a); err != nil {
			return hookError(err)
		}
	}
	return nil
}

// hookError is the Hub's error for a hook's refusal err, which wraps a
// *protocol.Refusal (the kind an answer passed between nodes carries).
func hookError(err error) error {
	var r *protocol.Refusal
	if !errors.As(err, &r) {
		return internal(err)
	}
	return &Error{Kind: r, Msg: err.Error(), Err: err}
}

// struck sends every watcher the chat lines removed, as each may read
// them: marked removed, without their words.
func (l *loop) struck(seqs []int) {
	if len(seqs) == 0 {
		return
	}
	lines := make([]store.ChatLine, 0, len(seqs))
	for _, seq := range seqs {
		lines = append(lines, l.m.Chat[seq])
	}
	for s := range l.subs {
		l.chatTo(s, lines)
	}
}

// newlyStruck returns the lines of now that are removed and were not in
// before, the same chat as read earlier.
func newlyStruck(before, now []store.ChatLine) []store.ChatLine {
	var out []store.ChatLine
	for i := range min(len(before), len(now)) {
		if now[i].Removed && !before[i].Removed {
			out = append(out, now[i])
		}
	}
	return out
}

// heardOf returns the lines of struck a follower who heard the first
// heard lines of the chat has heard.
func heardOf(struck []store.ChatLine, heard int) []store.ChatLine {
	var out []store.ChatLine
	for _, m := range struck {
		if m.Seq < heard {
			out = append(out, m)
		}
	}
	return out
}
