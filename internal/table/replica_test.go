package table

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// readCounter counts the games a node reads whole from the store.
type readCounter struct {
	store.Store
	games atomic.Int64
}

func (r *readCounter) Game(ctx context.Context, id string) (*store.Game, error) {
	r.games.Add(1)
	return r.Store.Game(ctx, id)
}

// TestReplicaFollowsTimedMoves: a node that serves a timed game it does
// not run applies each new move and the clock that came with it, read
// from the store after the moves it holds, and never reads the game whole
// again; its watchers see each move with its clock.
func TestReplicaFollowsTimedMoves(t *testing.T) {
	st := memstore.New()
	owner := nodeHub(t, st)
	counted := &readCounter{Store: st}
	replica := nodeHub(t, counted)
	ctx := testContext(t)
	in, _, err := owner.CreateTable(ctx, TableSetup{Seats: []string{"", ""}, Pace: "rapid"}, "")
	if err != nil {
		t.Fatal(err)
	}
	var tokens [2]string
	for i, name := range []string{"Ann", "Bob"} {
		if _, tokens[i], err = owner.Join(ctx, in.ID, name, i); err != nil {
			t.Fatal(err)
		}
	}
	sub, err := replica.Watch(ctx, in.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	// The players, on the owner, see their legal moves.
	var seats [2]*Subscription
	for i, token := range tokens {
		if seats[i], err = owner.Watch(ctx, in.ID, token); err != nil {
			t.Fatal(err)
		}
		defer seats[i].Close()
	}
	u := await(t, sub, func(u Update) bool { return u.View != nil && u.Clock != nil })
	before := counted.games.Load()
	for moves := 1; moves <= 12; moves++ {
		seat := u.View.ToMove
		mine := await(t, seats[seat], func(v Update) bool { return v.View != nil && v.View.Moves == moves-1 })
		if err := owner.Play(ctx, in.ID, tokens[seat], mine.View.Legal[0], mine.View.Moves); err != nil {
			t.Fatalf("move %d: %v", moves, err)
		}
		u = await(t, sub, func(u Update) bool { return u.View != nil && u.View.Moves == moves })
		if u.View.Phase == "over" {
			break
		}
		if u.Clock == nil || (u.View.ToMove >= 0 && u.Clock.Running != u.View.ToMove) {
			t.Fatalf("move %d: the replica shows the clock of seat %d running, seat %d to move", moves, u.Clock.Running, u.View.ToMove)
		}
	}
	// The notices of the two seats taken may come after the replica
	// started, and each reads the game: no move does.
	if n := counted.games.Load() - before; n > 2 {
		t.Errorf("the replica read the game whole %d times while it followed 12 moves, want at most 2 (the seats' notices)", n)
	}
}
