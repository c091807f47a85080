package analyst

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/gametest"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// played returns a finished game of n seats, stored with status.
func played(t *testing.T, id string, n int, status store.Status) *store.Game {
	t.Helper()
	rec := gametest.Random(t, n, Seed(id)).Record()
	sg := &store.Game{ID: id, Status: status, Seats: make([]store.Seat, n), Cheques: rec.Cheques, Seed: []byte(id), Moves: rec.Moves}
	for i, name := range rec.Players {
		sg.Seats[i] = store.Seat{Name: name, Bot: "random"}
	}
	return sg
}

// run starts the analyst on st with o (a few iterations) and returns a
// channel of the games it stored; it stops with the test.
func run(t *testing.T, st store.Store, o Options) <-chan string {
	t.Helper()
	done := make(chan string, 16)
	o.Iterations = 20
	o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	o.Done = func(id string, err error) { done <- id }
	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan error)
	go func() { stopped <- Run(ctx, st, o) }()
	t.Cleanup(func() {
		cancel()
		if err := <-stopped; !errors.Is(err, context.Canceled) {
			t.Errorf("Run = %v, want context.Canceled", err)
		}
	})
	return done
}

func wait(t *testing.T, done <-chan string) string {
	t.Helper()
	select {
	case id := <-done:
		return id
	case <-time.After(30 * time.Second): // a failure, not a synchronisation
		t.Fatal("no game analysed in 30 s")
		return ""
	}
}

func stored(t *testing.T, st store.Store, id string) store.Analysis {
	t.Helper()
	a, err := st.Analysis(t.Context(), id)
	if err != nil {
		t.Fatalf("Analysis(%s): %v", id, err)
	}
	return a
}

func TestAnalysesGamesStoredBeforeTheStart(t *testing.T) {
	// A server that stopped before analysing its finished games analyses
	// them when it starts again, the one finished first first.
	st := memstore.New()
	first, second := played(t, "game000001", 2, store.StatusFinished), played(t, "game000002", 3, store.StatusFinished)
	second.Updated = time.Now()
	first.Updated = second.Updated.Add(-time.Minute)
	for _, g := range []*store.Game{first, second, played(t, "game000003", 2, store.StatusArchived)} {
		if err := st.CreateGame(t.Context(), g); err != nil {
			t.Fatal(err)
		}
	}
	done := run(t, st, Options{})
	for _, g := range []*store.Game{first, second} {
		if id := wait(t, done); id != g.ID {
			t.Fatalf("analysed %s, want %s", id, g.ID)
		}
		rep, err := Decode(stored(t, st, g.ID))
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Decisions) != len(g.Moves) || len(rep.Players) != len(g.Seats) {
			t.Errorf("%s: report of %d decisions and %d players, want %d and %d",
				g.ID, len(rep.Decisions), len(rep.Players), len(g.Moves), len(g.Seats))
		}
		if len(rep.Summary) != len(g.Seats) {
			t.Errorf("%s: %d players' luck and skill, want %d", g.ID, len(rep.Summary), len(g.Seats))
		}
	}
	if _, err := st.Analysis(t.Context(), "game000003"); !errors.Is(err, store.ErrNoAnalysis) {
		t.Errorf("an uploaded record was analysed: %v", err)
	}
}

func TestAnalysesAGameAsItFinishes(t *testing.T) {
	analysesAsItFinishes(t, memstore.New(), nil)
}

// analysesAsItFinishes checks that the analyst analyses a game of st as
// its last move is made; told, if set, announces each move.
func analysesAsItFinishes(t *testing.T, st store.Store, told func(id string, index int, tok string, status store.Status)) {
	t.Helper()
	g := played(t, "live000001", 2, store.StatusPlaying)
	moves := g.Moves
	g.Moves = nil
	if err := st.CreateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	done := run(t, st, Options{Rescan: time.Hour})
	for i, tok := range moves {
		status := store.StatusPlaying
		if i == len(moves)-1 {
			status = store.StatusFinished
		}
		if err := st.AppendMove(t.Context(), g.ID, store.NoFence, i, tok, status); err != nil {
			t.Fatal(err)
		}
		if told != nil {
			told(g.ID, i, tok, status)
		}
	}
	if id := wait(t, done); id != g.ID {
		t.Fatalf("analysed %s, want %s", id, g.ID)
	}
	if a := stored(t, st, g.ID); a.Failed != "" || len(a.Report) == 0 {
		t.Errorf("stored %q failed %q; want a report", a.Report, a.Failed)
	}
}

func TestGivesWayToTheBots(t *testing.T) {
	// While the bots need every worker, the analysis waits, before it
	// claims and between its decisions.
	st := memstore.New()
	g := played(t, "spare00001", 2, store.StatusFinished)
	if err := st.CreateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	asked := make(chan chan struct{})
	spare := func(ctx context.Context) error {
		free := make(chan struct{})
		select {
		case asked <- free:
		case <-ctx.Done():
			return ctx.Err()
		}
		select {
		case <-free:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	done := run(t, st, Options{Spare: spare})
	// Held before the claim: nothing is claimed meanwhile.
	free := <-asked
	if id, err := st.ClaimAnalysis(t.Context(), "other", time.Nanosecond); err != nil || id != g.ID {
		t.Fatalf("ClaimAnalysis while the analyst waits = %q, %v; want %s", id, err, g.ID)
	}
	close(free)
	// Then asked once after each decision.
	for range len(g.Moves) {
		select {
		case free := <-asked:
			close(free)
		case id := <-done:
			t.Fatalf("analysed %s before its %d decisions were let through", id, len(g.Moves))
		}
	}
	if id := wait(t, done); id != g.ID {
		t.Fatalf("analysed %s, want %s", id, g.ID)
	}
}

func TestStoresWhyARecordCannotBeAnalysed(t *testing.T) {
	// A stored record the engine refuses is stored as a failure, once.
	st := memstore.New()
	g := played(t, "broken0001", 2, store.StatusFinished)
	g.Moves = append(g.Moves[:3:3], "bid 99")
	if err := st.CreateGame(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	done := run(t, st, Options{})
	wait(t, done)
	a := stored(t, st, g.ID)
	if a.Failed == "" || len(a.Report) > 0 {
		t.Fatalf("stored %q failed %q; want a failure", a.Report, a.Failed)
	}
	if _, err := Decode(a); !errors.Is(err, ErrFailed) {
		t.Errorf("Decode = %v, want ErrFailed", err)
	}
	if id, err := st.ClaimAnalysis(t.Context(), "other", time.Hour); id != "" || err != nil {
		t.Errorf("ClaimAnalysis after the failure = %q, %v; want none", id, err)
	}
}

func TestSeedDependsOnTheGameAlone(t *testing.T) {
	if Seed("abc") != Seed("abc") || Seed("abc") == Seed("abd") {
		t.Error("Seed is not a function of the id")
	}
}

func TestCheck(t *testing.T) {
	for _, it := range []int{-1, 1_000_001} {
		if err := (Options{Iterations: it}).Check(); err == nil {
			t.Errorf("Check(%d iterations) = nil", it)
		}
		if err := Run(t.Context(), memstore.New(), Options{Iterations: it}); err == nil || errors.Is(err, context.Canceled) {
			t.Errorf("Run(%d iterations) = %v", it, err)
		}
	}
}
