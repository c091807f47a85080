package memstore

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// puzzles are the store's puzzles, their scans and answers, and the
// seats' luck; the maps are made on first use.
type puzzles struct {
	scans    map[string]*analysis              // by game: a claim, or done
	byID     map[string]*store.Puzzle          // by puzzle
	daily    map[string]string                 // puzzle by day
	luck     map[string][]store.SeatLuck       // by game
	solvers  map[string]store.Solver           // by account
	attempts map[[2]string]store.PuzzleAttempt // by puzzle and account
}

func (p *puzzles) init() {
	if p.byID == nil {
		*p = puzzles{scans: map[string]*analysis{}, byID: map[string]*store.Puzzle{}, daily: map[string]string{},
			luck: map[string][]store.SeatLuck{}, solvers: map[string]store.Solver{}, attempts: map[[2]string]store.PuzzleAttempt{}}
	}
}

// forget removes what an account left: its rating and answers.
func (p *puzzles) forget(account string) {
	p.init()
	delete(p.solvers, account)
	for k := range p.attempts {
		if k[1] == account {
			delete(p.attempts, k)
		}
	}
}

func clonePuzzle(p *store.Puzzle) *store.Puzzle {
	c := *p
	c.Themes = slices.Clone(p.Themes)
	c.Eval = bytes.Clone(p.Eval)
	return &c
}

// ClaimPuzzleScan implements store.Puzzles.
func (s *Store) ClaimPuzzleScan(ctx context.Context, node string, ttl time.Duration) (string, error) {
	if err := store.CheckClaim(node, ttl); err != nil {
		return "", err
	}
	if err := s.lock(ctx); err != nil {
		return "", err
	}
	defer s.mu.Unlock()
	s.puz.init()
	now := time.Now()
	var first *store.Game
	for id, g := range s.games {
		if a := s.analyses[id]; g.Status != store.StatusFinished || a == nil || !a.done {
			continue
		}
		if c := s.puz.scans[id]; c != nil && (c.done || now.Before(c.expires)) {
			continue
		}
		if first == nil || g.Updated.Before(first.Updated) || g.Updated.Equal(first.Updated) && g.ID < first.ID {
			first = g
		}
	}
	if first == nil {
		return "", nil
	}
	s.puz.scans[first.ID] = &analysis{node: node, expires: now.Add(ttl)}
	return first.ID, nil
}

// lockFinished takes the store's lock for a write about finished game id,
// which the caller then unlocks; a game not there or not finished is
// refused, unlocked: only a finished game has puzzles and luck.
func (s *Store) lockFinished(ctx context.Context, id string) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	s.puz.init()
	g, ok := s.games[id]
	switch {
	case !ok:
		s.mu.Unlock()
		return fmt.Errorf("memstore: game %q: %w", id, store.ErrNotFound)
	case g.Status != store.StatusFinished:
		s.mu.Unlock()
		return fmt.Errorf("memstore: game %q is %s: %w: only a finished game has puzzles and luck", id, g.Status, store.ErrConflict)
	}
	return nil
}

// PutPuzzleScan implements store.Puzzles.
func (s *Store) PutPuzzleScan(ctx context.Context, id string, scan store.PuzzleScan) error {
	if err := scan.Check(id); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lockFinished(ctx, id); err != nil {
		return err
	}
	defer s.mu.Unlock()
	now := time.Now().Round(0)
	for _, p := range scan.Puzzles {
		if _, ok := s.puz.byID[p.ID]; ok {
			continue
		}
		c := clonePuzzle(p)
		c.Created, c.Rating.Games, c.Solved = now, 0, 0
		s.puz.byID[p.ID] = c
	}
	s.seatLuck(id, scan.Luck)
	s.puz.scans[id] = &analysis{done: true}
	return nil
}

// seatLuck stores the luck of game id's seats; the store's lock is held.
func (s *Store) seatLuck(id string, luck []store.SeatLuck) {
	kept := slices.Clone(s.puz.luck[id])
	for _, l := range luck {
		kept = slices.DeleteFunc(kept, func(x store.SeatLuck) bool { return x.Seat == l.Seat })
		kept = append(kept, l)
	}
	s.puz.luck[id] = kept
}

// PutSeatLuck implements store.Puzzles.
func (s *Store) PutSeatLuck(ctx context.Context, id string, luck []store.SeatLuck) error {
	if err := (store.PuzzleScan{Luck: luck}).Check(id); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lockFinished(ctx, id); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.seatLuck(id, luck)
	return nil
}

// PuzzleScanned implements store.Puzzles.
func (s *Store) PuzzleScanned(ctx context.Context, id string) (bool, error) {
	if err := s.lock(ctx); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	s.puz.init()
	if _, ok := s.games[id]; !ok {
		return false, fmt.Errorf("memstore: game %q: %w", id, store.ErrNotFound)
	}
	c := s.puz.scans[id]
	return c != nil && c.done, nil
}

// Puzzle implements store.Puzzles.
func (s *Store) Puzzle(ctx context.Context, id string) (*store.Puzzle, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	s.puz.init()
	p, ok := s.puz.byID[id]
	if !ok {
		return nil, fmt.Errorf("memstore: puzzle %q: %w", id, store.ErrNotFound)
	}
	return clonePuzzle(p), nil
}

// sorted returns the puzzles that keep, by cmp.
func (s *Store) sorted(keep func(*store.Puzzle) bool, by func(a, b *store.Puzzle) int) []*store.Puzzle {
	var out []*store.Puzzle
	for _, p := range s.puz.byID {
		if keep(p) {
			out = append(out, clonePuzzle(p))
		}
	}
	slices.SortFunc(out, by)
	return out
}

// GamePuzzles implements store.Puzzles.
func (s *Store) GamePuzzles(ctx context.Context, id string) ([]*store.Puzzle, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	s.puz.init()
	return s.sorted(func(p *store.Puzzle) bool { return p.Game == id },
		func(a, b *store.Puzzle) int { return cmp.Compare(a.Move, b.Move) }), nil
}

// NextPuzzle implements store.Puzzles.
func (s *Store) NextPuzzle(ctx context.Context, q store.PuzzleQuery) (*store.Puzzle, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	s.puz.init()
	skip := q.Skip[:min(len(q.Skip), store.MaxSkip)]
	ps := s.sorted(func(p *store.Puzzle) bool {
		_, answered := s.puz.attempts[[2]string{p.ID, q.Account}]
		return !answered && !slices.Contains(skip, p.ID) && (q.Theme == "" || slices.Contains(p.Themes, q.Theme))
	}, func(a, b *store.Puzzle) int {
		return cmp.Or(cmp.Compare(math.Abs(a.Rating.Mu-q.Mu), math.Abs(b.Rating.Mu-q.Mu)), strings.Compare(a.ID, b.ID))
	})
	if len(ps) == 0 {
		return nil, fmt.Errorf("memstore: a puzzle to solve: %w", store.ErrNotFound)
	}
	return ps[0], nil
}

// DailyPuzzle implements store.Puzzles.
func (s *Store) DailyPuzzle(ctx context.Context, day string) (*store.Puzzle, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	s.puz.init()
	if id, ok := s.puz.daily[day]; ok {
		return clonePuzzle(s.puz.byID[id]), nil
	}
	used := map[string]bool{}
	for _, id := range s.puz.daily {
		used[id] = true
	}
	ps := s.sorted(func(p *store.Puzzle) bool { return !used[p.ID] }, func(a, b *store.Puzzle) int {
		return cmp.Or(cmp.Compare(b.Margin, a.Margin), strings.Compare(a.ID, b.ID))
	})
	if len(ps) == 0 {
		return nil, fmt.Errorf("memstore: the puzzle of %s: %w", day, store.ErrNotFound)
	}
	s.puz.daily[day] = ps[0].ID
	return ps[0], nil
}

// PuzzleThemes implements store.Puzzles.
func (s *Store) PuzzleThemes(ctx context.Context) (map[string]int, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	s.puz.init()
	counts := map[string]int{}
	for _, p := range s.puz.byID {
		counts[""]++
		for _, t := range p.Themes {
			counts[t]++
		}
	}
	return counts, nil
}

// PuzzleSolver implements store.Puzzles.
func (s *Store) PuzzleSolver(ctx context.Context, account string) (store.Solver, error) {
	if err := s.lock(ctx); err != nil {
		return store.Solver{}, err
	}
	defer s.mu.Unlock()
	s.puz.init()
	v, ok := s.puz.solvers[account]
	if !ok {
		return v, fmt.Errorf("memstore: puzzle solver %q: %w", account, store.ErrNotFound)
	}
	return v, nil
}

// PuzzleAttempt implements store.Puzzles.
func (s *Store) PuzzleAttempt(ctx context.Context, id, account string) (*store.PuzzleAttempt, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	s.puz.init()
	a, ok := s.puz.attempts[[2]string{id, account}]
	if !ok {
		return nil, fmt.Errorf("memstore: an answer to puzzle %q: %w", id, store.ErrNotFound)
	}
	return &a, nil
}

// PuzzleAttempts implements store.Puzzles.
func (s *Store) PuzzleAttempts(ctx context.Context, account string, limit int) ([]*store.PuzzleAttempt, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	s.puz.init()
	var out []*store.PuzzleAttempt
	for k, a := range s.puz.attempts {
		if k[1] == account {
			out = append(out, &a)
		}
	}
	slices.SortFunc(out, func(a, b *store.PuzzleAttempt) int {
		return cmp.Or(b.At.Compare(a.At), strings.Compare(b.Puzzle, a.Puzzle))
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// AnswerPuzzle implements store.Puzzles.
func (s *Store) AnswerPuzzle(ctx context.Context, a store.PuzzleAttempt) error {
	if err := a.Check(); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.puz.init()
	if _, ok := s.acc.byID[a.Account]; !ok {
		return noAccount("account " + a.Account)
	}
	p, ok := s.puz.byID[a.Puzzle]
	switch {
	case !ok:
		return fmt.Errorf("memstore: puzzle %q: %w", a.Puzzle, store.ErrNotFound)
	}
	key := [2]string{a.Puzzle, a.Account}
	if _, ok := s.puz.attempts[key]; ok {
		return fmt.Errorf("memstore: puzzle %q by %q: %w", a.Puzzle, a.Account, store.ErrAnswered)
	}
	if p.Rating.Mu != a.PuzzleBefore.Mu || p.Rating.Sigma != a.PuzzleBefore.Sigma {
		return fmt.Errorf("memstore: puzzle %q: %w: its rating changed", a.Puzzle, store.ErrConflict)
	}
	v, known := s.puz.solvers[a.Account]
	if known && (v.Rating.Mu != a.SolverBefore.Mu || v.Rating.Sigma != a.SolverBefore.Sigma) {
		return fmt.Errorf("memstore: puzzle solver %q: %w: their rating changed", a.Account, store.ErrConflict)
	}
	solved := 0
	if a.Correct {
		solved = 1
	}
	s.puz.solvers[a.Account] = store.Solver{Rating: store.Rating{Mu: a.SolverAfter.Mu, Sigma: a.SolverAfter.Sigma, Games: v.Rating.Games + 1},
		Solved: v.Solved + solved}
	p.Rating = store.Rating{Mu: a.PuzzleAfter.Mu, Sigma: a.PuzzleAfter.Sigma, Games: p.Rating.Games + 1}
	p.Solved += solved
	a.At = a.At.UTC().Round(0)
	s.puz.attempts[key] = a
	return nil
}

// SeatLuck implements store.Puzzles.
func (s *Store) SeatLuck(ctx context.Context, account string, limit int) ([]store.SeatLuck, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	s.puz.init()
	var out []store.SeatLuck
	for id, ls := range s.puz.luck {
		g := s.games[id]
		if g == nil {
			continue
		}
		for _, l := range ls {
			if l.Seat < len(g.Seats) && g.Seats[l.Seat].Account == account && account != "" {
				l.Players, l.Finished = len(g.Seats), g.Updated.UTC()
				out = append(out, l)
			}
		}
	}
	slices.SortFunc(out, func(a, b store.SeatLuck) int {
		return cmp.Or(b.Finished.Compare(a.Finished), strings.Compare(b.Game, a.Game))
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
