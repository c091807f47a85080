// Package memstore keeps games in memory: a store.Store for tests of other
// packages that need no durability. Everything is lost at Close.
package memstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// Store is an in-memory store.Store. The zero value is not usable: call New.
type Store struct {
	mu     sync.Mutex
	games  map[string]*store.Game
	closed bool
}

var _ store.Store = (*Store)(nil)

// New returns an empty store.
func New() *Store {
	return &Store{games: make(map[string]*store.Game)}
}

var errClosed = errors.New("memstore: the store is closed")

// lock takes the mutex unless ctx is done or the store is closed; on nil
// the caller must unlock.
func (s *Store) lock(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return errClosed
	}
	return nil
}

// CreateGame implements store.Store.
func (s *Store) CreateGame(ctx context.Context, g *store.Game) error {
	if err := g.Validate(); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if _, ok := s.games[g.ID]; ok {
		return fmt.Errorf("memstore: game %q: %w: the id exists", g.ID, store.ErrConflict)
	}
	now := time.Now().Round(0) // no monotonic reading: it means nothing stored
	if g.Created.IsZero() {
		g.Created = now
	}
	if g.Updated.IsZero() {
		g.Updated = now
	}
	s.games[g.ID] = g.Clone()
	return nil
}

// touch advances g.Updated to now, and never backwards, so the order of
// changes survives a clock step.
func touch(g *store.Game) {
	now := time.Now().Round(0)
	if !now.After(g.Updated) {
		now = g.Updated.Add(time.Nanosecond)
	}
	g.Updated = now
}

// Game implements store.Store.
func (s *Store) Game(ctx context.Context, id string) (*store.Game, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	g, ok := s.games[id]
	if !ok {
		return nil, fmt.Errorf("memstore: game %q: %w", id, store.ErrNotFound)
	}
	return g.Clone(), nil
}

// TakeSeat implements store.Store.
func (s *Store) TakeSeat(ctx context.Context, id string, seat int, name string, tokenHash []byte, status store.Status) error {
	switch {
	case name == "":
		return fmt.Errorf("memstore: game %q seat %d: empty name", id, seat)
	case len(tokenHash) == 0:
		return fmt.Errorf("memstore: game %q seat %d: no token hash", id, seat)
	case !status.Valid():
		return fmt.Errorf("memstore: game %q: unknown status %q", id, status)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	g, ok := s.games[id]
	if !ok {
		return fmt.Errorf("memstore: game %q: %w", id, store.ErrNotFound)
	}
	if seat < 0 || seat >= len(g.Seats) {
		return fmt.Errorf("memstore: game %q has no seat %d: %w", id, seat, store.ErrNotFound)
	}
	if st := g.Seats[seat]; st.Name != "" || st.Bot != "" || st.TokenHash != nil {
		return fmt.Errorf("memstore: game %q seat %d: %w: the seat is taken", id, seat, store.ErrConflict)
	}
	g.Seats[seat] = store.Seat{Name: name, TokenHash: bytes.Clone(tokenHash)}
	g.Status = status
	touch(g)
	return nil
}

// AppendMove implements store.Store.
func (s *Store) AppendMove(ctx context.Context, id string, index int, token string, status store.Status) error {
	switch {
	case token == "":
		return fmt.Errorf("memstore: game %q move %d: empty token", id, index)
	case !status.Valid():
		return fmt.Errorf("memstore: game %q: unknown status %q", id, status)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	g, ok := s.games[id]
	if !ok {
		return fmt.Errorf("memstore: game %q: %w", id, store.ErrNotFound)
	}
	if g.Status == store.StatusFinished || g.Status == store.StatusArchived {
		return fmt.Errorf("memstore: game %q is %s: %w", id, g.Status, store.ErrConflict)
	}
	if index != len(g.Moves) {
		return fmt.Errorf("memstore: game %q move %d: %w: the next move is %d", id, index, store.ErrConflict, len(g.Moves))
	}
	g.Moves = append(g.Moves, token)
	g.Status = status
	touch(g)
	return nil
}

// List implements store.Store.
func (s *Store) List(ctx context.Context, status store.Status, limit int) ([]store.Summary, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var sums []store.Summary
	for _, g := range s.games {
		if g.Status != status {
			continue
		}
		sum := store.Summary{
			ID:      g.ID,
			Status:  g.Status,
			Seats:   slices.Clone(g.Seats),
			Moves:   len(g.Moves),
			Created: g.Created,
			Updated: g.Updated,
		}
		for i := range sum.Seats {
			sum.Seats[i].TokenHash = nil
		}
		sums = append(sums, sum)
	}
	sort.Slice(sums, func(i, j int) bool {
		a, b := sums[i], sums[j]
		if !a.Updated.Equal(b.Updated) {
			return a.Updated.After(b.Updated)
		}
		return a.ID < b.ID
	})
	if limit > 0 && len(sums) > limit {
		sums = sums[:limit]
	}
	return sums, nil
}

// Close implements store.Store. Later calls fail.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.games = nil
	return nil
}
