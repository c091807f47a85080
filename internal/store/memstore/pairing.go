package memstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// pairings is the Play-now and challenge part of a Store, under its mutex.
type pairings struct {
	seeks      map[string]store.Seek
	challenges map[string]store.Invitation
}

func newPairings() pairings {
	return pairings{seeks: map[string]store.Seek{}, challenges: map[string]store.Invitation{}}
}

// forget removes the account's requests and the challenges from or to it
// (DeleteAccount), as the SQL stores' cascades do.
func (p *pairings) forget(account string) {
	for id, s := range p.seeks {
		if s.Account == account {
			delete(p.seeks, id)
		}
	}
	for id, c := range p.challenges {
		if c.From == account {
			delete(p.challenges, id)
			continue
		}
		if slices.ContainsFunc(c.To, func(t store.Challenged) bool { return t.Account == account }) {
			c.To = slices.DeleteFunc(c.To, func(t store.Challenged) bool { return t.Account == account })
			p.challenges[id] = c
		}
	}
}

// openOf counts the open requests of person.
func (p *pairings) openOf(person string) int {
	n := 0
	for _, s := range p.seeks {
		if s.Person == person && s.Status == store.SeekOpen {
			n++
		}
	}
	return n
}

func now() time.Time { return time.Now().Round(0) }

// AddSeek implements store.Pairing.
func (s *Store) AddSeek(ctx context.Context, k store.Seek, max int) error {
	if err := k.Check(); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if k.Created.IsZero() {
		k.Created = now()
	}
	k.Created, k.Updated = k.Created.Round(0), now()
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if _, ok := s.pair.seeks[k.ID]; ok {
		return fmt.Errorf("memstore: request %q: %w", k.ID, store.ErrConflict)
	}
	if k.Account != "" {
		if _, ok := s.acc.byID[k.Account]; !ok {
			return noAccount("account " + k.Account)
		}
	}
	if s.pair.openOf(k.Person) >= max {
		return fmt.Errorf("memstore: %s has %d open requests: %w", k.Person, max, store.ErrLimit)
	}
	s.pair.seeks[k.ID] = k
	return nil
}

// Seek implements store.Pairing.
func (s *Store) Seek(ctx context.Context, id string) (store.Seek, error) {
	if err := s.lock(ctx); err != nil {
		return store.Seek{}, err
	}
	defer s.mu.Unlock()
	k, ok := s.pair.seeks[id]
	if !ok {
		return store.Seek{}, fmt.Errorf("memstore: request %q: %w", id, store.ErrNotFound)
	}
	return k, nil
}

// sortSeeks sorts oldest first (newest first when newest).
func sortSeeks(seeks []store.Seek, newest bool) {
	slices.SortFunc(seeks, func(a, b store.Seek) int {
		c := cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
		if newest {
			return -c
		}
		return c
	})
}

// OpenSeeks implements store.Pairing.
func (s *Store) OpenSeeks(ctx context.Context) ([]store.Seek, error) {
	return s.seeksWhere(ctx, false, func(k store.Seek) bool { return k.Status == store.SeekOpen })
}

// SeeksOf implements store.Pairing.
func (s *Store) SeeksOf(ctx context.Context, person string, since time.Time) ([]store.Seek, error) {
	return s.seeksWhere(ctx, true, func(k store.Seek) bool {
		return k.Person == person && (k.Status == store.SeekOpen || !k.Updated.Before(since))
	})
}

func (s *Store) seeksWhere(ctx context.Context, newest bool, keep func(store.Seek) bool) ([]store.Seek, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []store.Seek
	for _, k := range s.pair.seeks {
		if keep(k) {
			out = append(out, k)
		}
	}
	sortSeeks(out, newest)
	return out, nil
}

// EndSeek implements store.Pairing.
func (s *Store) EndSeek(ctx context.Context, id, person string, status store.SeekStatus) error {
	if err := store.CheckEnd(status); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	k, ok := s.pair.seeks[id]
	switch {
	case !ok || person != "" && k.Person != person:
		return fmt.Errorf("memstore: request %q of %q: %w", id, person, store.ErrNotFound)
	case k.Status != store.SeekOpen:
		return fmt.Errorf("memstore: request %q is %s: %w", id, k.Status, store.ErrConflict)
	}
	k.Status, k.Updated = status, now()
	s.pair.seeks[id] = k
	return nil
}

// EndSeeksOf implements store.Pairing.
func (s *Store) EndSeeksOf(ctx context.Context, person string, status store.SeekStatus) ([]string, error) {
	if err := store.CheckEnd(status); err != nil {
		return nil, fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var ids []string
	for id, k := range s.pair.seeks {
		if k.Person == person && k.Status == store.SeekOpen {
			k.Status, k.Updated = status, now()
			s.pair.seeks[id] = k
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// PairSeeks implements store.Pairing.
func (s *Store) PairSeeks(ctx context.Context, game string, seats []store.SeekSeat) error {
	if err := store.CheckSeats(game, seats); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	people := map[string]bool{}
	for _, st := range seats {
		k, ok := s.pair.seeks[st.ID]
		if !ok || k.Status != store.SeekOpen || people[k.Person] {
			return fmt.Errorf("memstore: request %q is not open: %w", st.ID, store.ErrConflict)
		}
		people[k.Person] = true
	}
	t := now()
	for _, st := range seats {
		k := s.pair.seeks[st.ID]
		k.Status, k.Game, k.Seat, k.Token, k.Updated = store.SeekPaired, game, st.Seat, st.Token, t
		s.pair.seeks[st.ID] = k
	}
	for id, k := range s.pair.seeks {
		if people[k.Person] && k.Status == store.SeekOpen {
			k.Status, k.Updated = store.SeekCancelled, t
			s.pair.seeks[id] = k
		}
	}
	return nil
}

// AddChallenge implements store.Pairing.
func (s *Store) AddChallenge(ctx context.Context, c store.Invitation, max int) error {
	if err := c.Check(); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	c = c.Clone()
	if c.Created.IsZero() {
		c.Created = now()
	}
	c.Created, c.Expires, c.Updated = c.Created.Round(0), c.Expires.Round(0), now()
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if _, ok := s.pair.challenges[c.ID]; ok {
		return fmt.Errorf("memstore: challenge %q: %w", c.ID, store.ErrConflict)
	}
	for _, a := range append([]string{c.From}, accountsOf(c.To)...) {
		if _, ok := s.acc.byID[a]; !ok {
			return noAccount("account " + a)
		}
	}
	n := 0
	for _, o := range s.pair.challenges {
		if o.From == c.From && o.Status == store.ChallengeOpen {
			n++
		}
	}
	if n >= max {
		return fmt.Errorf("memstore: %s has %d open challenges: %w", c.From, max, store.ErrLimit)
	}
	s.pair.challenges[c.ID] = c
	return nil
}

func accountsOf(to []store.Challenged) []string {
	out := make([]string, len(to))
	for i, t := range to {
		out[i] = t.Account
	}
	return out
}

// Invitation implements store.Pairing.
func (s *Store) Challenge(ctx context.Context, id string) (store.Invitation, error) {
	if err := s.lock(ctx); err != nil {
		return store.Invitation{}, err
	}
	defer s.mu.Unlock()
	c, ok := s.pair.challenges[id]
	if !ok {
		return store.Invitation{}, fmt.Errorf("memstore: challenge %q: %w", id, store.ErrNotFound)
	}
	return c.Clone(), nil
}

// ChallengesOf implements store.Pairing.
func (s *Store) ChallengesOf(ctx context.Context, account string, since time.Time) ([]store.Invitation, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []store.Invitation
	for _, c := range s.pair.challenges {
		if c.From != account && !slices.Contains(accountsOf(c.To), account) {
			continue
		}
		if c.Status == store.ChallengeOpen || c.Status == store.ChallengeAccepted || !c.Updated.Before(since) {
			out = append(out, c.Clone())
		}
	}
	slices.SortFunc(out, func(a, b store.Invitation) int {
		return -cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// AnswerChallenge implements store.Pairing.
func (s *Store) AnswerChallenge(ctx context.Context, id, account string, a store.Answer, at time.Time) (store.Invitation, error) {
	if err := s.lock(ctx); err != nil {
		return store.Invitation{}, err
	}
	defer s.mu.Unlock()
	c, ok := s.pair.challenges[id]
	if !ok {
		return store.Invitation{}, fmt.Errorf("memstore: challenge %q: %w", id, store.ErrNotFound)
	}
	c = c.Clone()
	if err := c.Apply(account, a, at); err != nil {
		return store.Invitation{}, fmt.Errorf("memstore: %w", err)
	}
	c.Updated = now()
	s.pair.challenges[id] = c
	return c.Clone(), nil
}

// CancelChallenge implements store.Pairing.
func (s *Store) CancelChallenge(ctx context.Context, id, from string) error {
	return s.changeChallenge(ctx, id, func(c *store.Invitation) error {
		switch {
		case c.From != from:
			return fmt.Errorf("memstore: challenge %q of %q: %w", id, from, store.ErrNotFound)
		case c.Status != store.ChallengeOpen:
			return fmt.Errorf("memstore: challenge %q is %s: %w", id, c.Status, store.ErrConflict)
		}
		c.Status = store.ChallengeCancelled
		return nil
	})
}

// SetChallengeGame implements store.Pairing.
func (s *Store) SetChallengeGame(ctx context.Context, id, game string) error {
	return s.changeChallenge(ctx, id, func(c *store.Invitation) error {
		if c.Status != store.ChallengeAccepted || c.Game != "" || game == "" {
			return fmt.Errorf("memstore: challenge %q is %s at %q: %w", id, c.Status, c.Game, store.ErrConflict)
		}
		c.Game = game
		return nil
	})
}

// changeChallenge applies change to challenge id under the lock.
func (s *Store) changeChallenge(ctx context.Context, id string, change func(c *store.Invitation) error) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	c, ok := s.pair.challenges[id]
	if !ok {
		return fmt.Errorf("memstore: challenge %q: %w", id, store.ErrNotFound)
	}
	c = c.Clone()
	if err := change(&c); err != nil {
		return err
	}
	c.Updated = now()
	s.pair.challenges[id] = c
	return nil
}

// LapseChallenges implements store.Pairing.
func (s *Store) LapseChallenges(ctx context.Context, at time.Time) ([]store.Invitation, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []store.Invitation
	for id, c := range s.pair.challenges {
		if c.Status == store.ChallengeOpen && !at.Before(c.Expires) {
			c.Status, c.Updated = store.ChallengeLapsed, now()
			s.pair.challenges[id] = c
			out = append(out, c.Clone())
		}
	}
	slices.SortFunc(out, func(a, b store.Invitation) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// UnseatedChallenges implements store.Pairing.
func (s *Store) UnseatedChallenges(ctx context.Context, before time.Time) ([]store.Invitation, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []store.Invitation
	for _, c := range s.pair.challenges {
		if c.Status == store.ChallengeAccepted && c.Game == "" && c.Updated.Before(before) {
			out = append(out, c.Clone())
		}
	}
	slices.SortFunc(out, func(a, b store.Invitation) int { return cmp.Or(a.Updated.Compare(b.Updated), cmp.Compare(a.ID, b.ID)) })
	return out, nil
}

// PurgePairing implements store.Pairing.
func (s *Store) PurgePairing(ctx context.Context, before time.Time) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	for id, k := range s.pair.seeks {
		if k.Status != store.SeekOpen && k.Updated.Before(before) {
			delete(s.pair.seeks, id)
		}
	}
	for id, c := range s.pair.challenges {
		if (c.Status.Ended() || c.Status == store.ChallengeAccepted && c.Game != "") && c.Updated.Before(before) {
			delete(s.pair.challenges, id)
		}
	}
	return nil
}
