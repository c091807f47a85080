package postgres

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// xid is the database's next transaction id, less one: how many
// transactions that wrote (or notified) the cluster has seen.
func xid(t *testing.T, s *Store) int64 {
	t.Helper()
	var x int64
	if err := s.pool.QueryRow(t.Context(), "SELECT pg_current_xact_id()::text::bigint").Scan(&x); err != nil {
		t.Fatal(err)
	}
	return x
}

// TestPublishGroups: payloads published at once go in a few transactions,
// not one each (each notifying transaction is a flushed commit, taken one
// after another), and each arrives once, those of one sender in order.
func TestPublishGroups(t *testing.T) {
	const senders, each = 40, 15
	s := open(t, pgtest.DB(t))
	defer s.Close()
	notices, err := s.Subscribe(t.Context(), "grouped")
	if err != nil {
		t.Fatal(err)
	}
	before := xid(t, s)
	var wg sync.WaitGroup
	for i := range senders {
		wg.Go(func() {
			for j := range each {
				if err := s.Publish(t.Context(), "grouped", fmt.Sprintf("%d:%d", i, j)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	used := xid(t, s) - before - 1
	t.Logf("%d payloads published in %d transactions", senders*each, used)
	if used >= senders*each/2 {
		t.Errorf("%d payloads took %d transactions: they were not grouped", senders*each, used)
	}
	next := make([]int, senders)
	timeout := time.After(30 * time.Second)
	for range senders * each {
		select {
		case n := <-notices:
			var i, j int
			if _, err := fmt.Sscanf(n.Payload, "%d:%d", &i, &j); err != nil || n.Missed {
				t.Fatalf("notice %+v", n)
			}
			if j != next[i] {
				t.Fatalf("sender %d: payload %d arrived after %d", i, j, next[i]-1)
			}
			next[i]++
		case <-timeout:
			t.Fatalf("payloads missing: %v of %d each arrived", next, each)
		}
	}
}

// TestMovesAndPayloadsGrouped: the moves and payloads of a group share
// one transaction: a node that runs games and passes moves to other
// nodes commits both with one flush, and wakes the listeners once. A
// payload that fails does not fail the moves of its group.
func TestMovesAndPayloadsGrouped(t *testing.T) {
	s := open(t, pgtest.DB(t))
	defer s.Close()
	notices, err := s.Subscribe(t.Context(), "grouped", store.ChangesChannel)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"grouped001", "grouped002"} {
		if err := s.CreateGame(t.Context(), &store.Game{ID: id, Status: store.StatusPlaying, Seats: make([]store.Seat, 2)}); err != nil {
			t.Fatal(err)
		}
		<-notices
	}
	group := func(id, channel, payload string) (moved, published error) {
		m := &move{ctx: t.Context(), id: id, token: "draw", status: store.StatusPlaying, stamp: time.Now(), done: make(chan error, 1)}
		n := &note{ctx: t.Context(), channel: channel, payload: payload, done: make(chan error, 1)}
		s.commit([]*write{{note: n}, {move: m}})
		return <-m.done, <-n.done
	}
	before := xid(t, s)
	if moved, published := group("grouped001", "grouped", "p1"); moved != nil || published != nil {
		t.Fatalf("a move and a payload: %v, %v", moved, published)
	}
	if used := xid(t, s) - before - 1; used != 1 {
		t.Errorf("a group of a move and a payload took %d transactions, want 1", used)
	}
	for _, want := range []string{store.ChangesChannel, "grouped"} { // the moves first
		if n := <-notices; n.Channel != want {
			t.Errorf("notice on %s, want %s", n.Channel, want)
		}
	}
	// A channel PostgreSQL refuses (too long) fails the group's one
	// statement, and the group is tried again write by write.
	if moved, published := group("grouped002", strings.Repeat("x", 100), "p2"); moved != nil || published == nil {
		t.Errorf("a move and a bad payload: %v, %v; want the move made", moved, published)
	}
	if n := <-notices; n.Channel != store.ChangesChannel {
		t.Errorf("notice on %s, want the move's", n.Channel)
	}
}
