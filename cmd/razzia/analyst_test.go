package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/analysis"
	"github.com/razziagame/razzia/internal/gametest"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/sqlite"
)

func TestServeAnalysisFlags(t *testing.T) {
	checkUsage(t, []usageCase{
		{"help names them", []string{"serve", "--help"}, nil, 0, "-analysis-workers"},
		{"negative workers", []string{"serve", "--analysis-workers", "-1"}, nil, 2, "--analysis-workers -1"},
		{"zero iterations", []string{"serve", "--analysis-iterations", "0"}, nil, 2, "--analysis-iterations 0"},
		{"too many iterations", []string{"serve", "--analysis-iterations", "2000000"}, nil, 2, "--analysis-iterations 2000000"},
		{"bad env", []string{"serve"}, map[string]string{"RAZZIA_ANALYSIS_WORKERS": "all"}, 2, "RAZZIA_ANALYSIS_WORKERS=all"},
	})
	t.Setenv("RAZZIA_ANALYSIS_WORKERS", "0")
	cfg, _, done := parseServeFlags(nil, io.Discard, io.Discard)
	if done || cfg.analyst.Workers != 0 || cfg.analyst.Iterations != analysis.DefaultIterations {
		t.Errorf("RAZZIA_ANALYSIS_WORKERS=0: done %t, workers %d, iterations %d", done, cfg.analyst.Workers, cfg.analyst.Iterations)
	}
	cfg, _, _ = parseServeFlags([]string{"--analysis-workers", "2", "--analysis-iterations", "500"}, io.Discard, io.Discard)
	if cfg.analyst.Workers != 2 || cfg.analyst.Iterations != 500 {
		t.Errorf("flags: workers %d, iterations %d", cfg.analyst.Workers, cfg.analyst.Iterations)
	}
}

// TestServeAnalysesGamesLeftUnanalysed starts razzia serve on a database
// holding a finished game that no analysis was stored for, as a server
// stopped before it got to it leaves it: the new server analyses it, and
// the API answers the report.
func TestServeAnalysesGamesLeftUnanalysed(t *testing.T) {
	t.Parallel() // processes or a server of its own, mostly waiting
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	db := filepath.Join(t.TempDir(), "razzia.db")
	st, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	rec := gametest.Random(t, 2, 7).Record()
	const id = "leftoverab"
	if err := st.CreateGame(ctx, &store.Game{ID: id, Status: store.StatusFinished, Seats: []store.Seat{{Name: "Ann"}, {Name: "Bob"}},
		Cheques: rec.Cheques, Seed: []byte("left over"), Moves: rec.Moves}); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	url, _ := serveInProcess(t, ctx, "--db", db, "--analysis-workers", "1", "--analysis-iterations", "20")
	// The analyst works beside the server: ask until it answers (the
	// test's deadline bounds the wait).
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		req, _ := http.NewRequestWithContext(ctx, "GET", url+"api/games/"+id+"/analysis", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var a protocol.AnalysisAnswer
		json.NewDecoder(resp.Body).Decode(&a)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			if a.Status != protocol.AnalysisDone || a.Report == nil || len(a.Report.Decisions) != len(rec.Moves) {
				t.Fatalf("the analysis: %s, %d decisions; want done, %d", a.Status, len(a.Report.Decisions), len(rec.Moves))
			}
			return
		}
		if resp.StatusCode != http.StatusAccepted || a.Status != protocol.AnalysisPending {
			t.Fatalf("GET the analysis: %d %+v", resp.StatusCode, a)
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			t.Fatal("the game was not analysed in time")
		}
	}
}
