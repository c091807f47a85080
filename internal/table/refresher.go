package table

import (
	"sync"
	"time"
)

// refresher collects the replicas whose game has new moves, so that one
// read of the store (MovesSince) brings many up to date.
type refresher struct {
	mu    sync.Mutex
	dirty map[string]time.Time // game id: when the first unread notice came
	wake  chan struct{}
}

func (r *refresher) init() {
	r.dirty = map[string]time.Time{}
	r.wake = make(chan struct{}, 1)
}

// mark notes that game id has moves to read, announced at at.
func (r *refresher) mark(id string, at time.Time) {
	r.mu.Lock()
	if _, ok := r.dirty[id]; !ok {
		r.dirty[id] = at
	}
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// take returns the games marked, and forgets them.
func (r *refresher) take() map[string]time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	d := r.dirty
	r.dirty = map[string]time.Time{}
	return d
}
