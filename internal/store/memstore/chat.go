package memstore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// chatWrite changes the chat of game id, for a write with fence
// (store.CheckChatWrite), and announces it; a change that fails changes
// nothing.
func (s *Store) chatWrite(ctx context.Context, id string, fence store.Fence, change func(c *store.Chat) error) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	g, ok := s.games[id]
	if !ok {
		return fmt.Errorf("memstore: game %q: %w", id, store.ErrNotFound)
	}
	lease := store.Lease{Game: id}
	if l := s.leases[id]; l != nil {
		lease = *l
	}
	if err := store.CheckChatWrite(id, g.Status, lease, fence, time.Now()); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	c := s.chats[id]
	if err := change(&c); err != nil {
		return err
	}
	s.chats[id] = c
	s.announce(g, store.ChangeChat)
	return nil
}

// AddChat implements store.Store.
func (s *Store) AddChat(ctx context.Context, id string, fence store.Fence, m store.ChatLine) error {
	if err := m.Check(id); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	m.At = m.At.UTC().Round(0)
	return s.chatWrite(ctx, id, fence, func(c *store.Chat) error {
		m.Seq = len(c.Lines)
		c.Lines = append(c.Lines, m)
		return nil
	})
}

// SetMute implements store.Store.
func (s *Store) SetMute(ctx context.Context, id string, fence store.Fence, m store.Mute, on bool) error {
	if err := m.Check(id); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	return s.chatWrite(ctx, id, fence, func(c *store.Chat) error {
		i, found := slices.BinarySearchFunc(c.Mutes, m, func(a, b store.Mute) int {
			if n := strings.Compare(a.Muter, b.Muter); n != 0 {
				return n
			}
			return strings.Compare(a.Muted, b.Muted)
		})
		switch {
		case on && !found:
			c.Mutes = slices.Insert(c.Mutes, i, m)
		case !on && found:
			c.Mutes = slices.Delete(c.Mutes, i, i+1)
		}
		return nil
	})
}

// Chat implements store.Store.
func (s *Store) Chat(ctx context.Context, id string) (store.Chat, error) {
	if err := s.lock(ctx); err != nil {
		return store.Chat{}, err
	}
	defer s.mu.Unlock()
	if _, ok := s.games[id]; !ok {
		return store.Chat{}, fmt.Errorf("memstore: game %q: %w", id, store.ErrNotFound)
	}
	c := s.chats[id]
	return store.Chat{Lines: slices.Clone(c.Lines), Mutes: slices.Clone(c.Mutes)}, nil
}
