package httpapi

import (
	"bytes"
	"container/list"
	"encoding/json"
	"net/http"
	"sync"

	"github.com/razziagame/razzia/internal/protocol"
)

// replay answers GET /api/games/{id}/replay[?lang=]: the game's record
// replayed by the engine, the start's view and one step per move (its
// events and a patch of the view), so the replay viewer needs no rules. A game being played is replayed as far as it has
// come; the answer for a game that is over changes only with its chat (a
// line said after it, or removed by an operator), so it is kept, encoded,
// in a cache bounded by size, under the chat's lines and removals.
func (s *Server) replay(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	cat := catalogue(r)
	info, _, err := s.hub.Game(r.Context(), id, "")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	log, err := s.hub.ChatLog(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	key := replayKey{id: id, lang: cat.Tag(), lines: len(log)}
	for _, l := range log {
		if l.Removed {
			key.removed++
		}
	}
	if body, ok := s.replays.get(key); ok {
		writeBody(w, http.StatusOK, body)
		return
	}
	rec, err := s.hub.Record(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	start, steps, _, err := protocol.Replay(rec, cat)
	if err != nil {
		// The store holds only games that replayed when they were stored.
		s.fail(w, r, err)
		return
	}
	body, err := encode(protocol.ReplayAnswer{Game: info, Start: start, Steps: steps, Chat: log})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if info.Status.Over() {
		s.replays.put(key, body)
	}
	writeBody(w, http.StatusOK, body)
}

// encode encodes v as the API's answers are: HTML characters unescaped.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// A replayKey names a replay in a language with its chat as it is: its
// players' lines and those removed.
type replayKey struct {
	id, lang       string
	lines, removed int
}

// A replayCache keeps encoded replays, least recently used first out,
// within a limit of bytes. Its methods are safe for concurrent use.
type replayCache struct {
	mu    sync.Mutex
	limit int
	size  int
	order *list.List // of *replayEntry, most recently used first
	byKey map[replayKey]*list.Element
}

type replayEntry struct {
	key  replayKey
	body []byte
}

func newReplayCache(limit int) *replayCache {
	return &replayCache{limit: limit, order: list.New(), byKey: map[replayKey]*list.Element{}}
}

func (c *replayCache) get(k replayKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[k]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*replayEntry).body, true
}

// put keeps body under k, dropping the least recently used entries over
// the limit; a body larger than the whole limit is not kept.
func (c *replayCache) put(k replayKey, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(body) > c.limit {
		return
	}
	if e, ok := c.byKey[k]; ok {
		c.size -= len(e.Value.(*replayEntry).body)
		c.order.Remove(e)
	}
	c.byKey[k] = c.order.PushFront(&replayEntry{k, body})
	c.size += len(body)
	for c.size > c.limit {
		last := c.order.Back()
		old := last.Value.(*replayEntry)
		c.order.Remove(last)
		delete(c.byKey, old.key)
		c.size -= len(old.body)
	}
}
