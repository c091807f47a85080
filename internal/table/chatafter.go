package table

import (
	"context"

	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/store"
)

// chatAfter makes the chat write r (a message or a mute) at game g, which
// is over (afterchat.go), as match.AfterGame decides it.
func (h *Hub) chatAfter(ctx context.Context, g *store.Game, r match.Command) error {
	if r.Kind == match.Strike {
		return h.strikeAfter(ctx, g, r)
	}
	if err := silenced(h.opts.Silenced, g.Seats, r); err != nil {
		return err
	}
	now := h.opts.Now()
	var w match.Write
	err := h.after.inRoom(g.ID, now, func(room *chat.Room) error {
		var err error
		if w, err = match.AfterGame(r, g, room, now); err == nil && w.Kind == match.AddChat {
			// Taken as it is decided, under the node's lock: no one
			// goroutine orders the messages after the game.
			room.Take(w.Line.From, now)
		}
		return err
	})
	if err != nil {
		return refused(err)
	}
	if w.Kind == match.AddChat {
		err = h.store.AddChat(ctx, g.ID, store.NoFence, w.Line)
	} else {
		err = h.store.SetMute(ctx, g.ID, store.NoFence, w.Mute, w.On)
	}
	if err != nil {
		return h.storeError("store the chat after the game of", g.ID, err)
	}
	// This node's watchers hear of it now, the others' at the notice.
	h.after.read(ctx, g.ID)
	return nil
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
