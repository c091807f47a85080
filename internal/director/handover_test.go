package director

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// holdingStore holds a node's lease calls where a test wants the node
// closed: after taking a tournament's lease (acquire) or while renewing
// it (renew), until the call's context ends, which only the Service's
// Close does in time. It records the leases released.
type holdingStore struct {
	*memstore.Store
	acquire, renew bool
	held           chan struct{} // a call is held
	mu             sync.Mutex
	released       []store.Lease
}

func (s *holdingStore) AcquireTournamentLease(ctx context.Context, id, node string, ttl time.Duration) (store.Lease, error) {
	l, err := s.Store.AcquireTournamentLease(ctx, id, node, ttl)
	if err == nil && s.acquire {
		s.held <- struct{}{}
		<-ctx.Done()
	}
	return l, err
}

func (s *holdingStore) RenewTournamentLease(ctx context.Context, l store.Lease, ttl time.Duration) (store.Lease, error) {
	if s.renew {
		s.held <- struct{}{}
		<-ctx.Done()
		return store.Lease{}, ctx.Err()
	}
	return s.Store.RenewTournamentLease(ctx, l, ttl)
}

func (s *holdingStore) ReleaseTournamentLease(ctx context.Context, l store.Lease) error {
	s.mu.Lock()
	s.released = append(s.released, l)
	s.mu.Unlock()
	return s.Store.ReleaseTournamentLease(ctx, l)
}

// TestHandOverWhileBusy: a node closed in the middle of taking a
// tournament, or of renewing its lease, still hands the lease over
// (releases it) rather than leaving it to lapse. Node a starts the
// tournament and closes; node b, on a store that holds its lease calls,
// takes it and is closed at the held call.
func TestHandOverWhileBusy(t *testing.T) {
	for _, tc := range []struct {
		name           string
		acquire, renew bool
	}{
		{"taking", true, false},
		{"renewing", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := memstore.New()
			h := newHarness(t, st)
			a := h.addNode("node-a", time.Minute)
			id := h.start(a, protocol.TournamentSettings{Name: "Busy", Format: "swiss", TableSize: 2, Rounds: 2, BreakSeconds: zero()}, h.people(4))
			h.until(a.dir, id, "round 1", func(v protocol.Tournament) bool { return len(v.RoundsPlayed) == 1 && ready(v) })
			a.dir.Close()
			hold := &holdingStore{Store: st, acquire: tc.acquire, renew: tc.renew, held: make(chan struct{})}
			h.st = hold
			// A renewal comes every ttl/3 on the wall clock and may take
			// ttl/3: 2 s is long enough for Close to come first.
			b := h.addNode("node-b", 6*time.Second)
			select {
			case <-hold.held:
			case <-h.ctx.Done():
				t.Fatal("node b never took the tournament's lease")
			}
			b.dir.Close()
			hold.mu.Lock()
			defer hold.mu.Unlock()
			if len(hold.released) != 1 || hold.released[0].Node != "node-b" || hold.released[0].Game != id {
				t.Fatalf("released on Close: %+v, want node b's lease of %s", hold.released, id)
			}
			if _, err := st.AcquireTournamentLease(h.ctx, id, "node-c", time.Millisecond); err != nil {
				t.Errorf("after Close the lease is still held: %v", err)
			}
		})
	}
}
