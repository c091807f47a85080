package store

import (
	"context"
	"sync"
	"time"
)

// A Batcher hands items to one goroutine in groups: the items that arrive
// while it handles a group (or within the tick) form the next. The SQLite
// and PostgreSQL stores commit their writes so, one transaction a group.
//
// An item sent with SendFirst (a lease renewal) jumps the queue: it joins
// the next group, however many items wait, so that it never waits for
// more than the group being handled.
//
// An item sent to a Batcher without a tick that handles nothing and has
// nothing waiting is handled at once by its sender (Send), as a group of
// its own: no goroutine is woken to handle it, nor the sender to hear its
// outcome.
type Batcher[T any] struct {
	max    int
	tick   time.Duration
	handle func([]T)

	mu     sync.RWMutex // held to send; Close takes it to close in
	closed bool
	in     chan T
	done   chan struct{} // closed when the goroutine has ended

	firstMu sync.Mutex
	first   []T           // SendFirst's items, in order
	wake    chan struct{} // signalled when first is no longer empty

	group []T // the group being handled, as More made it: the handler's

	// handling holds a token while someone takes or handles a group: the
	// goroutine, or a sender (Send) its own item's. Only its holder takes
	// items from in (the goroutine, or the handler's More), so that they
	// keep the order they came in. queued tells the goroutine that an item
	// was queued. now is the senders' groups' list, used again.
	handling chan struct{}
	queued   chan struct{}
	now      []T
}

// NewBatcher starts the goroutine that calls handle with groups of at
// most max items (and the items sent first), waiting up to tick for more
// after the first (zero: no waiting, only what is already there). handle
// must not keep the group: its list is the next group's.
func NewBatcher[T any](max int, tick time.Duration, handle func([]T)) *Batcher[T] {
	// A group's worth of room: a sender queues its item and waits for
	// the outcome without the goroutine having to take it from its hand,
	// one wake-up a write instead of two while a group is handled.
	b := &Batcher[T]{max: max, tick: tick, handle: handle, in: make(chan T, max), done: make(chan struct{}),
		wake: make(chan struct{}, 1), handling: make(chan struct{}, 1), queued: make(chan struct{}, 1)}
	go b.run()
	return b
}

// Send queues item, or fails with ctx's error or ErrClosed. The handler
// tells the sender the outcome, as item carries. When the Batcher has no
// tick, handles nothing and has nothing waiting, Send handles item itself
// and returns once it is handled.
func (b *Batcher[T]) Send(ctx context.Context, item T) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return ErrClosed
	}
	if b.tick == 0 && len(b.in) == 0 {
		select {
		case b.handling <- struct{}{}:
			b.handleNow(item)
			return nil
		default:
		}
	}
	select {
	case b.in <- item:
		kick(b.queued)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// kick signals c, which has room for one signal, unless it holds one.
func kick(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// handleNow handles item, with the items sent first, in the sender's
// goroutine; it holds b.handling's token.
func (b *Batcher[T]) handleNow(item T) {
	defer func() { <-b.handling }()
	group := b.takeFirst(append(b.now[:0], item))
	b.handle(group)
	if b.group != nil { // More grew it
		group, b.group = b.group, nil
	}
	clear(group)
	b.now = group
}

// SendFirst queues item ahead of every item Send queued: it joins the
// next group. It never waits, and fails only with ErrClosed.
func (b *Batcher[T]) SendFirst(item T) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return ErrClosed
	}
	b.firstMu.Lock()
	b.first = append(b.first, item)
	b.firstMu.Unlock()
	kick(b.wake)
	return nil
}

// More appends to group, the group being handled, the items sent since
// it was formed (those sent first too), up to the group's maximum, and
// returns it: a handler calls it before it commits, so that the items
// that came while it ran its group join it rather than wait for the next.
// It never waits, and is for the handler alone, inside handle.
func (b *Batcher[T]) More(group []T) []T {
	group = b.takeFirst(group)
	for len(group) < b.max {
		select {
		case item, ok := <-b.in:
			if !ok {
				b.group = group
				return group // closed: run sees it
			}
			group = append(group, item)
		default:
			b.group = group
			return group
		}
	}
	b.group = group
	return group
}

// Close stops taking items and waits until every item sent is handled.
func (b *Batcher[T]) Close() {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.in)
		kick(b.queued)
	}
	b.mu.Unlock()
	<-b.done
}

// takeFirst appends the items sent first to group.
func (b *Batcher[T]) takeFirst(group []T) []T {
	b.firstMu.Lock()
	defer b.firstMu.Unlock()
	group = append(group, b.first...)
	clear(b.first)
	b.first = b.first[:0]
	return group
}

func (b *Batcher[T]) run() {
	defer close(b.done)
	in := b.in
	var list []T // the groups' list, used again
	// Idle until something is sent: the token free meanwhile, so that
	// the first sender handles its own item rather than find the token
	// held by a goroutine looking for items.
	select {
	case <-b.queued:
	case <-b.wake:
	}
	for {
		b.handling <- struct{}{} // a sender may be handling its own item
		group := b.takeFirst(list[:0])
		group, in = b.take(group, in)
		if len(group) == 0 {
			<-b.handling
			if in == nil {
				return // closed, and every item handled
			}
			select {
			case <-b.queued:
			case <-b.wake:
			}
			continue
		}
		if b.tick > 0 && in != nil && len(group) < b.max {
			group, in = b.gather(group, in)
		}
		group = b.takeFirst(group)
		b.handle(group)
		if b.group != nil { // More grew it
			group, b.group = b.group, nil
		}
		<-b.handling
		clear(group) // no item outlives its group here
		list = group
	}
}

// take appends to group the items waiting in in, up to the group's
// maximum, without waiting; it returns in, or nil once it is closed.
func (b *Batcher[T]) take(group []T, in chan T) ([]T, chan T) {
	for in != nil && len(group) < b.max {
		select {
		case item, ok := <-in:
			group, in = add(group, in, item, ok)
		default:
			return group, in
		}
	}
	return group, in
}

// add appends item to group, received from in with ok; it returns in,
// or nil when ok says it is closed.
func add[T any](group []T, in chan T, item T, ok bool) ([]T, chan T) {
	if !ok {
		return group, nil
	}
	return append(group, item), in
}

// gather appends to group the items that come within the tick, up to the
// group's maximum; it returns in, or nil once it is closed.
func (b *Batcher[T]) gather(group []T, in chan T) ([]T, chan T) {
	timer := time.NewTimer(b.tick)
	defer timer.Stop()
	for in != nil && len(group) < b.max {
		select {
		case item, ok := <-in:
			group, in = add(group, in, item, ok)
		case <-b.wake:
			group = b.takeFirst(group)
		case <-timer.C:
			return b.take(group, in) // then take what is already there
		}
	}
	return group, in
}
