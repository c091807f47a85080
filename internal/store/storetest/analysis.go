package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// The checks of store.Analyses, run by Run with the others.
var analysisChecks = []struct {
	name string
	run  func(t *testing.T, s store.Store)
}{
	{"AnalysisRoundTrip", testAnalysisRoundTrip},
	{"AnalysisClaimOrder", testAnalysisClaimOrder},
	{"AnalysisClaimExpires", testAnalysisClaimExpires},
	{"AnalysisClaimRace", testAnalysisClaimRace},
	{"AnalysisFailed", testAnalysisFailed},
	{"AnalysisRejected", testAnalysisRejected},
	{"AnalysisOfFinishingGame", testAnalysisOfFinishingGame},
}

// report is a stand-in for an analysis report: the store keeps its bytes.
var report = []byte(`{"players":["Ann","Zoë 🎲"],"decisions":[{"move":1,"label":"best"}]}`)

func claim(t *testing.T, s store.Store, node string, ttl time.Duration) string {
	t.Helper()
	id, err := s.ClaimAnalysis(ctx(t), node, ttl)
	if err != nil {
		t.Fatalf("ClaimAnalysis(%s): %v", node, err)
	}
	return id
}

func putAnalysis(t *testing.T, s store.Store, id string, a store.Analysis) {
	t.Helper()
	if err := s.PutAnalysis(ctx(t), id, a); err != nil {
		t.Fatalf("PutAnalysis(%s): %v", id, err)
	}
}

// checkAnalysis checks that game id has the analysis want stored, or
// none when want is nil.
func checkAnalysis(t *testing.T, s store.Store, id string, want *store.Analysis) {
	t.Helper()
	got, err := s.Analysis(ctx(t), id)
	if want == nil {
		if !errors.Is(err, store.ErrNoAnalysis) {
			t.Errorf("Analysis(%s) = %q, %v; want ErrNoAnalysis", id, got.Report, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("Analysis(%s): %v", id, err)
	}
	if !bytes.Equal(got.Report, want.Report) || got.Failed != want.Failed {
		t.Errorf("Analysis(%s) = %q failed %q; want %q failed %q", id, got.Report, got.Failed, want.Report, want.Failed)
	}
	if got.Created.IsZero() {
		t.Errorf("Analysis(%s).Created is zero", id)
	}
}

func testAnalysisRoundTrip(t *testing.T, s store.Store) {
	g := newGame("analyse001", store.StatusFinished, 0)
	g.Moves = []string{"draw", "bid 9"}
	create(t, s, g)
	checkAnalysis(t, s, g.ID, nil)
	if id := claim(t, s, "node-a", time.Hour); id != g.ID {
		t.Fatalf("ClaimAnalysis = %q, want %q", id, g.ID)
	}
	if id := claim(t, s, "node-b", time.Hour); id != "" {
		t.Errorf("ClaimAnalysis of a claimed game = %q, want none", id)
	}
	checkAnalysis(t, s, g.ID, nil)
	before := time.Now().Add(-time.Minute)
	a := store.Analysis{Report: bytes.Clone(report)}
	putAnalysis(t, s, g.ID, a)
	a.Report[0] = 'x' // the store keeps its own copy
	got, err := s.Analysis(ctx(t), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Report, report) || got.Failed != "" || got.Created.Before(before) {
		t.Errorf("Analysis = %q failed %q at %v; want %q", got.Report, got.Failed, got.Created, report)
	}
	got.Report[0] = 'y'
	checkAnalysis(t, s, g.ID, &store.Analysis{Report: report})
	// Analysed, the game is never claimed again; a new analysis replaces
	// the old one.
	if id := claim(t, s, "node-b", time.Hour); id != "" {
		t.Errorf("ClaimAnalysis of an analysed game = %q, want none", id)
	}
	again := []byte(`{"decisions":[]}`)
	putAnalysis(t, s, g.ID, store.Analysis{Report: again})
	checkAnalysis(t, s, g.ID, &store.Analysis{Report: again})
	checkGame(t, s, g)
}

func testAnalysisClaimOrder(t *testing.T, s store.Store) {
	// Only finished games are claimed, the one finished first first.
	games := []*store.Game{
		newGame("order00001", store.StatusFinished, 3*time.Minute),
		newGame("order00002", store.StatusOpen, 0),
		newGame("order00003", store.StatusFinished, time.Minute),
		newGame("order00004", store.StatusPlaying, 0),
		newGame("order00005", store.StatusArchived, 0),
		newGame("order00006", store.StatusFinished, 2*time.Minute),
		newGame("order00007", store.StatusExpired, 0),
	}
	for _, g := range games {
		create(t, s, g)
	}
	for i, want := range []string{"order00003", "order00006", "order00001", "", ""} {
		if id := claim(t, s, "node-a", time.Hour); id != want {
			t.Errorf("claim %d = %q, want %q", i, id, want)
		}
	}
	for _, g := range games {
		checkGame(t, s, g)
	}
}

func testAnalysisClaimExpires(t *testing.T, s store.Store) {
	g := newGame("expire0001", store.StatusFinished, 0)
	create(t, s, g)
	// A claim whose worker died lapses: a nanosecond has passed by the
	// next call.
	if id := claim(t, s, "node-a", time.Nanosecond); id != g.ID {
		t.Fatalf("ClaimAnalysis = %q, want %q", id, g.ID)
	}
	if id := claim(t, s, "node-b", time.Hour); id != g.ID {
		t.Errorf("ClaimAnalysis after the claim lapsed = %q, want %q", id, g.ID)
	}
	if id := claim(t, s, "node-a", time.Hour); id != "" {
		t.Errorf("ClaimAnalysis of a game claimed again = %q, want none", id)
	}
	// The first worker's late result is as good as any: it is stored.
	putAnalysis(t, s, g.ID, store.Analysis{Report: report})
	checkAnalysis(t, s, g.ID, &store.Analysis{Report: report})
}

func testAnalysisClaimRace(t *testing.T, s store.Store) {
	// Workers of several nodes claiming at once never share a game.
	const games, workers = 6, 12
	for i := range games {
		create(t, s, newGame(fmt.Sprintf("race%06d", i), store.StatusFinished, time.Duration(i)*time.Second))
	}
	var (
		mu      sync.Mutex
		claimed = map[string]int{}
		wg      sync.WaitGroup
	)
	for w := range workers {
		wg.Go(func() {
			id, err := s.ClaimAnalysis(ctx(t), fmt.Sprintf("node-%d", w%3), time.Hour)
			if err != nil {
				t.Errorf("ClaimAnalysis: %v", err)
				return
			}
			if id != "" {
				mu.Lock()
				claimed[id]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for id, n := range claimed {
		if n > 1 {
			t.Errorf("game %s claimed %d times", id, n)
		}
	}
	// A worker that found every row locked may have come away empty; the
	// rest are claimed by the next calls.
	for id := claim(t, s, "node-x", time.Hour); id != ""; id = claim(t, s, "node-x", time.Hour) {
		if claimed[id]++; claimed[id] > 1 {
			t.Fatalf("game %s claimed twice", id)
		}
	}
	if len(claimed) != games {
		t.Errorf("%d games claimed, want %d", len(claimed), games)
	}
}

func testAnalysisFailed(t *testing.T, s store.Store) {
	g := newGame("failed0001", store.StatusFinished, 0)
	create(t, s, g)
	if id := claim(t, s, "node-a", time.Hour); id != g.ID {
		t.Fatalf("ClaimAnalysis = %q, want %q", id, g.ID)
	}
	failed := store.Analysis{Failed: "move 3: illegal"}
	putAnalysis(t, s, g.ID, failed)
	checkAnalysis(t, s, g.ID, &failed)
	if id := claim(t, s, "node-a", time.Nanosecond); id != "" {
		t.Errorf("ClaimAnalysis of a game that failed = %q, want none", id)
	}
}

func testAnalysisRejected(t *testing.T, s store.Store) {
	finished := newGame("reject0001", store.StatusFinished, 0)
	playing := newGame("reject0002", store.StatusPlaying, 0)
	archived := newGame("reject0003", store.StatusArchived, 0)
	for _, g := range []*store.Game{finished, playing, archived} {
		create(t, s, g)
	}
	cases := []struct {
		name string
		id   string
		a    store.Analysis
		want error // nil: any error
	}{
		{"unknown game", "nosuchgame", store.Analysis{Report: report}, store.ErrNotFound},
		{"playing game", playing.ID, store.Analysis{Report: report}, store.ErrConflict},
		{"archived game", archived.ID, store.Analysis{Report: report}, store.ErrConflict},
		{"empty", finished.ID, store.Analysis{}, nil},
		{"report and failure", finished.ID, store.Analysis{Report: report, Failed: "no"}, nil},
		{"too large", finished.ID, store.Analysis{Report: make([]byte, store.MaxAnalysis+1)}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := s.PutAnalysis(ctx(t), c.id, c.a)
			if err == nil || c.want != nil && !errors.Is(err, c.want) {
				t.Errorf("PutAnalysis = %v, want %v", err, c.want)
			}
		})
	}
	for _, g := range []*store.Game{finished, playing, archived} {
		checkAnalysis(t, s, g.ID, nil)
		checkGame(t, s, g)
	}
	if _, err := s.Analysis(ctx(t), "nosuchgame"); !errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrNoAnalysis) {
		t.Errorf("Analysis of an unknown game = %v, want ErrNotFound but not ErrNoAnalysis", err)
	}
	for _, c := range []struct {
		node string
		ttl  time.Duration
	}{{"", time.Hour}, {"node-a", 0}, {"node-a", -time.Second}} {
		if id, err := s.ClaimAnalysis(ctx(t), c.node, c.ttl); err == nil {
			t.Errorf("ClaimAnalysis(%q, %v) = %q, nil; want an error", c.node, c.ttl, id)
		}
	}
	if id := claim(t, s, "node-a", time.Hour); id != finished.ID {
		t.Errorf("after the rejections: ClaimAnalysis = %q, want %q", id, finished.ID)
	}
}

func testAnalysisOfFinishingGame(t *testing.T, s store.Store) {
	// A game becomes claimable by its last move.
	g := newGame("finish0001", store.StatusPlaying, 0)
	create(t, s, g)
	if id := claim(t, s, "node-a", time.Hour); id != "" {
		t.Errorf("ClaimAnalysis with a game under way = %q, want none", id)
	}
	appendMove(t, s, g.ID, 0, "draw", store.StatusFinished)
	if id := claim(t, s, "node-a", time.Hour); id != g.ID {
		t.Errorf("ClaimAnalysis after the last move = %q, want %q", id, g.ID)
	}
}

// testAnalysisReopen checks that analyses and unanalysed games outlive
// Close: a game stored but never analysed is claimed after a restart.
func testAnalysisReopen(t *testing.T, open func(t *testing.T, path string) store.Store) {
	path := filepath.Join(t.TempDir(), "store")
	s := open(t, path)
	done := newGame("reopenA001", store.StatusFinished, 0)
	todo := newGame("reopenA002", store.StatusFinished, time.Minute)
	create(t, s, done)
	create(t, s, todo)
	putAnalysis(t, s, done.ID, store.Analysis{Report: report})
	if id := claim(t, s, "node-a", time.Hour); id != todo.ID {
		t.Fatalf("ClaimAnalysis = %q, want %q", id, todo.ID)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path)
	defer s.Close()
	checkAnalysis(t, s, done.ID, &store.Analysis{Report: report})
	checkAnalysis(t, s, todo.ID, nil)
	// The claim of the process that stopped lapses like any other.
	if id := claim(t, s, "node-a", time.Hour); id != "" {
		t.Errorf("ClaimAnalysis with a live claim = %q, want none", id)
	}
}
