package postgres

import (
	"fmt"
	"sync"
	"testing"
	"time"

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
