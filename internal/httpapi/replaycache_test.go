package httpapi

import (
	"strings"
	"testing"
)

// TestReplayCache: the cache keeps at most its limit of bytes, dropping
// the least recently used replay first, and never keeps one larger than
// the whole limit.
func TestReplayCache(t *testing.T) {
	c := newReplayCache(100)
	body := func(n int) []byte { return []byte(strings.Repeat("x", n)) }
	a, b, d := replayKey{id: "a", lang: "en"}, replayKey{id: "b", lang: "en"}, replayKey{id: "a", lang: "de"}
	c.put(a, body(40))
	c.put(b, body(40))
	if _, ok := c.get(a); !ok { // a is now the most recently used
		t.Fatal("a is not kept")
	}
	c.put(d, body(40)) // over the limit: b goes
	if _, ok := c.get(b); ok {
		t.Error("b was kept over the limit")
	}
	for _, k := range []replayKey{a, d} {
		if got, ok := c.get(k); !ok || len(got) != 40 {
			t.Errorf("%v: %d bytes, %v", k, len(got), ok)
		}
	}
	if c.size != 80 || c.order.Len() != 2 || len(c.byKey) != 2 {
		t.Errorf("size %d, %d entries, %d keys", c.size, c.order.Len(), len(c.byKey))
	}
	c.put(b, body(101))
	if _, ok := c.get(b); ok || c.size != 80 {
		t.Errorf("a body over the whole limit was kept (size %d)", c.size)
	}
	c.put(a, body(10)) // replacing an entry counts its new size
	if c.size != 50 {
		t.Errorf("size %d after replacing a, want 50", c.size)
	}
}
