package memstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// tournaments are the memstore's tournaments, under the Store's mutex.
type tournaments struct {
	by     map[string]*store.Tournament
	leases map[string]store.Lease
	games  map[string]string // tournament by table game
}

func (s *Store) tours() *tournaments {
	if s.tour.by == nil {
		s.tour = tournaments{by: map[string]*store.Tournament{}, leases: map[string]store.Lease{}, games: map[string]string{}}
	}
	return &s.tour
}

func cloneTournament(t *store.Tournament) *store.Tournament {
	c := *t
	c.Private = slices.Clone(t.Private)
	c.Seed = slices.Clone(t.Seed)
	c.Settings = slices.Clone(t.Settings)
	c.State = slices.Clone(t.State)
	c.Players = slices.Clone(t.Players)
	c.Tables = make([]store.TournamentTable, len(t.Tables))
	for i, tb := range t.Tables {
		tb.Seats = slices.Clone(tb.Seats)
		tb.Result = slices.Clone(tb.Result)
		c.Tables[i] = tb
	}
	return &c
}

func normTimes(t *store.Tournament) {
	t.Starts = t.Starts.UTC().Round(0)
	t.Created = t.Created.UTC().Round(0)
	t.Updated = t.Updated.UTC().Round(0)
	for i := range t.Players {
		t.Players[i].Joined = t.Players[i].Joined.UTC().Round(0)
	}
	for i := range t.Tables {
		t.Tables[i].Created = t.Tables[i].Created.UTC().Round(0)
		t.Tables[i].Finished = t.Tables[i].Finished.UTC().Round(0)
	}
}

// CreateTournament implements store.Tournaments.
func (s *Store) CreateTournament(ctx context.Context, t *store.Tournament) error {
	if err := t.Check(); err != nil {
		return err
	}
	if err := store.CheckTournamentRows(t.ID, t.Players, t.Tables); err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	ts := s.tours()
	if _, ok := ts.by[t.ID]; ok {
		return fmt.Errorf("memstore: tournament %q: %w", t.ID, store.ErrConflict)
	}
	for _, tb := range t.Tables {
		if _, ok := ts.games[tb.Game]; ok {
			return fmt.Errorf("memstore: game %q is another table's: %w", tb.Game, store.ErrConflict)
		}
	}
	now := time.Now()
	if t.Created.IsZero() {
		t.Created = now
	}
	if t.Updated.IsZero() {
		t.Updated = t.Created
	}
	t.Version = 1
	c := cloneTournament(t)
	normTimes(c)
	sortRows(c)
	ts.by[t.ID] = c
	for _, tb := range c.Tables {
		ts.games[tb.Game] = t.ID
	}
	return nil
}

func sortRows(t *store.Tournament) {
	slices.SortStableFunc(t.Players, func(a, b store.TournamentPlayer) int {
		return cmp.Or(a.Joined.Compare(b.Joined), cmp.Compare(a.Account, b.Account))
	})
	slices.SortFunc(t.Tables, func(a, b store.TournamentTable) int {
		return cmp.Or(cmp.Compare(a.Round, b.Round), cmp.Compare(a.Index, b.Index))
	})
}

// Tournament implements store.Tournaments.
func (s *Store) Tournament(ctx context.Context, id string) (*store.Tournament, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	t, ok := s.tours().by[id]
	if !ok {
		return nil, fmt.Errorf("memstore: tournament %q: %w", id, store.ErrNotFound)
	}
	c := cloneTournament(t)
	c.People = entered(c.Players)
	return c, nil
}

// UpdateTournament implements store.Tournaments.
func (s *Store) UpdateTournament(ctx context.Context, t *store.Tournament, players []store.TournamentPlayer, tables []store.TournamentTable) error {
	if err := t.Check(); err != nil {
		return err
	}
	if err := store.CheckTournamentRows(t.ID, players, tables); err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	ts := s.tours()
	cur, ok := ts.by[t.ID]
	if !ok {
		return fmt.Errorf("memstore: tournament %q: %w", t.ID, store.ErrNotFound)
	}
	if cur.Version != t.Version {
		return fmt.Errorf("memstore: tournament %q is at version %d, not %d: %w", t.ID, cur.Version, t.Version, store.ErrConflict)
	}
	for _, tb := range tables {
		if other, ok := ts.games[tb.Game]; ok && other != t.ID {
			return fmt.Errorf("memstore: game %q is another tournament's: %w", tb.Game, store.ErrConflict)
		}
		for _, old := range cur.Tables {
			if old.Game == tb.Game && (old.Round != tb.Round || old.Index != tb.Index) {
				return fmt.Errorf("memstore: game %q is another table's: %w", tb.Game, store.ErrConflict)
			}
		}
	}
	next := cloneTournament(cur)
	next.Name, next.Status, next.Starts, next.Settings, next.State = t.Name, t.Status, t.Starts, slices.Clone(t.Settings), slices.Clone(t.State)
	for _, p := range players {
		i := slices.IndexFunc(next.Players, func(q store.TournamentPlayer) bool { return q.Account == p.Account })
		if i < 0 {
			next.Players = append(next.Players, p)
		} else {
			next.Players[i] = p
		}
	}
	for _, tb := range tables {
		tb.Seats, tb.Result = slices.Clone(tb.Seats), slices.Clone(tb.Result)
		i := slices.IndexFunc(next.Tables, func(q store.TournamentTable) bool { return q.Round == tb.Round && q.Index == tb.Index })
		if i < 0 {
			next.Tables = append(next.Tables, tb)
		} else {
			delete(ts.games, next.Tables[i].Game)
			next.Tables[i] = tb
		}
		ts.games[tb.Game] = t.ID
	}
	next.Version++
	next.Updated = time.Now()
	normTimes(next)
	sortRows(next)
	ts.by[t.ID] = next
	t.Version, t.Updated = next.Version, next.Updated
	return nil
}

// ListTournaments implements store.Tournaments.
func (s *Store) ListTournaments(ctx context.Context, statuses []store.TournamentStatus, limit int) ([]store.Tournament, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []store.Tournament
	for _, t := range s.tours().by {
		if len(statuses) > 0 && !slices.Contains(statuses, t.Status) {
			continue
		}
		c := cloneTournament(t)
		c.People = entered(c.Players)
		c.Players, c.Tables = nil, nil
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b store.Tournament) int {
		return cmp.Or(startKey(b).Compare(startKey(a)), cmp.Compare(a.ID, b.ID))
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// entered counts the players in or paused (store.Tournament.People).
func entered(ps []store.TournamentPlayer) int {
	n := 0
	for _, p := range ps {
		if p.Status == "in" || p.Status == "paused" {
			n++
		}
	}
	return n
}

// startKey orders tournaments by start: one without a set start by when
// it was created.
func startKey(t store.Tournament) time.Time {
	if t.Starts.IsZero() {
		return t.Created
	}
	return t.Starts
}

// AccountTournaments implements store.Tournaments.
func (s *Store) AccountTournaments(ctx context.Context, account string, limit int) ([]store.TournamentEntry, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []store.TournamentEntry
	for _, t := range s.tours().by {
		for _, p := range t.Players {
			if p.Account == account {
				out = append(out, store.TournamentEntry{Tournament: t.ID, Name: t.Name, Format: t.Format, Status: t.Status,
					Starts: startKey(*t), Updated: t.Updated, Rank: p.Rank, Points: p.Points, People: entered(t.Players)})
			}
		}
	}
	slices.SortFunc(out, func(a, b store.TournamentEntry) int {
		return cmp.Or(b.Starts.Compare(a.Starts), cmp.Compare(a.Tournament, b.Tournament))
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// TournamentOfGame implements store.Tournaments.
func (s *Store) TournamentOfGame(ctx context.Context, game string) (string, error) {
	if err := s.lock(ctx); err != nil {
		return "", err
	}
	defer s.mu.Unlock()
	id, ok := s.tours().games[game]
	if !ok {
		return "", fmt.Errorf("memstore: game %q is no tournament's table: %w", game, store.ErrNotFound)
	}
	return id, nil
}

// tournamentLease runs f on the lease of live tournament id.
func (s *Store) tournamentLease(ctx context.Context, id string, f store.LeaseStep) (store.Lease, error) {
	if err := s.lock(ctx); err != nil {
		return store.Lease{}, err
	}
	defer s.mu.Unlock()
	ts := s.tours()
	t, ok := ts.by[id]
	if !ok {
		return store.Lease{}, fmt.Errorf("memstore: tournament %q: %w", id, store.ErrNotFound)
	}
	if !t.Status.Live() {
		return store.Lease{}, fmt.Errorf("memstore: tournament %q is %s: %w", id, t.Status, store.ErrConflict)
	}
	cur, ok := ts.leases[id]
	if !ok {
		cur = store.Lease{Game: id}
	}
	next, err := f(cur, time.Now())
	if err != nil {
		return store.Lease{}, fmt.Errorf("memstore: %w", err)
	}
	ts.leases[id] = next
	return next, nil
}

// AcquireTournamentLease implements store.Tournaments.
func (s *Store) AcquireTournamentLease(ctx context.Context, id, node string, ttl time.Duration) (store.Lease, error) {
	if err := store.CheckLease(id, node, ttl); err != nil {
		return store.Lease{}, err
	}
	return s.tournamentLease(ctx, id, store.AcquireStep(node, ttl))
}

// RenewTournamentLease implements store.Tournaments.
func (s *Store) RenewTournamentLease(ctx context.Context, l store.Lease, ttl time.Duration) (store.Lease, error) {
	if err := store.CheckLease(l.Game, l.Node, ttl); err != nil {
		return store.Lease{}, err
	}
	return s.tournamentLease(ctx, l.Game, store.RenewStep(l, ttl))
}

// ReleaseTournamentLease implements store.Tournaments.
func (s *Store) ReleaseTournamentLease(ctx context.Context, l store.Lease) error {
	_, err := s.tournamentLease(ctx, l.Game, store.ReleaseStep(l))
	return err
}

// UnownedTournaments implements store.Tournaments.
func (s *Store) UnownedTournaments(ctx context.Context, limit int) ([]string, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	ts := s.tours()
	now := time.Now()
	var out []string
	for id, t := range ts.by {
		if t.Status.Live() && !ts.leases[id].Live(now) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
