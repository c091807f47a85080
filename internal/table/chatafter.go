package table

import (
	"context"
	"fmt"

	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/store"
)

// chatAfter makes the chat write r (a message or a mute) at game g, which
// is over: see the comment at the top.
func (h *Hub) chatAfter(ctx context.Context, g *store.Game, r match.Command) error {
	if g.Status != store.StatusFinished {
		return reject(chat.ErrClosed, "an uploaded record has no table chat")
	}
	now := h.opts.Now()
	if err := chat.CheckOpen(g.Updated, now); err != nil {
		return refused(match.ChatRefusal(err))
	}
	p, seat, ok := match.Chatter(g.Seats, r.Hash, r.Account)
	if !ok {
		return refused(match.SignInRefusal("chat; everyone can read along"))
	}
	switch r.Kind {
	case match.Chat:
		ch, name := match.ChatChannel(g.Seats, seat, r.Name)
		m, err := h.after.post(g.ID, p, ch, r.Phrase, r.Text, now)
		if err != nil {
			return refused(match.ChatRefusal(err))
		}
		line := store.ChatLine{Channel: ch.String(), From: p.ID, Seat: seat, Name: name, Phrase: m.Phrase, Text: m.Text,
			Move: len(g.Moves), At: now.UTC().Round(0)}
		if err := h.store.AddChat(ctx, g.ID, store.NoFence, line); err != nil {
			return h.storeError("store a chat message after the game", g.ID, err)
		}
	case match.Mute:
		target, err := match.MuteTarget(g.Seats, p, r.Seat)
		if err != nil {
			return refused(err)
		}
		if err := h.store.SetMute(ctx, g.ID, store.NoFence, store.Mute{Muter: p.ID, Muted: target}, r.Mute); err != nil {
			return h.storeError("store a mute after the game", g.ID, err)
		}
	default:
		return internal(fmt.Errorf("unknown chat write %q", r.Kind))
	}
	// This node's watchers hear of it now, the others' at the notice.
	h.after.read(ctx, g.ID)
	return nil
}
