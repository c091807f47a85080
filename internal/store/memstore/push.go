package memstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// pushes is the Web Push part of a Store, under its mutex.
type pushes struct {
	keys     *store.VAPIDKeys
	subs     map[string]store.PushSubscription // by endpoint
	settings map[string]store.PushSettings     // by account
}

func newPushes() pushes {
	return pushes{subs: map[string]store.PushSubscription{}, settings: map[string]store.PushSettings{}}
}

// forget removes the account's subscriptions and settings (DeleteAccount).
func (p *pushes) forget(account string) {
	for e, s := range p.subs {
		if s.Account == account {
			delete(p.subs, e)
		}
	}
	delete(p.settings, account)
}

// of returns the account's subscriptions, oldest first.
func (p *pushes) of(account string) []store.PushSubscription {
	var subs []store.PushSubscription
	for _, s := range p.subs {
		if s.Account == account {
			subs = append(subs, s)
		}
	}
	slices.SortFunc(subs, func(a, b store.PushSubscription) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.Endpoint, b.Endpoint))
	})
	return subs
}

// InitPushKeys implements store.Push.
func (s *Store) InitPushKeys(ctx context.Context, k store.VAPIDKeys) (store.VAPIDKeys, error) {
	if err := store.CheckVAPIDKeys(k); err != nil {
		return store.VAPIDKeys{}, fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return store.VAPIDKeys{}, err
	}
	defer s.mu.Unlock()
	if s.push.keys == nil {
		s.push.keys = &k
	}
	return *s.push.keys, nil
}

// AddPushSubscription implements store.Push.
func (s *Store) AddPushSubscription(ctx context.Context, p store.PushSubscription, max int) error {
	if err := store.CheckPushSubscription(p, max); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if p.Created.IsZero() {
		p.Created = time.Now()
	}
	p.Created = p.Created.Round(0)
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if _, ok := s.acc.byID[p.Account]; !ok {
		return noAccount("account " + p.Account)
	}
	s.push.subs[p.Endpoint] = p
	others := slices.DeleteFunc(s.push.of(p.Account), func(o store.PushSubscription) bool { return o.Endpoint == p.Endpoint })
	for len(others) > max-1 {
		delete(s.push.subs, others[0].Endpoint)
		others = others[1:]
	}
	return nil
}

// PushSubscriptions implements store.Push.
func (s *Store) PushSubscriptions(ctx context.Context, account string) ([]store.PushSubscription, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	return s.push.of(account), nil
}

// DeletePushSubscription implements store.Push.
func (s *Store) DeletePushSubscription(ctx context.Context, account, endpoint string) (bool, error) {
	if err := s.lock(ctx); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	p, ok := s.push.subs[endpoint]
	if !ok || account != "" && p.Account != account {
		return false, nil
	}
	delete(s.push.subs, endpoint)
	return true, nil
}

// PushSettings implements store.Push.
func (s *Store) PushSettings(ctx context.Context, account string) (store.PushSettings, error) {
	if err := s.lock(ctx); err != nil {
		return store.PushSettings{}, err
	}
	defer s.mu.Unlock()
	if _, ok := s.acc.byID[account]; !ok {
		return store.PushSettings{}, noAccount("account " + account)
	}
	if p, ok := s.push.settings[account]; ok {
		return p, nil
	}
	return store.DefaultPushSettings, nil
}

// SetPushSettings implements store.Push.
func (s *Store) SetPushSettings(ctx context.Context, account string, p store.PushSettings) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if _, ok := s.acc.byID[account]; !ok {
		return noAccount("account " + account)
	}
	s.push.settings[account] = p
	return nil
}
