package table

import "sync"

// registry is the live games of this node, one goroutine G each (a
// *loop), and the winners of those that ended here, which never change.
// Its own mutex guards it: a game's goroutine that ends takes itself out
// without touching the rest of the Hub.
type registry[G comparable] struct {
	mu      sync.Mutex
	closed  bool             // the Hub is closing: no new goroutine starts
	games   map[string]G     // open or playing, owned or replicas
	winners map[string][]int // finished games' winners
}

func newRegistry[G comparable]() *registry[G] {
	return &registry[G]{games: map[string]G{}, winners: map[string][]int{}}
}

// get returns the goroutine of game id, or nil, and whether the Hub is
// closing.
func (r *registry[G]) get(id string) (l G, closed bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.games[id], r.closed
}

// add registers l as game id's and calls run, unless the Hub is closing
// or the game ended here (zero, false) or another goroutine has the game
// (that one, false).
func (r *registry[G]) add(id string, l G, run func()) (G, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var zero G
	if _, ended := r.winners[id]; r.closed || ended {
		return zero, false
	}
	if got, ok := r.games[id]; ok {
		return got, false
	}
	r.games[id] = l
	run()
	return l, true
}

// remove takes l, game id's, out, keeping the winners of a finished game.
func (r *registry[G]) remove(id string, l G, finished bool, winners []int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if got, ok := r.games[id]; ok && got == l {
		delete(r.games, id)
	}
	if finished {
		r.winners[id] = winners
	}
}

// all returns the live games' goroutines.
func (r *registry[G]) all() []G {
	r.mu.Lock()
	defer r.mu.Unlock()
	loops := make([]G, 0, len(r.games))
	for _, l := range r.games {
		loops = append(loops, l)
	}
	return loops
}

// winnersOf returns the winners kept for game id.
func (r *registry[G]) winnersOf(id string) ([]int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	w, ok := r.winners[id]
	return w, ok
}

// keepWinners keeps the winners of finished game id.
func (r *registry[G]) keepWinners(id string, w []int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.winners[id] = w
}

// close starts no goroutine more.
func (r *registry[G]) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
}

// isClosed reports whether close was called.
func (r *registry[G]) isClosed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed
}
