package presence

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// A Conn is one WebSocket's presence: written when made, rewritten when
// it moves or its page hides, dropped at Close.
type Conn struct {
	s   *Service
	mu  sync.Mutex
	row store.PresenceRow
	end bool
}

// Connect records a new connection of person p (whose Key may be "" for
// a seat's connection that names nobody) at game's seat (game "" for a
// page that is not a table; seat -1 for none), on this node and, through
// the store, on every other.
func (s *Service) Connect(ctx context.Context, p Person, game string, seat int) (*Conn, error) {
	s.mu.Lock()
	s.next++
	id := s.next
	s.mu.Unlock()
	c := &Conn{s: s, row: store.PresenceRow{Node: s.opts.Node, Conn: id, Person: p.Key, Account: p.Account, Name: p.Name,
		Game: game, Seat: seat, Since: s.opts.Now().Round(0).Truncate(time.Millisecond)}}
	if c.row.Person == "" && c.row.Seat < 0 {
		// Nobody and no seat: nothing to tell anyone.
		c.end = true
		return c, nil
	}
	if err := c.put(ctx, c.row); err != nil {
		return nil, err
	}
	return c, nil
}

// put writes r as the connection's row, and tells every node.
func (c *Conn) put(ctx context.Context, r store.PresenceRow) error {
	if err := r.Check(); err != nil {
		return fmt.Errorf("presence: %w", err)
	}
	if err := c.s.st.PutPresence(ctx, r); err != nil {
		return fmt.Errorf("presence: %w", err)
	}
	c.row = r
	c.s.mu.Lock()
	c.s.setRow(r)
	c.s.mu.Unlock()
	c.s.publish(ctx, putNotice(r))
	return nil
}

// SetAway says whether the connection's page is hidden.
func (c *Conn) SetAway(ctx context.Context, away bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.end || c.row.Away == away {
		return nil
	}
	r := c.row
	r.Away = away
	return c.put(ctx, r)
}

// SetSeat says that the connection now holds seat at its game (-1: it
// watches), as when its person joins or the game ends.
func (c *Conn) SetSeat(ctx context.Context, seat int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.end || c.row.Seat == seat || c.row.Game == "" {
		return nil
	}
	r := c.row
	r.Seat = seat
	if r.Person == "" && seat < 0 {
		c.drop(ctx)
		return nil
	}
	return c.put(ctx, r)
}

// Close drops the connection: its person was last seen now.
func (c *Conn) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.end {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.s.baseCtx()), 10*time.Second)
	defer cancel()
	c.drop(ctx)
}

// drop removes the row; c.mu is held.
func (c *Conn) drop(ctx context.Context) {
	c.end = true
	s := c.s
	at := s.opts.Now()
	if err := s.st.DropPresence(ctx, c.row.Node, c.row.Conn, at); err != nil {
		s.log.Warn("cannot drop a presence row; the next beat tries again", "err", err)
		s.mu.Lock()
		s.undropped[c.row.Conn] = at
		s.mu.Unlock()
	}
	s.mu.Lock()
	s.deleteRow(rowKey{c.row.Node, c.row.Conn})
	s.mu.Unlock()
	s.publish(ctx, notice{Op: opDrop, Node: c.row.Node, Conn: c.row.Conn})
}

// baseCtx is the service's context, or a background one before Start.
func (s *Service) baseCtx() context.Context {
	if s.ctx != nil {
		return s.ctx
	}
	return context.Background()
}
