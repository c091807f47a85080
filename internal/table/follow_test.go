package table

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// TestReplicaKeepsNewerClock: a read of the store made before a move that
// a notice carried since comes late to the replica; the clock it holds is
// older than the replica's and is not taken.
func TestReplicaKeepsNewerClock(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	a, b := nodeHub(t, st), nodeHub(t, st)
	id, tokens := seatAnnAndBob(t, a)
	sub, err := b.Watch(ctx, id, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	first := await(t, sub, func(u Update) bool { return u.View != nil })
	before, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Play(ctx, id, tokens[first.View.ToMove], "draw", 0); err != nil {
		t.Fatal(err)
	}
	await(t, sub, func(u Update) bool { return u.View != nil && u.View.Moves == 1 })
	after, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(before.Clock, after.Clock) {
		t.Fatalf("the move kept the clock %s: nothing to tell apart", after.Clock)
	}
	l, _ := b.live.get(id)
	err = l.call(ctx, func(l *loop) error {
		l.catchUp(0, store.Delta{Clock: before.Clock}, time.Now()) // read before the move
		if !bytes.Equal(l.m.Stored, after.Clock) {
			return fmt.Errorf("the replica's clock is %s, want the move's %s", l.m.Stored, after.Clock)
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
}
