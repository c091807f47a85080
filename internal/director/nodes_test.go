package director

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// TestMain stops the PostgreSQL test cluster, if a test started one.
func TestMain(m *testing.M) { pgtest.Main(m) }

// crash stops the Service as a killed process stops: nothing handed
// over, its leases lapse by themselves.
func (s *Service) crash() {
	s.cancel()
	s.wg.Wait()
}

// TestNodeDiesMidRound runs a Swiss tournament on two nodes sharing a
// PostgreSQL database: the node that directs it and runs its games dies
// in the middle of round 1, without a word; the other takes the
// tournament and the games over, the round finishes, and the rest is
// played, every table stored once.
func TestNodeDiesMidRound(t *testing.T) {
	db := pgtest.DB(t)
	open := func() store.Store {
		st, err := postgres.Open(t.Context(), db, postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	ttl := 400 * time.Millisecond
	h := newHarness(t, open())
	a := h.addNode("node-a", ttl)
	h.st = open()
	b := h.addNode("node-b", ttl)
	ps := h.people(6)
	id := h.start(a, protocol.TournamentSettings{Name: "Two nodes", Format: "swiss", TableSize: 3, Rounds: 2, BreakSeconds: zero()}, ps)
	v := h.until(b.dir, id, "round 1", func(v protocol.Tournament) bool { return len(v.RoundsPlayed) == 1 && ready(v) })
	// Node a dies with round 1 under way.
	a.dir.crash()
	a.hub.Close()
	h.playRound(b, v)
	v = h.until(b.dir, id, "round 2 on node b", func(v protocol.Tournament) bool { return len(v.RoundsPlayed) == 2 && ready(v) })
	h.playRound(b, v)
	v = h.until(b.dir, id, "the end", func(v protocol.Tournament) bool { return v.Status == protocol.TournamentFinished })
	rec, err := h.st.Tournament(h.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, tb := range rec.Tables {
		key := fmt.Sprint(tb.Round, tb.Index)
		if seen[key] || seen[tb.Game] || tb.Result == nil {
			t.Errorf("table %s (%s): stored twice, or no result", key, tb.Game)
		}
		seen[key], seen[tb.Game] = true, true
	}
	if len(rec.Tables) != 4 || len(v.Ranking) != 6 || v.Ranking[5].Games != 2 {
		t.Errorf("%d tables, standings %+v", len(rec.Tables), v.Ranking)
	}
	ctx, cancel := context.WithTimeout(h.ctx, time.Second)
	defer cancel()
	if l, err := h.st.(store.Tournaments).AcquireTournamentLease(ctx, id, "node-c", ttl); err == nil {
		t.Errorf("a finished tournament leased: %+v", l)
	}
}

// TestHandOver: a node that stops (Close) hands its tournaments over at
// once: the other node's next scan takes them, and the round under way
// finishes there.
func TestHandOver(t *testing.T) {
	st := memstore.New()
	h := newHarness(t, st)
	// Node a's lease would last the whole test: only a release frees it.
	a := h.addNode("node-a", time.Minute)
	ps := h.people(4)
	id := h.start(a, protocol.TournamentSettings{Name: "Hand over", Format: "swiss", TableSize: 2, Rounds: 2, BreakSeconds: zero()}, ps)
	v := h.until(a.dir, id, "round 1", func(v protocol.Tournament) bool { return len(v.RoundsPlayed) == 1 && ready(v) })
	a.dir.Close()
	// Released at once: anyone takes it now (node-c, for a millisecond;
	// then node b's scan). Node b starts only now, else its scan may take
	// the lease first.
	if _, err := st.AcquireTournamentLease(h.ctx, id, "node-c", time.Millisecond); err != nil {
		t.Fatalf("after Close the lease is still held: %v", err)
	}
	b := h.addNode("node-b", 400*time.Millisecond)
	h.playRound(b, v)
	v = h.until(b.dir, id, "round 2, seated by node b", func(v protocol.Tournament) bool { return len(v.RoundsPlayed) == 2 && ready(v) })
	h.playRound(b, v)
	h.until(b.dir, id, "the end on node b", func(v protocol.Tournament) bool { return v.Status == protocol.TournamentFinished })
}
