package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
)

// maxGroup caps the moves of one transaction.
const maxGroup = 512

// Moves are committed in groups (a store.Batcher). PostgreSQL serialises
// the commits of transactions that NOTIFY (they take one lock on the
// notification queue until their commit is flushed), so one move per
// transaction caps a database at one flush per move whatever the number
// of connections. The moves that arrived while the last group committed
// go as one pipelined batch: one implicit transaction, one round trip,
// one flush. Each move's statement checks and reports its own outcome, so
// a conflicting move fails alone; an error of the database itself fails
// the group, whose moves are then tried one by one.
//
// submit sends m to the next group and waits for its outcome.
func (s *Store) submit(ctx context.Context, m *move) error {
	m.ctx, m.done = ctx, make(chan error, 1)
	if err := s.batch.Send(ctx, m); err != nil {
		return fmt.Errorf("postgres: append move %d to game %s: %w", m.index, m.id, err)
	}
	return <-m.done
}

// commit sends the group as one batch. The moves are ordered by game (a
// stable sort keeps each game's moves in order), so that the row locks of
// two nodes' groups are always taken in one order and cannot deadlock.
func (s *Store) commit(group []*move) {
	live := group[:0:0]
	for _, m := range group {
		if err := m.ctx.Err(); err != nil {
			m.done <- fmt.Errorf("postgres: append move %d to game %s: %w", m.index, m.id, err)
			continue
		}
		live = append(live, m)
	}
	if len(live) == 0 {
		return
	}
	slices.SortStableFunc(live, func(a, b *move) int { return strings.Compare(a.id, b.id) })
	ctx := s.ctx // no one caller's context may cut the group short
	var b pgx.Batch
	for _, m := range live {
		m.queue(&b)
	}
	errs := make([]error, len(live))
	br := s.pool.SendBatch(ctx, &b)
	for i, m := range live {
		errs[i] = m.outcome(s, br.QueryRow())
	}
	if err := br.Close(); err != nil {
		if len(live) == 1 {
			live[0].done <- s.fail(fmt.Sprintf("append move %d to game %s", live[0].index, live[0].id), err)
			return
		}
		for _, m := range live { // nothing of the group committed: alone, each fails only for itself
			s.commit([]*move{m})
		}
		return
	}
	for i, m := range live {
		if errs[i] == nil && m.ask != nil {
			m.ask.Told = true
		}
		m.done <- errs[i]
	}
}
