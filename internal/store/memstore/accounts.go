package memstore

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// accounts is the accounts part of a Store, under its mutex.
type accounts struct {
	byID       map[string]*store.Account
	sessions   map[string]store.Session   // by hash
	passkeys   []store.Passkey            // oldest first
	challenges map[string]store.Challenge // by hash
	results    map[string]store.Result    // by game
}

func newAccounts() accounts {
	return accounts{
		byID:       map[string]*store.Account{},
		sessions:   map[string]store.Session{},
		challenges: map[string]store.Challenge{},
		results:    map[string]store.Result{},
	}
}

// summary describes g in a list: no token hashes.
func summary(g *store.Game) store.Summary {
	sum := store.Summary{
		ID:      g.ID,
		Status:  g.Status,
		Seats:   slices.Clone(g.Seats),
		Rated:   g.Rated,
		Moves:   len(g.Moves),
		Created: g.Created,
		Updated: g.Updated,
	}
	for i := range sum.Seats {
		sum.Seats[i].TokenHash = nil
	}
	return sum
}

// recent sorts summaries most recently updated first and keeps limit.
func recent(sums []store.Summary, limit int) []store.Summary {
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
	return sums
}

// seatOfAccount returns the seat of g the account holds, or -1.
func seatOfAccount(g *store.Game, account string) int {
	for i, s := range g.Seats {
		if s.Account == account {
			return i
		}
	}
	return -1
}

func noAccount(what string) error {
	return fmt.Errorf("memstore: %s: %w", what, store.ErrNoAccount)
}

// CreateAccount implements store.Accounts.
func (s *Store) CreateAccount(ctx context.Context, a *store.Account) error {
	if err := store.CheckAccount(a); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	for _, o := range s.acc.byID {
		switch {
		case o.Key == a.Key:
			return fmt.Errorf("memstore: account %q: %w", a.Name, store.ErrNameTaken)
		case o.ID == a.ID || bytes.Equal(o.Handle, a.Handle):
			return fmt.Errorf("memstore: account %q: %w: the id or handle exists", a.ID, store.ErrConflict)
		}
	}
	if a.Created.IsZero() {
		a.Created = time.Now().Round(0)
	}
	s.acc.byID[a.ID] = a.Clone()
	return nil
}

// Account implements store.Accounts.
func (s *Store) Account(ctx context.Context, id string) (*store.Account, error) {
	return s.findAccount(ctx, "account "+id, func(a *store.Account) bool { return a.ID == id })
}

// AccountByKey implements store.Accounts.
func (s *Store) AccountByKey(ctx context.Context, key string) (*store.Account, error) {
	return s.findAccount(ctx, "account named "+key, func(a *store.Account) bool { return a.Key == key })
}

// AccountByHandle implements store.Accounts.
func (s *Store) AccountByHandle(ctx context.Context, handle []byte) (*store.Account, error) {
	return s.findAccount(ctx, "account by handle", func(a *store.Account) bool { return bytes.Equal(a.Handle, handle) })
}

func (s *Store) findAccount(ctx context.Context, what string, match func(*store.Account) bool) (*store.Account, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	for _, a := range s.acc.byID {
		if match(a) {
			return a.Clone(), nil
		}
	}
	return nil, noAccount(what)
}

// SetPassword implements store.Accounts.
func (s *Store) SetPassword(ctx context.Context, id, hash string) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	a, ok := s.acc.byID[id]
	if !ok {
		return noAccount("account " + id)
	}
	a.Password = hash
	return nil
}

// DeleteAccount implements store.Accounts.
func (s *Store) DeleteAccount(ctx context.Context, id string, renamed func(seat int) string) ([]string, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	if _, ok := s.acc.byID[id]; !ok {
		return nil, noAccount("account " + id)
	}
	delete(s.acc.byID, id)
	for h, se := range s.acc.sessions {
		if se.Account == id {
			delete(s.acc.sessions, h)
		}
	}
	for h, c := range s.acc.challenges {
		if c.Account == id {
			delete(s.acc.challenges, h)
		}
	}
	s.acc.passkeys = slices.DeleteFunc(s.acc.passkeys, func(p store.Passkey) bool { return p.Account == id })
	s.push.forget(id)
	s.pair.forget(id)
	s.social.forget(id)
	s.puz.forget(id)
	var games []string
	for gid, g := range s.games {
		if i := seatOfAccount(g, id); i >= 0 {
			g.Seats[i].Account, g.Seats[i].Name = "", renamed(i)
			touch(g)
			s.announce(g, store.ChangeSeat)
			games = append(games, gid)
		}
	}
	for gid, r := range s.acc.results {
		for i := range r.Seats {
			if r.Seats[i].Account == id {
				r.Seats[i].Account, r.Seats[i].Name = "", renamed(i)
				s.acc.results[gid] = r
			}
		}
	}
	slices.Sort(games)
	return games, nil
}

// CreateSession implements store.Accounts.
func (s *Store) CreateSession(ctx context.Context, se store.Session) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if _, ok := s.acc.byID[se.Account]; !ok {
		return noAccount("session of account " + se.Account)
	}
	if _, ok := s.acc.sessions[string(se.Hash)]; ok {
		return fmt.Errorf("memstore: session: %w: the id exists", store.ErrConflict)
	}
	se.Hash = bytes.Clone(se.Hash)
	s.acc.sessions[string(se.Hash)] = se
	return nil
}

// Session implements store.Accounts.
func (s *Store) Session(ctx context.Context, hash []byte, now time.Time) (store.Session, *store.Account, error) {
	if err := s.lock(ctx); err != nil {
		return store.Session{}, nil, err
	}
	defer s.mu.Unlock()
	se, ok := s.acc.sessions[string(hash)]
	if !ok {
		return store.Session{}, nil, noAccount("session")
	}
	if !now.Before(se.Expires) {
		delete(s.acc.sessions, string(hash))
		return store.Session{}, nil, noAccount("session expired")
	}
	se.Hash = bytes.Clone(se.Hash)
	return se, s.acc.byID[se.Account].Clone(), nil
}

// DeleteSession implements store.Accounts.
func (s *Store) DeleteSession(ctx context.Context, hash []byte) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	delete(s.acc.sessions, string(hash))
	return nil
}

// DeleteSessions implements store.Accounts.
func (s *Store) DeleteSessions(ctx context.Context, account string, keep []byte) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	for h, se := range s.acc.sessions {
		if se.Account == account && (keep == nil || h != string(keep)) {
			delete(s.acc.sessions, h)
		}
	}
	return nil
}

// AddPasskey implements store.Accounts.
func (s *Store) AddPasskey(ctx context.Context, p store.Passkey) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if _, ok := s.acc.byID[p.Account]; !ok {
		return noAccount("passkey of account " + p.Account)
	}
	for _, o := range s.acc.passkeys {
		if bytes.Equal(o.ID, p.ID) {
			return fmt.Errorf("memstore: passkey: %w: the id exists", store.ErrConflict)
		}
	}
	p.ID, p.Credential = bytes.Clone(p.ID), bytes.Clone(p.Credential)
	s.acc.passkeys = append(s.acc.passkeys, p)
	return nil
}

// Passkeys implements store.Accounts.
func (s *Store) Passkeys(ctx context.Context, account string) ([]store.Passkey, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []store.Passkey
	for _, p := range s.acc.passkeys {
		if p.Account == account {
			p.ID, p.Credential = bytes.Clone(p.ID), bytes.Clone(p.Credential)
			out = append(out, p)
		}
	}
	return out, nil
}

// UsePasskey implements store.Accounts.
func (s *Store) UsePasskey(ctx context.Context, id, credential []byte, used time.Time) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	for i, p := range s.acc.passkeys {
		if bytes.Equal(p.ID, id) {
			s.acc.passkeys[i].Credential, s.acc.passkeys[i].Used = bytes.Clone(credential), used
			return nil
		}
	}
	return noAccount("passkey")
}

// DeletePasskey implements store.Accounts.
func (s *Store) DeletePasskey(ctx context.Context, account string, id []byte) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	n := len(s.acc.passkeys)
	s.acc.passkeys = slices.DeleteFunc(s.acc.passkeys, func(p store.Passkey) bool {
		return p.Account == account && bytes.Equal(p.ID, id)
	})
	if len(s.acc.passkeys) == n {
		return noAccount("passkey")
	}
	return nil
}

// PutChallenge implements store.Accounts.
func (s *Store) PutChallenge(ctx context.Context, c store.Challenge) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if _, ok := s.acc.challenges[string(c.Hash)]; ok {
		return fmt.Errorf("memstore: challenge: %w: the id exists", store.ErrConflict)
	}
	c.Hash, c.Data = bytes.Clone(c.Hash), bytes.Clone(c.Data)
	s.acc.challenges[string(c.Hash)] = c
	return nil
}

// TakeChallenge implements store.Accounts.
func (s *Store) TakeChallenge(ctx context.Context, hash []byte, now time.Time) (store.Challenge, error) {
	if err := s.lock(ctx); err != nil {
		return store.Challenge{}, err
	}
	defer s.mu.Unlock()
	c, ok := s.acc.challenges[string(hash)]
	delete(s.acc.challenges, string(hash))
	if !ok || !now.Before(c.Expires) {
		return store.Challenge{}, noAccount("challenge")
	}
	return c, nil
}

// Purge implements store.Accounts.
func (s *Store) Purge(ctx context.Context, now time.Time) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	for h, se := range s.acc.sessions {
		if !now.Before(se.Expires) {
			delete(s.acc.sessions, h)
		}
	}
	for h, c := range s.acc.challenges {
		if !now.Before(c.Expires) {
			delete(s.acc.challenges, h)
		}
	}
	return nil
}

// ClaimSeats implements store.Accounts.
func (s *Store) ClaimSeats(ctx context.Context, account string, claims []store.Claim) ([]string, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	if _, ok := s.acc.byID[account]; !ok {
		return nil, noAccount("account " + account)
	}
	var games []string
	for _, c := range claims {
		g, ok := s.games[c.Game]
		if !ok || seatOfAccount(g, account) >= 0 {
			continue
		}
		for i, st := range g.Seats {
			if st.Account == "" && st.Bot == "" && st.TokenHash != nil && bytes.Equal(st.TokenHash, c.OldHash) {
				g.Seats[i].Account, g.Seats[i].TokenHash = account, bytes.Clone(c.NewHash)
				if g.Status == store.StatusFinished || g.Status == store.StatusArchived {
					// A game that is over keeps its date: it moves on by a
					// nanosecond, enough to be news.
					g.Updated = g.Updated.Add(time.Nanosecond)
				} else {
					touch(g)
				}
				s.announce(g, store.ChangeSeat)
				games = append(games, c.Game)
				break
			}
		}
	}
	return games, nil
}

// AccountGames implements store.Accounts.
func (s *Store) AccountGames(ctx context.Context, account string, limit int, statuses ...store.Status) ([]store.Summary, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var sums []store.Summary
	for _, g := range s.games {
		if seatOfAccount(g, account) >= 0 && (len(statuses) == 0 || slices.Contains(statuses, g.Status)) {
			sums = append(sums, summary(g))
		}
	}
	return recent(sums, limit), nil
}

// AddResult implements store.Accounts.
func (s *Store) AddResult(ctx context.Context, r store.Result) error {
	if err := store.CheckResult(r); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if _, ok := s.acc.results[r.Game]; ok {
		return fmt.Errorf("memstore: game %q: %w", r.Game, store.ErrRated)
	}
	for _, st := range r.Seats {
		if st.After == nil {
			continue
		}
		a, ok := s.acc.byID[st.Account]
		if !ok {
			return noAccount("account " + st.Account)
		}
		if a.Rating != *st.Before {
			return fmt.Errorf("memstore: account %q: %w: its rating changed", st.Account, store.ErrConflict)
		}
	}
	for _, st := range r.Seats {
		if st.After != nil {
			s.acc.byID[st.Account].Rating = *st.After
		}
	}
	s.acc.results[r.Game] = cloneResult(r)
	return nil
}

func cloneResult(r store.Result) store.Result {
	r.Seats = slices.Clone(r.Seats)
	for i, st := range r.Seats {
		r.Seats[i].Scores = slices.Clone(st.Scores)
		if st.Before != nil {
			b, a := *st.Before, *st.After
			r.Seats[i].Before, r.Seats[i].After = &b, &a
		}
	}
	return r
}

// Results implements store.Accounts.
func (s *Store) Results(ctx context.Context, account string, limit int) ([]store.Result, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []store.Result
	for _, r := range s.acc.results {
		if slices.ContainsFunc(r.Seats, func(st store.SeatResult) bool { return st.Account == account }) {
			out = append(out, cloneResult(r))
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Finished.Equal(out[j].Finished) {
			return out[i].Finished.After(out[j].Finished)
		}
		return out[i].Game > out[j].Game
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// Leaderboard implements store.Accounts.
func (s *Store) Leaderboard(ctx context.Context, minGames, limit int) ([]store.Account, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []store.Account
	for _, a := range s.acc.byID {
		if a.Rating.Games >= minGames {
			out = append(out, *a.Clone())
		}
	}
	sort.Slice(out, func(i, j int) bool {
		oi, oj := out[i].Rating.Mu-3*out[i].Rating.Sigma, out[j].Rating.Mu-3*out[j].Rating.Sigma
		if oi != oj {
			return oi > oj
		}
		return out[i].Key < out[j].Key
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
