package postgres

import (
	"context"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"
)

// Publish's payloads are committed in the groups of the moves (see
// write), in one statement a group. A transaction that notifies takes an
// XID and PostgreSQL flushes its commit, one after another under the lock
// of the notification queue; at one publish a transaction, the moves a
// node passes to the games' owners cost as many flushes as the moves
// themselves. Within a transaction PostgreSQL keeps the notifications in
// order and delivers identical payloads on one channel once: the callers'
// payloads carry their own request ids, so no two are alike.
//
// A note is one Publish waiting in a group.
type note struct {
	ctx              context.Context
	channel, payload string
	done             chan error
	w                write // the note as its group holds it
}

// notePool holds notes done with, their channels ready: a Publish makes one.
var notePool = sync.Pool{New: func() any { return &note{done: make(chan error, 1)} }}

// publishGroup sends every note of a group, in order.
const publishGroup = `SELECT count(pg_notify(c, p)) FROM unnest($1::text[], $2::text[]) AS n(c, p)`

// publishOne sends the one note of a group.
const publishOne = `SELECT count(pg_notify($1, $2))`

// liveNotes returns the notes whose callers still wait, and fails the
// others.
func (s *Store) liveNotes(notes []*note) []*note {
	live := notes[:0] // in place: the group's list is the writer's
	for _, n := range notes {
		if err := n.ctx.Err(); err != nil {
			n.done <- s.fail("publish on "+n.channel, err)
			continue
		}
		live = append(live, n)
	}
	return live
}

// queueNotes adds the statement that sends the notes to the batch.
func queueNotes(b *pgx.Batch, notes []*note) {
	channels, payloads := make([]string, len(notes)), make([]string, len(notes))
	for i, n := range notes {
		channels[i], payloads[i] = n.channel, n.payload
	}
	b.Queue(publishGroup, channels, payloads)
}

// notesSent reads what publishGroup returned for want notes.
func notesSent(row pgx.Row, want int) error {
	var sent int
	if err := row.Scan(&sent); err != nil {
		return err
	}
	if sent != want {
		return fmt.Errorf("postgres: %d of %d notifications sent", sent, want)
	}
	return nil
}
