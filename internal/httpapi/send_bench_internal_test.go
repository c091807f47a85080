package httpapi

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/table"
)

// A sendTable is a game of four people at a Hub and a spectator: their
// subscriptions and, for each, a connection of protocol version 2 that
// only encodes (no socket).
type sendTable struct {
	id     string
	tokens [4]string
	subs   [5]*table.Subscription // the seats', then the spectator's
	conns  [5]*wsConn
}

func newSendTable(tb testing.TB, hub *table.Hub) *sendTable {
	ctx := context.Background()
	t, err := hub.Create(ctx, table.TableSetup{Seats: []string{"", "", "", ""}})
	if err != nil {
		tb.Fatal(err)
	}
	st := &sendTable{id: t.Info.ID}
	for s := range st.tokens {
		if _, st.tokens[s], err = hub.Join(ctx, st.id, s, table.Person{Name: []string{"Miriam", "Felix", "Elke", "Dennis"}[s]}); err != nil {
			tb.Fatal(err)
		}
	}
	cat, _ := i18n.Lookup("en")
	for i := range st.subs {
		token := ""
		if i < len(st.tokens) {
			token = st.tokens[i]
		}
		if st.subs[i], err = hub.Watch(ctx, st.id, table.Watcher{Token: token}); err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(st.subs[i].Close)
		st.conns[i] = &wsConn{version: protocol.Version2, keys: variantsOf(cat)}
	}
	return st
}

// next takes every watcher's next update; false once the game sends
// no more.
func (st *sendTable) next(updates *[5]table.Update) bool {
	for i, s := range st.subs {
		u, ok := <-s.Updates()
		if !ok {
			return false
		}
		updates[i] = u
	}
	return true
}

// BenchmarkSendUpdate is a connection's work from an update to the bytes
// it writes, for a change seen by four seats and a spectator in one
// language, protocol version 2: the spectators' state encoded and
// patched once, each seat's made from it. The updates of whole games
// are made first (by a Hub on the memory store); an operation is one
// change sent to the five connections. Its allocations are the send
// path's alone.
func BenchmarkSendUpdate(b *testing.B) {
	hub := table.New(memstore.New(), table.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Limits: table.Limits{SeatMoveRate: 1e9, SeatMoveBurst: 1e9}})
	b.Cleanup(func() { hub.Close() })
	ctx := context.Background()
	cat, _ := i18n.Lookup("en")
	// The changes, each a table's and its five updates, in the order
	// they came.
	type change struct {
		t       *sendTable
		updates [5]table.Update
	}
	var changes []change
	var t *sendTable
	for len(changes) < b.N+1 {
		if t == nil {
			t = newSendTable(b, hub)
		}
		var c change
		if !t.next(&c.updates) {
			t = nil
			continue
		}
		c.t = t
		changes = append(changes, c)
		mover := c.updates[0].Game.ToMove
		if mover == nil || len(c.updates[*mover].View.Legal) == 0 {
			t = nil // over: the next game
			continue
		}
		v := c.updates[*mover].View
		if err := hub.Play(ctx, t.id, t.tokens[*mover], v.Legal[len(changes)%len(v.Legal)], v.Moves); err != nil {
			b.Fatal(err)
		}
	}
	bytes := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		c := &changes[i]
		for j, w := range c.t.conns {
			data, err := w.stateBytes(c.updates[j], cat)
			if err != nil {
				b.Fatal(err)
			}
			bytes += len(data)
		}
	}
	b.ReportMetric(float64(bytes)/float64(5*b.N), "bytes/conn")
}
