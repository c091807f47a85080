package table

import "sync"

// registry is the live games of this node, one goroutine each, and the
// winners of those that ended here, which never change. Its own mutex
// guards it: a game's goroutine that ends takes itself out without
// touching the rest of the Hub.
type registry struct {
	mu      sync.Mutex
	closed  bool             // the Hub is closing: no new goroutine starts
	games   map[string]*loop // open or playing, owned or replicas
	winners map[string][]int // finished games' winners
}

func newRegistry() *registry {
	return &registry{games: map[string]*loop{}, winners: map[string][]int{}}
}

// get returns the goroutine of game id, or nil, and whether the Hub is
// closing.
func (r *registry) get(id string) (l *loop, closed bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.games[id], r.closed
}

// add registers l and calls run, unless the Hub is closing or the game
// ended here (nil, false) or another goroutine has the game (that one,
// false).
func (r *registry) add(l *loop, run func()) (*loop, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ended := r.winners[l.id]; r.closed || ended {
		return nil, false
	}
	if got := r.games[l.id]; got != nil {
		return got, false
	}
	r.games[l.id] = l
	run()
	return l, true
}

// remove takes l out, keeping the winners of a finished game.
func (r *registry) remove(l *loop, finished bool, winners []int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.games[l.id] == l {
		delete(r.games, l.id)
	}
	if finished {
		r.winners[l.id] = winners
	}
}

// all returns the live games' goroutines.
func (r *registry) all() []*loop {
	r.mu.Lock()
	defer r.mu.Unlock()
	loops := make([]*loop, 0, len(r.games))
	for _, l := range r.games {
		loops = append(loops, l)
	}
	return loops
}

// winnersOf returns the winners kept for game id.
func (r *registry) winnersOf(id string) ([]int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	w, ok := r.winners[id]
	return w, ok
}

// keepWinners keeps the winners of finished game id.
func (r *registry) keepWinners(id string, w []int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.winners[id] = w
}

// close starts no goroutine more.
func (r *registry) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
}

// isClosed reports whether close was called.
func (r *registry) isClosed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed
}
