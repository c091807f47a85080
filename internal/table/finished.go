package table

import (
	"container/list"
	"sync"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/protocol"
)

// A finished is a game that is over, replayed once for all its new
// watchers: its description, events and views never change.
type finished struct {
	info      protocol.GameInfo
	game      *razzia.Game
	events    []razzia.Event
	takeOvers []protocol.TakeOver
	// spectators is the update every spectator gets, with one change, so
	// that its message is encoded once per language for all of them.
	spectators Update
}

// update returns what a new watcher of seat gets.
func (f *finished) update(seat int) Update {
	if seat < 0 {
		return f.spectators
	}
	view := protocol.NewView(f.game.View(seat))
	return Update{Game: f.info, Seat: seat, View: &view, Events: f.events, TakeOvers: f.takeOvers}
}

// finishedCache keeps the most recently watched finished games, at most n.
type finishedCache struct {
	mu    sync.Mutex
	n     int
	order *list.List               // of ids, most recent first
	byID  map[string]*list.Element // Value: *finishedEntry
}

type finishedEntry struct {
	id string
	f  *finished
}

func newFinishedCache(n int) *finishedCache {
	return &finishedCache{n: n, order: list.New(), byID: map[string]*list.Element{}}
}

func (c *finishedCache) get(id string) (*finished, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byID[id]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*finishedEntry).f, true
}

func (c *finishedCache) put(id string, f *finished) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byID[id]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.byID[id] = c.order.PushFront(&finishedEntry{id, f})
	for c.order.Len() > c.n {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byID, last.Value.(*finishedEntry).id)
	}
}

// len returns how many games the cache holds.
func (c *finishedCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
