package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"

	"github.com/razziagame/razzia/internal/store"
)

// maxGroup caps the moves of one transaction.
const maxGroup = 512

// writer commits moves in groups. PostgreSQL serialises the commits of
// transactions that NOTIFY (they take one lock on the notification queue
// until their commit is flushed), so one move per transaction caps a
// database at one flush per move whatever the number of connections. The
// writer sends the moves that arrived while its last group committed as
// one pipelined batch: one implicit transaction, one round trip, one
// flush. Each move's statement checks and reports its own outcome, so a
// conflicting move fails alone; an error of the database itself fails the
// group, whose moves are then tried one by one.
type writer struct {
	s     *Store
	mu    sync.RWMutex // held to send on moves; close takes it to close moves
	moves chan *move
	shut  bool
	done  chan struct{}
}

func (w *writer) start(s *Store) {
	w.s, w.moves, w.done = s, make(chan *move), make(chan struct{})
	go w.run()
}

func (w *writer) submit(ctx context.Context, m *move) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("postgres: append move %d to game %s: %w", m.index, m.id, err)
	}
	m.ctx, m.done = ctx, make(chan error, 1)
	w.mu.RLock()
	if w.shut {
		w.mu.RUnlock()
		return fmt.Errorf("postgres: append move %d to game %s: %w", m.index, m.id, store.ErrClosed)
	}
	select {
	case w.moves <- m:
	case <-ctx.Done():
		w.mu.RUnlock()
		return fmt.Errorf("postgres: append move %d to game %s: %w", m.index, m.id, ctx.Err())
	}
	w.mu.RUnlock()
	return <-m.done
}

func (w *writer) close() {
	w.mu.Lock()
	if !w.shut {
		w.shut = true
		close(w.moves)
	}
	w.mu.Unlock()
	<-w.done
}

func (w *writer) run() {
	defer close(w.done)
	for {
		m, ok := <-w.moves
		if !ok {
			return
		}
		group := []*move{m}
	gather:
		for len(group) < maxGroup {
			select {
			case m, ok := <-w.moves:
				if !ok {
					break gather
				}
				group = append(group, m)
			default:
				break gather
			}
		}
		w.commit(group)
	}
}

// commit sends the group as one batch. The moves are ordered by game (a
// stable sort keeps each game's moves in order), so that the row locks of
// two nodes' groups are always taken in one order and cannot deadlock.
func (w *writer) commit(group []*move) {
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
	ctx := w.s.ctx // no one caller's context may cut the group short
	var b pgx.Batch
	for _, m := range live {
		m.queue(&b)
	}
	errs := make([]error, len(live))
	br := w.s.pool.SendBatch(ctx, &b)
	for i, m := range live {
		errs[i] = m.outcome(w.s, br.QueryRow())
	}
	if err := br.Close(); err != nil {
		if len(live) == 1 {
			live[0].done <- w.s.fail(fmt.Sprintf("append move %d to game %s", live[0].index, live[0].id), err)
			return
		}
		for _, m := range live { // nothing of the group committed: alone, each fails only for itself
			w.commit([]*move{m})
		}
		return
	}
	for i, m := range live {
		m.done <- errs[i]
	}
}
