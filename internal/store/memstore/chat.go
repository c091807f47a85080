package memstore

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/razziagame/razzia/internal/store"
)

// liveChat returns live game id for a chat write with fence.
func (s *Store) liveChat(id string, fence store.Fence) (*store.Game, error) {
	g, ok := s.games[id]
	if !ok {
		return nil, fmt.Errorf("memstore: game %q: %w", id, store.ErrNotFound)
	}
	if err := s.fenced(id, fence); err != nil {
		return nil, err
	}
	if !g.Status.Live() {
		return nil, fmt.Errorf("memstore: game %q is %s: %w", id, g.Status, store.ErrConflict)
	}
	return g, nil
}

// AddChat implements store.Store.
func (s *Store) AddChat(ctx context.Context, id string, fence store.Fence, m store.ChatLine) error {
	if err := m.Check(id); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	g, err := s.liveChat(id, fence)
	if err != nil {
		return err
	}
	m.At = m.At.UTC().Round(0)
	c := s.chats[id]
	c.Lines = append(c.Lines, m)
	s.chats[id] = c
	s.announce(g, store.ChangeChat)
	return nil
}

// SetMute implements store.Store.
func (s *Store) SetMute(ctx context.Context, id string, fence store.Fence, m store.Mute, on bool) error {
	if err := m.Check(id); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	g, err := s.liveChat(id, fence)
	if err != nil {
		return err
	}
	c := s.chats[id]
	cmp := func(a, b store.Mute) int {
		if n := strings.Compare(a.Muter, b.Muter); n != 0 {
			return n
		}
		return strings.Compare(a.Muted, b.Muted)
	}
	i, found := slices.BinarySearchFunc(c.Mutes, m, cmp)
	switch {
	case on && !found:
		c.Mutes = slices.Insert(c.Mutes, i, m)
	case !on && found:
		c.Mutes = slices.Delete(c.Mutes, i, i+1)
	}
	s.chats[id] = c
	s.announce(g, store.ChangeChat)
	return nil
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
