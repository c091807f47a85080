package store

import (
	"context"
	"sync"
	"time"
)

// A Batcher hands items to one goroutine in groups: the items that arrive
// while it handles a group (or within the tick) form the next. The SQLite
// and PostgreSQL stores commit their writes so, one transaction a group.
type Batcher[T any] struct {
	max    int
	tick   time.Duration
	handle func([]T)

	mu     sync.RWMutex // held to send on in; Close takes it to close in
	closed bool
	in     chan T
	done   chan struct{} // closed when the goroutine has ended
}

// NewBatcher starts the goroutine that calls handle with groups of at
// most max items, waiting up to tick for more after the first (zero: no
// waiting, only what is already there).
func NewBatcher[T any](max int, tick time.Duration, handle func([]T)) *Batcher[T] {
	b := &Batcher[T]{max: max, tick: tick, handle: handle, in: make(chan T), done: make(chan struct{})}
	go b.run()
	return b
}

// Send queues item, or fails with ctx's error or ErrClosed. The handler
// tells the sender the outcome, as item carries.
func (b *Batcher[T]) Send(ctx context.Context, item T) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return ErrClosed
	}
	select {
	case b.in <- item:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops taking items and waits until every item sent is handled.
func (b *Batcher[T]) Close() {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.in)
	}
	b.mu.Unlock()
	<-b.done
}

func (b *Batcher[T]) run() {
	defer close(b.done)
	for {
		item, ok := <-b.in
		if !ok {
			return
		}
		group := []T{item}
		var (
			timer *time.Timer
			tick  <-chan time.Time
		)
		if b.tick > 0 {
			timer = time.NewTimer(b.tick)
			tick = timer.C
		}
		for more := true; more && len(group) < b.max; {
			if tick == nil {
				select {
				case item, ok := <-b.in:
					if more = ok; ok {
						group = append(group, item)
					}
				default:
					more = false
				}
				continue
			}
			select {
			case item, ok := <-b.in:
				if more = ok; ok {
					group = append(group, item)
				}
			case <-tick:
				tick = nil // then take what is already there
			}
		}
		if timer != nil {
			timer.Stop()
		}
		b.handle(group)
	}
}
