package memstore

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// analysis is a game's analysis or its claim: done is false until the
// analysis is stored.
type analysis struct {
	stored  store.Analysis
	done    bool
	node    string
	expires time.Time
}

// ClaimAnalysis implements store.Store.
func (s *Store) ClaimAnalysis(ctx context.Context, node string, ttl time.Duration) (string, error) {
	if err := store.CheckClaim(node, ttl); err != nil {
		return "", err
	}
	if err := s.lock(ctx); err != nil {
		return "", err
	}
	defer s.mu.Unlock()
	now := time.Now()
	var first *store.Game
	for id, g := range s.games {
		if g.Status != store.StatusFinished {
			continue
		}
		if a := s.analyses[id]; a != nil && (a.done || now.Before(a.expires)) {
			continue
		}
		if first == nil || g.Updated.Before(first.Updated) || g.Updated.Equal(first.Updated) && g.ID < first.ID {
			first = g
		}
	}
	if first == nil {
		return "", nil
	}
	s.analyses[first.ID] = &analysis{node: node, expires: now.Add(ttl)}
	return first.ID, nil
}

// PutAnalysis implements store.Store.
func (s *Store) PutAnalysis(ctx context.Context, id string, a store.Analysis) error {
	if err := a.Check(id); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	g, ok := s.games[id]
	if !ok {
		return fmt.Errorf("memstore: game %q: %w", id, store.ErrNotFound)
	}
	if g.Status != store.StatusFinished {
		return fmt.Errorf("memstore: game %q is %s: %w: only a finished game is analysed", id, g.Status, store.ErrConflict)
	}
	a.Report = bytes.Clone(a.Report)
	a.Created = time.Now().Round(0)
	s.analyses[id] = &analysis{stored: a, done: true}
	return nil
}

// Analysis implements store.Store.
func (s *Store) Analysis(ctx context.Context, id string) (store.Analysis, error) {
	if err := s.lock(ctx); err != nil {
		return store.Analysis{}, err
	}
	defer s.mu.Unlock()
	if _, ok := s.games[id]; !ok {
		return store.Analysis{}, fmt.Errorf("memstore: game %q: %w", id, store.ErrNotFound)
	}
	a := s.analyses[id]
	if a == nil || !a.done {
		return store.Analysis{}, fmt.Errorf("memstore: game %q: %w", id, store.ErrNoAnalysis)
	}
	out := a.stored
	out.Report = bytes.Clone(out.Report)
	return out, nil
}
