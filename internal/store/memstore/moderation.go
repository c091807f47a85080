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

// moderation is the moderation part of a Store, under its mutex; its
// zero value is empty.
type moderation struct {
	operators map[string]time.Time // by account
	made      bool                 // an operator was ever made
	reports   []store.Report       // in the order filed
	actions   []store.Action       // in the order logged
}

// forget removes the account from the operators, and its id from the
// reports and actions, which keep its name (DeleteAccount).
func (m *moderation) forget(account string) {
	delete(m.operators, account)
	for i := range m.reports {
		r := &m.reports[i]
		if r.Reporter == account {
			r.Reporter = ""
		}
		if r.Target == account {
			r.Target = ""
		}
	}
	for i := range m.actions {
		a := &m.actions[i]
		if a.Target == account {
			a.Target = ""
		}
		if a.Operator == account {
			a.Operator = ""
		}
	}
}

// SetOperator implements store.Moderation.
func (s *Store) SetOperator(ctx context.Context, account string, on bool, at time.Time) (bool, error) {
	if err := s.lock(ctx); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	if _, ok := s.acc.byID[account]; !ok {
		return false, noAccount("account " + account)
	}
	_, was := s.mod.operators[account]
	if on && !was {
		if s.mod.operators == nil {
			s.mod.operators = map[string]time.Time{}
		}
		s.mod.operators[account], s.mod.made = at, true
	}
	if !on {
		delete(s.mod.operators, account)
	}
	return was != on, nil
}

// Operator implements store.Moderation.
func (s *Store) Operator(ctx context.Context, account string) (bool, error) {
	if err := s.lock(ctx); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	_, ok := s.mod.operators[account]
	return ok, nil
}

// Operators implements store.Moderation.
func (s *Store) Operators(ctx context.Context) ([]string, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	out := slices.Collect(maps.Keys(s.mod.operators))
	slices.SortFunc(out, func(a, b string) int {
		if c := s.mod.operators[a].Compare(s.mod.operators[b]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return out, nil
}

// FirstOperator implements store.Moderation.
func (s *Store) FirstOperator(ctx context.Context, account string, at time.Time) (bool, error) {
	if err := s.lock(ctx); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	if _, ok := s.acc.byID[account]; !ok {
		return false, noAccount("account " + account)
	}
	if s.mod.made || len(s.acc.byID) > 1 {
		return false, nil
	}
	s.mod.operators = map[string]time.Time{account: at}
	s.mod.made = true
	return true, nil
}

// AddReport implements store.Moderation.
func (s *Store) AddReport(ctx context.Context, r store.Report, limit store.ReportLimit) error {
	if err := store.CheckReport(r); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	for _, a := range []string{r.Reporter, r.Target} {
		if _, ok := s.acc.byID[a]; !ok {
			return noAccount("account " + a)
		}
	}
	filed := 0
	for _, o := range s.mod.reports {
		if o.Reporter != r.Reporter {
			continue
		}
		if o.At.After(limit.Since) {
			filed++
		}
		if o.Target == r.Target && o.Game == r.Game && o.Closed.IsZero() {
			return fmt.Errorf("memstore: %w", store.ErrReported)
		}
	}
	if filed >= limit.Max {
		return fmt.Errorf("memstore: %w: %d since %v", store.ErrTooManyReports, filed, limit.Since)
	}
	if slices.ContainsFunc(s.mod.reports, func(o store.Report) bool { return o.ID == r.ID }) {
		return fmt.Errorf("memstore: report %q: %w", r.ID, store.ErrConflict)
	}
	r.Lines, r.At = slices.Clone(r.Lines), r.At.UTC().Round(0)
	s.mod.reports = append(s.mod.reports, r)
	return nil
}

// Report implements store.Moderation.
func (s *Store) Report(ctx context.Context, id string) (store.Report, error) {
	if err := s.lock(ctx); err != nil {
		return store.Report{}, err
	}
	defer s.mu.Unlock()
	i := slices.IndexFunc(s.mod.reports, func(r store.Report) bool { return r.ID == id })
	if i < 0 {
		return store.Report{}, fmt.Errorf("memstore: report %q: %w", id, store.ErrNoReport)
	}
	r := s.mod.reports[i]
	r.Lines = slices.Clone(r.Lines)
	return r, nil
}

// Reports implements store.Moderation.
func (s *Store) Reports(ctx context.Context, open bool, limit int) ([]store.Report, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []store.Report
	for _, r := range s.mod.reports {
		if !open || r.Closed.IsZero() {
			r.Lines = slices.Clone(r.Lines)
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b store.Report) int {
		if c := a.At.Compare(b.At); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// AddAction implements store.Moderation.
func (s *Store) AddAction(ctx context.Context, a store.Action) error {
	if err := store.CheckAction(a); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if slices.ContainsFunc(s.mod.actions, func(o store.Action) bool { return o.ID == a.ID }) {
		return fmt.Errorf("memstore: action %q: %w", a.ID, store.ErrConflict)
	}
	a.At = a.At.UTC().Round(0)
	if !a.Until.IsZero() {
		a.Until = a.Until.UTC().Round(0)
	}
	if a.Report != "" {
		i := slices.IndexFunc(s.mod.reports, func(r store.Report) bool { return r.ID == a.Report })
		switch {
		case i < 0:
			return fmt.Errorf("memstore: report %q: %w", a.Report, store.ErrNoReport)
		case !s.mod.reports[i].Closed.IsZero():
			return fmt.Errorf("memstore: report %q: %w", a.Report, store.ErrReportClosed)
		}
		s.mod.reports[i].Closed, s.mod.reports[i].Action = a.At, a.ID
	}
	if _, ok := s.acc.byID[a.Target]; !ok {
		a.Target = ""
	}
	if _, ok := s.acc.byID[a.Operator]; !ok {
		a.Operator = ""
	}
	s.mod.actions = append(s.mod.actions, a)
	return nil
}

// Actions implements store.Moderation.
func (s *Store) Actions(ctx context.Context, key string, limit int) ([]store.Action, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []store.Action
	for _, a := range s.mod.actions {
		if key == "" || a.TargetKey == key {
			out = append(out, a)
		}
	}
	store.SortActions(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// Sanctions implements store.Moderation.
func (s *Store) Sanctions(ctx context.Context, now time.Time) ([]store.Action, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	return store.InForce(slices.Clone(s.mod.actions), now), nil
}

// StrikeChat implements store.Moderation.
func (s *Store) StrikeChat(ctx context.Context, id string, fence store.Fence, seq int) error {
	return s.chatWrite(ctx, id, fence, func(c *store.Chat) error {
		if seq < 0 || seq >= len(c.Lines) {
			return fmt.Errorf("memstore: game %q has no chat line %d: %w", id, seq, store.ErrNotFound)
		}
		c.Lines = slices.Clone(c.Lines)
		c.Lines[seq].Removed = true
		return nil
	})
}
