package memstore

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// social is the social part of a Store, under its mutex.
type social struct {
	presence  map[presenceKey]store.PresenceRow
	nodes     map[string]time.Time // each node's beat's expiry
	lastSeen  map[string]time.Time // by account
	seatsSeen map[string]map[int]time.Time
	follows   map[[2]string]bool // follower, followed
	blocks    map[[2]string]bool // blocker, blocked
	finishes  map[[2]string]store.Finish
}

type presenceKey struct {
	node string
	conn int64
}

func newSocial() social {
	return social{presence: map[presenceKey]store.PresenceRow{}, nodes: map[string]time.Time{},
		lastSeen: map[string]time.Time{}, seatsSeen: map[string]map[int]time.Time{},
		follows: map[[2]string]bool{}, blocks: map[[2]string]bool{}, finishes: map[[2]string]store.Finish{}}
}

// forget removes what is the deleted account's.
func (so *social) forget(id string) {
	delete(so.lastSeen, id)
	for _, m := range []map[[2]string]bool{so.follows, so.blocks} {
		maps.DeleteFunc(m, func(k [2]string, _ bool) bool { return k[0] == id || k[1] == id })
	}
	maps.DeleteFunc(so.finishes, func(k [2]string, _ store.Finish) bool { return k[0] == id })
}

// PutPresence implements store.Social.
func (s *Store) PutPresence(ctx context.Context, r store.PresenceRow) error {
	if err := r.Check(); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	r.Since = r.Since.Round(0)
	s.social.presence[presenceKey{r.Node, r.Conn}] = r
	return nil
}

// seen notes that row r's account and seat were last seen at at; the
// store's lock is held.
func (s *Store) seen(r store.PresenceRow, at time.Time) {
	at = at.Round(0)
	if _, ok := s.acc.byID[r.Account]; ok && at.After(s.social.lastSeen[r.Account]) {
		s.social.lastSeen[r.Account] = at
	}
	if _, ok := s.games[r.Game]; ok && r.Seat >= 0 {
		m := s.social.seatsSeen[r.Game]
		if m == nil {
			m = map[int]time.Time{}
			s.social.seatsSeen[r.Game] = m
		}
		if at.After(m[r.Seat]) {
			m[r.Seat] = at
		}
	}
}

// dropRows removes the rows of node (and conn, unless negative), noting
// them seen at at; the store's lock is held.
func (s *Store) dropRows(node string, conn int64, at time.Time) []store.PresenceRow {
	var out []store.PresenceRow
	for k, r := range s.social.presence {
		if k.node == node && (conn < 0 || k.conn == conn) {
			s.seen(r, at)
			out = append(out, r)
			delete(s.social.presence, k)
		}
	}
	store.SortPresence(out)
	return out
}

// DropPresence implements store.Social.
func (s *Store) DropPresence(ctx context.Context, node string, conn int64, at time.Time) error {
	if conn < 0 {
		return nil
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.dropRows(node, conn, at)
	return nil
}

// BeatPresence implements store.Social.
func (s *Store) BeatPresence(ctx context.Context, node string, expires time.Time) error {
	if node == "" {
		return fmt.Errorf("memstore: a presence beat of no node")
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.social.nodes[node] = expires.Round(0)
	return nil
}

// Presence implements store.Social.
func (s *Store) Presence(ctx context.Context, now time.Time) ([]store.PresenceRow, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []store.PresenceRow
	for k, r := range s.social.presence {
		if exp, ok := s.social.nodes[k.node]; ok && exp.After(now) {
			out = append(out, r)
		}
	}
	store.SortPresence(out)
	return out, nil
}

// DropNode implements store.Social.
func (s *Store) DropNode(ctx context.Context, node string, at time.Time) ([]store.PresenceRow, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	delete(s.social.nodes, node)
	return s.dropRows(node, -1, at), nil
}

// SweepPresence implements store.Social.
func (s *Store) SweepPresence(ctx context.Context, now time.Time) ([]store.PresenceRow, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []store.PresenceRow
	for node, exp := range s.social.nodes {
		if !exp.After(now) {
			out = append(out, s.dropRows(node, -1, exp)...)
			delete(s.social.nodes, node)
		}
	}
	store.SortPresence(out)
	return out, nil
}

// LastSeen implements store.Social.
func (s *Store) LastSeen(ctx context.Context, accounts ...string) (map[string]time.Time, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	out := map[string]time.Time{}
	for _, a := range accounts {
		if at, ok := s.social.lastSeen[a]; ok {
			out[a] = at
		}
	}
	return out, nil
}

// SeatsSeen implements store.Social.
func (s *Store) SeatsSeen(ctx context.Context, game string) (map[int]time.Time, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	out := map[int]time.Time{}
	maps.Copy(out, s.social.seatsSeen[game])
	return out, nil
}

// setRelation adds or removes a pair of m (follows or blocks).
func (s *Store) setRelation(ctx context.Context, m func() map[[2]string]bool, from, to string, on bool) error {
	if err := store.CheckRelation(from, to); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	for _, a := range []string{from, to} {
		if _, ok := s.acc.byID[a]; !ok {
			return noAccount("account " + a)
		}
	}
	if on {
		m()[[2]string{from, to}] = true
	} else {
		delete(m(), [2]string{from, to})
	}
	return nil
}

// related lists the other end (1-side) of m's pairs whose side is account.
func (s *Store) related(ctx context.Context, m func() map[[2]string]bool, side int, account string) ([]string, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []string
	for k := range m() {
		if k[side] == account {
			out = append(out, k[1-side])
		}
	}
	slices.Sort(out)
	return out, nil
}

func (s *Store) follows() map[[2]string]bool { return s.social.follows }
func (s *Store) blocks() map[[2]string]bool  { return s.social.blocks }

// SetFollow implements store.Social.
func (s *Store) SetFollow(ctx context.Context, follower, followed string, on bool) error {
	return s.setRelation(ctx, s.follows, follower, followed, on)
}

// Following implements store.Social.
func (s *Store) Following(ctx context.Context, account string) ([]string, error) {
	return s.related(ctx, s.follows, 0, account)
}

// Followers implements store.Social.
func (s *Store) Followers(ctx context.Context, account string) ([]string, error) {
	return s.related(ctx, s.follows, 1, account)
}

// SetBlock implements store.Social.
func (s *Store) SetBlock(ctx context.Context, blocker, blocked string, on bool) error {
	return s.setRelation(ctx, s.blocks, blocker, blocked, on)
}

// Blocking implements store.Social.
func (s *Store) Blocking(ctx context.Context, account string) ([]string, error) {
	return s.related(ctx, s.blocks, 0, account)
}

// BlockedBy implements store.Social.
func (s *Store) BlockedBy(ctx context.Context, account string) ([]string, error) {
	return s.related(ctx, s.blocks, 1, account)
}

// AddFinishes implements store.Social.
func (s *Store) AddFinishes(ctx context.Context, marks []store.Finish) error {
	if err := store.CheckFinishes(marks); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	for _, f := range marks {
		if _, ok := s.acc.byID[f.Account]; !ok {
			return noAccount("account " + f.Account)
		}
	}
	for _, f := range marks {
		k := [2]string{f.Account, f.Game}
		if _, ok := s.social.finishes[k]; !ok {
			f.At = f.At.Round(0)
			s.social.finishes[k] = f
		}
	}
	return nil
}

// Finishes implements store.Social.
func (s *Store) Finishes(ctx context.Context, account string, limit int) ([]store.Finish, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []store.Finish
	for k, f := range s.social.finishes {
		if k[0] == account {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b store.Finish) int {
		if c := b.At.Compare(a.At); c != 0 {
			return c
		}
		return strings.Compare(a.Game, b.Game)
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
