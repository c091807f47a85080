package puzzler_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/razziagame/razzia"

	"github.com/razziagame/razzia/internal/analysis"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/puzzler"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// TestMain stops the PostgreSQL test cluster, if a test started one.
func TestMain(m *testing.M) { pgtest.Main(m) }

// TestNodes: two nodes on one PostgreSQL database share the puzzles: one
// claims a game to search, the other finds none; an answer given through
// one is the solver's on the other, which refuses a second; both name the
// same puzzle of the day.
func TestNodes(t *testing.T) {
	url := pgtest.DB(t)
	open := func() *postgres.Store {
		st, err := postgres.Open(t.Context(), url, postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	a, b := open(), open()
	acct := &store.Account{ID: "acct1", Name: "Ann", Key: "ann", Handle: []byte{1}, SeatKey: []byte{2}, Rating: store.Rating{Mu: 25, Sigma: 8}}
	if err := a.CreateAccount(t.Context(), acct); err != nil {
		t.Fatal(err)
	}
	g := botGame(t, a, "nodegame01", store.StatusFinished, acct.ID)
	analysed(t, a, "nodegame01", g)
	first, err := a.ClaimPuzzleScan(t.Context(), "node-a", time.Hour)
	if err != nil || first != "nodegame01" {
		t.Fatalf("node a's claim: %q, %v", first, err)
	}
	if id, err := b.ClaimPuzzleScan(t.Context(), "node-b", time.Hour); err != nil || id != "" {
		t.Fatalf("node b's claim of a game node a holds: %q, %v", id, err)
	}

	// A puzzle at a turn of the game, where draw and call are legal, as a
	// search would store it.
	states, err := analysis.Positions(g.Record())
	if err != nil {
		t.Fatal(err)
	}
	move := 20
	for !slices.Contains(states[move].LegalMoves(nil), razzia.Call()) {
		move++
	}
	eval, _ := json.Marshal(map[string]any{"spec": "mcts:iters=10", "seeds": []uint64{1}, "best": "draw", "margin": 0.2,
		"moves": []map[string]any{{"move": "draw", "share": 0.7}, {"move": "call", "share": 0.4}}, "played": "call"})
	id := fmt.Sprintf("nodegame01-%d", move)
	p := &store.Puzzle{ID: id, Game: "nodegame01", Move: move, Seat: states[move].ToMove(), Themes: []string{"call-or-draw"}, Best: "draw",
		Margin: 0.2, Eval: eval, Rating: store.Rating{Mu: 25, Sigma: 25.0 / 3}}
	if err := a.PutPuzzleScan(t.Context(), "nodegame01", store.PuzzleScan{Puzzles: []*store.Puzzle{p}}); err != nil {
		t.Fatal(err)
	}
	sa, sb := puzzler.NewService(a, nil, nil), puzzler.NewService(b, nil, nil)
	en := i18n.Default()
	v, err := sa.Answer(t.Context(), id, acct.ID, "call")
	if err != nil || v.Correct || v.Rating == nil {
		t.Fatalf("the answer through node a: %+v, %v", v, err)
	}
	seen, err := sb.Puzzle(t.Context(), id, acct.ID, en)
	if err != nil || seen.Verdict == nil || seen.Verdict.Answer != "call" || seen.Attempts != 1 {
		t.Fatalf("the puzzle through node b: %+v, %v", seen.Verdict, err)
	}
	if _, err := sb.Answer(t.Context(), id, acct.ID, "draw"); !errors.Is(err, protocol.PuzzleAnswered) {
		t.Errorf("a second answer through node b: %v, want %s", err, protocol.PuzzleAnswered)
	}
	da, err := sa.Daily(t.Context(), "", en)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sb.Daily(t.Context(), "", en)
	if err != nil || db.ID != da.ID || db.Daily != da.Daily {
		t.Errorf("the day's puzzle: %s on node a, %s (%v) on node b", da.ID, db.ID, err)
	}
}
