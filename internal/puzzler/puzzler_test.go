package puzzler_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/analysis"
	"github.com/razziagame/razzia/internal/puzzle"
	"github.com/razziagame/razzia/internal/puzzler"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

var small = puzzle.Options{Spec: "mcts:iters=400,rollout=auto", Seeds: 2}

// botGame stores in st a game between bots, finished unless playing, as
// game id; account, when set, holds its first seat.
func botGame(t *testing.T, st store.Store, id string, status store.Status, account string) *razzia.Game {
	t.Helper()
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob"}, Seed: []byte(id)})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := bot.New("easy", 1)
	b, _ := bot.New("medium", 2)
	bots := []bot.Bot{a, b}
	for !g.Over() && (status == store.StatusFinished || g.Len() < 30) {
		if err := g.Play(bots[g.ToMove()].Choose(g.View(g.ToMove()))); err != nil {
			t.Fatal(err)
		}
	}
	sg := &store.Game{ID: id, Status: status, Cheques: razzia.ChequeSets(2), Moves: g.Record().Moves,
		Seats: []store.Seat{{Name: "Ann", Bot: "easy"}, {Name: "Bob", Bot: "medium"}}}
	if account != "" {
		sg.Seats[0] = store.Seat{Name: "Ann", Account: account, TokenHash: make([]byte, 32)}
	}
	if err := st.CreateGame(t.Context(), sg); err != nil {
		t.Fatal(err)
	}
	return g
}

func analysed(t *testing.T, st store.Store, id string, g *razzia.Game) {
	t.Helper()
	rep, err := analysis.Analyze(t.Context(), g.Record(), analysis.Options{Iterations: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(rep)
	if err := st.PutAnalysis(t.Context(), id, store.Analysis{Report: b}); err != nil {
		t.Fatal(err)
	}
}

// TestWorker: woken after an analysis, the worker searches the game and
// stores its puzzles and its seats' luck; a game searched is not searched
// again.
func TestWorker(t *testing.T) {
	st := memstore.New()
	acct := &store.Account{ID: "acct1", Name: "Ann", Key: "ann", Handle: []byte{1}, SeatKey: []byte{2}, Rating: store.Rating{Mu: 25, Sigma: 8}}
	if err := st.CreateAccount(t.Context(), acct); err != nil {
		t.Fatal(err)
	}
	g := botGame(t, st, "workgame01", store.StatusFinished, acct.ID)
	done := make(chan string, 4)
	var found int
	w := puzzler.NewWorker(st, puzzler.Options{Puzzle: small, Node: "test", Rescan: time.Hour,
		Done: func(id string, n int, err error) {
			if err != nil {
				t.Errorf("scanning %s: %v", id, err)
			}
			found = n
			done <- id
		}})
	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan error)
	go func() { stopped <- w.Run(ctx) }()
	// Not analysed yet: nothing to search.
	analysed(t, st, "workgame01", g)
	w.Wake()
	select {
	case id := <-done:
		if id != "workgame01" {
			t.Errorf("searched %s", id)
		}
	case <-time.After(time.Minute):
		t.Fatal("the worker did not search the analysed game")
	}
	cancel()
	if err := <-stopped; !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v", err)
	}
	ps, err := st.GamePuzzles(t.Context(), "workgame01")
	if err != nil || len(ps) != found {
		t.Errorf("%d puzzles stored (%v), %d found", len(ps), err, found)
	}
	for _, p := range ps {
		if p.Rating.Mu != 25 || p.Game != "workgame01" || len(p.Themes) == 0 {
			t.Errorf("puzzle %+v", p)
		}
	}
	luck, err := st.SeatLuck(t.Context(), acct.ID, 0)
	if err != nil || len(luck) != 1 || luck[0].Seat != 0 {
		t.Errorf("Ann's luck: %+v, %v", luck, err)
	}
	if id, _ := st.ClaimPuzzleScan(t.Context(), "other", time.Hour); id != "" {
		t.Errorf("a searched game is claimed again: %s", id)
	}
}

// TestScanRefused: a game still being played is never searched (its
// puzzles would be advice), and nothing is stored; a game whose analysis
// failed is stored as searched, with nothing found.
func TestScanRefused(t *testing.T) {
	st := memstore.New()
	botGame(t, st, "livegame01", store.StatusPlaying, "")
	if _, err := puzzler.Scan(t.Context(), st, "livegame01", small, nil); !errors.Is(err, puzzle.ErrUnfinished) {
		t.Errorf("Scan of a game being played: %v, want ErrUnfinished", err)
	}
	if done, _ := st.PuzzleScanned(t.Context(), "livegame01"); done {
		t.Error("the game being played reads as searched")
	}
	botGame(t, st, "failgame01", store.StatusFinished, "")
	if err := st.PutAnalysis(t.Context(), "failgame01", store.Analysis{Failed: "the record breaks R-3"}); err != nil {
		t.Fatal(err)
	}
	n, err := puzzler.Scan(t.Context(), st, "failgame01", small, nil)
	if err != nil || n != 0 {
		t.Errorf("Scan of a game whose analysis failed: %d, %v", n, err)
	}
	if done, _ := st.PuzzleScanned(t.Context(), "failgame01"); !done {
		t.Error("the game whose analysis failed is not marked searched: it would be claimed forever")
	}
	if _, err := puzzler.Scan(t.Context(), st, "nosuchgame", small, nil); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Scan of no game: %v", err)
	}
}

func TestOptionsCheck(t *testing.T) {
	if err := (puzzler.Options{Puzzle: puzzle.Options{Spec: "random"}}).Check(); !errors.Is(err, puzzle.ErrOptions) {
		t.Errorf("a spec that cannot judge: %v", err)
	}
	if err := (puzzler.Options{}).Check(); err != nil {
		t.Errorf("the defaults: %v", err)
	}
}
