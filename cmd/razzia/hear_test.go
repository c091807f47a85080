package main

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/store/sqlite"
)

// TestNodesHearOneSQLite: two nodes on one SQLite store (as tests run
// them) hear its notices on the goroutines that write (store.Hearer):
// the seats taken and the moves made through the node that does not run
// the game are passed to the one that does, over the store's notices,
// and answered over them, and every seat sees every move.
func TestNodesHearOneSQLite(t *testing.T) {
	t.Parallel()
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "razzia.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	shared := func(*memstore.Store) store.Store { return st }
	runs := servertest.New(t, servertest.Options{Store: shared})
	passes := servertest.New(t, servertest.Options{Store: shared})
	id := runs.Create("", "").ID
	var conns [2]*client.Conn
	for s := range conns {
		_, token := passes.Join(id, fmt.Sprint("P", s))
		conns[s] = passes.Dial(id, token)
	}
	ctx := servertest.Context(t)
	const moves = 12
	for n := range moves + 1 {
		var mover *client.State
		for s, c := range conns {
			for {
				state, err := c.Read(ctx)
				if err != nil {
					t.Fatalf("seat %d after %d moves: %v", s, n, err)
				}
				if state.View != nil && state.View.Moves == n {
					if state.View.MyTurn() {
						mover = state
					}
					break
				}
			}
		}
		if n == moves {
			break
		}
		if mover == nil {
			t.Fatalf("after %d moves no seat is to move", n)
		}
		if err := conns[mover.Seat].Move(ctx, mover.View.Legal[0], n); err != nil {
			t.Fatalf("move %d: %v", n+1, err)
		}
	}
}
