package postgres

import (
	"context"
	"fmt"
)

// Publish's payloads are sent in groups too: one statement, one
// transaction a group. A transaction that notifies takes an XID and
// PostgreSQL flushes its commit, one after another under the lock of the
// notification queue; at one publish a transaction, the nodes' forwarded
// writes and their answers (two a move made through another node than
// the game's) cost as many flushes as the moves themselves. Within a
// transaction PostgreSQL keeps the notifications in order and delivers
// identical payloads on one channel once: the callers' payloads carry
// their own request ids, so no two are alike.
//
// A note is one Publish waiting in a group.
type note struct {
	ctx              context.Context
	channel, payload string
	done             chan error
}

// publishGroup sends every note of a group, in order.
const publishGroup = `SELECT count(pg_notify(c, p)) FROM unnest($1::text[], $2::text[]) AS n(c, p)`

// publish sends the group's payloads in one statement. Should the group
// fail, each note is tried alone, so that it fails only for itself.
func (s *Store) publish(group []*note) {
	live := group[:0:0]
	for _, n := range group {
		if err := n.ctx.Err(); err != nil {
			n.done <- s.fail("publish on "+n.channel, err)
			continue
		}
		live = append(live, n)
	}
	if len(live) == 0 {
		return
	}
	channels, payloads := make([]string, len(live)), make([]string, len(live))
	for i, n := range live {
		channels[i], payloads[i] = n.channel, n.payload
	}
	var sent int
	err := s.pool.QueryRow(s.ctx, publishGroup, channels, payloads).Scan(&sent)
	if err == nil && sent != len(live) {
		err = fmt.Errorf("postgres: %d of %d notifications sent", sent, len(live))
	}
	if err != nil && len(live) > 1 {
		for _, n := range live {
			s.publish([]*note{n})
		}
		return
	}
	for _, n := range live {
		if err != nil {
			n.done <- s.fail("publish on "+n.channel, err)
		} else {
			n.done <- nil
		}
	}
}
