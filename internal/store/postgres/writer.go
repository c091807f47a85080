package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
)

// maxGroup caps the writes of one transaction.
const maxGroup = 512

// Moves and published payloads are committed in groups (a
// store.Batcher), together. PostgreSQL serialises the commits of
// transactions that NOTIFY (they take one lock on the notification queue
// until their commit is flushed), and wakes every node's listening
// session for each, so one write per transaction caps a database at one
// flush per write whatever the number of connections, and costs each
// node's session a wake-up per write. The moves and payloads that arrived
// while the last group committed go as one pipelined batch: one implicit
// transaction, one round trip, one flush, one wake-up of each listener.
// On a cluster a node's group holds the moves of the games it runs and
// the moves it passes to other nodes (Publish) alike. Each move's
// statement checks and reports its own outcome, so a conflicting move
// fails alone; an error of the database itself fails the group, whose
// writes are then tried one by one.
//
// A write is one AppendMove or one Publish waiting in a group.
type write struct {
	move *move
	note *note
}

// movePool holds moves done with, their channels ready: a move makes one.
var movePool = sync.Pool{New: func() any { return &move{done: make(chan error, 1)} }}

// submit sends m, from movePool, to the next group, waits for its outcome and
// then puts m in movePool: the writer no longer reads it once it sent the
// outcome.
func (s *Store) submit(ctx context.Context, m *move) error {
	m.ctx, m.w = ctx, write{move: m}
	err := s.batch.Send(ctx, &m.w)
	if err != nil {
		err = fmt.Errorf("postgres: append move %d to game %s: %w", m.index, m.id, err)
	} else {
		err = <-m.done
	}
	*m = move{done: m.done}
	movePool.Put(m)
	return err
}

// commit sends the group's moves and payloads as one batch.
func (s *Store) commit(group []*write) {
	moves, notes := s.moves[:0], s.notes[:0] // the writer's lists, used again
	defer func() {
		clear(moves)
		clear(notes)
		s.moves, s.notes = moves[:0], notes[:0]
	}()
	for _, w := range group {
		switch {
		case w.move == nil:
			notes = append(notes, w.note)
		case w.move.ctx.Err() != nil:
			w.move.done <- fmt.Errorf("postgres: append move %d to game %s: %w", w.move.index, w.move.id, w.move.ctx.Err())
		default:
			moves = append(moves, w.move)
		}
	}
	s.commitGroup(moves, s.liveNotes(notes))
}

// commitGroup commits the moves and the notes in one batch. The moves are
// ordered by game (a stable sort keeps each game's moves in order), so
// that the row locks of two nodes' groups are always taken in one order
// and cannot deadlock; the notes follow them in one statement.
func (s *Store) commitGroup(moves []*move, notes []*note) {
	switch len(moves) + len(notes) {
	case 0:
		return
	case 1:
		s.commitOne(moves, notes)
		return
	}
	slices.SortStableFunc(moves, func(a, b *move) int { return strings.Compare(a.id, b.id) })
	ctx := s.groupCtx // no one caller's context may cut the group short
	var b pgx.Batch
	for _, m := range moves {
		m.queue(&b)
	}
	if len(notes) > 0 {
		queueNotes(&b, notes)
	}
	errs, again := make([]error, len(moves)), make([]bool, len(moves))
	br := s.pool.SendBatch(ctx, &b)
	for i, m := range moves {
		errs[i], again[i] = m.outcome(s, br.QueryRow())
	}
	var notesErr error
	if len(notes) > 0 {
		notesErr = notesSent(br.QueryRow(), len(notes))
	}
	err := br.Close()
	if err == nil {
		err = notesErr
	}
	if err != nil {
		switch {
		case len(moves) == 1 && len(notes) == 0:
			moves[0].done <- s.fail(fmt.Sprintf("append move %d to game %s", moves[0].index, moves[0].id), err)
		case len(moves) == 0 && len(notes) == 1:
			notes[0].done <- s.fail("publish on "+notes[0].channel, err)
		default: // nothing of the group committed: alone, each fails only for itself
			for _, m := range moves {
				s.commitGroup([]*move{m}, nil)
			}
			for _, n := range notes {
				s.commitGroup(nil, []*note{n})
			}
		}
		return
	}
	for i, m := range moves {
		switch {
		case again[i]:
			errs[i] = m.refused(s, errs[i])
		case errs[i] == nil && m.ask != nil:
			m.ask.Told = true
		}
		m.done <- errs[i]
	}
	for _, n := range notes {
		n.done <- nil
	}
}

// commitOne commits a group of one write, most groups at a modest rate of
// moves, in its statement alone: without a batch, whose pipeline costs
// the node a dozen allocations more a group.
func (s *Store) commitOne(moves []*move, notes []*note) {
	if len(moves) == 1 {
		m := moves[0]
		err, again := m.outcome(s, s.pool.QueryRow(s.groupCtx, appendMove, m.args()...))
		switch {
		case again:
			err = m.refused(s, err)
		case err == nil && m.ask != nil:
			m.ask.Told = true
		}
		m.done <- err
		return
	}
	n := notes[0]
	err := notesSent(s.pool.QueryRow(s.groupCtx, publishOne, n.channel, n.payload), 1)
	if err != nil {
		err = s.fail("publish on "+n.channel, err)
	}
	n.done <- err
}
